#!/usr/bin/env python3
"""Parquet files written by jagged, read by pyarrow.parquet.

Usage: parquet_pyarrow.py PATH/TO/parquet_write_sample OUTDIR

Runs parquet_write_sample (tests/gpu/parquet_write_sample.c) to write flat-*.parquet and
nested-*.parquet into OUTDIR (codecs, page versions 1 and 2, dictionary on and off, several row
group and page sizes), reads each with pyarrow.parquet.read_table, and compares every value and
the Arrow types with the values computed here from the same formulas as the C program (its
header comment). Also checks the footer facts pyarrow reports: created_by, row groups, codecs.
Exit status: 0 when every check passes, 1 otherwise, 77 (skipped) without pyarrow.
"""
import glob
import os
import subprocess
import sys

try:
    import pyarrow as pa
    import pyarrow.parquet as pq
except ImportError:
    print("[  SKIPPED ] pyarrow is not installed")
    sys.exit(77)

N = 1000


def expected_flat():
    return {
        "i": (pa.int64(), list(range(N))),
        "x": (pa.float64(), [i / 2 for i in range(N)]),
        "f": (pa.float32(), [float(i % 17 - 8) for i in range(N)]),
        "b": (pa.bool_(), [i % 3 == 0 for i in range(N)]),
        "s": (pa.int16(), [i % 200 - 100 for i in range(N)]),
        "u": (pa.uint32(), [(i * 2654435761) % 2**32 for i in range(N)]),
        "u8": (pa.uint8(), [i % 256 for i in range(N)]),
    }


def expected_nested():
    return {
        "v": [[i + j / 4 for j in range(i % 5)] for i in range(N)],
        "o": [None if i % 7 == 0 else [i + j for j in range(i % 3)] for i in range(N)],
        "ov": [[None if (i + j) % 3 == 0 else 10 * i + j for j in range(i % 4)]
               for i in range(N)],
        "r": [{"a": i, "b": [i] * (i % 3)} for i in range(N)],
        "p": [[{"pt": float(i + j), "eta": j - 1.0} for j in range(i % 3)] for i in range(N)],
        "name": [b"row%d" % i for i in range(N)],
        "ll": [[[k] * k for k in range(i % 3)] for i in range(N)],
    }


def value_type(t):
    """The innermost value type of a (nested) list type, through structs' first field."""
    while pa.types.is_list(t) or pa.types.is_large_list(t):
        t = t.value_type
    return t


failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    sample, outdir = sys.argv[1], sys.argv[2]
    os.makedirs(outdir, exist_ok=True)
    for old in glob.glob(os.path.join(outdir, "*.parquet")):
        os.remove(old)
    run = subprocess.run([sample, outdir], capture_output=True, text=True)
    print(run.stdout.strip(), run.stderr.strip())
    if run.returncode != 0:
        print("FAIL: parquet_write_sample exited with", run.returncode)
        return 1
    return check_dir(outdir)


def check_dir(outdir):
    """Checks every *.parquet of outdir (as written by parquet_write_sample); 0 when all pass."""
    files = sorted(glob.glob(os.path.join(outdir, "*.parquet")))
    check(len(files) >= 4, "at least 4 files written (got %d)" % len(files))
    flat, nested = expected_flat(), expected_nested()
    for path in files:
        name = os.path.basename(path)
        meta = pq.ParquetFile(path).metadata
        check(meta.created_by.startswith("jagged "), name + ": created_by " + meta.created_by)
        check(meta.num_rows == N, name + ": num_rows")
        rg = int(name.split("-rg")[1].split("-")[0])
        check(meta.num_row_groups == (N + rg - 1) // rg,
              "%s: %d row groups" % (name, meta.num_row_groups))
        # pyarrow names LZ4_RAW "LZ4" (its own LZ4 codec is the raw block format).
        want = {"uncompressed": {"UNCOMPRESSED"}, "snappy": {"SNAPPY"}, "zstd": {"ZSTD"},
                "gzip": {"GZIP"}, "brotli": {"BROTLI"},
                "lz4raw": {"LZ4", "LZ4_RAW"}}[name.split("-")[1]]
        for g in range(meta.num_row_groups):
            got_codec = meta.row_group(g).column(0).compression.upper()
            check(got_codec in want, "%s: row group %d codec %s" % (name, g, got_codec))
        table = pq.read_table(path)
        check(table.num_rows == N, name + ": rows")
        if name.startswith("flat-"):
            for col, (typ, values) in flat.items():
                check(table.schema.field(col).type == typ,
                      "%s: %s type %s" % (name, col, table.schema.field(col).type))
                check(table.column(col).to_pylist() == values, "%s: %s values" % (name, col))
        else:
            for col, values in nested.items():
                got = table.column(col).to_pylist()
                if got != values:
                    bad = next(i for i in range(N) if got[i] != values[i])
                    check(False, "%s: %s row %d: %r != %r" % (name, col, bad, got[bad],
                                                               values[bad]))
            schema = table.schema
            check(value_type(schema.field("v").type) == pa.float64(), name + ": v type")
            check(value_type(schema.field("o").type) == pa.int32(), name + ": o type")
            check(value_type(schema.field("ll").type) == pa.int16(), name + ": ll type")
            check(schema.field("name").type == pa.binary(), name + ": name type")
            check(pa.types.is_struct(schema.field("r").type), name + ": r type")
            check(schema.field("o").nullable, name + ": o nullable")
    print("%d files checked, %d failures" % (len(files), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
