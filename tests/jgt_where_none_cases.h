/* jgt_where_none_cases.h: jg_array_where with None in the condition, x and y, for
 * tests/unit/test_where_none.c and tests/gpu/test_where_none_gpu.c. Awkward's rule: the result
 * is the chosen branch's value (None only when that value is None, whatever the other branch
 * holds), and None where the condition is None or where a list is None.
 *
 * One data set of jagged condition, x and y (lists of 0..4 elements, the same counts), each value
 * None or not by its own pattern, built with the options in every representation (byte-masked
 * valid when true / false, bit-masked LSB / MSB, indexed-option over reversed values) or with no
 * option; the expected result comes from a loop over the elements. Include after jg_test.h and
 * jgt_array_cases.h. */
#ifndef JAGGED_TESTS_JGT_WHERE_NONE_CASES_H
#define JAGGED_TESTS_JGT_WHERE_NONE_CASES_H

#include <stdbool.h>
#include <stdint.h>

#define JGT_WN_NLISTS 5
#define JGT_WN_N 11
static const int64_t jgt_wn_offsets[JGT_WN_NLISTS + 1] = {0, 3, 3, 7, 8, 11};
/* Representations: 0 none, 1 byte-masked (valid 1), 2 byte-masked (valid 0), 3 bit LSB,
 * 4 bit MSB (valid 0), 5 indexed-option. */
#define JGT_WN_NREPS 6

/* Validity of element e of input k (0 cond, 1 x, 2 y) under representation rep. */
static inline bool jgt_wn_valid(int k, int rep, int64_t e) {
  if (rep == 0) return true;
  switch (k) {
    case 0: return e % 5 != 3;
    case 1: return e % 3 != 1;
    default: return e % 4 != 2;
  }
}

static inline bool jgt_wn_cond(int64_t e) { return (e * 7) % 3 != 0; }
static inline int64_t jgt_wn_x(int64_t e) { return 10 + e; }
static inline double jgt_wn_y(int64_t e) { return -0.5 - (double)e; }

/* Input k (0 cond bool, 1 x int64, 2 y float64) as lists over an option of `rep`. */
static inline jg_array *jgt_wn_input(int k, int rep) {
  bool cv[JGT_WN_N];
  int64_t xv[JGT_WN_N], index[JGT_WN_N];
  double yv[JGT_WN_N];
  int8_t m[JGT_WN_N];
  uint8_t bits[2] = {0, 0};
  for (int64_t e = 0; e < JGT_WN_N; e++) {
    const int64_t p = rep == 5 ? JGT_WN_N - 1 - e : e; /* content position */
    const bool ok = jgt_wn_valid(k, rep, e);
    cv[p] = ok ? jgt_wn_cond(e) : true;
    xv[p] = ok ? jgt_wn_x(e) : -999;
    yv[p] = ok ? jgt_wn_y(e) : -999;
    index[e] = ok ? p : -1;
    const bool when = rep == 1 || rep == 3;
    m[e] = (int8_t)(ok == when);
    if (ok == when) bits[e / 8] |= (uint8_t)(rep == 3 ? 1u << (e % 8) : 0x80u >> (e % 8));
  }
  jg_array *leaf = k == 0   ? jgt_numeric(cv, JGT_WN_N, JG_DTYPE_BOOL)
                   : k == 1 ? jgt_i64(xv, JGT_WN_N)
                            : jgt_numeric(yv, JGT_WN_N, JG_DTYPE_FLOAT64);
  switch (rep) {
    case 1:
    case 2: leaf = jgt_byte_masked(m, JGT_WN_N, rep == 1, leaf); break;
    case 3:
    case 4: leaf = jgt_bit_masked(bits, 2, rep == 3, rep == 3, JGT_WN_N, leaf); break;
    case 5: leaf = jgt_indexed(index, JGT_WN_N, JG_DTYPE_INT64, leaf); break;
    default: break;
  }
  return jgt_offsets64(jgt_wn_offsets, JGT_WN_NLISTS + 1, leaf);
}

/* The expected result (float64: int64 and float64 promote) for representations rc, rx, ry. */
static inline jg_array *jgt_wn_expected(int rc, int rx, int ry) {
  double v[JGT_WN_N];
  int8_t ok[JGT_WN_N];
  for (int64_t e = 0; e < JGT_WN_N; e++) {
    const bool c = jgt_wn_cond(e);
    v[e] = c ? (double)jgt_wn_x(e) : jgt_wn_y(e);
    ok[e] = jgt_wn_valid(0, rc, e) && (c ? jgt_wn_valid(1, rx, e) : jgt_wn_valid(2, ry, e));
    if (!ok[e]) v[e] = 0;
  }
  jg_array *leaf = jgt_numeric(v, JGT_WN_N, JG_DTYPE_FLOAT64);
  if (rc != 0 || rx != 0 || ry != 0) leaf = jgt_byte_masked(ok, JGT_WN_N, true, leaf);
  return jgt_offsets64(jgt_wn_offsets, JGT_WN_NLISTS + 1, leaf);
}

#endif /* JAGGED_TESTS_JGT_WHERE_NONE_CASES_H */
