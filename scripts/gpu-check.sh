#!/usr/bin/env bash
# gpu-check.sh: what the project runs on the GPU machine (H200, see BENCHMARKS.md): build with
# CUDA, run every test (GPU tests included), run the GPU tests under compute-sanitizer memcheck,
# the tests of the kernels that share memory within a block under racecheck and synccheck, then
# the benchmarks. Every step is under a time limit. Logs go to $OUT (or ./out) when set.
# The `adl` step runs `jagged adl` on the GPU: both shared sample files checked against the
# references, then issue 7's benchmark files (the sample repeated 1000 and 10000 times, checked
# against the references scaled by as much) end to end on cuda and cpu, bench_adl with the data
# already on the GPU, and a 50M-event toy file for the memory bound (peak RSS).
# Usage: scripts/gpu-check.sh [tests|sanitize|racecheck|bench|adl|all]...   (default: all)
set -uo pipefail
JG_ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$JG_ROOT/out}
mkdir -p "$OUT"
# The GPU machine lacks cmocka: unpack the .deb files carried in .deps/ (see README).
if [ -d "$JG_ROOT/.deps" ] && ! [ -f /usr/include/cmocka.h ]; then
  for f in "$JG_ROOT"/.deps/*.deb; do dpkg -x "$f" /tmp/deps; done
  export CMAKE_PREFIX_PATH=/tmp/deps/usr
  export LD_LIBRARY_PATH=/tmp/deps/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
fi
export PATH=/usr/local/cuda/bin:$PATH
B=$JG_ROOT/build/gpu
steps=("$@")
[ ${#steps[@]} -eq 0 ] && steps=(all)
has() { local s; for s in "${steps[@]}"; do [ "$s" = "$1" ] || [ "$s" = all ] && return 0; done; return 1; }

nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem --format=csv \
  | tee "$OUT/gpu.txt"
say() { echo "jagged: $*" >&2; }
say "configuring build/gpu (log: $OUT/configure.log) ..."
# The shared sample data (../shared/data) may sit elsewhere there: JG_TEST_DATA_DIR names it.
data_opt=()
[ -n "${JG_TEST_DATA_DIR:-}" ] && data_opt=("-DJG_TEST_DATA_DIR=$JG_TEST_DATA_DIR")
cmake -S "$JG_ROOT" -B "$B" -DJG_WITH_CUDA=ON -DJG_WERROR=OFF -DCMAKE_BUILD_TYPE=Release "${data_opt[@]}" \
  >"$OUT/configure.log" 2>&1 || { tail -50 "$OUT/configure.log"; exit 1; }
say "building build/gpu (log: $OUT/build.log) ..."
cmake --build "$B" -j "$(nproc)" >"$OUT/build.log" 2>&1 || { tail -80 "$OUT/build.log"; exit 1; }
echo "build warnings (gcc/nvcc on this machine): $(grep -c "warning:" "$OUT/build.log")"
rc=0
if has tests; then
  say "testing build/gpu, GPU tests included (log: $OUT/ctest.log) ..."
  ctest --test-dir "$B" --output-on-failure -j 4 --timeout 180 2>&1 | tee "$OUT/ctest.log" | tail -40
  [ "${PIPESTATUS[0]}" -eq 0 ] || rc=1
fi
if has sanitize; then
  say "running the GPU tests under compute-sanitizer memcheck (log: $OUT/sanitizer.log) ..."
  : >"$OUT/sanitizer.log"
  for t in "$B"/tests/test_*_gpu; do
    [ -x "$t" ] || continue
    echo "== compute-sanitizer memcheck $(basename "$t")" | tee -a "$OUT/sanitizer.log"
    JGT_COPY_QUICK=1 timeout 300 compute-sanitizer --tool memcheck --leak-check full --report-api-errors no --error-exitcode 9 "$t" \
      >>"$OUT/sanitizer.log" 2>&1
    r=$?; echo "exit $r" | tee -a "$OUT/sanitizer.log"; [ $r -eq 0 ] || rc=1
  done
fi
if has racecheck; then
  # Shared-memory hazards (racecheck) and barrier misuse (synccheck) in the tests of the kernels
  # that tile through shared memory; racecheck is slow, hence the limit per run (a run past it
  # exits 124 and counts as a failure: rerun that test alone).
  say "running block-level GPU tests under racecheck and synccheck (log: $OUT/racecheck.log) ..."
  : >"$OUT/racecheck.log"
  for t in test_mask_fast_gpu test_ufunc_fast_gpu test_combinatorics_fast_gpu \
    test_reduce_kernels_gpu test_histogram_gpu; do
    [ -x "$B/tests/$t" ] || continue
    for tool in racecheck synccheck; do
      echo "== compute-sanitizer $tool $t" | tee -a "$OUT/racecheck.log"
      JGT_COPY_QUICK=1 timeout 300 compute-sanitizer --tool "$tool" --error-exitcode 9 \
        "$B/tests/$t" >>"$OUT/racecheck.log" 2>&1
      r=$?; echo "exit $r" | tee -a "$OUT/racecheck.log"; [ $r -eq 0 ] || rc=1
    done
  done
fi
if has tests; then
  # The kernel catalog on this GPU: signatures, parity of every implementation against the
  # reference, and every CUDA source compiled with NVRTC for this GPU (cache in $OUT/kcache).
  echo "== jagged kernels --check --parity --compile-all" | tee "$OUT/kernels.log"
  JG_CACHE_DIR="$OUT/kcache" timeout 900 "$B/cli/jagged" kernels --check --parity --compile-all \
    >>"$OUT/kernels.log" 2>&1 || rc=1
  tail -n 30 "$OUT/kernels.log"
  rm -rf "$OUT/kcache"
fi
if has tests && [ -x "$B/examples/example_muons" ]; then
  echo "== examples: muons on the GPU vs the host" | tee "$OUT/examples.log"
  timeout 300 "$B/examples/example_muons" >"$OUT/muons_gpu.txt" 2>&1 || rc=1
  timeout 300 "$B/examples/example_muons_host" >"$OUT/muons_host.txt" 2>&1 || rc=1
  head -n 12 "$OUT/muons_gpu.txt" | tee -a "$OUT/examples.log"
  # The two differ only in the lines that name where they walked (and the GPU example's check
  # that a host array is refused).
  same() { grep -v -e '^walked on' -e '^as expected' "$1"; }
  if diff <(same "$OUT/muons_host.txt") <(same "$OUT/muons_gpu.txt") >/dev/null; then
    echo "muons: GPU output equals host output" | tee -a "$OUT/examples.log"
  else
    echo "muons: GPU output DIFFERS from host output" | tee -a "$OUT/examples.log"; rc=1
  fi
fi
if has bench; then
  say "running the benchmarks (log: $OUT/bench.log) ..."
  : >"$OUT/bench.log"
  for b in "$B"/bench/bench_*; do
    [ -x "$b" ] || continue
    [ "$(basename "$b")" = bench_adl ] && continue # the adl step runs it on its files
    echo "== $(basename "$b")" | tee -a "$OUT/bench.log"
    timeout 600 "$b" 2>&1 | tee -a "$OUT/bench.log"
  done
  # bench_ops again at 10x the lists, where per-call fixed costs matter less.
  if [ -x "$B/bench/bench_ops" ]; then
    echo "== bench_ops 50000000" | tee -a "$OUT/bench.log"
    timeout 600 "$B/bench/bench_ops" 50000000 2>&1 | tee -a "$OUT/bench.log"
  fi
fi
if has adl; then
  say "jagged adl on the GPU (log: $OUT/adl.log) ..."
  data=${JG_TEST_DATA_DIR:-$JG_ROOT/../shared/data}/adl
  J=$B/cli/jagged
  W=${JG_ADL_WORK:-/tmp/jagged-adl}
  mkdir -p "$W"
  {
    for f in Run2012B_SingleMu-1000 Run2012B_SingleMu-restructured-1000; do
      echo "== jagged adl $f.parquet --device cuda --check"
      timeout 300 "$J" adl "$data/$f.parquet" --device cuda --check "$data/reference" \
        --out "$W/out-$f" || rc=1
    done
    for k in 1000 10000; do
      file=$W/adl-x$k.parquet
      [ -f "$file" ] || timeout 300 "$B/bench/adl_repeat" "$data/Run2012B_SingleMu-1000.parquet" \
        "$file" $k || rc=1
      mkdir -p "$W/ref-x$k"
      for r in "$data"/reference/*.csv; do
        awk -F, -v k=$k 'NR == 1 { print; next } { printf "%s,%.0f\n", $1, $2 * k }' "$r" \
          >"$W/ref-x$k/$(basename "$r")"
      done
      for dev in cuda cpu; do
        echo "== jagged adl (sample x $k) --device $dev --check (reference x $k)"
        /usr/bin/time -f "peak RSS %M kB, %e s" timeout 300 "$J" adl "$file" --device $dev \
          --check "$W/ref-x$k" --out "$W/out-x$k-$dev" || rc=1
      done
      echo "== bench_adl (sample x $k), data already on the GPU"
      timeout 300 "$B/bench/bench_adl" "$file" cuda || rc=1
    done
    echo "== jagged generate 50M; jagged adl on it --device cuda (memory bound)"
    /usr/bin/time -f "peak RSS %M kB, %e s" timeout 300 "$J" generate 50M --out "$W/toy-50M.parquet" \
      --threads "$(nproc)" || rc=1
    /usr/bin/time -f "peak RSS %M kB, %e s" timeout 400 "$J" adl "$W/toy-50M.parquet" --device cuda \
      --out "$W/out-50M" || rc=1
    exit $rc
  } 2>&1 | tee "$OUT/adl.log"
  [ "${PIPESTATUS[0]}" -eq 0 ] || rc=1
fi
exit $rc
