// parquet_duckdb.mjs: the DuckDB side of bench_parquet (issue 6's decode benchmark), with the npm
// package @duckdb/node-api (resolved from NODE_PATH or the current folder's node_modules).
//
//   node bench/parquet_duckdb.mjs make SRC DST [REPLICAS]
//       writes DST: SRC's events repeated REPLICAS times (default 1000: the 1000-event ADL sample
//       becomes a million events). Replica r keeps every integer and boolean (so counts and
//       charges stay real) and scales every float by (1 + r / 2^20), so that the mantissas
//       differ between replicas as in real data instead of repeating (dictionaries would
//       otherwise see 1000 copies of each value); events are numbered event + r * 10^9.
//       SNAPPY pages, DuckDB's default row groups and encodings.
//   node bench/parquet_duckdb.mjs make-repeat SRC DST [REPLICAS [ROWS_PER_GROUP]]
//       writes DST: SRC's rows repeated REPLICAS times (default 1000) unchanged, replica after
//       replica in SRC's row order, with the same column names and types (DuckDB writes the
//       lists as optional), in row groups of ROWS_PER_GROUP rows (default 100000; DuckDB
//       rounds it up to whole 2048-row vectors: 100352), SNAPPY. Every histogram of the ADL
//       queries on DST is then exactly REPLICAS times the one on SRC (bench/adl_duckdb.mjs).
//   node bench/parquet_duckdb.mjs read FILE THREADS RUNS COLUMNS
//       times a query that makes DuckDB decode every value of COLUMNS (comma separated; list
//       columns through list_sum, scalars through sum) with SET threads = THREADS; prints
//       one line: the median and best wall-clock seconds of RUNS runs after one warm-up.
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import path from 'node:path';
const require = createRequire(path.join(process.cwd(), 'noop.js'));
const { DuckDBInstance } = require('@duckdb/node-api');

const q = (s) => `'${s.replaceAll("'", "''")}'`;

async function main() {
  const [mode, ...args] = process.argv.slice(2);
  const inst = await DuckDBInstance.create(':memory:');
  const con = await inst.connect();
  if (mode === 'make') {
    const [src, dst, reps = '1000'] = args;
    const cols = (await con.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${q(src)})`))
      .getRowObjectsJson();
    const f = '(1 + r.range / 1048576.0)';
    const sel = cols.map(({ column_name: n, column_type: t }) => {
      const c = `t."${n}"`;
      if (n === 'event') return `${c} + r.range * 1000000000 AS "${n}"`;
      if (t === 'FLOAT' || t === 'DOUBLE') return `(${c} * ${f})::${t} AS "${n}"`;
      if (t === 'FLOAT[]' || t === 'DOUBLE[]')
        return `list_transform(${c}, v -> (v * ${f})::${t.slice(0, -2)}) AS "${n}"`;
      return `${c} AS "${n}"`;
    });
    await con.run(`COPY (SELECT ${sel.join(', ')} FROM read_parquet(${q(src)}) t,
      range(${Number(reps)}) r ORDER BY r.range) TO ${q(dst)} (FORMAT parquet, COMPRESSION snappy)`);
    return;
  }
  if (mode === 'make-repeat') {
    const [src, dst, reps = '1000', rg = '100000'] = args;
    // One thread keeps the rows in order and every row group but the last the same size.
    await con.run('SET threads = 1');
    await con.run('SET preserve_insertion_order = true');
    await con.run(`COPY (SELECT t.* EXCLUDE (file_row_number)
      FROM range(${Number(reps)}) r, read_parquet(${q(src)}, file_row_number = true) t
      ORDER BY r.range, t.file_row_number)
      TO ${q(dst)} (FORMAT parquet, COMPRESSION snappy, ROW_GROUP_SIZE ${Number(rg)})`);
    return;
  }
  if (mode === 'read') {
    const [file, threads, runs, columns] = args;
    const types = Object.fromEntries(
      (await con.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${q(file)})`))
        .getRowObjectsJson().map((r) => [r.column_name, r.column_type]));
    const exprs = columns.split(',').map((c) =>
      types[c].endsWith('[]') ? `sum(list_sum("${c}"::DOUBLE[]))` : `sum("${c}"::DOUBLE)`);
    await con.run(`SET threads = ${Number(threads)}`);
    const sql = `SELECT ${exprs.join(', ')} FROM read_parquet(${q(file)})`;
    const t = [];
    for (let i = -1; i < Number(runs); i++) {
      const s = performance.now();
      await con.runAndReadAll(sql);
      if (i >= 0) t.push((performance.now() - s) / 1000);
    }
    t.sort((a, b) => a - b);
    console.log(`duckdb threads=${threads} median_s=${t[t.length >> 1]} best_s=${t[0]}`);
    return;
  }
  throw new Error('usage: parquet_duckdb.mjs make SRC DST [REPLICAS] | '
    + 'make-repeat SRC DST [REPLICAS [ROWS_PER_GROUP]] | read FILE THREADS RUNS COLUMNS');
}
main().catch((e) => { console.error(`parquet_duckdb: ${e.message}`); process.exit(1); });
