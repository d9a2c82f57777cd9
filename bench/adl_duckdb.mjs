// adl_duckdb.mjs: the eight IRIS-HEP ADL benchmark queries (nine histograms) in DuckDB SQL, the
// peer of `jagged adl` (issue 7), with the npm package @duckdb/node-api (resolved from NODE_PATH
// or the current folder's node_modules).
//
//   node bench/adl_duckdb.mjs check FILE REFDIR [--scale K] [--threads T] [--out DIR]
//       runs the nine histograms on FILE and compares each with REFDIR/query-N.csv times K
//       (default 1): prints per histogram "same" or the bins that differ; exit status 1 when
//       any differs (or a reference is missing), 0 when all are the same. With --out, also
//       writes the histograms as `write` does.
//   node bench/adl_duckdb.mjs write FILE OUTDIR [--threads T]
//       writes OUTDIR/query-N.csv (the CSV of the references and `jagged adl`: a header x,y
//       and one row per non-empty bin, x its centre, in increasing x).
//   node bench/adl_duckdb.mjs run FILE [--threads T] [--runs R] [--query LIST]
//       times each query: one warm-up, then R runs (default 5), each reading FILE again, as
//       `jagged adl` does; prints per query one line
//         duckdb query=N median_ms=M best_ms=B threads=T
//       (query 6 makes both of its histograms in one pass, as in jagged).
// Exit status 77 (skipped, for CTest) when @duckdb/node-api cannot be loaded, 2 for bad usage.
//
// FILE has the flat NanoAOD schema of the shared sample: scalar columns (MET_pt, MET_phi) and one
// list column per particle attribute (Jet_pt, Jet_eta, ..., Muon_charge, Electron_mass); or the
// records of the restructured sample (MET a struct, Jet, Muon, Electron lists of structs), which
// the queries read through the same flat names (list_transform of each field).
// The queries follow the definitions of shared/data/adl/README.md: derived quantities in double
// precision from the stored float32 values, 100 bins of width w = (hi - lo) / 100, v < lo in an
// underflow bin, v >= hi in an overflow bin, otherwise bin floor((v - lo) / w) (at most 99
// against rounding), NaN in no bin. Particles are unnested with their position in the event's
// list; pairs and triplets i < j (< k) are self-joins on the event's row number; "closest to"
// picks the first combination in (i, j, k) order among equal distances, "highest pt" the first
// particle among equal pts, as `jagged adl` does.
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import fs from 'node:fs';
import path from 'node:path';

const require = createRequire(path.join(process.cwd(), 'noop.js'));
let DuckDBInstance;
try {
  ({ DuckDBInstance } = require('@duckdb/node-api'));
} catch (e) {
  // 77: CTest's "skipped" (tests/CMakeLists.txt, adl_duckdb_reference).
  console.log('[  SKIPPED ] @duckdb/node-api not found (set NODE_PATH)');
  process.exit(77);
}

const NBINS = 100;
const quote = (s) => `'${s.replaceAll("'", "''")}'`;
// A double constant: DuckDB reads 0.4 as DECIMAL(2,1); from a string it is the nearest double.
const dbl = (v) => `'${v}'::DOUBLE`;

// Four-vector components of a particle row with pt, eta, phi, mass (doubles).
const CARTESIAN = `pt * cos(phi) AS px, pt * sin(phi) AS py, pt * sinh(eta) AS pz,
  sqrt((pt * cosh(eta)) * (pt * cosh(eta)) + mass * mass) AS en`;
// The signed square root: a space-like sum (rounding) keeps the sign of its squared mass.
const signedSqrt = (x) => `CASE WHEN ${x} < 0 THEN -sqrt(-(${x})) ELSE sqrt(${x}) END`;
const MASS = signedSqrt('en * en - px * px - py * py - pz * pz');
// phi1 - phi2 brought into [-pi, pi].
const deltaPhi = (a, b) => `(CASE WHEN fmod(${a} - ${b}, 2 * pi()) > pi()
    THEN fmod(${a} - ${b}, 2 * pi()) - 2 * pi()
  WHEN fmod(${a} - ${b}, 2 * pi()) < -pi() THEN fmod(${a} - ${b}, 2 * pi()) + 2 * pi()
  ELSE fmod(${a} - ${b}, 2 * pi()) END)`;

// Rows of one collection: the event's row number e, the particle's position i in its list
// (unless `index` is false: numbering costs time), and the given attributes (floats as doubles),
// for the events that pass `where`.
function particles(prefix, attrs, { extra = '', where = 'true', index = true } = {}) {
  const cols = attrs.map(([a, t]) =>
    `unnest(${prefix}_${a})${t === 'f' ? '::DOUBLE' : ''} AS ${a}`);
  const i = index ? `unnest(range(len(${prefix}_pt))) AS i, ` : '';
  return `SELECT e${extra}, ${i}${cols.join(', ')} FROM events WHERE ${where}`;
}
const PT_ETA_PHI = [['pt', 'f'], ['eta', 'f'], ['phi', 'f']];
const P4 = [...PT_ETA_PHI, ['mass', 'f']];

// Each query: its histograms (name, lo, hi) and SQL giving one row per entry, columns v0 (v1).
const QUERIES = [
  {
    id: '1', hists: [['query-1', 0, 2000]],
    sql: 'SELECT MET_pt::DOUBLE AS v0 FROM events',
  },
  {
    id: '2', hists: [['query-2', 15, 60]],
    sql: 'SELECT unnest(Jet_pt)::DOUBLE AS v0 FROM events',
  },
  {
    id: '3', hists: [['query-3', 15, 60]],
    sql: `SELECT pt AS v0 FROM (${particles('Jet', PT_ETA_PHI, { index: false })})
      WHERE abs(eta) < 1`,
  },
  {
    id: '4', hists: [['query-4', 0, 2000]],
    sql: `SELECT MET_pt::DOUBLE AS v0 FROM events
      WHERE len(list_filter(Jet_pt, pt -> pt > 40)) >= 2`,
  },
  {
    id: '5', hists: [['query-5', 0, 2000]],
    sql: `WITH mu AS (${particles('Muon', [...PT_ETA_PHI, ['charge', 'i']],
      { extra: ', MET_pt', where: 'len(Muon_pt) >= 2' })}),
    pairs AS (
      SELECT a.e, a.MET_pt, sqrt(greatest(2 * a.pt * b.pt
          * (cosh(a.eta - b.eta) - cos(a.phi - b.phi)), 0)) AS m
      FROM mu a JOIN mu b ON a.e = b.e AND a.i < b.i
      WHERE a.charge <> b.charge)
    SELECT any_value(MET_pt)::DOUBLE AS v0 FROM pairs
    WHERE m >= 60 AND m <= 120 GROUP BY e`,
  },
  {
    id: '6', hists: [['query-6-1', 15, 40], ['query-6-2', 0, 1]],
    sql: `WITH jet AS (SELECT e, i, btag, ${CARTESIAN}
      FROM (${particles('Jet', [...P4, ['btag', 'f']], { where: 'len(Jet_pt) >= 3' })})),
    triplets AS (
      SELECT a.e, a.i AS ai, b.i AS bi, c.i AS ci,
        a.px + b.px + c.px AS px, a.py + b.py + c.py AS py, a.pz + b.pz + c.pz AS pz,
        a.en + b.en + c.en AS en, greatest(a.btag, b.btag, c.btag) AS btag
      FROM jet a JOIN jet b ON a.e = b.e AND a.i < b.i JOIN jet c ON b.e = c.e AND b.i < c.i),
    best AS (
      SELECT arg_min({'pt': sqrt(px * px + py * py), 'btag': btag},
        {'d': abs(${MASS} - ${dbl(172.5)}), 'i': ai, 'j': bi, 'k': ci}) AS t
      FROM triplets GROUP BY e)
    SELECT t.pt AS v0, t.btag AS v1 FROM best`,
  },
  {
    id: '7', hists: [['query-7', 15, 200]],
    sql: `WITH jet AS (SELECT * FROM (${particles('Jet', PT_ETA_PHI)}) WHERE pt > 30),
    lepton AS (
      SELECT * FROM (${particles('Muon', PT_ETA_PHI, { index: false })}) WHERE pt > 10
      UNION ALL
      SELECT * FROM (${particles('Electron', PT_ETA_PHI, { index: false })}) WHERE pt > 10),
    near AS (
      SELECT DISTINCT j.e, j.i FROM jet j JOIN lepton l ON j.e = l.e
      WHERE sqrt((j.eta - l.eta) * (j.eta - l.eta)
        + ${deltaPhi('j.phi', 'l.phi')} * ${deltaPhi('j.phi', 'l.phi')}) < ${dbl(0.4)})
    SELECT sum(pt) AS v0 FROM jet ANTI JOIN near USING (e, i) GROUP BY e`,
  },
  {
    id: '8', hists: [['query-8', 15, 250]],
    sql: `WITH lepton AS (SELECT *, ${CARTESIAN} FROM (
      SELECT e, MET_pt::DOUBLE AS met, MET_phi::DOUBLE AS met_phi,
        unnest(range(len(Muon_pt))) AS i, 0 AS flavour,
        unnest(Muon_pt)::DOUBLE AS pt, unnest(Muon_eta)::DOUBLE AS eta,
        unnest(Muon_phi)::DOUBLE AS phi, unnest(Muon_mass)::DOUBLE AS mass,
        unnest(Muon_charge) AS charge
      FROM events WHERE len(Muon_pt) + len(Electron_pt) >= 3
      UNION ALL
      SELECT e, MET_pt::DOUBLE, MET_phi::DOUBLE,
        unnest(range(len(Muon_pt), len(Muon_pt) + len(Electron_pt))), 1,
        unnest(Electron_pt)::DOUBLE, unnest(Electron_eta)::DOUBLE,
        unnest(Electron_phi)::DOUBLE, unnest(Electron_mass)::DOUBLE,
        unnest(Electron_charge)
      FROM events WHERE len(Muon_pt) + len(Electron_pt) >= 3)),
    pairs AS (
      SELECT a.e, a.i AS ai, b.i AS bi, a.px + b.px AS px, a.py + b.py AS py,
        a.pz + b.pz AS pz, a.en + b.en AS en
      FROM lepton a JOIN lepton b ON a.e = b.e AND a.i < b.i
      WHERE a.flavour = b.flavour AND a.charge <> b.charge),
    best AS (
      SELECT e, arg_min({'i': ai, 'j': bi}, {'d': abs(${MASS} - ${dbl(91.2)}), 'i': ai, 'j': bi})
        AS p
      FROM pairs GROUP BY e),
    third AS (
      SELECT l.e, any_value(l.met) AS met, any_value(l.met_phi) AS met_phi,
        arg_max({'pt': l.pt, 'phi': l.phi}, {'pt': l.pt, 'first': -l.i}) AS t
      FROM lepton l JOIN best b ON l.e = b.e AND l.i <> b.p.i AND l.i <> b.p.j
      GROUP BY l.e)
    SELECT sqrt(2 * met * t.pt * (1 - cos(met_phi - t.phi))) AS v0 FROM third`,
  },
];

// The bin of v: -1 underflow, 0..99, 100 overflow; NULL for NaN and NULL (no entry).
function binExpr(v, lo, hi) {
  const w = (hi - lo) / NBINS;
  return `CASE WHEN ${v} IS NULL OR isnan(${v}) THEN NULL
    WHEN ${v} < ${dbl(lo)} THEN -1 WHEN ${v} >= ${dbl(hi)} THEN ${NBINS}
    ELSE least(floor((${v} - ${dbl(lo)}) / ${dbl(w)})::BIGINT, ${NBINS - 1}) END`;
}

// The columns the queries read, by collection.
const RECORD_FIELDS = {
  MET: ['pt', 'phi'],
  Jet: ['pt', 'eta', 'phi', 'mass', 'btag'],
  Muon: ['pt', 'eta', 'phi', 'mass', 'charge'],
  Electron: ['pt', 'eta', 'phi', 'mass', 'charge'],
};

// 'flat' (MET_pt, Jet_pt, ...) or 'record' (MET a struct, Jet a list of structs, ...).
async function detectSchema(con, file) {
  const names = (await con.runAndReadAll(
    `DESCRIBE SELECT * FROM read_parquet(${quote(file)})`)).getRows().map((r) => r[0]);
  if (names.includes('MET_pt') && names.includes('Jet_pt')) return 'flat';
  if (names.includes('MET') && names.includes('Jet')) return 'record';
  throw new Error(`${file}: neither the flat columns (MET_pt, Jet_pt, ...) nor records (MET, Jet)`);
}

// The events of file as the flat columns the queries read, e the row number.
function eventsSql(file, schema) {
  const src = `read_parquet(${quote(file)}, file_row_number = true)`;
  if (schema === 'flat') {
    return `SELECT file_row_number AS e, * EXCLUDE (file_row_number) FROM ${src}`;
  }
  const cols = Object.entries(RECORD_FIELDS).flatMap(([c, fs]) => fs.map((f) =>
    c === 'MET' ? `MET.${f} AS MET_${f}` : `list_transform(${c}, x -> x.${f}) AS ${c}_${f}`));
  return `SELECT file_row_number AS e, ${cols.join(', ')} FROM ${src}`;
}

// The whole SQL of a query: rows (h, bin, n) with h the histogram's position in q.hists.
function querySql(q, file, schema) {
  const hs = q.hists.map((_, k) => k);
  const bins = q.hists.map(([, lo, hi], k) => binExpr(`v${k}`, lo, hi));
  return `WITH events AS (${eventsSql(file, schema)}),
    entries AS (${q.sql}),
    binned AS (${bins.length === 1 ? `SELECT 0 AS h, ${bins[0]} AS bin FROM entries`
    : `SELECT unnest([${hs.join(', ')}]) AS h, unnest([${bins.join(', ')}]) AS bin
      FROM entries`})
    SELECT h, bin, count(*) AS n FROM binned WHERE bin IS NOT NULL GROUP BY h, bin`;
}

// Runs q on file: one Map bin -> count per histogram.
async function runQuery(con, q, file, schema) {
  const rows = (await con.runAndReadAll(querySql(q, file, schema))).getRows();
  const hists = q.hists.map(() => new Map());
  for (const [h, bin, n] of rows) hists[Number(h)].set(Number(bin), Number(n));
  return hists;
}

const binCentre = (lo, hi, bin) => lo + (bin + 0.5) * ((hi - lo) / NBINS);
// Centres as the references write them (15.225, not 15.225000000000001).
const fmtX = (x) => String(Number(x.toPrecision(12)));

function readCsv(file, lo, hi) {
  const w = (hi - lo) / NBINS;
  const lines = fs.readFileSync(file, 'utf8').split('\n').map((l) => l.trim()).filter(Boolean);
  if (lines[0] !== 'x,y') throw new Error(`${file}: the header is not x,y`);
  const m = new Map();
  for (const l of lines.slice(1)) {
    const [x, y] = l.split(',').map(Number);
    const bin = Math.round((x - lo) / w - 0.5);
    if (!Number.isFinite(x) || !Number.isFinite(y) || bin < -1 || bin > NBINS ||
        Math.abs(binCentre(lo, hi, bin) - x) > 1e-6 * w) {
      throw new Error(`${file}: '${l}' is not a bin centre and a count`);
    }
    m.set(bin, (m.get(bin) ?? 0) + y);
  }
  return m;
}

function writeCsv(file, hist, lo, hi) {
  const rows = [...hist.entries()].filter(([, n]) => n !== 0).sort((a, b) => a[0] - b[0]);
  fs.writeFileSync(file, ['x,y', ...rows.map(([b, n]) => `${fmtX(binCentre(lo, hi, b))},${n}`)]
    .join('\n') + '\n');
}

function parseArgs(args, flags) {
  const pos = [];
  const opt = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a.startsWith('--')) {
      const name = a.slice(2);
      if (!flags.includes(name) || i + 1 >= args.length) throw new Error(`bad option ${a}`);
      opt[name] = args[++i];
    } else {
      pos.push(a);
    }
  }
  return { pos, opt };
}

function selectQueries(list) {
  if (list === undefined || list === 'all') return QUERIES;
  return list.split(',').map((id) => {
    const q = QUERIES.find((x) => x.id === id);
    if (!q) throw new Error(`no query ${id} (1..8)`);
    return q;
  });
}

const USAGE = `usage: adl_duckdb.mjs check FILE REFDIR [--scale K] [--threads T] [--out DIR]
       adl_duckdb.mjs write FILE OUTDIR [--threads T]
       adl_duckdb.mjs run FILE [--threads T] [--runs R] [--query LIST]`;

async function main() {
  const [mode, ...rest] = process.argv.slice(2);
  const { pos, opt } = parseArgs(rest, ['scale', 'threads', 'out', 'runs', 'query']);
  const inst = await DuckDBInstance.create(':memory:');
  const con = await inst.connect();
  const threads = opt.threads === undefined ? undefined : Number(opt.threads);
  if (threads !== undefined) {
    if (!(Number.isInteger(threads) && threads >= 1)) throw new Error('--threads takes N >= 1');
    await con.run(`SET threads = ${threads}`);
  }
  if (mode === 'check' && pos.length === 2) {
    const [file, refdir] = pos;
    const scale = Number(opt.scale ?? 1);
    if (!(Number.isInteger(scale) && scale >= 1)) throw new Error('--scale takes K >= 1');
    const schema = await detectSchema(con, file);
    if (opt.out) fs.mkdirSync(opt.out, { recursive: true });
    let differ = 0;
    for (const q of QUERIES) {
      const hists = await runQuery(con, q, file, schema);
      q.hists.forEach(([name, lo, hi], k) => {
        if (opt.out) writeCsv(path.join(opt.out, `${name}.csv`), hists[k], lo, hi);
        let ref;
        try {
          ref = readCsv(path.join(refdir, `${name}.csv`), lo, hi);
        } catch (e) {
          console.log(`${name}: no usable reference: ${e.message}`);
          differ++;
          return;
        }
        const bad = [];
        for (let b = -1; b <= NBINS; b++) {
          const got = hists[k].get(b) ?? 0;
          const want = (ref.get(b) ?? 0) * scale;
          const x = fmtX(binCentre(lo, hi, b));
          if (got !== want) bad.push(`  x=${x}: ${got} here, ${want} reference`);
        }
        console.log(bad.length === 0 ? `${name}: same`
          : `${name}: DIFFERS in ${bad.length} bins\n${bad.join('\n')}`);
        if (bad.length) differ++;
      });
    }
    console.log(differ === 0
      ? `check: all histograms same as ${refdir}${scale !== 1 ? ` x ${scale}` : ''}`
      : `check: ${differ} histogram(s) differ`);
    return differ === 0 ? 0 : 1;
  }
  if (mode === 'write' && pos.length === 2) {
    const [file, outdir] = pos;
    const schema = await detectSchema(con, file);
    fs.mkdirSync(outdir, { recursive: true });
    for (const q of QUERIES) {
      const hists = await runQuery(con, q, file, schema);
      q.hists.forEach(([name, lo, hi], k) =>
        writeCsv(path.join(outdir, `${name}.csv`), hists[k], lo, hi));
    }
    return 0;
  }
  if (mode === 'run' && pos.length === 1) {
    const [file] = pos;
    const runs = Number(opt.runs ?? 5);
    if (!(Number.isInteger(runs) && runs >= 1)) throw new Error('--runs takes R >= 1');
    const schema = await detectSchema(con, file);
    const nthreads = Number((await con.runAndReadAll(
      "SELECT current_setting('threads')")).getRows()[0][0]);
    for (const q of selectQueries(opt.query)) {
      const sql = querySql(q, file, schema);
      const t = [];
      for (let i = -1; i < runs; i++) {
        const s = performance.now();
        await con.runAndReadAll(sql);
        if (i >= 0) t.push(performance.now() - s);
      }
      t.sort((a, b) => a - b);
      const median = runs % 2 ? t[runs >> 1] : (t[runs / 2 - 1] + t[runs / 2]) / 2;
      console.log(`duckdb query=${q.id} median_ms=${median.toFixed(1)} best_ms=${t[0].toFixed(1)}` +
        ` threads=${nthreads}`);
    }
    return 0;
  }
  console.error(USAGE);
  return 2;
}

main().then((rc) => process.exit(rc)).catch((e) => {
  console.error(`adl_duckdb: ${e.message}`);
  process.exit(1);
});
