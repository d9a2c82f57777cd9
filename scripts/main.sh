#!/usr/bin/env bash
# main.sh: sets up jagged and runs its main job on the embedded default.
# Until `jagged adl` exists, the main job is `jagged info`: the build, the CUDA devices seen and
# the memory resources usable on this machine. Needs only what building the library needs
# (JG_PACKAGES_MAIN in deps.sh: no cmocka).
set -euo pipefail
JG_ROOT=$(cd "$(dirname "$0")/.." && pwd)
source "$JG_ROOT/scripts/deps.sh"
jg_ensure_packages "${JG_PACKAGES_MAIN[@]}"
mkdir -p "$JG_ROOT/build"
jg_configure_build "$JG_ROOT/build/release" -DCMAKE_BUILD_TYPE=Release -DJG_BUILD_TESTS=OFF \
  -DJG_BUILD_BENCHMARKS=OFF
jg_say "running build/release/cli/jagged info${*:+ $*} ..."
"$JG_ROOT/build/release/cli/jagged" info "$@"
