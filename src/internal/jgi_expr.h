/* jgi_expr.h: the expressions of jg_array_eval (elementwise.h), internal: a parser into a tree
 * of float64 operations, a host evaluator that runs the tree node by node over blocks of
 * elements, and a CUDA C generator for the same tree (compiled with NVRTC by
 * src/ops/elementwise.c). Host and generated code compute every operation with the same formula
 * (see the table in expr.c), so that results agree bit for bit wherever the operation is
 * correctly rounded on both sides.
 *
 * Owned by src/ops/expr.c. */
#ifndef JAGGED_JGI_EXPR_H
#define JAGGED_JGI_EXPR_H

#include <stddef.h>
#include <stdint.h>

#include "internal/jgi_check.h"
#include "jagged/status.h"
#include "jagged/types.h"

/** Longest expression accepted, in bytes. */
#define JGI_EXPR_MAX_LENGTH 65536
/** Deepest nesting of parentheses, operators and calls. */
#define JGI_EXPR_MAX_DEPTH 200

/** One node: an operation of up to three operands (indexes of earlier nodes), a constant, or an
 *  argument. Nodes are stored children first, so a pass in storage order evaluates a tree. */
typedef struct jgi_expr_node {
  int op;       /**< a private operation code of expr.c */
  int arg[3];   /**< operands (node indexes), -1 when unused */
  int var;      /**< the argument number of a variable node */
  double value; /**< the value of a constant node */
} jgi_expr_node;

/** A parsed expression. */
typedef struct jgi_expr {
  jgi_expr_node *nodes;
  int n;
  int cap;
  int root;  /**< the node whose value is the result */
  int nargs; /**< arguments the expression was parsed against */
} jgi_expr;

/** Parses `text` over arguments `names[0..nargs)` (checked: identifiers, distinct). Errors
 *  (JG_EINVAL, prefixed by `fn`): bad names (index = the name), syntax errors, unknown names and
 *  functions, wrong argument counts, too long or too deep (index = column - 1). On error `*e` is
 *  empty (safe to reset). */
JGI_HIDDEN jg_status jgi_expr_parse(const char *fn, const char *text, int nargs,
                                    const char *const *names, jgi_expr *e, jg_error *err);

/** Frees what `e` holds (safe on a zeroed or reset expression). */
JGI_HIDDEN void jgi_expr_reset(jgi_expr *e);

/** True for the dtypes an expression reads (each converted to float64 as it is loaded): bool,
 *  int8..uint64, float32, float64. */
JGI_HIDDEN bool jgi_expr_dtype_ok(jg_dtype d);

/** out[i] = e(in[0][i * step[0]], ...) for 0 <= i < n on the host, node by node over blocks of
 *  1024 elements. `in[k]` holds values of `dtypes[k]` (jgi_expr_dtype_ok; NULL dtypes: all
 *  float64), each converted to float64 block by block as it is read (no converted copy of the
 *  whole input). `step[k]` is 1 or 0 (in[k] holds one value). Errors: JG_ENOMEM. */
JGI_HIDDEN jg_status jgi_expr_eval_host(const jgi_expr *e, int64_t n, const void *const *in,
                                        const jg_dtype *dtypes, const int64_t *step,
                                        double *out, jg_error *err);

/** The CUDA C source of kernel `jg_expr` for `e` (see jg_expr_cuda_source), malloc'd into
 *  `*source` (free it). Argument k is a pointer to `dtypes[k]` (NULL: all float64), converted to
 *  double as it is loaded, so inputs of other dtypes need no converted copy. Errors:
 *  JG_ENOMEM. */
JGI_HIDDEN jg_status jgi_expr_cuda_source(const jgi_expr *e, const jg_dtype *dtypes,
                                          char **source, jg_error *err);

#endif /* JAGGED_JGI_EXPR_H */
