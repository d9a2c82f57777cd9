#!/usr/bin/env bash
# bench_parquet.sh BUILD_DIR [FILE]: issue 6's decode benchmark, jagged against DuckDB on this
# machine, one thread and two, on the same file and the same ADL columns.
#   FILE defaults to build/adl-1M.parquet, made (once) from the shared 1000-event ADL sample by
#   bench/parquet_duckdb.mjs (its events repeated 1000 times, floats scaled per replica).
# Needs node and the npm package @duckdb/node-api, found through NODE_PATH or installed with
#   npm install --prefix build/duckdb @duckdb/node-api
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:?usage: bench_parquet.sh BUILD_DIR [FILE]}
file=${2:-$root/build/adl-1M.parquet}
export NODE_PATH=${NODE_PATH:-$root/build/duckdb/node_modules}
cd "$root"
if [ ! -f "$file" ]; then
  node bench/parquet_duckdb.mjs make "$root/../shared/data/adl/Run2012B_SingleMu-1000.parquet" "$file" 1000
fi
cols=MET_pt,MET_phi,Jet_pt,Jet_eta,Jet_phi,Jet_mass,Jet_btag,Muon_pt,Muon_eta,Muon_phi,Muon_mass,Muon_charge,Electron_pt,Electron_eta,Electron_phi,Electron_mass,Electron_charge
"$build/bench/bench_parquet" "$file" 1 2
for t in 1 2; do node bench/parquet_duckdb.mjs read "$file" "$t" 9 "$cols"; done
