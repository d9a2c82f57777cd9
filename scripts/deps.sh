#!/usr/bin/env bash
# deps.sh: sourced by the other scripts.
#   JG_PACKAGES_MAIN / JG_PACKAGES_TEST: the Debian packages main.sh and test.sh need;
#   jg_ensure_packages PKG...: installs the missing ones when run as root, and otherwise prints
#     the one apt-get line to run and fails;
#   jg_configure_build DIR [cmake options...]: configures and builds DIR, logging to DIR.*.log.
# Building the library needs CMake, make and a C compiler; g++ only when nvcc is present (nvcc
# uses it as the host compiler of the CUDA sources); the tests also need cmocka.
# Parquet's codecs: snappy, zlib, zstd, lz4, brotli.
JG_PACKAGES_MAIN=(cmake make gcc libc6-dev libxxhash-dev python3 libsnappy-dev zlib1g-dev libzstd-dev
  liblz4-dev libbrotli-dev)
# jagged adl's plots: PLplot and its cairo driver (the pngcairo device for PNG; SVG uses PLplot's
# own svg driver). Optional to the build, which without them skips the plots and says so.
JG_PACKAGES_MAIN+=(libplplot-dev plplot-driver-cairo)
if command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ] || [ -n "${CUDACXX:-}" ]; then
  JG_PACKAGES_MAIN+=(g++)
fi
# the tests: cmocka; clang and its runtime libraries (libFuzzer) for the fuzz target
JG_PACKAGES_TEST=("${JG_PACKAGES_MAIN[@]}" libcmocka-dev clang libclang-rt-dev)

# A path relative to the repository root, for messages.
jg_rel() {
  case "$1" in
    "$JG_ROOT"/*) echo "${1#"$JG_ROOT"/}" ;;
    *) echo "$1" ;;
  esac
}

# Prints a progress line on stderr.
jg_say() {
  echo "jagged: $*" >&2
}

jg_ensure_packages() {
  local missing=()
  local p
  for p in "$@"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$p")
    fi
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -eq 0 ]; then
    jg_say "installing Debian packages: ${missing[*]} ..."
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "jagged: missing Debian packages; run as root:" >&2
    echo "  apt-get update && apt-get install -y ${missing[*]}" >&2
    return 1
  fi
}

# jg_configure_build DIR [cmake options...]: configure and build into DIR. The output goes to
# DIR.configure.log and DIR.build.log; on failure the end of the log is shown.
jg_configure_build() {
  local dir=$1
  shift
  local rel
  rel=$(jg_rel "$dir")
  jg_say "configuring $rel (log: $rel.configure.log) ..."
  cmake -S "$JG_ROOT" -B "$dir" "$@" >"$dir.configure.log" 2>&1 ||
    { cat "$dir.configure.log" >&2; return 1; }
  jg_say "building $rel (log: $rel.build.log) ..."
  if ! cmake --build "$dir" -j "$(nproc)" >"$dir.build.log" 2>&1; then
    tail -n 100 "$dir.build.log" >&2
    jg_say "building $rel failed; the whole log is $rel.build.log"
    return 1
  fi
}
