#!/usr/bin/env bash
# bench_adl.sh JAGGED [FILE [THREADS [RUNS]]]: issue 7's benchmark, `jagged adl` against DuckDB
# (bench/adl_duckdb.mjs) on the same Parquet file, query by query, with the same threads.
#   JAGGED   the jagged CLI (e.g. build/cli/jagged)
#   FILE     flat NanoAOD columns; default build/adl-1M-exact.parquet, made (once) from the shared
#            1000-event ADL sample (JG_ADL_SAMPLE, default ../shared/data/adl/) by
#            bench/parquet_duckdb.mjs make-repeat (1000 exact copies)
#   THREADS  jagged adl --threads and DuckDB's SET threads (default 2)
#   RUNS     timed runs per query, after one warm-up run (default 5)
# jagged runs on the CPU (JG_ADL_DEVICE=cuda to change that). Each jagged run is one process,
# `jagged adl FILE --query N --threads THREADS`, and its time is the "time [ms]" of the query's
# row of the summary table: the pass over the file (read, decode, compute), not the process's
# start. DuckDB's time is the wall time of the query's SQL in one node process (one per query,
# run right after jagged's runs of that query, with its own warm-up run), the file read again
# every run. Both sides first make all nine histograms once and jagged checks its own
# against DuckDB's (adl_duckdb.mjs write, then jagged adl --check): the script stops if they
# differ. Prints a markdown table of medians and bests in ms and the ratio DuckDB / jagged.
# Needs node and the npm package @duckdb/node-api, found through NODE_PATH or installed with
#   npm install --prefix build/duckdb @duckdb/node-api
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
jagged=${1:?usage: bench_adl.sh JAGGED [FILE [THREADS [RUNS]]]}
file=${2:-$root/build/adl-1M-exact.parquet}
threads=${3:-2}
runs=${4:-5}
device=${JG_ADL_DEVICE:-cpu}
export NODE_PATH=${NODE_PATH:-$root/build/duckdb/node_modules}
jagged=$(cd "$(dirname "$jagged")" && pwd)/$(basename "$jagged")
cd "$root"
if [ ! -f "$file" ]; then
  node bench/parquet_duckdb.mjs make-repeat \
    "${JG_ADL_SAMPLE:-$root/../shared/data/adl/Run2012B_SingleMu-1000.parquet}" \
    "$file" 1000
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Same histograms on both sides.
node bench/adl_duckdb.mjs write "$file" "$tmp/duckdb" --threads "$threads"
if ! "$jagged" adl "$file" --device "$device" --threads "$threads" --out "$tmp/jagged" \
       --check "$tmp/duckdb" > "$tmp/check.txt" 2>&1; then
  cat "$tmp/check.txt" >&2
  echo "bench_adl: jagged and DuckDB histograms differ on $file" >&2
  exit 1
fi
grep '^check:' "$tmp/check.txt" | sed 's/as .*/as DuckDB'"'"'s/'

# The median and the best of a list of numbers, one a line: "MEDIAN BEST".
stats() {
  sort -g | awk '{ v[NR] = $1 } END {
    m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    printf "%.1f %.1f\n", m, v[1] }'
}

declare -A jmed jbest dmed dbest
for q in 1 2 3 4 5 6 7 8; do
  : > "$tmp/j$q"
  for ((r = 0; r <= runs; r++)); do
    "$jagged" adl "$file" --query "$q" --device "$device" --threads "$threads" \
      --out "$tmp/jagged" > "$tmp/out.txt" 2> /dev/null
    # The query's row: "Q  NAME  ENTRIES  MS  RATE [k|M|G]  DEVICE" (query 6's second
    # histogram's row has no id and "(same)" for its time).
    ms=$(awk -v q="$q" '$1 == q && $3 ~ /^[0-9]+$/ { print $4; exit }' "$tmp/out.txt")
    if [ -z "$ms" ]; then
      cat "$tmp/out.txt" >&2
      echo "bench_adl: no time for query $q in jagged's summary" >&2
      exit 1
    fi
    if ((r > 0)); then echo "$ms" >> "$tmp/j$q"; fi  # run 0 is the warm-up
  done
  read -r jmed[$q] jbest[$q] < <(stats < "$tmp/j$q")
  # DuckDB right after jagged on the same query, so that both see about the same load.
  read -r _ _ mf bf _ < <(node bench/adl_duckdb.mjs run "$file" --query "$q" \
    --threads "$threads" --runs "$runs")
  if [[ "${mf:-}" != median_ms=* ]]; then
    echo "bench_adl: no time for query $q from bench/adl_duckdb.mjs run" >&2
    exit 1
  fi
  dmed[$q]=${mf#median_ms=}
  dbest[$q]=${bf#best_ms=}
done

events=$(sed -n 's/^jagged adl: .*(\([0-9]*\) events.*/\1/p' "$tmp/out.txt")
echo
echo "$(basename "$file"): $events events, threads=$threads, jagged on $device," \
  "median and best of $runs runs"
echo
echo "| query | jagged median ms | jagged best ms | DuckDB median ms | DuckDB best ms" \
  "| DuckDB / jagged (median) |"
echo "|---|---:|---:|---:|---:|---:|"
for q in 1 2 3 4 5 6 7 8; do
  ratio=$(awk -v d="${dmed[$q]}" -v j="${jmed[$q]}" 'BEGIN { printf "%.2f", (j > 0 ? d / j : 0) }')
  echo "| $q | ${jmed[$q]} | ${jbest[$q]} | ${dmed[$q]} | ${dbest[$q]} | $ratio |"
done
