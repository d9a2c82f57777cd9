/* jgk_parity.h: helpers shared by the kernels' parity cases (<name>_parity.c): index arrays of
 * either width and offsets drawn from the list-length regimes the cases cover. */
#ifndef JGK_PARITY_H
#define JGK_PARITY_H

#include <stdint.h>

#include "internal/jgi_check.h"
#include "jagged/kernel.h"

/** a[i] = v in an array of `dt` (int32 or int64; v must fit). */
JGI_HIDDEN void jgk_parity_put_index(void *a, jg_dtype dt, int64_t i, int64_t v);

/** a[i] of an array of `dt` (int32 or int64), widened. */
JGI_HIDDEN int64_t jgk_parity_get_index(const void *a, jg_dtype dt, int64_t i);

/** Fills n + 1 offsets of `dt` from `start` with random counts: 0 with probability p_empty,
 *  else uniform in [lo, hi] (lo <= hi), from the case's random stream. */
JGI_HIDDEN void jgk_parity_random_offsets(jg_parity_ctx *ctx, void *offsets, jg_dtype dt,
                                          int64_t n, int64_t start, double p_empty, int64_t lo,
                                          int64_t hi);

/** A Poisson-distributed count of mean `lambda` (0 < lambda <= 30: Knuth's product of uniforms,
 *  which underflows past that) from the case's random stream. */
JGI_HIDDEN int64_t jgk_parity_poisson(jg_parity_ctx *ctx, double lambda);

/** A uniform integer in [lo, hi] (lo <= hi) from the case's random stream. */
JGI_HIDDEN int64_t jgk_parity_uniform_in(jg_parity_ctx *ctx, int64_t lo, int64_t hi);

/* ------------------------------------------------------------ reduction kernels */

/** Number of list layouts the reduction kernels' parity cases run over (case k uses layout k). */
#define JGK_PARITY_LIST_LAYOUTS 15

/** The layouts before this one are small (at most 5000 lists or content elements): running
 *  only cases 0..JGK_PARITY_SMALL_LAYOUTS-1 (jg_parity_options.n_cases) is quick and still
 *  covers every rule and error, e.g. under unusual launch settings. */
#define JGK_PARITY_SMALL_LAYOUTS 12

/** Lists given as starts/stops over a content of m elements, as the reduction kernels take
 *  them. `starts` and `stops` hold n elements each of the index dtype (allocated with
 *  jg_parity_alloc); `content_length` = max(m, 0) is what a content array needs. */
typedef struct jgk_parity_lists {
  int64_t n;
  int64_t m;
  int64_t content_length;
  void *starts;
  void *stops;
  const char *name; /**< the layout's name, for jg_parity_case_name */
} jgk_parity_lists;

/** Builds list layout `layout` (0 <= layout < JGK_PARITY_LIST_LAYOUTS) with index dtype `dt`
 *  (int32 or int64), from the case's random stream. In order: 0 no lists, 1 no lists with content
 *  of 5, 2 one list, 3 1000 empty lists that start anywhere (Awkward allows it), 4 a last empty
 *  list, 5 offsets not at 0 with content past the last list, 6 permuted and overlapping lists,
 *  7-9 32 / 1024 / 4096 lists of Poisson-like lengths (uniform 0..100, around the warp size, for
 *  1024; some of 500..2000 for 4096), 10 bad lists among 100 (past m at 41, before 0 at 45,
 *  stops < starts at 60; an empty list at -100 before them is fine), 11 a negative m (the first
 *  non-empty list is bad), 12 2^20 + 1 lists of Poisson(3) lengths, 13 one list of 2^22 + 3
 *  elements between empty ones, 14 2^20 + 1 lists with stops < starts at 700000 and a list past
 *  m at 900000. Errors: JG_EINVAL for a bad layout, JG_ENOMEM. */
JGI_HIDDEN jg_status jgk_parity_lists_make(jg_parity_ctx *ctx, int layout, jg_dtype dt,
                                           jgk_parity_lists *out, jg_error *err);

/** Kinds of content values for the reduction kernels' parity cases. Integers and floats are
 *  chosen so that every sum, product and mean is exact in any order of evaluation (host and GPU
 *  then agree bit for bit, however the GPU groups the additions), while still covering what
 *  matters: negative values, ties, NaN, infinities, -0.0 and each type's extremes. */
typedef enum jgk_parity_values {
  JGK_VALUES_MIXED = 0,  /**< small values in [-6, 6] ([0, 12] unsigned; quarter steps in [-4, 4]
                              for floats), 1/32 type extremes (ints) or NaN, +-inf, -0.0
                              (floats, about 1/250 each); bool: 0 or 1 */
  JGK_VALUES_SMALL = 1,  /**< as MIXED without the integer extremes (means of int64 values are
                              exact only for small values) */
  JGK_VALUES_UNITS = 2,  /**< mostly 1 and -1, rarely 2, 0.5, -2, -0.5, NaN (floats): products
                              stay in range over 2^22 elements; bool: mostly true */
  JGK_VALUES_SPARSE = 3  /**< mostly 0 (31 in 32), else as MIXED; bool: mostly false */
} jgk_parity_values;

/** A content array of `length` (>= 0) elements of `dt` filled with values of `kind`, allocated
 *  with jg_parity_alloc; NULL when out of memory. */
JGI_HIDDEN void *jgk_parity_content(jg_parity_ctx *ctx, jg_dtype dt, int64_t length,
                                    jgk_parity_values kind);

/** The first five arguments of a reduction kernel (n, starts, stops, m, content) for case
 *  `layout` of the run's variant (index dtype from parameter 1, content dtype from parameter 4),
 *  with values of `kind`; names the case "<layout name><suffix>". Sets *n to the number of lists.
 *  Errors as jgk_parity_lists_make. */
JGI_HIDDEN jg_status jgk_parity_reduce_args(jg_parity_ctx *ctx, int layout, jgk_parity_values kind,
                                            const char *suffix, jg_kernel_arg *args, int64_t *n,
                                            jg_error *err);

/** 0 or 1, alternating with the case and the variant: (case_index + variant) % 2. The reduction
 *  kernels take their `op` from it, so that each layout runs once per op and element type when
 *  the two index widths of an element type are variants of different parity (an odd number of
 *  element types, listed in the same order for int32 and int64). */
JGI_HIDDEN int64_t jgk_parity_alternate(const jg_parity_ctx *ctx, int case_index);


/** The parity cases of a kernel with parameters (n, m, offsets, out int64), one output per
 *  element of the lists' content (local_index, list_parents): 15 cases of list-length regimes
 *  (CUB's segment regimes): no lists (with and without content), one list, all lists empty, a
 *  last empty list, offsets not starting at 0, mostly empty lists, lengths around 32, 2^20 + 1
 *  lists, one list of 2^22 + 3 elements between empty ones, m larger than what the lists cover
 *  (the tail of out must stay untouched); and the data error: a decrease late in 2^20 + 1 lists
 *  with another later still, lists running past offsets[0] + m with a decrease later, a decrease
 *  among many empty lists with m = 0, and a negative m. out has 3 elements more than m, so a side
 *  that writes past m shows up as a difference in the tail. `kernel` names it in messages. */
JGI_HIDDEN jg_status jgk_parity_element_cases(const char *kernel, jg_parity_ctx *ctx,
                                              int case_index, jg_kernel_arg *args,
                                              jg_error *err);

#endif /* JGK_PARITY_H */
