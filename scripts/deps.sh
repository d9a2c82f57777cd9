#!/usr/bin/env bash
# deps.sh: sourced by the other scripts. jg_ensure_packages PKG... installs the Debian packages
# that are missing when run as root, and otherwise prints the one apt-get line to run and fails.
JG_PACKAGES=(cmake make gcc g++ libc6-dev libcmocka-dev pkg-config)

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
    echo "jagged: installing Debian packages: ${missing[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "jagged: missing Debian packages; run as root:" >&2
    echo "  apt-get update && apt-get install -y ${missing[*]}" >&2
    return 1
  fi
}

# jg_configure_build DIR [cmake options...]: configure (once) and build into DIR.
jg_configure_build() {
  local dir=$1
  shift
  cmake -S "$JG_ROOT" -B "$dir" "$@" >"$dir.configure.log" 2>&1 ||
    { cat "$dir.configure.log" >&2; return 1; }
  if ! cmake --build "$dir" -j "$(nproc)" >"$dir.build.log" 2>&1; then
    tail -n 100 "$dir.build.log" >&2
    return 1
  fi
}
