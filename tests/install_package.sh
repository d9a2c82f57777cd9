#!/bin/sh
# install_package.sh CMAKE BUILD_DIR SOURCE_DIR SANITIZE
# Installs the build into a temporary prefix, then builds examples/transpose.c against it from a
# C-only CMake project through find_package(jagged), with the static (jagged::jagged) and the
# shared (jagged::jagged_shared) library, and runs both.
set -eu
cmake=$1 build=$2 src=$3 sanitize=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ldflags=""
case "$sanitize" in ON | on | 1 | TRUE | true | YES | yes) ldflags="-fsanitize=address,undefined" ;; esac
"$cmake" --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log" 2>&1 ||
  { cat "$tmp/install.log"; exit 1; }
mkdir "$tmp/app"
cat >"$tmp/app/CMakeLists.txt" <<EOT
cmake_minimum_required(VERSION 3.24)
project(jagged_consumer LANGUAGES C)
find_package(jagged REQUIRED)
add_executable(transpose_static "$src/examples/transpose.c")
target_link_libraries(transpose_static PRIVATE jagged::jagged)
add_executable(transpose_shared "$src/examples/transpose.c")
target_link_libraries(transpose_shared PRIVATE jagged::jagged_shared)
EOT
"$cmake" -S "$tmp/app" -B "$tmp/app/build" -DCMAKE_PREFIX_PATH="$tmp/prefix" \
  -DCMAKE_EXE_LINKER_FLAGS="$ldflags" >"$tmp/configure.log" 2>&1 ||
  { cat "$tmp/configure.log"; exit 1; }
"$cmake" --build "$tmp/app/build" >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; exit 1; }
for t in transpose_static transpose_shared; do
  "$tmp/app/build/$t" >"$tmp/out"
  cat "$tmp/out"
  grep -q "^transposed on " "$tmp/out"
done
