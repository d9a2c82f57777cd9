#!/usr/bin/env python3
"""Round trips between jagged and pyarrow through the Arrow C Data Interface (arrow.h).

Usage: arrow_pyarrow.py PATH/TO/libjagged.so

jagged is loaded with ctypes; the C structs (ArrowSchema, ArrowArray, ArrowDeviceArray) are
allocated here with ctypes and handed to both sides by address:
  - jagged -> pyarrow: jagged builds arrays with its host constructors, exports them into the
    structs (jg_array_export_arrow / _device), pyarrow imports them (pa.Array._import_from_c /
    _import_from_c_device) and the values are compared with what they must be;
  - pyarrow -> jagged: pyarrow exports (pa.Array._export_to_c / _export_to_c_device), jagged
    imports (jg_array_import_arrow / _device), and the result is checked with jagged's printout
    and type string, then exported back into pyarrow and compared with the original (values and
    type, ignoring field nullability, which jagged sets only where a validity bitmap exists);
  - the release callback of a pyarrow export runs when jagged drops its last reference (the
    memory pyarrow allocated is still held after the import and freed by jg_array_release).
Exit status: 0 when every check passes, 1 otherwise, 77 (skipped) without pyarrow.
Runs on the host: the GPU machine is simply where Python with pyarrow and numpy is installed.
"""
import ctypes
import gc
import sys

try:
    import pyarrow as pa
    import pyarrow.compute as pc
except ImportError:
    print("[  SKIPPED ] pyarrow is not installed")
    sys.exit(77)

from ctypes import (POINTER, Structure, byref, c_char, c_char_p, c_int, c_int32, c_int64,
                    c_size_t, c_void_p)


class ArrowSchema(Structure):
    pass


ArrowSchema._fields_ = [
    ("format", c_char_p), ("name", c_char_p), ("metadata", c_char_p), ("flags", c_int64),
    ("n_children", c_int64), ("children", POINTER(POINTER(ArrowSchema))),
    ("dictionary", POINTER(ArrowSchema)), ("release", c_void_p), ("private_data", c_void_p)]


class ArrowArray(Structure):
    pass


ArrowArray._fields_ = [
    ("length", c_int64), ("null_count", c_int64), ("offset", c_int64), ("n_buffers", c_int64),
    ("n_children", c_int64), ("buffers", POINTER(c_void_p)),
    ("children", POINTER(POINTER(ArrowArray))), ("dictionary", POINTER(ArrowArray)),
    ("release", c_void_p), ("private_data", c_void_p)]


class ArrowDeviceArray(Structure):
    _fields_ = [("array", ArrowArray), ("device_id", c_int64), ("device_type", c_int32),
                ("sync_event", c_void_p), ("reserved", c_int64 * 3)]


class JgError(Structure):
    _fields_ = [("status", c_int), ("index", c_int64), ("message", c_char * 512)]


SCHEMA_RELEASE = ctypes.CFUNCTYPE(None, POINTER(ArrowSchema))
ARRAY_RELEASE = ctypes.CFUNCTYPE(None, POINTER(ArrowArray))

# jg_dtype numbers (include/jagged/types.h)
BOOL, INT8, INT16, INT32, INT64 = 1, 2, 3, 4, 5
FLOAT32, FLOAT64 = 11, 12
ARROW_DEVICE_CPU = 1

if len(sys.argv) != 2:
    print(__doc__)
    sys.exit(2)
lib = ctypes.CDLL(sys.argv[1])
ARR = c_void_p
ERR = POINTER(JgError)


def fn(name, restype, *argtypes):
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)
    return f


from_host = fn("jg_array_from_host", c_int, c_void_p, c_int64, c_int, POINTER(ARR), ERR)
from_host_offsets = fn("jg_array_from_host_offsets", c_int, POINTER(c_int64), c_int64, c_void_p,
                       c_int64, c_int, POINTER(ARR), ERR)
record = fn("jg_array_record", c_int, c_int, POINTER(ARR), POINTER(c_char_p), c_int64,
            POINTER(ARR), ERR)
regular = fn("jg_array_regular", c_int, ARR, c_int64, c_int64, POINTER(ARR), ERR)
slice_ = fn("jg_array_slice", c_int, ARR, c_int64, c_int64, POINTER(ARR), ERR)
empty = fn("jg_array_empty", c_int, POINTER(ARR), ERR)
release = fn("jg_array_release", None, ARR)
export = fn("jg_array_export_arrow", c_int, ARR, POINTER(ArrowSchema), POINTER(ArrowArray), ERR)
export_device = fn("jg_array_export_arrow_device", c_int, ARR, c_void_p, POINTER(ArrowSchema),
                   POINTER(ArrowDeviceArray), ERR)
import_ = fn("jg_array_import_arrow", c_int, POINTER(ArrowSchema), POINTER(ArrowArray),
             POINTER(ARR), ERR)
import_device = fn("jg_array_import_arrow_device", c_int, POINTER(ArrowSchema),
                   POINTER(ArrowDeviceArray), c_void_p, POINTER(ARR), ERR)
to_string = fn("jg_array_to_string", c_int, ARR, c_size_t, c_char_p, c_size_t,
               POINTER(c_size_t), ERR)
type_string = fn("jg_array_type_string", c_int, ARR, c_char_p, c_size_t, POINTER(c_size_t), ERR)

passed = 0
failed = 0


def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAILED:", what)


def ok(status, err, what):
    if status != 0:
        raise RuntimeError("%s: status %d: %s" % (what, status, err.message.decode()))


# ---- helpers on the jagged side -----------------------------------------------------------

def jg_numbers(values, dtype, ctype):
    buf = (ctype * max(len(values), 1))(*values)
    out, err = ARR(), JgError()
    ok(from_host(ctypes.cast(buf, c_void_p), len(values), dtype, byref(out), byref(err)),
       err, "jg_array_from_host")
    return out


def jg_lists(offsets, values, dtype=FLOAT64, ctype=ctypes.c_double):
    ofs = (c_int64 * len(offsets))(*offsets)
    buf = (ctype * max(len(values), 1))(*values)
    out, err = ARR(), JgError()
    ok(from_host_offsets(ofs, len(offsets) - 1, ctypes.cast(buf, c_void_p), len(values), dtype,
                         byref(out), byref(err)), err, "jg_array_from_host_offsets")
    return out


def jg_string(a):
    buf = ctypes.create_string_buffer(4096)
    err = JgError()
    ok(to_string(a, 4000, buf, 4096, None, byref(err)), err, "jg_array_to_string")
    return buf.value.decode()


def jg_type(a):
    buf = ctypes.create_string_buffer(1024)
    err = JgError()
    ok(type_string(a, buf, 1024, None, byref(err)), err, "jg_array_type_string")
    return buf.value.decode()


def jagged_to_pyarrow(a):
    """Exports jagged array `a` and imports it into pyarrow (which takes both structs)."""
    schema, array, err = ArrowSchema(), ArrowArray(), JgError()
    ok(export(a, byref(schema), byref(array), byref(err)), err, "jg_array_export_arrow")
    result = pa.Array._import_from_c(ctypes.addressof(array), ctypes.addressof(schema))
    check(array.release is None and schema.release is None, "pyarrow moved the exported structs")
    return result


def pyarrow_to_jagged(arr, device=False):
    """Exports pyarrow array `arr` and imports it into jagged; returns the jagged array."""
    schema, err, out = ArrowSchema(), JgError(), ARR()
    if device:
        darr = ArrowDeviceArray()
        arr._export_to_c_device(ctypes.addressof(darr), ctypes.addressof(schema))
        check(darr.device_type == ARROW_DEVICE_CPU, "pyarrow exports a CPU device array")
        ok(import_device(byref(schema), byref(darr), None, byref(out), byref(err)), err,
           "jg_array_import_arrow_device")
        check(darr.array.release is None, "jagged moved the device array")
    else:
        array = ArrowArray()
        arr._export_to_c(ctypes.addressof(array), ctypes.addressof(schema))
        ok(import_(byref(schema), byref(array), byref(out), byref(err)), err,
           "jg_array_import_arrow")
        check(array.release is None, "jagged moved the array (release set to NULL)")
    check(schema.release is not None, "jagged left the schema to the caller")
    SCHEMA_RELEASE(schema.release)(byref(schema))
    return out


def type_sig(t):
    """A type's structure without field nullability or list item names."""
    if pa.types.is_struct(t):
        return "struct<" + ", ".join("%s: %s" % (t.field(i).name, type_sig(t.field(i).type))
                                     for i in range(t.num_fields)) + ">"
    if pa.types.is_fixed_size_list(t):
        return "fixed_size_list<%s, %d>" % (type_sig(t.value_type), t.list_size)
    if pa.types.is_large_list(t):
        return "large_list<%s>" % type_sig(t.value_type)
    if pa.types.is_list(t):
        return "list<%s>" % type_sig(t.value_type)
    return str(t)


# ---- jagged -> pyarrow ----------------------------------------------------------------------

def test_jagged_to_pyarrow():
    lists = jg_lists([0, 2, 2, 5], [1.1, 2.2, 3.3, 4.4, 5.5])
    got = jagged_to_pyarrow(lists)
    check(pa.types.is_large_list(got.type) and got.type.value_type == pa.float64(), "int64 offsets are a large list of float64: %s" % got.type)
    check(got.to_pylist() == [[1.1, 2.2], [], [3.3, 4.4, 5.5]], "list values: %s" % got.to_pylist())

    # offsets not starting at 0 after a slice
    sl = ARR()
    err = JgError()
    ok(slice_(lists, 1, 3, byref(sl), byref(err)), err, "jg_array_slice")
    got = jagged_to_pyarrow(sl)
    check(got.to_pylist() == [[], [3.3, 4.4, 5.5]], "sliced list: %s" % got.to_pylist())
    release(sl)

    # a record of int64 and lists
    x = jg_numbers([1, 2, 3], INT64, c_int64)
    fields = (ARR * 2)(x, lists)
    names = (c_char_p * 2)(b"x", b"y")
    rec = ARR()
    ok(record(2, fields, names, -1, byref(rec), byref(err)), err, "jg_array_record")
    got = jagged_to_pyarrow(rec)
    check(type_sig(got.type) == "struct<x: int64, y: large_list<double>>",
          "record type: %s" % got.type)
    check(got.to_pylist() == [{"x": 1, "y": [1.1, 2.2]}, {"x": 2, "y": []},
                              {"x": 3, "y": [3.3, 4.4, 5.5]}], "record values")
    release(rec)
    release(x)

    # regular and bool
    six = jg_numbers([0, 1, 2, 3, 4, 5, 6], INT32, c_int32)
    reg = ARR()
    ok(regular(six, 3, -1, byref(reg), byref(err)), err, "jg_array_regular")
    got = jagged_to_pyarrow(reg)
    check(type_sig(got.type) == "fixed_size_list<int32, 3>", "regular type: %s" % got.type)
    check(got.to_pylist() == [[0, 1, 2], [3, 4, 5]], "regular values: %s" % got.to_pylist())
    release(reg)
    release(six)
    flags = jg_numbers([1, 0, 0, 1, 1, 0, 1, 1, 0], BOOL, ctypes.c_uint8)
    got = jagged_to_pyarrow(flags)
    check(got.type == pa.bool_(), "bool type")
    check(got.to_pylist() == [True, False, False, True, True, False, True, True, False], "bools")
    release(flags)

    e = ARR()
    ok(empty(byref(e), byref(err)), err, "jg_array_empty")
    got = jagged_to_pyarrow(e)
    check(got.type == pa.null() and len(got) == 0, "empty is the null type")
    release(e)

    # the device interface with a cpu array: ARROW_DEVICE_CPU, no event
    if hasattr(pa.Array, "_import_from_c_device"):
        schema, darr = ArrowSchema(), ArrowDeviceArray()
        ok(export_device(lists, None, byref(schema), byref(darr), byref(err)), err,
           "jg_array_export_arrow_device")
        check(darr.device_type == ARROW_DEVICE_CPU and not darr.sync_event, "cpu device array")
        got = pa.Array._import_from_c_device(ctypes.addressof(darr), ctypes.addressof(schema))
        check(got.to_pylist() == [[1.1, 2.2], [], [3.3, 4.4, 5.5]], "device-interface values")
    release(lists)
    gc.collect()


# ---- pyarrow -> jagged ----------------------------------------------------------------------

CASES = [
    (pa.array([[1, 2], None, [], [3]], type=pa.list_(pa.int32())),
     "[[1, 2], None, [], [3]]", "4 * option[var * int32]"),
    (pa.array([[1, 2], None, [], [3]], type=pa.list_(pa.int32())).slice(1, 3),
     "[None, [], [3]]", "3 * option[var * int32]"),
    (pa.array([[[1.5], []], [[2.5, 3.5]]], type=pa.large_list(pa.large_list(pa.float64()))),
     "[[[1.5], []], [[2.5, 3.5]]]", "2 * var * var * float64"),
    (pa.StructArray.from_arrays([pa.array([1.5, 0.0, 2.5], type=pa.float32()),
                                 pa.array([1, 0, None], type=pa.int8())], names=["pt", "q"],
                                mask=pa.array([False, True, False])),
     "[{pt: 1.5, q: 1}, None, {pt: 2.5, q: None}]", "3 * ?{pt: float32, q: ?int8}"),
    (pa.ListArray.from_arrays(
        pa.array([0, 2, 2, 2, 3], type=pa.int32()),
        pa.StructArray.from_arrays([pa.array([1.0, 0.0, 4.0])], names=["pt"],
                                   mask=pa.array([False, True, False])),
        mask=pa.array([False, False, True, False])).slice(1),
     "[[], None, [{pt: 4}]]", "3 * option[var * ?{pt: float64}]"),
    (pa.array([True, False, None, True]), "[True, False, None, True]", "4 * ?bool"),
    (pa.array([True, False, True, True, False, False, True, False, True]).slice(3, 5),
     "[True, False, False, True, False]", "5 * bool"),
    (pa.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], type=pa.list_(pa.float64(), 2)).slice(1),
     "[[3, 4], [5, 6]]", "2 * 2 * float64"),
    (pa.nulls(3), "[None, None, None]", "3 * ?unknown"),
    (pa.array([], type=pa.list_(pa.int64())), "[]", "0 * var * int64"),
    (pa.array([[], [], []], type=pa.list_(pa.int64())), "[[], [], []]", "3 * var * int64"),
    (pa.array([1, 2, 3], type=pa.int8()), "[1, 2, 3]", "3 * int8"),
    (pa.array([1, 2, 3], type=pa.uint16()), "[1, 2, 3]", "3 * uint16"),
    (pa.array([-1, 2, 3], type=pa.int32()).slice(1), "[2, 3]", "2 * int32"),
    (pa.array([2**40, 5], type=pa.int64()), "[1099511627776, 5]", "2 * int64"),
    (pa.array([7, 8], type=pa.uint32()), "[7, 8]", "2 * uint32"),
    (pa.array([7, 8], type=pa.uint64()), "[7, 8]", "2 * uint64"),
    (pa.array([0.5, -2.0], type=pa.float32()), "[0.5, -2]", "2 * float32"),
    (pa.array([1, None, 3], type=pa.float64()), "[1, None, 3]", "3 * ?float64"),
]


def test_pyarrow_to_jagged():
    for arr, want_str, want_type in CASES:
        for device in (False, True):
            if device and not hasattr(arr, "_export_to_c_device"):
                continue
            a = pyarrow_to_jagged(arr, device)
            check(jg_string(a) == want_str,
                  "%s: printout %r, want %r" % (arr.type, jg_string(a), want_str))
            check(jg_type(a) == want_type,
                  "%s: type %r, want %r" % (arr.type, jg_type(a), want_type))
            back = jagged_to_pyarrow(a)
            release(a)
            check(back.to_pylist() == arr.to_pylist(),
                  "%s: values after the round trip %s" % (arr.type, back.to_pylist()))
            check(type_sig(back.type) == type_sig(arr.type),
                  "%s: type after the round trip %s" % (arr.type, back.type))
    gc.collect()

    # float16 (from numpy, as pyarrow builds it)
    import numpy as np
    half = pa.array(np.array([1.5, -2.0], dtype=np.float16))
    a = pyarrow_to_jagged(half)
    check(jg_type(a) == "2 * float16", "float16 type %r" % jg_type(a))
    back = jagged_to_pyarrow(a)
    release(a)
    check(back.type == pa.float16() and [float(v) for v in back.to_pylist()] == [1.5, -2.0],
          "float16 round trip")


def test_release_once():
    """pyarrow's memory stays allocated while jagged holds the array, and goes with it."""
    gc.collect()
    base = pa.total_allocated_bytes()
    big = pc.add(pa.array(list(range(1 << 20)), type=pa.int64()), 1)  # allocated from the pool
    held = pa.total_allocated_bytes() - base
    check(held >= 8 << 20, "pyarrow allocated the array (%d bytes)" % held)
    a = pyarrow_to_jagged(big)
    del big
    gc.collect()
    check(pa.total_allocated_bytes() - base >= 8 << 20, "jagged keeps pyarrow's buffers alive")
    check(jg_type(a) == "1048576 * int64", "type of the big array")
    release(a)
    gc.collect()
    check(pa.total_allocated_bytes() - base < 8 << 20,
          "jg_array_release calls pyarrow's release (%d bytes left)"
          % (pa.total_allocated_bytes() - base))


def test_unsupported():
    arr = pa.array(["a", "b"])
    schema, array, err, out = ArrowSchema(), ArrowArray(), JgError(), ARR()
    arr._export_to_c(ctypes.addressof(array), ctypes.addressof(schema))
    status = import_(byref(schema), byref(array), byref(out), byref(err))
    check(status == 5, "strings are JG_ENOTSUP (status %d)" % status)
    check(b'"u"' in err.message and b"$" in err.message, "message names the format and path")
    check(array.release is not None, "a failed import does not take the array")
    ARRAY_RELEASE(array.release)(byref(array))
    SCHEMA_RELEASE(schema.release)(byref(schema))


def main():
    print("pyarrow", pa.__version__)
    for t in (test_jagged_to_pyarrow, test_pyarrow_to_jagged, test_release_once,
              test_unsupported):
        try:
            t()
        except Exception as e:  # report and go on with the next group
            global failed
            failed += 1
            print("FAILED: %s raised %s: %s" % (t.__name__, type(e).__name__, e))
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
