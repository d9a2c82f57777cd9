#!/bin/sh
# link_by_hand.sh CC SOURCE_DIR LIBJAGGED_A HAVE_CUDA CUDA_LIBDIR SANITIZE [CODEC_LIBS]
# Builds examples/transpose.c the way README's "Building by hand" says a non-CMake user should:
# the C compiler and libjagged.a, plus the static CUDA runtime and the C++ runtime when jagged
# was built with CUDA. Then runs it. The whole archive is linked in (--whole-archive), so the
# line is checked against every object's dependencies, not only those transpose.c pulls in.
# (SANITIZE=ON adds the sanitizer flags the library was built with; CODEC_LIBS, a CMake list of
# library files, are the Parquet codecs it was built with: README's -lsnappy -lzstd ...)
set -eu
cc=$1 src=$2 lib=$3 cuda=$4 cudalib=$5 sanitize=$6
codecs=$(echo "${7:-}" | tr ';' ' ')
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
san=""
case "$sanitize" in ON | on | 1 | TRUE | true | YES | yes) san="-fsanitize=address,undefined" ;; esac
if [ "$cuda" = ON ]; then
  set -x
  "$cc" -std=c11 $san -I"$src/include" "$src/examples/transpose.c" \
    -Wl,--whole-archive "$lib" -Wl,--no-whole-archive $codecs -fopenmp \
    -L"$cudalib" -lcudart_static -lstdc++ -lpthread -ldl -lrt -lm -o "$tmp/transpose"
else
  set -x
  "$cc" -std=c11 $san -I"$src/include" "$src/examples/transpose.c" \
    -Wl,--whole-archive "$lib" -Wl,--no-whole-archive $codecs -fopenmp -lpthread -lm -o "$tmp/transpose"
fi
"$tmp/transpose" >"$tmp/out"
{ set +x; } 2>/dev/null
cat "$tmp/out"
grep -q "^transposed on " "$tmp/out"
