#!/usr/bin/env bash
# test.sh: sets up and runs every test of jagged on this machine.
#   1. installs the Debian packages it needs, cmocka included (as root; otherwise prints the
#      apt-get line);
#   2. builds and tests four configurations: warnings as errors with CUDA when nvcc is present
#      (GPU tests skip without a GPU and are counted as skipped), AddressSanitizer + UBSan, a
#      build without CUDA, and the Parquet reader's and writer's fuzz targets (clang, libFuzzer,
#      one minute each).
# Usage: scripts/test.sh [ctest options...]
set -euo pipefail
JG_ROOT=$(cd "$(dirname "$0")/.." && pwd)
source "$JG_ROOT/scripts/deps.sh"
jg_ensure_packages "${JG_PACKAGES_TEST[@]}"

builds=(
  "build/ci:-DJG_WERROR=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo"
  "build/asan:-DJG_WERROR=ON -DJG_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug"
  "build/nocuda:-DJG_WERROR=ON -DJG_WITH_CUDA=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo"
  # the Parquet reader's and writer's libFuzzer targets, JG_FUZZ_SECONDS (60) each under ASan + UBSan
  "build/fuzz:-DCMAKE_C_COMPILER=clang -DJG_WITH_CUDA=OFF -DJG_BUILD_FUZZ=ON -DJG_BUILD_TESTS=OFF -DJG_BUILD_CLI=OFF -DJG_BUILD_BENCHMARKS=OFF -DJG_BUILD_EXAMPLES=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo"
)
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:protect_shadow_gap=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
mkdir -p "$JG_ROOT/build"
# DuckDB's node module, the second reader that checks files jagged writes (test parquet_duckdb,
# skipped without it), and bench/bench_parquet.sh's peer; only where node and npm are present.
if command -v npm >/dev/null 2>&1 && [ ! -d "$JG_ROOT/build/duckdb/node_modules/@duckdb/node-api" ]; then
  jg_say "installing DuckDB's node module into build/duckdb (npm) ..."
  npm install --silent --no-audit --no-fund --prefix "$JG_ROOT/build/duckdb" @duckdb/node-api \
    >"$JG_ROOT/build/duckdb.npm.log" 2>&1 ||
    jg_say "npm install failed (build/duckdb.npm.log): parquet_duckdb will be skipped"
fi
status=0
for entry in "${builds[@]}"; do
  dir=$JG_ROOT/${entry%%:*}
  read -r -a opts <<<"${entry#*:}"
  echo "== $(basename "$dir"): ${opts[*]}"
  jg_configure_build "$dir" "${opts[@]}" || { status=1; continue; }
  jg_say "testing $(jg_rel "$dir") (ctest) ..."
  ctest --test-dir "$dir" --output-on-failure "$@" || status=1
done
exit $status
