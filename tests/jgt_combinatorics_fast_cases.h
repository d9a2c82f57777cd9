/* jgt_combinatorics_fast_cases.h: inputs for the fast path of jg_array_combinations (lists of
 * numbers written straight into the fields: kernels combinations_tile_counts and
 * combinations_values) and a plain reference check, shared by
 * tests/unit/test_combinatorics_fast.c (host) and tests/gpu/test_combinatorics_fast_gpu.c (the
 * same inputs on the device, whose result must equal the host's buffer for buffer).
 *
 * The reference (jgt_cf_check) reads the input's starts, stops and content through the public
 * API and walks every k-tuple of every list with nested loops in lexicographic order (i < j < ...,
 * or i <= j <= ... with replacement): the result must be a list-offset node with int64 offsets
 * from 0, over a tuple (or the given record) of k dense fields of the content's dtype, whose
 * elements equal the content's items byte for byte. Independent of the library's combinations
 * code (the general path writes positions and gathers; this writes nothing). */
#ifndef JAGGED_TESTS_JGT_COMBINATORICS_FAST_CASES_H
#define JAGGED_TESTS_JGT_COMBINATORICS_FAST_CASES_H

#include "jagged/combinatorics.h"
#include "jgt_array_cases.h"

/* xorshift for the random counts (each builder restarts it: inputs are the same every run). */
static inline uint64_t jgt_cf_rnd(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

/* A content of m items of `dtype` whose item p is p * 7 + 3 (mod the type's range; bool: p % 3
 * != 0; floats: (p * 7 + 3) / 4, exact). */
static inline jg_array *jgt_cf_content(jg_len m, jg_dtype dtype) {
  const size_t isz = (size_t)jg_dtype_itemsize(dtype);
  unsigned char *b = malloc(isz * (size_t)(m > 0 ? m : 1));
  assert_non_null(b);
  for (jg_len p = 0; p < m; p++) {
    const int64_t x = p * 7 + 3;
    void *e = b + (size_t)p * isz;
    switch (dtype) {
      case JG_DTYPE_BOOL: *(bool *)e = p % 3 != 0; break;
      case JG_DTYPE_INT8: *(int8_t *)e = (int8_t)(x % 128); break;
      case JG_DTYPE_INT16: *(int16_t *)e = (int16_t)(x % 30000); break;
      case JG_DTYPE_INT32: *(int32_t *)e = (int32_t)x; break;
      case JG_DTYPE_INT64: *(int64_t *)e = -x; break;
      case JG_DTYPE_UINT8: *(uint8_t *)e = (uint8_t)(x % 256); break;
      case JG_DTYPE_UINT16: *(uint16_t *)e = (uint16_t)(x % 65536); break;
      case JG_DTYPE_UINT32: *(uint32_t *)e = (uint32_t)x; break;
      case JG_DTYPE_UINT64: *(uint64_t *)e = (uint64_t)x << 20; break;
      case JG_DTYPE_FLOAT32: *(float *)e = (float)x / 4; break;
      default: *(double *)e = (double)x / 4; break;
    }
  }
  jg_array *a = jgt_numeric(b, m, dtype);
  free(b);
  return a;
}

/* n lists of random counts in [0, maxc] (0 with probability 1/5) from offset `first`, over
 * first + total + 3 items of `dtype`; the last list is empty when last_empty. */
static inline jg_array *jgt_cf_random(jg_len n, int64_t maxc, int64_t first, bool last_empty,
                                      jg_dtype dtype, uint64_t seed) {
  int64_t *off = malloc(sizeof *off * (size_t)(n + 1));
  assert_non_null(off);
  uint64_t s = seed;
  off[0] = first;
  for (jg_len i = 0; i < n; i++) {
    const uint64_t r = jgt_cf_rnd(&s);
    off[i + 1] = off[i] + (r % 5 == 0 ? 0 : (int64_t)((r >> 8) % (uint64_t)(maxc + 1)));
  }
  if (last_empty && n > 0) off[n] = off[n - 1];
  jg_array *a = jgt_offsets64(off, n + 1, jgt_cf_content(off[n] + 3, dtype));
  free(off);
  return a;
}

/* Builders of the table. */
static inline jg_array *jgt_cf_no_lists(void) {
  return JGT_OFFSETS(jgt_cf_content(3, JG_DTYPE_FLOAT32), 2);
}
static inline jg_array *jgt_cf_all_empty(void) {
  int64_t off[1001];
  for (int i = 0; i <= 1000; i++) off[i] = 7;
  return jgt_offsets64(off, 1001, jgt_cf_content(10, JG_DTYPE_FLOAT64));
}
/* Lengths 0, 1, 2, 3, 0, 1, ... (every list shorter than 4, most shorter than 3). */
static inline jg_array *jgt_cf_short(void) {
  int64_t off[201];
  off[0] = 0;
  for (int i = 0; i < 200; i++) off[i + 1] = off[i] + i % 4;
  return jgt_offsets64(off, 201, jgt_cf_content(off[200], JG_DTYPE_INT16));
}
static inline jg_array *jgt_cf_last_empty(void) {
  return jgt_cf_random(77, 9, 0, true, JG_DTYPE_FLOAT32, 11);
}
static inline jg_array *jgt_cf_not_at_0(void) {
  return jgt_cf_random(300, 8, 1000, false, JG_DTYPE_UINT8, 12);
}
/* int32 offsets. */
static inline jg_array *jgt_cf_int32(void) {
  int32_t off[151];
  uint64_t s = 13;
  off[0] = 5;
  for (int i = 0; i < 150; i++) off[i + 1] = off[i] + (int32_t)(jgt_cf_rnd(&s) % 9);
  return jgt_list_offset(off, 151, JG_DTYPE_INT32, jgt_cf_content(off[150] + 1, JG_DTYPE_INT32));
}
/* A list node: permuted, overlapping lists, empty lists starting anywhere (past the content,
 * before 0), over 40 float64 items; 1030 lists so that a tile boundary falls inside. */
static inline jg_array *jgt_cf_list_node(void) {
  int64_t st[1030], sp[1030];
  uint64_t s = 14;
  for (int i = 0; i < 1030; i++) {
    const uint64_t r = jgt_cf_rnd(&s);
    if (r % 7 == 0) {
      st[i] = sp[i] = i % 2 == 0 ? 99 : -5;
    } else {
      st[i] = (int64_t)((r >> 8) % 35);
      sp[i] = st[i] + (int64_t)((r >> 20) % 6);
    }
  }
  return jgt_list(st, sp, 1030, 1030, JG_DTYPE_INT64, jgt_cf_content(40, JG_DTYPE_FLOAT64));
}
/* Lists [3, 2000) of 2100 random lists (int64 items). */
static inline jg_array *jgt_cf_sliced(void) {
  return jgt_slice(jgt_cf_random(2100, 7, 2, false, JG_DTYPE_INT64, 15), 3, 2000);
}
/* [[], 3000 items, []] (4.5 million pairs). */
static inline jg_array *jgt_cf_long(void) {
  return JGT_OFFSETS(jgt_cf_content(3010, JG_DTYPE_FLOAT32), 4, 4, 3004, 3004);
}
/* [[], [], 300 items] (4.5 million triples). */
static inline jg_array *jgt_cf_long300(void) {
  return JGT_OFFSETS(jgt_cf_content(300, JG_DTYPE_UINT16), 0, 0, 0, 300);
}
static inline jg_array *jgt_cf_one(void) { return jgt_cf_random(1, 9, 1, false, JG_DTYPE_INT8, 16); }
static inline jg_array *jgt_cf_32(void) { return jgt_cf_random(32, 9, 0, false, JG_DTYPE_BOOL, 17); }
static inline jg_array *jgt_cf_1023(void) {
  return jgt_cf_random(1023, 8, 0, false, JG_DTYPE_UINT32, 18);
}
static inline jg_array *jgt_cf_1024(void) {
  return jgt_cf_random(1024, 8, 0, true, JG_DTYPE_FLOAT64, 19);
}
static inline jg_array *jgt_cf_1025(void) {
  return jgt_cf_random(1025, 8, 3, false, JG_DTYPE_UINT64, 20);
}
static inline jg_array *jgt_cf_4096(void) {
  return jgt_cf_random(4096, 10, 0, false, JG_DTYPE_FLOAT32, 21);
}
static inline jg_array *jgt_cf_big(void) {
  return jgt_cf_random(((jg_len)1 << 20) + 1, 6, 0, false, JG_DTYPE_FLOAT32, 22);
}
/* Longer random lists (0..40 items: pairs only). */
static inline jg_array *jgt_cf_wide(void) {
  return jgt_cf_random(5000, 40, 9, true, JG_DTYPE_INT64, 23);
}

typedef struct jgt_cfcase {
  const char *name;
  jg_array *(*make)(void);
  int maxn; /* n runs over 1..maxn, replacement off and on */
} jgt_cfcase;

static inline const jgt_cfcase *jgt_combinatorics_fast_cases(size_t *count) {
  static const jgt_cfcase cases[] = {
      {"no lists", jgt_cf_no_lists, 4},
      {"all lists empty", jgt_cf_all_empty, 4},
      {"lists shorter than n", jgt_cf_short, 4},
      {"last list empty", jgt_cf_last_empty, 4},
      {"offsets not at 0", jgt_cf_not_at_0, 4},
      {"int32 offsets", jgt_cf_int32, 4},
      {"list node", jgt_cf_list_node, 4},
      {"sliced", jgt_cf_sliced, 4},
      {"one very long list", jgt_cf_long, 2},
      {"one list of 300 items", jgt_cf_long300, 3},
      {"one list", jgt_cf_one, 4},
      {"32 lists", jgt_cf_32, 4},
      {"1023 lists", jgt_cf_1023, 4},
      {"1024 lists", jgt_cf_1024, 4},
      {"1025 lists", jgt_cf_1025, 4},
      {"4096 lists", jgt_cf_4096, 4},
      {"2^20 + 1 lists", jgt_cf_big, 4},
      {"random lists up to 40", jgt_cf_wide, 2},
  };
  *count = sizeof cases / sizeof cases[0];
  return cases;
}

/* Element i of a 1-D int32/int64 host view, widened. */
static inline int64_t jgt_cf_index(const jg_view *v, jg_len i) {
  const char *d = (const char *)jg_view_data(v) + (size_t)(i * v->layout.strides[0]) *
                                                      (size_t)v->layout.itemsize;
  return v->dtype == JG_DTYPE_INT32 ? (int64_t) * (const int32_t *)(const void *)d
                                    : *(const int64_t *)(const void *)d;
}

/* Checks the host result `out` of combinations of k items of the host array `a` (replacement
 * `rep`, tuples) against nested loops; returns the number of differences (0: equal), printing
 * the first. */
static inline int jgt_cf_check(const jg_array *a, int k, bool rep, const jg_array *out) {
  if (jg_array_kind(out) != JG_NODE_LIST_OFFSET || jg_array_length(out) != jg_array_length(a)) {
    print_error("not a list-offset array of %lld lists\n", (long long)jg_array_length(a));
    return 1;
  }
  jg_view sv, tv, cv, ov, fv[4];
  if (jg_array_kind(a) == JG_NODE_LIST) {
    JGT_OK(jg_array_buffer(a, 0, &sv, &jgt_err_));
    JGT_OK(jg_array_buffer(a, 1, &tv, &jgt_err_));
  } else {
    JGT_OK(jg_array_buffer(a, 0, &sv, &jgt_err_));
    tv = sv;
  }
  const int64_t shift = jg_array_kind(a) == JG_NODE_LIST ? 0 : 1;
  const jg_array *content = jg_array_child(a, 0);
  JGT_OK(jg_array_buffer(content, 0, &cv, &jgt_err_));
  const size_t isz = (size_t)cv.layout.itemsize;
  const char *c = jg_view_data(&cv);
  JGT_OK(jg_array_buffer(out, 0, &ov, &jgt_err_));
  if (ov.dtype != JG_DTYPE_INT64 || ov.layout.strides[0] != 1) {
    print_error("offsets are not dense int64\n");
    return 1;
  }
  const int64_t *o = jg_view_data(&ov);
  const jg_array *rec = jg_array_child(out, 0);
  if (jg_array_kind(rec) != JG_NODE_RECORD || jg_array_child(rec, k) != NULL ||
      jg_array_field_name(rec, 0) != NULL) {
    print_error("not a tuple of %d fields\n", k);
    return 1;
  }
  const char *f[4];
  for (int q = 0; q < k; q++) {
    const jg_array *fq = jg_array_child(rec, q);
    if (fq == NULL || jg_array_kind(fq) != JG_NODE_NUMERIC) {
      print_error("field %d is not numeric\n", q);
      return 1;
    }
    JGT_OK(jg_array_buffer(fq, 0, &fv[q], &jgt_err_));
    if (fv[q].dtype != cv.dtype || (fv[q].layout.shape[0] > 1 && fv[q].layout.strides[0] != 1) ||
        fv[q].layout.shape[0] != jg_array_length(rec)) {
      print_error("field %d: dtype %s, stride %lld, length %lld\n", q, jg_dtype_name(fv[q].dtype),
                  (long long)fv[q].layout.strides[0], (long long)fv[q].layout.shape[0]);
      return 1;
    }
    f[q] = jg_view_data(&fv[q]);
  }
  const jg_len n = jg_array_length(a);
  int64_t t = 0;
  int bad = 0;
  if (o[0] != 0) bad++;
  for (jg_len i = 0; i < n && bad == 0; i++) {
    const int64_t s0 = jgt_cf_index(&sv, i), L = jgt_cf_index(&tv, i + shift) - s0;
    int64_t idx[4] = {0, 0, 0, 0};
    const int64_t lo = rep ? 0 : 1;
    for (idx[0] = 0; idx[0] < L; idx[0]++) {
      for (idx[1] = k > 1 ? idx[0] + lo : 0; k > 1 ? idx[1] < L : idx[1] < 1; idx[1]++) {
        for (idx[2] = k > 2 ? idx[1] + lo : 0; k > 2 ? idx[2] < L : idx[2] < 1; idx[2]++) {
          for (idx[3] = k > 3 ? idx[2] + lo : 0; k > 3 ? idx[3] < L : idx[3] < 1; idx[3]++) {
            for (int q = 0; q < k && bad == 0; q++) {
              if (t >= jg_array_length(rec) ||
                  memcmp(f[q] + (size_t)t * isz, c + (size_t)(s0 + idx[q]) * isz, isz) != 0) {
                print_error("list %lld, combination %lld, item %d differs\n", (long long)i,
                            (long long)t, q);
                bad++;
              }
            }
            t++;
          }
        }
      }
    }
    if (bad == 0 && o[i + 1] != t) {
      print_error("offsets[%lld] = %lld, expected %lld\n", (long long)(i + 1),
                  (long long)o[i + 1], (long long)t);
      bad++;
    }
  }
  if (bad == 0 && jg_array_length(rec) != t) {
    print_error("%lld combinations, expected %lld\n", (long long)jg_array_length(rec),
                (long long)t);
    bad++;
  }
  return bad;
}

#endif /* JAGGED_TESTS_JGT_COMBINATORICS_FAST_CASES_H */
