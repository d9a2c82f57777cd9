// parquet_duckdb.js: Parquet files written by jagged, read by DuckDB (@duckdb/node-api).
//
// Usage: node parquet_duckdb.js PATH/TO/parquet_write_sample OUTDIR
//   (NODE_PATH must reach @duckdb/node-api; CTest sets it from JG_DUCKDB_NODE_MODULES.)
// Runs parquet_write_sample (tests/gpu/parquet_write_sample.c) to write flat-*.parquet and
// nested-*.parquet into OUTDIR, then asks DuckDB for counts and sums of every column of each
// file and compares them with the same quantities computed here from the formulas of the C
// program's header comment. Exit status: 0 when all agree, 1 otherwise, 77 (skipped) when the
// module is missing.
'use strict';
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');

let duckdb;
try {
  duckdb = require('@duckdb/node-api');
} catch (e) {
  console.log('[  SKIPPED ] @duckdb/node-api not found (set NODE_PATH)');
  process.exit(77);
}

const N = 1000;
const range = (n) => Array.from({ length: n }, (_, k) => k);

// Expected aggregates (numbers; integer sums below 2^53 are exact).
function expectedFlat() {
  const rows = range(N);
  const sum = (f) => rows.reduce((a, i) => a + f(i), 0);
  return {
    n: N,
    si: sum((i) => i),
    sx: sum((i) => i / 2),
    sf: sum((i) => (i % 17) - 8),
    nb: rows.filter((i) => i % 3 === 0).length,
    ss: sum((i) => (i % 200) - 100),
    su: sum((i) => Number((BigInt(i) * 2654435761n) % 4294967296n)),
    su8: sum((i) => i % 256),
  };
}
const FLAT_SQL = `SELECT count(*) AS n, sum(i) AS si, sum(x) AS sx, sum(f) AS sf,
  count_if(b) AS nb, sum(s) AS ss, sum(u) AS su, sum(u8) AS su8 FROM read_parquet($path)`;

function expectedNested() {
  const rows = range(N);
  const sum = (f) => rows.reduce((a, i) => a + f(i), 0);
  const sumj = (n, f) => range(n).reduce((a, j) => a + f(j), 0);
  return {
    n: N,
    nv: sum((i) => i % 5),
    sv: sum((i) => sumj(i % 5, (j) => i + j / 4)),
    no_null: rows.filter((i) => i % 7 === 0).length,
    no: sum((i) => (i % 7 === 0 ? 0 : i % 3)),
    so: sum((i) => (i % 7 === 0 ? 0 : sumj(i % 3, (j) => i + j))),
    nov: sum((i) => i % 4),
    nov_null: sum((i) => sumj(i % 4, (j) => ((i + j) % 3 === 0 ? 1 : 0))),
    sov: sum((i) => sumj(i % 4, (j) => ((i + j) % 3 === 0 ? 0 : 10 * i + j))),
    sra: sum((i) => i),
    srb: sum((i) => i * (i % 3)),
    np: sum((i) => i % 3),
    spt: sum((i) => sumj(i % 3, (j) => i + j)),
    seta: sum((i) => sumj(i % 3, (j) => j - 1)),
    nname: sum((i) => ('row' + i).length),
    name999: 'row999',
    nll: sum((i) => sumj(i % 3, (k) => k)),
    sll: sum((i) => sumj(i % 3, (k) => k * k)),
  };
}
const NESTED_SQL = `SELECT count(*) AS n,
  sum(len(v)) AS nv, sum(list_sum(v)) AS sv,
  count(*) - count(o) AS no_null, sum(len(o)) AS no, sum(list_sum(o)) AS so,
  sum(len(ov)) AS nov, sum(len(ov) - len(list_filter(ov, x -> x IS NOT NULL))) AS nov_null,
  sum(list_sum(ov)) AS sov,
  sum(r.a) AS sra, sum(list_sum(r.b)) AS srb,
  sum(len(p)) AS np, sum(list_sum(list_transform(p, e -> e.pt))) AS spt,
  sum(list_sum(list_transform(p, e -> e.eta))) AS seta,
  sum(octet_length(name)) AS nname, max(CASE WHEN r.a = 999 THEN decode(name) END) AS name999,
  sum(len(flatten(ll))) AS nll, sum(list_sum(flatten(ll))) AS sll
  FROM read_parquet($path)`;

async function main() {
  if (process.argv.length !== 4) {
    console.log('usage: node parquet_duckdb.js parquet_write_sample OUTDIR');
    return 2;
  }
  const [sample, outdir] = process.argv.slice(2);
  fs.mkdirSync(outdir, { recursive: true });
  for (const f of fs.readdirSync(outdir)) {
    if (f.endsWith('.parquet')) fs.unlinkSync(path.join(outdir, f));
  }
  console.log(execFileSync(sample, [outdir], { encoding: 'utf8' }).trim());
  const files = fs.readdirSync(outdir).filter((f) => f.endsWith('.parquet')).sort();
  const inst = await duckdb.DuckDBInstance.create(':memory:');
  const con = await inst.connect();
  const want = { flat: expectedFlat(), nested: expectedNested() };
  let failures = 0;
  for (const f of files) {
    const kind = f.startsWith('flat-') ? 'flat' : 'nested';
    const sql = kind === 'flat' ? FLAT_SQL : NESTED_SQL;
    const reader = await con.runAndReadAll(sql, { path: path.join(outdir, f) });
    const got = reader.getRowObjectsJson()[0];
    for (const [k, v] of Object.entries(want[kind])) {
      const g = typeof v === 'string' ? String(got[k]) : Number(got[k]);
      const ok = typeof v === 'string' ? g === v : Math.abs(g - v) <= 1e-9 * Math.max(1, Math.abs(v));
      if (!ok) {
        console.log(`FAIL: ${f}: ${k} = ${got[k]}, expected ${v}`);
        failures++;
      }
    }
  }
  console.log(`${files.length} files checked by DuckDB, ${failures} failures`);
  return files.length >= 4 && failures === 0 ? 0 : 1;
}

main().then((rc) => process.exit(rc), (e) => {
  console.error(e);
  process.exit(1);
});
