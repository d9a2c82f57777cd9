/* test_parquet_assemble.c: Parquet levels to jagged layouts (src/io/parquet/assemble.c). The
 * fused single-pass loops of the common chains (no list, or one list level with an option
 * above and/or below it) against a hand-derived case, and against the generic loops
 * (jgi_pq_assemble_generic) on seeded levels: every chain the fused loops take, value widths
 * 1, 2, 4, 8 (spread in the fused pass), 12 (FIXED: spread by the generic loop after the fused
 * structure) and byte arrays; empty lists, nulls at each level, all-null and all-empty
 * columns, 0 rows; and the corrupt inputs both must reject the same way. */
#include <stdlib.h>

#include "io/parquet/pq_reader.h"
#include "jg_test.h"

/* A leaf of `nchain` nodes given as kinds (O: option, L: list) from the root; definition levels
 * and depths follow from the order. */
static jgi_pq_leaf make_leaf(const char *chain, int value_kind, int width) {
  jgi_pq_leaf l;
  memset(&l, 0, sizeof l);
  int def = 0, rep = 0;
  for (const char *c = chain; *c; c++) {
    jgi_pq_chain *ch = &l.chain[l.nchain++];
    ch->kind = *c == 'L' ? JGI_PQF_LIST : JGI_PQF_OPTION;
    ch->list_depth = rep;
    ch->def = ++def;
    if (*c == 'L') ch->rep = ++rep;
  }
  l.max_def = def;
  l.max_rep = rep;
  l.value_kind = value_kind;
  l.out_width = value_kind == JGI_PQV_BYTES ? 0 : width;
  l.raw_width = l.out_width;
  l.type_length = value_kind == JGI_PQV_FIXED ? width : 0;
  l.physical = value_kind == JGI_PQV_BYTES ? JGI_PQ_BYTE_ARRAY : JGI_PQ_FIXED_LEN_BYTE_ARRAY;
  l.path = "x";
  return l;
}

static void put16(jgi_pq_buf *b, int16_t v) {
  assert_int_equal(jgi_pq_buf_reserve(b, 2 + JGI_PQ_PAD, NULL), JG_OK);
  memcpy(b->data + b->size, &v, 2);
  b->size += 2;
}

static void put_bytes(jgi_pq_buf *b, const void *p, size_t n) {
  assert_int_equal(jgi_pq_buf_reserve(b, n + JGI_PQ_PAD, NULL), JG_OK);
  if (n) memcpy(b->data + b->size, p, n);
  b->size += n;
}

/* One level entry; a value when def is the maximum (seeded bytes, or a byte array of
 * 0..5 bytes). */
static void entry(const jgi_pq_leaf *l, jgi_pq_column_data *cd, int r, int d, unsigned *seed) {
  if (l->max_rep > 0) put16(&cd->rep, (int16_t)r);
  if (l->max_def > 0) put16(&cd->def, (int16_t)d);
  cd->nlevels++;
  if (d != l->max_def) return;
  if (l->value_kind == JGI_PQV_BYTES) {
    if (cd->offsets.size == 0) put_bytes(&cd->offsets, &(int64_t){0}, 8);
    int len = (int)(rand_r(seed) % 6);
    for (int k = 0; k < len; k++) put_bytes(&cd->values, &(uint8_t){(uint8_t)rand_r(seed)}, 1);
    int64_t end = (int64_t)cd->values.size;
    put_bytes(&cd->offsets, &end, 8);
  } else {
    for (int k = 0; k < l->out_width; k++)
      put_bytes(&cd->values, &(uint8_t){(uint8_t)(rand_r(seed) | 1)}, 1);
  }
  cd->nvalues++;
}

/* The levels of `nrows` seeded records. `mode`: 0 mixed, 1 every list empty, 2 every record
 * null at its first option, 3 no nulls and no empty lists. */
static void make_levels(const jgi_pq_leaf *l, int64_t nrows, int mode, unsigned seed,
                        jgi_pq_column_data *cd) {
  memset(cd, 0, sizeof *cd);
  int dlist = 0, d0 = 0;
  for (int p = 0; p < l->nchain; p++) {
    if (l->chain[p].kind == JGI_PQF_LIST && dlist == 0) dlist = l->chain[p].def;
    if (l->chain[p].kind == JGI_PQF_OPTION && l->chain[p].list_depth == 0 && d0 == 0)
      d0 = l->chain[p].def;
  }
  for (int64_t i = 0; i < nrows; i++) {
    unsigned u = (unsigned)rand_r(&seed);
    if (l->max_rep == 0) {
      int d = mode == 2 ? 0 : mode == 3 ? l->max_def : (int)(u % (unsigned)(l->max_def + 1));
      entry(l, cd, 0, d, &seed);
      continue;
    }
    /* Above the list: a null at an option above it, or an empty list. */
    if (mode == 2 || (mode == 0 && d0 > 0 && u % 7 == 0)) {
      entry(l, cd, 0, mode == 2 && d0 == 0 ? dlist - 1 : d0 - 1, &seed);
      continue;
    }
    int len = mode == 1 ? 0 : (int)(u / 7 % 5) + (mode == 3);
    if (len == 0) {
      entry(l, cd, 0, dlist - 1, &seed);
      continue;
    }
    for (int k = 0; k < len; k++) {
      unsigned v = (unsigned)rand_r(&seed);
      int d = mode == 3 ? l->max_def : dlist + (int)(v % (unsigned)(l->max_def - dlist + 1));
      entry(l, cd, k == 0 ? 0 : 1, d, &seed);
    }
  }
}

static void copy_buf(const jgi_pq_buf *a, jgi_pq_buf *b) {
  memset(b, 0, sizeof *b);
  if (a->data != NULL) put_bytes(b, a->data, a->size);
}

static void copy_cd(const jgi_pq_column_data *a, jgi_pq_column_data *b) {
  memset(b, 0, sizeof *b);
  copy_buf(&a->rep, &b->rep);
  copy_buf(&a->def, &b->def);
  copy_buf(&a->values, &b->values);
  copy_buf(&a->offsets, &b->offsets);
  b->nlevels = a->nlevels;
  b->nvalues = a->nvalues;
}

static void assert_same(const jgi_pq_leaf *l, const jgi_pq_assembled *f,
                        const jgi_pq_assembled *g) {
  assert_int_equal(f->nchain, g->nchain);
  for (int p = 0; p < l->nchain; p++) {
    assert_int_equal(f->lengths[p], g->lengths[p]);
    size_t bytes =
        l->chain[p].kind == JGI_PQF_LIST ? (size_t)(f->lengths[p] + 1) * 8 : (size_t)f->lengths[p];
    assert_memory_equal(jg_buffer_data(f->chain_buf[p]), jg_buffer_data(g->chain_buf[p]), bytes);
  }
  assert_int_equal(f->nslots, g->nslots);
  if (l->value_kind == JGI_PQV_BYTES) {
    assert_int_equal(f->nbytes, g->nbytes);
    assert_memory_equal(jg_buffer_data(f->offsets), jg_buffer_data(g->offsets),
                        (size_t)(f->nslots + 1) * 8);
    if (f->nbytes > 0)
      assert_memory_equal(jg_buffer_data(f->values), jg_buffer_data(g->values), (size_t)f->nbytes);
  } else if (f->nslots > 0) {
    assert_memory_equal(jg_buffer_data(f->values), jg_buffer_data(g->values),
                        (size_t)(f->nslots * l->out_width));
  }
}

/* Assembles cd both ways (each on its own copy) and compares; returns the fused status. */
static jg_status both_ways(const jgi_pq_leaf *l, const jgi_pq_column_data *cd, int64_t nrows) {
  jgi_pq_column_data c1, c2;
  copy_cd(cd, &c1);
  copy_cd(cd, &c2);
  jgi_pq_where w = {"<test>", l->path, -1, -1};
  jgi_pq_assembled f, g;
  jg_error e1, e2;
  jg_status s1 = jgi_pq_assemble(l, &c1, nrows, NULL, &w, &f, &e1);
  jg_status s2 = jgi_pq_assemble_generic(l, &c2, nrows, NULL, &w, &g, &e2);
  assert_int_equal(s1, s2);
  if (s1 == JG_OK)
    assert_same(l, &f, &g);
  else
    assert_string_equal(e1.message, e2.message);
  jgi_pq_assembled_reset(&f);
  jgi_pq_assembled_reset(&g);
  jgi_pq_column_data_reset(&c1);
  jgi_pq_column_data_reset(&c2);
  return s1;
}

/* Hand-derived: an optional list of optional int32, records null, [], [1, null, 2], [3]:
 * levels (r, d) = (0,0) (0,1) (0,3) (1,2) (1,3) (0,3); values 1 2 3. */
static void test_hand_optional_list_of_optional(void **state) {
  (void)state;
  jgi_pq_leaf l = make_leaf("OLO", JGI_PQV_NUMERIC, 4);
  l.dtype = JG_DTYPE_INT32;
  jgi_pq_column_data cd;
  memset(&cd, 0, sizeof cd);
  const int16_t r[] = {0, 0, 0, 1, 1, 0}, d[] = {0, 1, 3, 2, 3, 3};
  const int32_t v[] = {1, 2, 3};
  put_bytes(&cd.rep, r, sizeof r);
  put_bytes(&cd.def, d, sizeof d);
  put_bytes(&cd.values, v, sizeof v);
  cd.nlevels = 6;
  cd.nvalues = 3;
  jgi_pq_where w = {"<test>", "x", -1, -1};
  jgi_pq_assembled a;
  JGT_OK(jgi_pq_assemble(&l, &cd, 4, NULL, &w, &a, &jgt_err_));
  assert_int_equal(a.lengths[0], 4);
  assert_int_equal(a.lengths[1], 4);
  assert_int_equal(a.lengths[2], 4);
  assert_memory_equal(jg_buffer_data(a.chain_buf[0]), ((uint8_t[]){0, 1, 1, 1}), 4);
  assert_memory_equal(jg_buffer_data(a.chain_buf[1]), ((int64_t[]){0, 0, 0, 3, 4}), 40);
  assert_memory_equal(jg_buffer_data(a.chain_buf[2]), ((uint8_t[]){1, 0, 1, 1}), 4);
  assert_int_equal(a.nslots, 4);
  assert_memory_equal(jg_buffer_data(a.values), ((int32_t[]){1, 0, 2, 3}), 16);
  jgi_pq_assembled_reset(&a);
  jgi_pq_column_data_reset(&cd);
}

/* Hand-derived: an optional float64, values 1.5, null, 2.5. */
static void test_hand_optional_scalar(void **state) {
  (void)state;
  jgi_pq_leaf l = make_leaf("O", JGI_PQV_NUMERIC, 8);
  jgi_pq_column_data cd;
  memset(&cd, 0, sizeof cd);
  const int16_t d[] = {1, 0, 1};
  const double v[] = {1.5, 2.5};
  put_bytes(&cd.def, d, sizeof d);
  put_bytes(&cd.values, v, sizeof v);
  cd.nlevels = 3;
  cd.nvalues = 2;
  jgi_pq_where w = {"<test>", "x", -1, -1};
  jgi_pq_assembled a;
  JGT_OK(jgi_pq_assemble(&l, &cd, 3, NULL, &w, &a, &jgt_err_));
  assert_memory_equal(jg_buffer_data(a.chain_buf[0]), ((uint8_t[]){1, 0, 1}), 3);
  assert_memory_equal(jg_buffer_data(a.values), ((double[]){1.5, 0, 2.5}), 24);
  jgi_pq_assembled_reset(&a);
  jgi_pq_column_data_reset(&cd);
}

static const char *const chains[] = {"O", "L", "LO", "OL", "OLO", "LOO", "OOL", "OO", "LL"};
static const struct {
  int kind, width;
} kinds[] = {{JGI_PQV_NUMERIC, 1}, {JGI_PQV_NUMERIC, 2}, {JGI_PQV_NUMERIC, 4},
             {JGI_PQV_NUMERIC, 8}, {JGI_PQV_FIXED, 12},  {JGI_PQV_BYTES, 0}};

/* Every chain (the fused ones and a few the generic loops keep) by every value kind, mode
 * and a few sizes, 0 rows included. */
static void test_fused_matches_generic(void **state) {
  (void)state;
  const int64_t sizes[] = {0, 1, 2, 7, 1000};
  for (size_t c = 0; c < sizeof chains / sizeof chains[0]; c++) {
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
      jgi_pq_leaf l = make_leaf(chains[c], kinds[k].kind, kinds[k].width);
      for (int mode = 0; mode < 4; mode++) {
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
          jgi_pq_column_data cd;
          make_levels(&l, sizes[s], mode, (unsigned)(c * 131 + k * 17 + (size_t)mode * 3 + s), &cd);
          assert_int_equal(both_ways(&l, &cd, sizes[s]), JG_OK);
          jgi_pq_column_data_reset(&cd);
        }
      }
    }
  }
}

/* Corrupt levels: a list continued before the first record, and another number of records
 * than the row groups say; both paths reject them with the same message. */
static void test_fused_corrupt(void **state) {
  (void)state;
  for (size_t c = 0; c < 5; c++) {
    jgi_pq_leaf l = make_leaf(chains[c], JGI_PQV_NUMERIC, 4);
    jgi_pq_column_data cd;
    make_levels(&l, 20, 3, 7, &cd);
    assert_int_equal(both_ways(&l, &cd, 19), JG_ECORRUPT);
    assert_int_equal(both_ways(&l, &cd, 21), JG_ECORRUPT);
    if (l.max_rep > 0) {
      int16_t one = 1;
      memcpy(cd.rep.data, &one, 2);
      assert_int_equal(both_ways(&l, &cd, 20), JG_ECORRUPT);
    }
    jgi_pq_column_data_reset(&cd);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_hand_optional_list_of_optional),
      cmocka_unit_test(test_hand_optional_scalar),
      cmocka_unit_test(test_fused_matches_generic),
      cmocka_unit_test(test_fused_corrupt),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
