#!/usr/bin/env bash
# main.sh: sets up jagged and runs its main job, `jagged adl` (docs/adl.md), on the embedded
# default: the eight ADL benchmark queries over 1,000,000 toy events that `jagged generate` makes
# once (cached in $XDG_CACHE_HOME/jagged or ~/.cache/jagged). When the shared CMS sample is next to
# the checkout (../shared/data/adl), it also runs the queries on it and checks all nine histograms
# against the published references. Outputs (CSV, PNG, SVG) go to build/adl-default and
# build/adl-cms. Arguments go to the first run (e.g. --device cpu, --query 1,6).
# Needs only what building the library and the tool need (JG_PACKAGES_MAIN in deps.sh: no cmocka).
set -euo pipefail
JG_ROOT=$(cd "$(dirname "$0")/.." && pwd)
source "$JG_ROOT/scripts/deps.sh"
jg_ensure_packages "${JG_PACKAGES_MAIN[@]}"
mkdir -p "$JG_ROOT/build"
jg_configure_build "$JG_ROOT/build/release" -DCMAKE_BUILD_TYPE=Release -DJG_BUILD_TESTS=OFF \
  -DJG_BUILD_BENCHMARKS=OFF -DJG_BUILD_EXAMPLES=OFF
jagged=$JG_ROOT/build/release/cli/jagged
jg_say "running build/release/cli/jagged adl --out build/adl-default${*:+ $*} ..."
"$jagged" adl --out "$JG_ROOT/build/adl-default" "$@"
data=$JG_ROOT/../shared/data/adl
if [ -f "$data/Run2012B_SingleMu-1000.parquet" ] && [ -d "$data/reference" ]; then
  jg_say "running jagged adl on the CMS sample, checked against its reference histograms ..."
  "$jagged" adl "$data/Run2012B_SingleMu-1000.parquet" --check "$data/reference" \
    --out "$JG_ROOT/build/adl-cms"
fi
