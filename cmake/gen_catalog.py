#!/usr/bin/env python3
"""gen_catalog.py: generates jagged's kernel catalog from the kernel folders (stdlib only).

Each folder src/kernels/<name>/ that holds <name>.json is one kernel:
  <name>.json        the spec: parameters, type variables, host implementations, launch
                     defaults, data errors, number of parity cases (docs/kernels.md)
  <name>_cpu.c       host implementation "c" (always), defines jgk_<name>_c[_<variant>]
  <name>_openmp.c    host implementation "openmp" (optional), jgk_<name>_openmp[_<variant>]
  <name>_cuda.cu     CUDA implementation (optional): __global__ jgk_<name>, a template over
                     the type variables for generic kernels
  <name>_parity.c    parity cases: jgk_<name>_parity (jg_parity_make_args_fn)

Outputs, in OUT:
  jgk_<name>.h          typed prototypes of every implementation, the variant list macro
                        JGK_<NAME>_VARIANTS(X), the data error codes, the error helper
  <name>_catalog.c      host thunks, parameter and variant tables, the jg_kernel descriptor,
                        the embedded sources
  <name>_cuda_gen.cu    (CUDA builds, kernels with CUDA code) the kernel source and typed
                        launch thunks: taking the address of jgk_<name><T> as a function pointer
                        of the spec's signature makes nvcc check the CUDA side's types
  catalog_gen.c         the sorted list of built-in kernels and the embedded jgk_common.cuh

Usage: gen_catalog.py --src SRC/kernels --out OUT [--cuda] [--openmp]
(without --openmp the "openmp" host implementations are left out of the catalog)
"""

import argparse
import json
import os
import re
import sys

DTYPES = {
    # name: (JG_DTYPE_ constant, C type, short suffix)
    "bool": ("JG_DTYPE_BOOL", "bool", "bool"),
    "int8": ("JG_DTYPE_INT8", "int8_t", "i8"),
    "int16": ("JG_DTYPE_INT16", "int16_t", "i16"),
    "int32": ("JG_DTYPE_INT32", "int32_t", "i32"),
    "int64": ("JG_DTYPE_INT64", "int64_t", "i64"),
    "uint8": ("JG_DTYPE_UINT8", "uint8_t", "u8"),
    "uint16": ("JG_DTYPE_UINT16", "uint16_t", "u16"),
    "uint32": ("JG_DTYPE_UINT32", "uint32_t", "u32"),
    "uint64": ("JG_DTYPE_UINT64", "uint64_t", "u64"),
    "float32": ("JG_DTYPE_FLOAT32", "float", "f32"),
    "float64": ("JG_DTYPE_FLOAT64", "double", "f64"),
}
KNOWN_IMPLS = ["c", "openmp"]
STATUSES = {"EINVAL", "EVALUE", "EINDEX", "ESHAPE", "EOVERFLOW", "EDTYPE"}
NAME_RE = re.compile(r"^[a-z_][a-z0-9_]*$")


class SpecError(Exception):
    pass


def load_spec(folder, name):
    path = os.path.join(folder, name + ".json")
    try:
        with open(path, encoding="utf-8") as f:
            spec = json.load(f)
    except (OSError, ValueError) as e:
        raise SpecError(f"{path}: {e}")

    def fail(msg):
        raise SpecError(f"{path}: {msg}")

    if spec.get("name") != name:
        fail(f"'name' must be the folder name '{name}'")
    if not NAME_RE.match(name):
        fail("kernel names are lower case [a-z_][a-z0-9_]*")
    if not isinstance(spec.get("doc"), str) or not spec["doc"]:
        fail("'doc' (one line) is required")
    types = spec.get("types", {})
    if not isinstance(types, dict):
        fail("'types' maps type variables to lists of dtypes")
    for var, allowed in types.items():
        if not re.match(r"^[A-Z][A-Z0-9]*$", var):
            fail(f"type variable '{var}' must be upper case")
        if not allowed or any(d not in DTYPES for d in allowed):
            fail(f"type variable '{var}': dtypes must be among {sorted(DTYPES)}")
    params = spec.get("params")
    if not isinstance(params, list) or not params:
        fail("'params' must be a non-empty list")
    seen = set()
    for i, p in enumerate(params):
        pn = p.get("name")
        if not isinstance(pn, str) or not re.match(r"^[a-z_][a-z0-9_]*$", pn) or pn in seen:
            fail(f"parameter {i}: missing, invalid or duplicate name")
        if pn == "err" or pn == "error_word":
            fail(f"parameter '{pn}': the name is reserved")
        seen.add(pn)
        kind = p.get("kind")
        if kind not in ("scalar", "array"):
            fail(f"parameter '{pn}': kind must be scalar or array")
        d = p.get("dir", "in")
        if d not in ("in", "out", "inout") or (kind == "scalar" and d != "in"):
            fail(f"parameter '{pn}': dir must be in/out/inout (scalars: in)")
        t = p.get("dtype")
        if t not in DTYPES and t not in types:
            fail(f"parameter '{pn}': dtype '{t}' is neither a dtype nor a type variable")
        ml = p.get("min_length")
        if ml is not None:
            if kind != "array":
                fail(f"parameter '{pn}': min_length is for arrays")
            m = re.match(r"^([a-z_][a-z0-9_]*)\s*(?:([+-])\s*(\d+))?$", str(ml))
            if not m:
                fail(f"parameter '{pn}': min_length is '<scalar param> [+|- k]'")
            ref = [q["name"] for q in params].index(m.group(1)) \
                if m.group(1) in [q["name"] for q in params] else -1
            if ref < 0 or params[ref].get("kind") != "scalar" or \
                    params[ref].get("dtype") not in ("int32", "int64"):
                fail(f"parameter '{pn}': min_length must name an int32/int64 scalar")
            add = int(m.group(3) or 0) * (-1 if m.group(2) == "-" else 1)
            p["_min"] = (ref, add)
        else:
            p["_min"] = (-1, 0)
    used = {p["dtype"] for p in params}
    for var in types:
        if var not in used:
            fail(f"type variable '{var}' is not used by any parameter")
    host = spec.get("host", ["c"])
    if not host or host[0] != "c" or any(h not in KNOWN_IMPLS for h in host) or \
            len(set(host)) != len(host):
        fail(f"'host' lists implementations among {KNOWN_IMPLS}, \"c\" first")
    launch = spec.get("launch", {})
    block = launch.get("block", 256)
    if not isinstance(block, int) or not 1 <= block <= 1024:
        fail("launch.block must be in [1, 1024]")
    tf = launch.get("threads_from")
    names = [p["name"] for p in params]
    # One parameter, or a list of them: the launch takes the largest value or length.
    tfs = tf if isinstance(tf, list) else [] if tf is None else [tf]
    if isinstance(tf, list) and not tf:
        fail("launch.threads_from: an empty list")
    for t in tfs:
        if not isinstance(t, str) or t not in names:
            fail(f"launch.threads_from '{t}' is not a parameter")
        q = params[names.index(t)]
        if q["kind"] == "scalar" and q["dtype"] not in ("int32", "int64"):
            fail("launch.threads_from must name integer scalars or arrays")
    tfi = names.index(tfs[0]) if tfs else -1
    tf_more = sum(1 << names.index(t) for t in tfs[1:])
    errors = spec.get("errors", [])
    for e in errors:
        if not re.match(r"^[A-Z][A-Z0-9_]*$", e.get("id", "")) or \
                e.get("status") not in STATUSES or "message" not in e:
            fail("errors: each needs an upper-case 'id', a 'status' among "
                 f"{sorted(STATUSES)} and a 'message' with one %lld (the index)")
        if e["message"].count("%") != 1 or "%lld" not in e["message"]:
            fail(f"error {e['id']}: the message must contain exactly one %lld")
    tol = spec.get("parity_rtol", {})
    if not isinstance(tol, dict) or any(k not in ("float32", "float64") or
                                        not isinstance(v, (int, float)) or not 0 <= v < 1
                                        for k, v in tol.items()):
        fail('parity_rtol is {"float32": r, "float64": r} with 0 <= r < 1')
    spec["parity_rtol"] = tol
    pc = spec.get("parity_cases", 0)
    if not isinstance(pc, int) or pc < 0:
        fail("parity_cases must be a non-negative integer")
    variants = [{}]
    for var, allowed in types.items():
        variants = [dict(v, **{var: d}) for v in variants for d in allowed]
    if "variants" in spec:
        variants = spec["variants"]
        for v in variants:
            if set(v) != set(types) or any(v[k] not in types[k] for k in v):
                fail(f"variant {v} does not bind every type variable to an allowed dtype")
    spec.update(types=types, host=host, block=block, threads_from=tfi,
                threads_from_more=tf_more, errors=errors,
                parity_cases=pc, variants=variants)
    return spec


def c_string_bytes(text):
    """A C initializer {0x.., ..., 0} for `text` (no length limit, unlike string literals)."""
    data = text.encode("utf-8") + b"\0"
    rows = []
    for i in range(0, len(data), 24):
        rows.append(",".join(f"0x{b:02x}" for b in data[i:i + 24]))
    return "{\n" + ",\n".join(rows) + "}"


def c_literal(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def vsuffix(spec, v):
    return "".join("_" + DTYPES[v[k]][2] for k in spec["types"])


def vname(spec, v):
    return ",".join(v[k] for k in spec["types"])


def ptype(p, v):
    d = v.get(p["dtype"], p["dtype"])
    return DTYPES[d]


def c_params(spec, v, with_names=True):
    out = []
    for p in spec["params"]:
        ct = ptype(p, v)[1]
        if p["kind"] == "array":
            ct = ("const " if p.get("dir", "in") == "in" else "") + ct + " *"
        else:
            ct = ct + " "
        out.append(ct + (p["name"] if with_names else ""))
    return out


def unpack_arg(p, i, v):
    """(C type, C expression) of argument i of parameter p in variant v, read from the checked
    jg_kernel_arg array `a` (floats are normalised to v.f64, integers to v.i64)."""
    ct = ptype(p, v)[1]
    if p["kind"] == "array":
        q = "const " if p.get("dir", "in") == "in" else ""
        return f"{q}{ct} *", f"({q}{ct} *)a[{i}].v.array.data"
    if ct in ("float", "double"):
        return ct, f"({ct})a[{i}].v.f64"
    if ct == "bool":
        return ct, f"a[{i}].v.i64 != 0"
    return ct, f"({ct})a[{i}].v.i64"


def gen_header(spec):
    n = spec["name"]
    N = n.upper()
    lines = [f"/* jgk_{n}.h: generated by cmake/gen_catalog.py from src/kernels/{n}/{n}.json."
             " Do not edit. */",
             f"#ifndef JGK_{N}_H", f"#define JGK_{N}_H", "",
             "#include <stdbool.h>", "#include <stdint.h>", "",
             '#include "jagged/kernel.h"', '#include "jagged/status.h"', "",
             "#ifdef __cplusplus", 'extern "C" {', "#endif", ""]
    for i, e in enumerate(spec["errors"]):
        lines.append(f"#define JGK_{N}_{e['id']} {i} /* {e['status']}: {e['message']} */")
    if spec["errors"]:
        lines.append("")
    tvars = list(spec["types"])
    if tvars:
        lines.append(f"/* Every variant: X({', '.join(tvars)}, suffix) with C types. */")
        items = " ".join("X(" + ", ".join(DTYPES[v[k]][1] for k in tvars) + ", " +
                         vsuffix(spec, v)[1:] + ")" for v in spec["variants"])
        lines.append(f"#define JGK_{N}_VARIANTS(X) {items}")
        lines.append("")
    lines.append("#ifndef __CUDACC__")
    for impl in spec["host"]:
        for v in spec["variants"]:
            ps = ", ".join(c_params(spec, v) + ["jg_error *err"])
            lines.append(f"jg_status jgk_{n}_{impl}{vsuffix(spec, v)}({ps});")
    if spec["parity_cases"]:
        lines.append(f"jg_status jgk_{n}_parity(jg_parity_ctx *ctx, int case_index, "
                     "jg_kernel_arg *args, void *user, jg_error *err);")
    lines.append(f"/* Reports data error `code` (JGK_{N}_*) at element `index`, exactly as the CUDA"
                 " path does. */")
    lines.append(f"jg_status jgk_{n}_error(jg_error *err, int code, int64_t index);")
    lines.append("#endif")
    lines += ["", "#ifdef __cplusplus", "}", "#endif", "", f"#endif /* JGK_{N}_H */", ""]
    return "\n".join(lines)


def cuda_prelude(spec):
    n = spec["name"]
    N = n.upper()
    out = ['#include "jgk_common.cuh"']
    for i, e in enumerate(spec["errors"]):
        out.append(f"#define JGK_{N}_{e['id']} {i}")
    return "\n".join(out) + "\n"


def gen_catalog_c(spec, folder, has_cuda_file, cuda_build):
    n = spec["name"]
    params = spec["params"]
    impls = spec["host"]
    lines = [f"/* {n}_catalog.c: generated by cmake/gen_catalog.py from src/kernels/{n}/. "
             "Do not edit. */",
             "#include <stdbool.h>", "#include <stdint.h>", "",
             '#include "internal/jgi_kernel.h"', f'#include "jgk_{n}.h"', ""]
    # host thunks
    for impl in impls:
        for v in spec["variants"]:
            sfx = vsuffix(spec, v)
            lines.append(f"static jg_status host_{impl}{sfx}(const jg_kernel_arg *a, "
                         "jg_error *err) {")
            args = [unpack_arg(p, i, v)[1] for i, p in enumerate(params)]
            lines.append(f"  return jgk_{n}_{impl}{sfx}({', '.join(args + ['err'])});")
            lines.append("}")
    with_cuda = has_cuda_file and cuda_build
    if with_cuda:
        lines.append("#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA")
        for v in spec["variants"]:
            lines.append(f"JGI_HIDDEN jg_status jgi_cuda_{n}{vsuffix(spec, v)}(const jg_kernel_arg *a, "
                         "const jgi_launch_cfg *cfg, unsigned long long *error_word, "
                         "jg_error *err);")
        lines.append("#endif")
    lines.append("")
    lines.append(f"static const jg_kernel_param params_[{len(params)}] = {{")
    for p in params:
        kind = "JG_PARAM_ARRAY" if p["kind"] == "array" else "JG_PARAM_SCALAR"
        d = {"in": "JG_PARAM_IN", "out": "JG_PARAM_OUT", "inout": "JG_PARAM_INOUT"}[
            p.get("dir", "in")]
        if p["dtype"] in spec["types"]:
            dt, tv = "JG_DTYPE_INVALID", c_literal(p["dtype"])
        else:
            dt, tv = DTYPES[p["dtype"]][0], "NULL"
        ref, add = p["_min"]
        lines.append(f"  {{{c_literal(p['name'])}, {kind}, {d}, {dt}, {tv}, {ref}, {add}}},")
    lines.append("};")
    lines.append(f"static const char *const impls_[{len(impls)}] = {{"
                 + ", ".join(c_literal(i) for i in impls) + "};")
    for v in spec["variants"]:
        sfx = vsuffix(spec, v)
        dts = ", ".join(ptype(p, v)[0] for p in params)
        lines.append(f"static const jg_dtype dtypes{sfx}_[{len(params)}] = {{{dts}}};")
        hs = ", ".join(f"host_{impl}{sfx}" for impl in impls)
        lines.append(f"static const jgi_host_thunk host{sfx}_[{len(impls)}] = {{{hs}}};")
    lines.append(f"static const jgi_kernel_variant variants_[{len(spec['variants'])}] = {{")
    for v in spec["variants"]:
        sfx = vsuffix(spec, v)
        targs = ", ".join(DTYPES[v[k]][1] for k in spec["types"])
        cname = f"jgk_{n}<{targs}>" if spec["types"] else f"jgk_{n}"
        cuda = f"jgi_cuda_{n}{sfx}" if with_cuda else "NULL"
        if with_cuda:
            lines.append("#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA")
            lines.append(f"  {{{c_literal(vname(spec, v))}, dtypes{sfx}_, host{sfx}_, {cuda}, "
                         f"{c_literal(cname) if has_cuda_file else 'NULL'}}},")
            lines.append("#else")
        lines.append(f"  {{{c_literal(vname(spec, v))}, dtypes{sfx}_, host{sfx}_, NULL, "
                     f"{c_literal(cname) if has_cuda_file else 'NULL'}}},")
        if with_cuda:
            lines.append("#endif")
    lines.append("};")
    if spec["errors"]:
        lines.append(f"static const jgi_kernel_error errors_[{len(spec['errors'])}] = {{")
        for e in spec["errors"]:
            lines.append(f"  {{JG_{e['status']}, {c_literal(e['message'])}}},")
        lines.append("};")
    # embedded sources
    if has_cuda_file:
        with open(os.path.join(folder, f"{n}_cuda.cu"), encoding="utf-8") as f:
            cu = f.read()
        text = cuda_prelude(spec) + f'#line 1 "{n}_cuda.cu"\n' + cu
        lines.append(f"static const char cuda_source_[] = {c_string_bytes(text)};")
    host_text = ""
    for impl in impls:
        fn = f"{n}_{'cpu' if impl == 'c' else impl}.c"
        with open(os.path.join(folder, fn), encoding="utf-8") as f:
            host_text += f"/* ==== {fn} ==== */\n" + f.read()
    lines.append(f"static const char host_source_[] = {c_string_bytes(host_text)};")
    lines.append("static jgi_kernel_state state_;")
    lines.append("")
    lines.append(f"extern JGI_HIDDEN const jg_kernel jgi_kernel_{n};")
    lines.append(f"const jg_kernel jgi_kernel_{n} = {{")
    lines.append(f"  .name = {c_literal(n)},")
    lines.append(f"  .doc = {c_literal(spec['doc'])},")
    lines.append(f"  .params = params_, .n_params = {len(params)},")
    lines.append(f"  .host_impls = impls_, .n_host_impls = {len(impls)},")
    lines.append(f"  .variants = variants_, .n_variants = {len(spec['variants'])},")
    lines.append(f"  .cuda_path = {c_literal(f'src/kernels/{n}/{n}_cuda.cu')},")
    lines.append(f"  .fallback_what = {c_literal(f'fallback of kernel {chr(39)}{n}{chr(39)}')},")
    lines.append(f"  .cuda_source = {'cuda_source_' if has_cuda_file else 'NULL'},")
    lines.append("  .host_source = host_source_,")
    lines.append(f"  .block = {spec['block']}, .threads_from = {spec['threads_from']},")
    if spec["threads_from_more"]:
        lines.append(f"  .threads_from_more = {spec['threads_from_more']}u,")
    if spec["errors"]:
        lines.append(f"  .errors = errors_, .n_errors = {len(spec['errors'])},")
    if spec["parity_cases"]:
        lines.append(f"  .parity = jgk_{n}_parity, .n_parity_cases = {spec['parity_cases']},")
    for key, field in (("float32", "parity_rtol32"), ("float64", "parity_rtol64")):
        if key in spec["parity_rtol"]:
            lines.append(f"  .{field} = {float(spec['parity_rtol'][key])!r},")
    lines.append("  .state = &state_,")
    lines.append("};")
    lines.append("")
    lines.append(f"jg_status jgk_{n}_error(jg_error *err, int code, int64_t index) {{")
    lines.append(f"  return jgi_kernel_error_set(&jgi_kernel_{n}, code, index, err);")
    lines.append("}")
    return "\n".join(lines) + "\n"


def gen_cuda(spec, folder):
    n = spec["name"]
    params = spec["params"]
    errs = bool(spec["errors"])
    lines = [f"/* {n}_cuda_gen.cu: generated by cmake/gen_catalog.py. Do not edit. */",
             '#include "internal/jgi_kernel.h"', f'#include "jgk_{n}.h"',
             '#include "jgk_common.cuh"',
             f'#include "{os.path.join(os.path.abspath(folder), n + "_cuda.cu")}"', ""]
    for v in spec["variants"]:
        sfx = vsuffix(spec, v)
        targs = ", ".join(DTYPES[v[k]][1] for k in spec["types"])
        fn = f"jgk_{n}<{targs}>" if spec["types"] else f"jgk_{n}"
        ptypes = c_params(spec, v, with_names=False) + (["unsigned long long *"] if errs else [])
        lines.append(f'extern "C" jg_status jgi_cuda_{n}{sfx}(const jg_kernel_arg *a, '
                     "const jgi_launch_cfg *cfg, unsigned long long *error_word, "
                     "jg_error *err) {")
        lines.append(f"  void (*fn)({', '.join(t.strip() for t in ptypes)}) = {fn};"
                     "  /* the spec's signature: nvcc checks the kernel against it */")
        names = []
        for i, p in enumerate(params):
            ct, expr = unpack_arg(p, i, v)
            lines.append(f"  {ct}{'' if ct.endswith('*') else ' '}p{i} = {expr};")
            names.append(f"(void *)&p{i}")
        if errs:
            names.append("(void *)&error_word")
        else:
            lines.append("  (void)error_word;")
        lines.append(f"  void *params[{len(names)}] = {{{', '.join(names)}}};")
        lines.append(f"  return jgi_cuda_launch((const void *)fn, params, cfg, {c_literal(n)}, "
                     "err);")
        lines.append("}")
    return "\n".join(lines) + "\n"


def write_if_changed(path, text):
    try:
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return
    except OSError:
        pass
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--src", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--cuda", action="store_true")
    ap.add_argument("--openmp", action="store_true")
    args = ap.parse_args()
    names = sorted(d for d in os.listdir(args.src)
                   if os.path.isfile(os.path.join(args.src, d, d + ".json")))
    os.makedirs(args.out, exist_ok=True)
    try:
        specs = []
        for n in names:
            folder = os.path.join(args.src, n)
            spec = load_spec(folder, n)
            if not args.openmp:
                spec["host"] = [h for h in spec["host"] if h != "openmp"]
            for impl in spec["host"]:
                fn = f"{n}_{'cpu' if impl == 'c' else impl}.c"
                if not os.path.isfile(os.path.join(folder, fn)):
                    raise SpecError(f"{folder}: host implementation '{impl}' needs {fn}")
            if spec["parity_cases"] and not os.path.isfile(os.path.join(folder, n + "_parity.c")):
                raise SpecError(f"{folder}: parity_cases needs {n}_parity.c")
            has_cu = os.path.isfile(os.path.join(folder, n + "_cuda.cu"))
            write_if_changed(os.path.join(args.out, f"jgk_{n}.h"), gen_header(spec))
            write_if_changed(os.path.join(args.out, f"{n}_catalog.c"),
                             gen_catalog_c(spec, folder, has_cu, args.cuda))
            if has_cu and args.cuda:
                write_if_changed(os.path.join(args.out, f"{n}_cuda_gen.cu"), gen_cuda(spec, folder))
            specs.append(spec)
    except (SpecError, OSError) as e:
        print(f"gen_catalog.py: {e}", file=sys.stderr)
        return 1
    lines = ["/* catalog_gen.c: generated by cmake/gen_catalog.py. Do not edit. */",
             "#include <stddef.h>", "", '#include "internal/jgi_kernel.h"', ""]
    for s in specs:
        lines.append(f"extern JGI_HIDDEN const jg_kernel jgi_kernel_{s['name']};")
    lines.append("")
    body = ", ".join(f"&jgi_kernel_{s['name']}" for s in specs) or "NULL"
    lines.append(f"const jg_kernel *const jgi_builtin_kernels[] = {{{body}}};")
    lines.append(f"const size_t jgi_builtin_kernel_count = {len(specs)};")
    with open(os.path.join(args.src, "jgk_common.cuh"), encoding="utf-8") as f:
        lines.append(f"const char jgi_kernel_common_cuh[] = {c_string_bytes(f.read())};")
    write_if_changed(os.path.join(args.out, "catalog_gen.c"), "\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
