/* test_broadcast.c: broadcasting through jagged structure on the host (internal/jgi_broadcast.h,
 * src/ops/broadcast.c), with Awkward Array 2.x's rules (../shared/notes/awkward.md 6.2).
 *
 * Each case broadcasts a few arrays and prints every input as broadcast: its aligned leaf values
 * wrapped into the broadcast structure (jgi_broadcast_wrap), e.g. the flat per-list array
 * [10, 20, 30] against [[1, 2, 3], [], [4, 5]] prints [[10, 10, 10], [], [30, 30]]. Expected
 * strings are worked out by hand from the rules. Errors: unequal counts (index and both
 * lengths), outer lengths, records, ndim > 1, mixed backends is in test_ufunc (needs a device
 * array: the GPU test), bad offsets. */
#include "jg_test.h"
#include "jgt_array_cases.h"
#include "internal/jgi_broadcast.h"

static char g_text[8192];

/* jg_array_to_string of a host array. */
static const char *str(const jg_array *a) {
  JGT_OK(jg_array_to_string(a, 4000, g_text, sizeof g_text, NULL, &jgt_err_));
  return g_text;
}

/* Broadcasts `n` arrays (stolen) and checks that input k prints as want[k] once broadcast; a
 * scalar input prints as its one value repeated (its leaf has one element). */
static void check(int n, jg_array **arrays, const char *const *want) {
  jgi_op_ctx c;
  JGT_OK(jgi_op_ctx_init(&c, "test_broadcast", arrays[0], NULL, &jgt_err_));
  jgi_broadcast b;
  jg_error err;
  jg_error_clear(&err);
  jg_status st = jgi_broadcast_init(&c, n, (const jg_array *const *)arrays, &b, &err);
  if (st != JG_OK) print_error("broadcast failed: %s: %s\n", jg_status_name(st), err.message);
  assert_int_equal(st, JG_OK);
  for (int k = 0; k < n; k++) {
    jg_view v;
    JGT_OK(jgi_op_alloc(&c, b.length, b.leaves[k].dtype, &v, &jgt_err_));
    const int64_t isz = jg_dtype_itemsize(b.leaves[k].dtype);
    for (jg_len i = 0; i < b.length; i++) {
      const jg_len src = b.is_scalar[k] ? 0 : i;
      memcpy((char *)jg_view_data(&v) + i * isz, (const char *)b.leaves[k].v.array.data + src * isz,
             (size_t)isz);
    }
    jg_array *out = NULL;
    JGT_OK(jgi_broadcast_wrap(&b, &v, &out, &jgt_err_));
    const char *s = str(out);
    if (strcmp(s, want[k]) != 0) {
      print_error("input %d: got %s, expected %s\n", k, s, want[k]);
      fail();
    }
    jg_array_release(out);
  }
  jgi_broadcast_reset(&b);
  JGT_OK(jgi_op_ctx_finish(&c, JG_OK, &jgt_err_));
  for (int k = 0; k < n; k++) jg_array_release(arrays[k]);
}

/* Broadcasting `n` arrays (stolen) fails with `status`, a message containing `needle` and
 * err.index == index. */
static void check_error(int n, jg_array **arrays, jg_status status, const char *needle,
                        int64_t index) {
  jgi_op_ctx c;
  JGT_OK(jgi_op_ctx_init(&c, "test_broadcast", arrays[0], NULL, &jgt_err_));
  jgi_broadcast b;
  jg_error err;
  jg_error_clear(&err);
  const jg_status st = jgi_broadcast_init(&c, n, (const jg_array *const *)arrays, &b, &err);
  if (st != status) print_error("got %s: %s\n", jg_status_name(st), err.message);
  assert_int_equal(st, status);
  JGT_CONTAINS(err.message, "test_broadcast: ");
  JGT_CONTAINS(err.message, needle);
  if (index != -2) assert_int_equal(err.index, index);
  assert_null(b.priv);
  jgi_broadcast_reset(&b);
  (void)jgi_op_ctx_finish(&c, JG_OK, NULL);
  for (int k = 0; k < n; k++) jg_array_release(arrays[k]);
}

/* [[1, 2, 3], [], [4, 5]] (int64, offsets from 0). */
static jg_array *x3(void) {
  static const int64_t off[] = {0, 3, 3, 5};
  static const int64_t v[] = {1, 2, 3, 4, 5};
  return jgt_offsets64(off, 4, jgt_i64(v, 5));
}

/* The same lists stored with offsets [2, 5, 5, 7] over 9 values (2 unreachable at each end). */
static jg_array *x3_shifted(void) {
  static const int64_t off[] = {2, 5, 5, 7};
  static const int64_t v[] = {-9, -9, 1, 2, 3, 4, 5, -9, -9};
  return jgt_offsets64(off, 4, jgt_i64(v, 9));
}

/* The same lists as a list node with permuted storage: starts [3, 0, 7], stops [6, 0, 9] over
 * [4, 5, 0, 1, 2, 3, -1, 4, 5]... (list 2 is [4, 5] at 7..9). */
static jg_array *x3_list(void) {
  static const int64_t starts[] = {2, 0, 7};
  static const int64_t stops[] = {5, 0, 9};
  static const int64_t v[] = {-9, -9, 1, 2, 3, -9, -9, 4, 5};
  return jgt_list(starts, stops, 3, 3, JG_DTYPE_INT64, jgt_i64(v, 9));
}

static jg_array *flat(const int64_t *v, jg_len n) { return jgt_i64(v, n); }

static jg_array *f64s(const double *v, jg_len n) { return jgt_numeric(v, n, JG_DTYPE_FLOAT64); }

/* ------------------------------------------------------------------------------------------ */

static void test_scalar(void **state) {
  (void)state;
  static const int64_t ten[] = {10};
  jg_array *a[2] = {x3(), flat(ten, 1)};
  check(2, a, (const char *const[]){"[[1, 2, 3], [], [4, 5]]", "[[10, 10, 10], [], [10, 10]]"});
  /* scalar on the left, and two scalars */
  jg_array *b[2] = {flat(ten, 1), x3_shifted()};
  check(2, b, (const char *const[]){"[[10, 10, 10], [], [10, 10]]", "[[1, 2, 3], [], [4, 5]]"});
  jg_array *c[2] = {flat(ten, 1), flat(ten, 1)};
  check(2, c, (const char *const[]){"[10]", "[10]"});
}

static void test_per_list(void **state) {
  (void)state;
  static const int64_t v[] = {10, 20, 30};
  jg_array *a[2] = {x3(), flat(v, 3)};
  check(2, a,
        (const char *const[]){"[[1, 2, 3], [], [4, 5]]", "[[10, 10, 10], [], [30, 30]]"});
  jg_array *b[2] = {flat(v, 3), x3_list()};
  check(2, b,
        (const char *const[]){"[[10, 10, 10], [], [30, 30]]", "[[1, 2, 3], [], [4, 5]]"});
  jg_array *c[2] = {x3_shifted(), flat(v, 3)};
  check(2, c,
        (const char *const[]){"[[1, 2, 3], [], [4, 5]]", "[[10, 10, 10], [], [30, 30]]"});
}

static void test_same_counts(void **state) {
  (void)state;
  static const int64_t off[] = {0, 3, 3, 5};
  static const int64_t v[] = {10, 20, 30, 40, 50};
  jg_array *a[2] = {x3(), jgt_offsets64(off, 4, jgt_i64(v, 5))};
  check(2, a, (const char *const[]){"[[1, 2, 3], [], [4, 5]]", "[[10, 20, 30], [], [40, 50]]"});
  /* offsets not at 0 against offsets at 0 (shared), against a list node, and with itself */
  jg_array *b[2] = {x3_shifted(), jgt_offsets64(off, 4, jgt_i64(v, 5))};
  check(2, b, (const char *const[]){"[[1, 2, 3], [], [4, 5]]", "[[10, 20, 30], [], [40, 50]]"});
  jg_array *c[3] = {x3_shifted(), x3_list(), x3()};
  check(3, c,
        (const char *const[]){"[[1, 2, 3], [], [4, 5]]", "[[1, 2, 3], [], [4, 5]]",
                              "[[1, 2, 3], [], [4, 5]]"});
  jg_array *x = x3_shifted();
  jg_array_retain(x);
  jg_array *d[2] = {x, x};
  check(2, d, (const char *const[]){"[[1, 2, 3], [], [4, 5]]", "[[1, 2, 3], [], [4, 5]]"});
  /* int32 offsets */
  static const int32_t off32[] = {1, 4, 4, 6};
  static const int64_t w[] = {0, 10, 20, 30, 40, 50};
  jg_array *e[2] = {jgt_list_offset(off32, 4, JG_DTYPE_INT32, jgt_i64(w, 6)), x3()};
  check(2, e, (const char *const[]){"[[10, 20, 30], [], [40, 50]]", "[[1, 2, 3], [], [4, 5]]"});
  /* int32 offsets from 0, shared as the output's, with a per-list array (its gather index needs
   * int64 offsets: widened) */
  static const int32_t z32[] = {0, 3, 3, 5};
  static const int64_t per[] = {7, 8, 9};
  jg_array *f[2] = {jgt_list_offset(z32, 4, JG_DTYPE_INT32, jgt_i64(v, 5)), flat(per, 3)};
  check(2, f, (const char *const[]){"[[10, 20, 30], [], [40, 50]]", "[[7, 7, 7], [], [9, 9]]"});
}

static void test_deeper(void **state) {
  (void)state;
  /* [[1.1, 2.2, 3.3], [], [4.4, 5.5]] + [[[1], [1, 2], [1, 2, 3]], [], [[1, 2, 3, 4], [1, 2, 3,
   * 4, 5]]]: the shallower values repeat inside the deeper one's innermost lists. */
  static const int64_t o1[] = {0, 3, 3, 5};
  static const double v1[] = {1.1, 2.2, 3.3, 4.4, 5.5};
  static const int64_t inner[] = {0, 1, 3, 6, 10, 15};
  static const int64_t outer[] = {0, 3, 3, 5};
  static const int64_t v2[] = {1, 1, 2, 1, 2, 3, 1, 2, 3, 4, 1, 2, 3, 4, 5};
  jg_array *a[2] = {jgt_offsets64(o1, 4, f64s(v1, 5)),
                    jgt_offsets64(outer, 4, jgt_offsets64(inner, 6, jgt_i64(v2, 15)))};
  check(2, a,
        (const char *const[]){
            "[[[1.1], [2.2, 2.2], [3.3, 3.3, 3.3]], [], [[4.4, 4.4, 4.4, 4.4], [5.5, 5.5, 5.5, "
            "5.5, 5.5]]]",
            "[[[1], [1, 2], [1, 2, 3]], [], [[1, 2, 3, 4], [1, 2, 3, 4, 5]]]"});
  /* A flat array against two levels: one value per outer list. */
  static const int64_t p[] = {7, 8, 9};
  jg_array *b[2] = {flat(p, 3),
                    jgt_offsets64(outer, 4, jgt_offsets64(inner, 6, jgt_i64(v2, 15)))};
  check(2, b,
        (const char *const[]){"[[[7], [7, 7], [7, 7, 7]], [], [[9, 9, 9, 9], [9, 9, 9, 9, 9]]]",
                              "[[[1], [1, 2], [1, 2, 3]], [], [[1, 2, 3, 4], [1, 2, 3, 4, 5]]]"});
}

static void test_outer_length_one(void **state) {
  (void)state;
  /* [[1, 2]] against [[1, 2], [3, 4]]: a length-1 outer dimension stretches (NumPy). */
  static const int64_t o1[] = {0, 2};
  static const int64_t v1[] = {1, 2};
  static const int64_t o2[] = {0, 2, 4};
  static const int64_t v2[] = {1, 2, 3, 4};
  jg_array *a[2] = {jgt_offsets64(o1, 2, jgt_i64(v1, 2)), jgt_offsets64(o2, 3, jgt_i64(v2, 4))};
  check(2, a, (const char *const[]){"[[1, 2], [1, 2]]", "[[1, 2], [3, 4]]"});
}

static void test_regular(void **state) {
  (void)state;
  /* regular size 2 against var lists of 2, and size 1 stretching (a keepdims result) */
  static const int64_t v[] = {1, 2, 3, 4, 5, 6};
  static const int64_t off[] = {0, 2, 4, 6};
  jg_array *a[2] = {jgt_regular(jgt_i64(v, 6), 2, -1), jgt_offsets64(off, 4, jgt_i64(v, 6))};
  check(2, a, (const char *const[]){"[[1, 2], [3, 4], [5, 6]]", "[[1, 2], [3, 4], [5, 6]]"});
  static const int64_t m[] = {3, 0, 5};
  jg_array *b[2] = {x3(), jgt_regular(jgt_i64(m, 3), 1, -1)};
  check(2, b, (const char *const[]){"[[1, 2, 3], [], [4, 5]]", "[[3, 3, 3], [], [5, 5]]"});
}

/* Purely regular inputs align on the right as NumPy's arrays do (Awkward's left broadcasting):
 * missing outer dimensions are length 1 and stretch; var lists still align on the left. */
static void test_regular_right_aligned(void **state) {
  (void)state;
  static const int64_t v[] = {1, 2, 3, 4, 5, 6, 7, 8};
  static const int64_t r[] = {10, 20, 30};
  /* (3,) against (2, 3) */
  jg_array *a[2] = {jgt_i64(r, 3), jgt_regular(jgt_i64(v, 6), 3, -1)};
  check(2, a, (const char *const[]){"[[10, 20, 30], [10, 20, 30]]", "[[1, 2, 3], [4, 5, 6]]"});
  /* (2, 2, 2) against (2,): the (2,) meets the innermost dimension */
  jg_array *b[2] = {jgt_regular(jgt_regular(jgt_i64(v, 8), 2, -1), 2, -1), jgt_i64(r, 2)};
  check(2, b,
        (const char *const[]){"[[[1, 2], [3, 4]], [[5, 6], [7, 8]]]",
                              "[[[10, 20], [10, 20]], [[10, 20], [10, 20]]]"});
  /* (2, 1) against (3,): both stretch to (2, 3) */
  jg_array *c[2] = {jgt_regular(jgt_i64(v, 2), 1, -1), jgt_i64(r, 3)};
  check(2, c, (const char *const[]){"[[1, 1, 1], [2, 2, 2]]", "[[10, 20, 30], [10, 20, 30]]"});
  /* a scalar takes no part; (2,) against (2, 3) does not fit on the right */
  static const int64_t one[] = {5};
  jg_array *d[3] = {jgt_i64(one, 1), jgt_i64(r, 3), jgt_regular(jgt_i64(v, 6), 3, -1)};
  check(3, d,
        (const char *const[]){"[[5, 5, 5], [5, 5, 5]]", "[[10, 20, 30], [10, 20, 30]]",
                              "[[1, 2, 3], [4, 5, 6]]"});
  jg_array *e[2] = {jgt_i64(r, 2), jgt_regular(jgt_i64(v, 6), 3, -1)};
  check_error(2, e, JG_ESHAPE, "list 0 has 2 elements in x and 3 in y", 0);
  /* var lists are aligned on the left: (3,) against 2 var lists is an outer length mismatch */
  static const int64_t off[] = {0, 3, 6};
  jg_array *f[2] = {jgt_i64(r, 3), jgt_offsets64(off, 3, jgt_i64(v, 6))};
  check_error(2, f, JG_ESHAPE, "x has length 3, y has length 2", -1);
}

static void test_none(void **state) {
  (void)state;
  /* [[1, 2, 3], None, [4, 5]] + [10, 20, 30]: a None list stays None; the other input's list
   * may have any count there. */
  static const int8_t mask[] = {1, 0, 1};
  static const int64_t off[] = {0, 3, 5, 7};
  static const int64_t v[] = {1, 2, 3, 8, 8, 4, 5};
  static const int64_t p[] = {10, 20, 30};
  jg_array *a[2] = {jgt_byte_masked(mask, 3, true, jgt_offsets64(off, 4, jgt_i64(v, 7))),
                    flat(p, 3)};
  check(2, a,
        (const char *const[]){"[[1, 2, 3], None, [4, 5]]", "[[10, 10, 10], None, [30, 30]]"});
  jg_array *b[2] = {jgt_byte_masked(mask, 3, true, jgt_offsets64(off, 4, jgt_i64(v, 7))), x3()};
  check(2, b, (const char *const[]){"[[1, 2, 3], None, [4, 5]]", "[[1, 2, 3], None, [4, 5]]"});
  /* [[1, None, 3]] + 1 with an indexed option; bit-masked values (LSB, valid_when false) */
  static const int64_t idx[] = {0, -1, 1};
  static const int64_t vals[] = {1, 3};
  static const int64_t o1[] = {0, 3};
  static const int64_t one[] = {1};
  jg_array *c[2] = {jgt_offsets64(o1, 2, jgt_indexed(idx, 3, JG_DTYPE_INT64, jgt_i64(vals, 2))),
                    flat(one, 1)};
  check(2, c, (const char *const[]){"[[1, None, 3]]", "[[1, None, 1]]"});
  static const uint8_t bits[] = {0x12}; /* entries 1 and 4 set: None (valid_when false) */
  static const int64_t w[] = {10, 20, 30, 40, 50};
  static const int64_t o2[] = {0, 3, 3, 5};
  jg_array *d[2] = {x3(), jgt_offsets64(o2, 4, jgt_bit_masked(bits, 1, false, true, 5,
                                                              jgt_i64(w, 5)))};
  check(2, d,
        (const char *const[]){"[[1, None, 3], [], [4, None]]", "[[10, None, 30], [], [40, None]]"});
  /* None values in a flat per-list array: the whole list is None. */
  static const int64_t pidx[] = {0, 1, -1};
  jg_array *e[2] = {x3(), jgt_indexed(pidx, 3, JG_DTYPE_INT64, flat(p, 3))};
  check(2, e, (const char *const[]){"[[1, 2, 3], [], None]", "[[10, 10, 10], [], None]"});
}

static void test_empty(void **state) {
  (void)state;
  static const int64_t off0[] = {5};
  jg_array *a[2] = {jgt_offsets64(off0, 1, jgt_i64(NULL, 0)), flat(NULL, 0)};
  check(2, a, (const char *const[]){"[]", "[]"});
  static const int64_t off[] = {0, 0, 0};
  static const int64_t p[] = {1, 2};
  jg_array *b[2] = {jgt_offsets64(off, 3, jgt_i64(NULL, 0)), flat(p, 2)};
  check(2, b, (const char *const[]){"[[], []]", "[[], []]"});
  jg_array *e = NULL;
  JGT_OK(jg_array_empty(&e, &jgt_err_));
  static const int64_t one[] = {1};
  jg_array *c[2] = {e, flat(one, 1)};
  check(2, c, (const char *const[]){"[]", "[]"});
}

static void test_sliced(void **state) {
  (void)state;
  /* x3()[1:3] = [[], [4, 5]] against [[7, 8, 9], [1], [2, 3]][1:3] = [[1], [2, 3]]: fails at 0 */
  static const int64_t off[] = {0, 0, 2};
  static const int64_t v[] = {6, 7};
  jg_array *a[2] = {jgt_slice(x3(), 1, 3), jgt_offsets64(off, 3, jgt_i64(v, 2))};
  check(2, a, (const char *const[]){"[[], [4, 5]]", "[[], [6, 7]]"});
}

static void test_long(void **state) {
  (void)state;
  /* 2^20 + 1 lists of counts i % 5, against a per-list array: checked with a plain loop. */
  const jg_len n = (1 << 20) + 1;
  int64_t *counts = malloc(sizeof *counts * (size_t)n);
  int64_t *per = malloc(sizeof *per * (size_t)n);
  assert_non_null(counts);
  assert_non_null(per);
  jg_len total = 0;
  for (jg_len i = 0; i < n; i++) {
    counts[i] = i % 5;
    per[i] = 3 * i;
    total += counts[i];
  }
  int64_t *content = malloc(sizeof *content * (size_t)total);
  assert_non_null(content);
  for (jg_len j = 0; j < total; j++) content[j] = j;
  jg_array *x = NULL;
  JGT_OK(jg_array_from_host_counts(counts, n, content, total, JG_DTYPE_INT64, &x, &jgt_err_));
  jg_array *y = jgt_i64(per, n);
  jgi_op_ctx c;
  JGT_OK(jgi_op_ctx_init(&c, "test_broadcast", x, NULL, &jgt_err_));
  jgi_broadcast b;
  JGT_OK(jgi_broadcast_init(&c, 2, (const jg_array *const[]){x, y}, &b, &jgt_err_));
  assert_int_equal(b.length, total);
  const int64_t *l0 = b.leaves[0].v.array.data, *l1 = b.leaves[1].v.array.data;
  jg_len j = 0;
  for (jg_len i = 0; i < n; i++) {
    for (jg_len k = 0; k < counts[i]; k++, j++) {
      assert_int_equal(l0[j], j);
      assert_int_equal(l1[j], 3 * i);
    }
  }
  jgi_broadcast_reset(&b);
  JGT_OK(jgi_op_ctx_finish(&c, JG_OK, &jgt_err_));
  jg_array_release(x);
  jg_array_release(y);
  free(counts);
  free(per);
  free(content);
}

/* ------------------------------------------------------------------------------------------ */

static void test_errors(void **state) {
  (void)state;
  /* unequal counts: list 2 has 2 elements in x and 3 in y */
  static const int64_t off[] = {0, 3, 3, 6};
  static const int64_t v[] = {1, 2, 3, 4, 5, 6};
  jg_array *a[2] = {x3(), jgt_offsets64(off, 4, jgt_i64(v, 6))};
  check_error(2, a, JG_ESHAPE, "list 2 has 2 elements in x and 3 in y", 2);
  /* the same through the general path (a list node) */
  jg_array *b[2] = {x3_list(), jgt_offsets64(off, 4, jgt_i64(v, 6))};
  check_error(2, b, JG_ESHAPE, "list 2 has 2 elements in x and 3 in y", 2);
  /* at depth 2 */
  static const int64_t inner[] = {0, 1, 3, 6, 10, 15};
  static const int64_t outer[] = {0, 3, 3, 5};
  static const int64_t v2[] = {1, 1, 2, 1, 2, 3, 1, 2, 3, 4, 1, 2, 3, 4, 5};
  static const int64_t inner2[] = {0, 1, 3, 6, 10, 14};
  jg_array *c[2] = {jgt_offsets64(outer, 4, jgt_offsets64(inner, 6, jgt_i64(v2, 15))),
                    jgt_offsets64(outer, 4, jgt_offsets64(inner2, 6, jgt_i64(v2, 15)))};
  check_error(2, c, JG_ESHAPE, "list 4 at depth 2 has 5 elements in x and 4 in y", 4);
  /* outer lengths */
  static const int64_t p[] = {10, 20};
  jg_array *d[2] = {x3(), flat(p, 2)};
  check_error(2, d, JG_ESHAPE, "x has length 3, y has length 2", -1);
  /* records */
  jg_array *f[1] = {flat(p, 2)};
  jg_array *r = jgt_record(1, f, (const char *const[]){"a"}, -1);
  jg_array *e[2] = {x3(), r};
  check_error(2, e, JG_ENOTSUP, "cannot broadcast records", -2);
  /* ndim > 1 numeric data */
  static const int64_t grid[] = {1, 2, 3, 4, 5, 6};
  const jg_len shape[2] = {3, 2};
  jg_array *g[2] = {x3(),
                    jgt_numeric_view(jgt_view_ex(grid, 6, JG_DTYPE_INT64, 2, shape, NULL, 0))};
  check_error(2, g, JG_ENOTSUP, "2 dimensions", -2);
  /* float16 leaves */
  static const uint16_t h[] = {0x3c00, 0x3c00, 0x3c00};
  jg_array *hh[2] = {jgt_numeric(h, 3, JG_DTYPE_FLOAT16), flat(p, 2)};
  check_error(1, hh, JG_EDTYPE, "float16", -2);
  jg_array_release(hh[1]);
  /* a list reaching past its content (list node: checked per list) */
  static const int64_t starts[] = {0, 2};
  static const int64_t stops[] = {2, 9};
  jg_array *k[2] = {jgt_list(starts, stops, 2, 2, JG_DTYPE_INT64, jgt_i64(v, 6)), flat(p, 2)};
  check_error(2, k, JG_EVALUE, "outside the content", 1);
  /* an indexed option pointing past its content */
  static const int64_t idx[] = {0, 5};
  jg_array *m[2] = {jgt_indexed(idx, 2, JG_DTYPE_INT64, flat(p, 2)), flat(p, 2)};
  check_error(2, m, JG_EINDEX, "points past the content", 1);
  /* bad arguments */
  jgi_op_ctx ctx;
  jg_array *x = x3();
  JGT_OK(jgi_op_ctx_init(&ctx, "test_broadcast", x, NULL, &jgt_err_));
  jgi_broadcast bb;
  jg_error err;
  JGT_STATUS(JG_EINVAL, jgi_broadcast_init(&ctx, 0, (const jg_array *const[]){x}, &bb, &err));
  JGT_STATUS(JG_EINVAL, jgi_broadcast_init(&ctx, 2, (const jg_array *const[]){x, NULL}, &bb,
                                           &err));
  JGT_CONTAINS(err.message, "y is NULL");
  (void)jgi_op_ctx_finish(&ctx, JG_OK, NULL);
  jg_array_release(x);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_scalar),      cmocka_unit_test(test_per_list),
      cmocka_unit_test(test_same_counts), cmocka_unit_test(test_deeper),
      cmocka_unit_test(test_outer_length_one), cmocka_unit_test(test_regular),
      cmocka_unit_test(test_none),        cmocka_unit_test(test_empty),
      cmocka_unit_test(test_sliced),      cmocka_unit_test(test_long),
      cmocka_unit_test(test_errors),      cmocka_unit_test(test_regular_right_aligned),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
