#!/bin/sh
# test_cli.sh JAGGED [DATA_DIR]: golden checks of the jagged tool: arguments, stdout, stderr, exit status.
# Runs with or without a GPU (the "no usable CUDA device" lines are checked only without one).
set -u
J=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

# run ARGS...: runs the tool; sets rc, and leaves stdout/stderr in $tmp/out, $tmp/err.
run() {
  "$J" "$@" >"$tmp/out" 2>"$tmp/err"
  rc=$?
}
fail() {
  echo "FAIL: $*" >&2
  echo "  stdout:" >&2; sed 's/^/    /' "$tmp/out" >&2
  echo "  stderr:" >&2; sed 's/^/    /' "$tmp/err" >&2
  failures=$((failures + 1))
}
expect_rc() { [ "$rc" -eq "$1" ] || fail "$2: exit status $rc, want $1"; }
expect_out() { grep -q -F -- "$1" "$tmp/out" || fail "$2: stdout lacks '$1'"; }
expect_err() { grep -q -F -- "$1" "$tmp/err" || fail "$2: stderr lacks '$1'"; }
expect_empty() { [ ! -s "$tmp/$1" ] || fail "$2: $1 is not empty"; }

run version
expect_rc 0 "version"
expect_out "jagged " "version"
expect_empty err "version"
version_line=$(cat "$tmp/out")

run version extra
expect_rc 2 "version with an argument"
expect_err "unexpected argument 'extra'" "version with an argument"
expect_empty out "version with an argument"

run version --help
expect_rc 0 "version --help"
expect_out "usage: jagged version" "version --help"

run info --help
expect_rc 0 "info --help"
expect_out "usage: jagged info" "info --help"
expect_empty err "info --help"

run info -h
expect_rc 0 "info -h"
expect_out "usage: jagged info" "info -h"

run info extra
expect_rc 2 "info with an argument"
expect_err "unexpected argument 'extra'" "info with an argument"
expect_empty out "info with an argument"

run info
expect_rc 0 "info"
expect_out "$version_line" "info"
expect_out "memory resources:" "info"
expect_out "host           available" "info"
expect_out "host pool      available" "info"
expect_empty err "info"
if grep -q '^CUDA devices: 0 (' "$tmp/out"; then
  # No usable GPU: the reason is printed once, and each CUDA resource just says so.
  reason=$(sed -n 's/^CUDA devices: 0 (\(.*\))$/\1/p' "$tmp/out")
  [ -n "$reason" ] || fail "info: no reason on the 'CUDA devices: 0' line"
  n=$(grep -c -F -- "$reason" "$tmp/out")
  [ "$n" -eq 1 ] || fail "info: the CUDA unavailable reason is printed $n times, want once"
  for r in pinned device managed "device pool"; do
    grep -q "^  $r *unavailable (no usable CUDA device)\$" "$tmp/out" ||
      fail "info: no 'unavailable (no usable CUDA device)' line for '$r'"
  done
fi

run help
expect_rc 0 "help"
expect_out "usage: jagged <command>" "help"

run
expect_rc 2 "no command"
expect_err "usage: jagged <command>" "no command"

run bogus
expect_rc 2 "unknown command"
expect_err "unknown command 'bogus'" "unknown command"

# The kernel catalog.
run kernels
expect_rc 0 "kernels"
expect_out "kernel                   variants host" "kernels"
expect_out "fill                     11       c," "kernels"
expect_empty err "kernels"
# The summary line agrees with the table: M kernels, N of them with CUDA.
m=$(grep -c -E '^[a-z_0-9]+ +[0-9]+ ' "$tmp/out")
n=$(grep -c -E ' (cuda)$' "$tmp/out")
grep -q "^CUDA kernels: $n of $m" "$tmp/out" || fail "kernels: summary is not 'CUDA kernels: $n of $m'"
if [ "$n" -lt "$m" ]; then
  expect_out "(missing: " "kernels"
fi

run kernels --check
expect_rc 0 "kernels --check"
expect_out "signatures: all $m kernels agree with their specs" "kernels --check"

run kernels --bogus
expect_rc 2 "kernels with an unknown option"
expect_err "unknown option '--bogus'" "kernels with an unknown option"

run kernels --arch 90
expect_rc 2 "kernels --arch without --compile-all"
expect_err "--arch and --jobs go with --compile-all" "kernels --arch without --compile-all"

run kernels --compile-all --jobs x
expect_rc 2 "kernels --jobs x"
expect_err "--jobs takes a number" "kernels --jobs x"

JG_HOST_IMPL=bogus "$J" kernels >"$tmp/out" 2>"$tmp/err"
rc=$?
expect_rc 1 "kernels with JG_HOST_IMPL=bogus"
expect_err "JG_HOST_IMPL='bogus' is not a host implementation" "kernels with JG_HOST_IMPL=bogus"

JG_HOST_IMPL=C "$J" kernels >"$tmp/out" 2>"$tmp/err"
rc=$?
expect_rc 0 "kernels with JG_HOST_IMPL=C"
expect_out "fill                     11       c," "kernels with JG_HOST_IMPL=C"

run kernels --help
expect_rc 0 "kernels --help"
expect_out "usage: jagged kernels" "kernels --help"

# jagged parquet, on the flat ADL sample (values from DuckDB v1.5.6: run, luminosityBlock, event
# and MET_pt of the first event; parquet_metadata's sizes of column run).
D=${2:-}
F="$D/adl/Run2012B_SingleMu-1000.parquet"
if [ -n "$D" ] && [ -f "$F" ]; then
  run parquet "$F"
  expect_rc 0 "parquet"
  expect_out "rows: 1000" "parquet"
  expect_out "row groups: 1" "parquet"
  expect_out "created by: parquet-mr version 1.10.1" "parquet"
  expect_out "type: 1000 * {run: int32, luminosityBlock: int64, event: int64," "parquet"
  expect_out "columns: 86" "parquet"
  expect_out "Muon_pt.list.element                 FLOAT" "parquet"
  grep -q -E '^  run +INT32 +SNAPPY +PLAIN_DICTIONARY,BIT_PACKED +78 ' "$tmp/out" ||
    fail "parquet: the line of column run"
  expect_empty err "parquet"

  run parquet "$F" --head 1 --columns run,luminosityBlock,event,MET_pt,nMuon,Muon_pt
  expect_rc 0 "parquet --head"
  expect_out "0: {run: 194711, luminosityBlock: 299, event: 263142897, nMuon: 1, Muon: [{pt: 12.777097}], MET_pt: 22.177032}" "parquet --head"
  run parquet "$F" --head 1 --flat --columns nMuon,Muon_pt
  expect_out "0: {nMuon: 1, Muon_pt: [12.777097]}" "parquet --head --flat"

  run parquet "$F" --head 1 --columns nope
  expect_rc 1 "parquet unknown column"
  expect_err "no column named 'nope'" "parquet unknown column"
fi
run parquet /nonexistent.parquet
expect_rc 1 "parquet missing file"
expect_err "cannot open '/nonexistent.parquet'" "parquet missing file"
run parquet
expect_rc 2 "parquet without a file"
expect_err "no file given" "parquet without a file"
run parquet --help
expect_rc 0 "parquet --help"
expect_out "usage: jagged parquet FILE" "parquet --help"
run parquet x --head -3
expect_rc 2 "parquet --head -3"

# Write errors on stdout are reported (exit 1, a message on stderr), not lost.
if [ -w /dev/full ]; then
  for cmd in info version help kernels; do
    "$J" $cmd >/dev/full 2>"$tmp/err"
    rc=$?
    : >"$tmp/out"
    expect_rc 1 "$cmd > /dev/full"
    expect_err "error writing to standard output" "$cmd > /dev/full"
  done
fi

if [ "$failures" -ne 0 ]; then
  echo "$failures CLI check(s) failed" >&2
  exit 1
fi
echo "all CLI checks passed"
