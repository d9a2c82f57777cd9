/* test_parquet_write.c: the Parquet writer (parquet_writer.h). Files are written to memory and
 * parsed back with the internal layers (jgi_pq_meta_parse, jgi_pq_page_header_parse, the codecs
 * and decoders of jgi_parquet.h): schema elements, levels and values are compared with values
 * derived by hand from the Dremel rules (Melnik et al. 2010, section 4) and LogicalTypes.md's
 * 3-level LIST. Errors: unwritable path, device arrays, unsupported layouts, bad options. */
#define _POSIX_C_SOURCE 200809L /* mkstemp */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "internal/jgi_parquet.h"
#include "jagged/parquet.h"
#include "jagged/parquet_writer.h"
#include "jg_test.h"
#include "jgt_build.h"

/* ------------------------------------------------------------------------------------------ */
/* Building arrays (every helper takes ownership of the child arrays it is given)             */
/* ------------------------------------------------------------------------------------------ */

static jg_array *lo64(const int64_t *off, jg_len n, jg_array *content) {
  jg_view v = host_view(off, n + 1, JG_DTYPE_INT64);
  jg_array *a = NULL;
  JGT_OK(jg_array_list_offset(&v, content, &a, &jgt_err_));
  jg_buffer_release(v.buffer);
  jg_array_release(content);
  return a;
}

static jg_array *lo32(const int32_t *off, jg_len n, jg_array *content) {
  jg_view v = host_view(off, n + 1, JG_DTYPE_INT32);
  jg_array *a = NULL;
  JGT_OK(jg_array_list_offset(&v, content, &a, &jgt_err_));
  jg_buffer_release(v.buffer);
  jg_array_release(content);
  return a;
}

static jg_array *bytemask(const int8_t *m, jg_len n, bool valid_when, jg_array *content) {
  jg_view v = host_view(m, n, JG_DTYPE_INT8);
  jg_array *a = NULL;
  JGT_OK(jg_array_byte_masked(&v, valid_when, content, &a, &jgt_err_));
  jg_buffer_release(v.buffer);
  jg_array_release(content);
  return a;
}

static jg_array *bitmask(const uint8_t *m, jg_len nbytes, bool valid_when, bool lsb, jg_len n,
                         jg_array *content) {
  jg_view v = host_view(m, nbytes, JG_DTYPE_UINT8);
  jg_array *a = NULL;
  JGT_OK(jg_array_bit_masked(&v, valid_when, lsb, n, content, &a, &jgt_err_));
  jg_buffer_release(v.buffer);
  jg_array_release(content);
  return a;
}

static jg_array *indexed(const int64_t *idx, jg_len n, jg_array *content) {
  jg_view v = host_view(idx, n, JG_DTYPE_INT64);
  jg_array *a = NULL;
  JGT_OK(jg_array_indexed_option(&v, content, &a, &jgt_err_));
  jg_buffer_release(v.buffer);
  jg_array_release(content);
  return a;
}

static jg_array *rec(int n, jg_array **fields, const char *const *names) {
  jg_array *a = NULL;
  JGT_OK(jg_array_record(n, fields, names, -1, &a, &jgt_err_));
  for (int k = 0; k < n; k++) jg_array_release(fields[k]);
  return a;
}

/* A table of one field. */
static jg_array *table1(const char *name, jg_array *field) {
  return rec(1, &field, &name);
}

/* ------------------------------------------------------------------------------------------ */
/* Reading the bytes back with the internal layers                                             */
/* ------------------------------------------------------------------------------------------ */

typedef struct pqfile {
  void *data;
  size_t size;
  jgi_pq_file_meta meta;
} pqfile;

static void pq_parse(pqfile *f) {
  const uint8_t *p = f->data;
  assert_true(f->size >= 12);
  assert_memory_equal(p, "PAR1", 4);
  assert_memory_equal(p + f->size - 4, "PAR1", 4);
  uint32_t flen = (uint32_t)p[f->size - 8] | (uint32_t)p[f->size - 7] << 8 |
                  (uint32_t)p[f->size - 6] << 16 | (uint32_t)p[f->size - 5] << 24;
  assert_true(flen + 12 <= f->size);
  memset(&f->meta, 0, sizeof f->meta);
  JGT_OK(jgi_pq_meta_parse(p + f->size - 8 - flen, flen, &f->meta, &jgt_err_));
}

static void pq_write(const jg_array *t, const jg_parquet_write_options *o, pqfile *f) {
  JGT_OK(jg_parquet_write_memory(t, o, &f->data, &f->size, &jgt_err_));
  pq_parse(f);
}

static void pq_free(pqfile *f) {
  jgi_pq_meta_reset(&f->meta);
  jg_parquet_memory_free(f->data);
  memset(f, 0, sizeof *f);
}

/* One leaf column read back over every row group: levels, values (fixed: `width` bytes each;
 * BYTE_ARRAY: offsets and bytes), and what the pages were. */
typedef struct colread {
  int64_t nslots, nvals;
  int16_t rep[4096], def[4096];
  uint8_t vals[8 * 4096];
  int64_t offs[4097];
  jgi_pq_buf bytes;
  int ndata_pages, ndict_pages, ndict_encoded;
  int64_t rows_v2; /* sum of DataPageV2 num_rows */
} colread;

static void colread_reset(colread *r) {
  jgi_pq_buf_reset(&r->bytes);
  free(r);
}

/* Decodes `count` values of `type` from p[0..n) into r (appending). */
static void decode_plain(int type, int width, const uint8_t *p, size_t n, int64_t count,
                         colread *r) {
  size_t used = 0;
  if (type == JGI_PQ_BOOLEAN) {
    JGT_OK(jgi_pq_plain_decode_bool(p, n, count, r->vals + r->nvals, &used, &jgt_err_));
  } else if (type == JGI_PQ_BYTE_ARRAY) {
    r->offs[r->nvals] = (int64_t)r->bytes.size;
    JGT_OK(jgi_pq_plain_decode_bytes(p, n, count, r->offs + r->nvals, &r->bytes, &used, &jgt_err_));
  } else {
    JGT_OK(jgi_pq_plain_decode_fixed(p, n, width, count, r->vals + r->nvals * width, &used,
                                     &jgt_err_));
  }
  assert_int_equal(used, n); /* the page holds exactly these values */
  r->nvals += count;
}

static colread *read_col(const pqfile *f, int col, int max_def, int max_rep) {
  colread *r = calloc(1, sizeof *r);
  assert_non_null(r);
  const uint8_t *file = f->data;
  /* The leaf's schema element: the col-th leaf in schema order. */
  int leaf = -1, seen = 0;
  for (int i = 1; i < f->meta.nschema; i++)
    if (f->meta.schema[i].num_children < 0 && seen++ == col) leaf = i;
  assert_true(leaf > 0);
  const int width =
      f->meta.schema[leaf].type == JGI_PQ_FIXED_LEN_BYTE_ARRAY ? f->meta.schema[leaf].type_length
      : f->meta.schema[leaf].type == JGI_PQ_INT32 || f->meta.schema[leaf].type == JGI_PQ_FLOAT ? 4
      : f->meta.schema[leaf].type == JGI_PQ_BOOLEAN                                            ? 1
                                                                                               : 8;
  const int def_bw = jgi_pq_bit_width((uint64_t)max_def);
  const int rep_bw = jgi_pq_bit_width((uint64_t)max_rep);
  for (int g = 0; g < f->meta.nrow_groups; g++) {
    const jgi_pq_column_chunk *cc = &f->meta.row_groups[g].columns[col];
    assert_true(cc->has_meta);
    const jgi_pq_column_meta *m = &cc->meta;
    assert_int_equal(m->type, f->meta.schema[leaf].type);
    int64_t pos = m->dictionary_page_offset >= 0 ? m->dictionary_page_offset : m->data_page_offset;
    const int64_t end = pos + m->total_compressed_size;
    assert_true(end <= (int64_t)f->size);
    uint8_t dict[8 * 4096];
    int64_t ndict = 0, dict_offs[4097];
    jgi_pq_buf dict_bytes = {0};
    int64_t slots = 0;
    while (pos < end) {
      jgi_pq_page_header h;
      size_t hs = 0;
      JGT_OK(jgi_pq_page_header_parse(file + pos, (size_t)(end - pos), &h, &hs, &jgt_err_));
      const uint8_t *body = file + pos + hs;
      assert_true(pos + (int64_t)hs + h.compressed_size <= end);
      uint8_t *page = malloc((size_t)h.uncompressed_size + 1);
      assert_non_null(page);
      if (h.type == JGI_PQ_DICTIONARY_PAGE) {
        assert_int_equal(h.dict.encoding, JGI_PQ_PLAIN);
        assert_int_equal(m->dictionary_page_offset, pos);
        JGT_OK(jgi_pq_decompress(m->codec, body, (size_t)h.compressed_size, page,
                                 (size_t)h.uncompressed_size, &jgt_err_));
        ndict = h.dict.num_values;
        size_t used = 0;
        if (m->type == JGI_PQ_BYTE_ARRAY) {
          dict_offs[0] = 0;
          JGT_OK(jgi_pq_plain_decode_bytes(page, (size_t)h.uncompressed_size, ndict, dict_offs,
                                           &dict_bytes, &used, &jgt_err_));
        } else {
          JGT_OK(jgi_pq_plain_decode_fixed(page, (size_t)h.uncompressed_size, width, ndict, dict,
                                           &used, &jgt_err_));
        }
        r->ndict_pages++;
      } else {
        int64_t nv = 0;
        const uint8_t *lv = NULL, *vp = NULL;
        size_t vn = 0;
        int encoding;
        if (h.type == JGI_PQ_DATA_PAGE) {
          JGT_OK(jgi_pq_decompress(m->codec, body, (size_t)h.compressed_size, page,
                                   (size_t)h.uncompressed_size, &jgt_err_));
          nv = h.v1.num_values;
          encoding = h.v1.encoding;
          assert_int_equal(h.v1.def_encoding, JGI_PQ_RLE);
          assert_int_equal(h.v1.rep_encoding, JGI_PQ_RLE);
          lv = page;
          size_t left = (size_t)h.uncompressed_size;
          for (int pass = 0; pass < 2; pass++) {
            const int bw = pass == 0 ? rep_bw : def_bw;
            int16_t *out = pass == 0 ? r->rep : r->def;
            if ((pass == 0 ? max_rep : max_def) == 0) {
              for (int64_t k = 0; k < nv; k++) out[r->nslots + k] = 0;
              continue;
            }
            assert_true(left >= 4);
            uint32_t len = (uint32_t)lv[0] | (uint32_t)lv[1] << 8 | (uint32_t)lv[2] << 16 |
                           (uint32_t)lv[3] << 24;
            assert_true(len <= left - 4);
            size_t used = 0;
            JGT_OK(
                jgi_pq_rle_decode_levels(lv + 4, len, bw, nv, out + r->nslots, &used, &jgt_err_));
            lv += 4 + len;
            left -= 4 + len;
          }
          vp = lv;
          vn = left;
        } else {
          assert_int_equal(h.type, JGI_PQ_DATA_PAGE_V2);
          nv = h.v2.num_values;
          encoding = h.v2.encoding;
          const size_t lb = (size_t)h.v2.rep_bytes + (size_t)h.v2.def_bytes;
          assert_true(lb <= (size_t)h.compressed_size);
          size_t used = 0;
          if (max_rep > 0) {
            JGT_OK(jgi_pq_rle_decode_levels(body, (size_t)h.v2.rep_bytes, rep_bw, nv,
                                            r->rep + r->nslots, &used, &jgt_err_));
          } else {
            assert_int_equal(h.v2.rep_bytes, 0);
            for (int64_t k = 0; k < nv; k++) r->rep[r->nslots + k] = 0;
          }
          if (max_def > 0) {
            JGT_OK(jgi_pq_rle_decode_levels(body + h.v2.rep_bytes, (size_t)h.v2.def_bytes, def_bw,
                                            nv, r->def + r->nslots, &used, &jgt_err_));
          } else {
            assert_int_equal(h.v2.def_bytes, 0);
            for (int64_t k = 0; k < nv; k++) r->def[r->nslots + k] = 0;
          }
          const size_t vsize = (size_t)h.uncompressed_size - lb;
          if (h.v2.is_compressed) {
            JGT_OK(jgi_pq_decompress(m->codec, body + lb, (size_t)h.compressed_size - lb, page,
                                     vsize, &jgt_err_));
          } else {
            assert_int_equal(h.compressed_size, h.uncompressed_size);
            memcpy(page, body + lb, vsize);
          }
          vp = page;
          vn = vsize;
          /* num_rows: rep level 0 entries; num_nulls: entries below the maximum def level. */
          int64_t rows = 0, nulls = 0;
          for (int64_t k = 0; k < nv; k++) {
            rows += r->rep[r->nslots + k] == 0;
            nulls += r->def[r->nslots + k] < max_def;
          }
          assert_int_equal(h.v2.num_rows, rows);
          assert_int_equal(h.v2.num_nulls, nulls);
          r->rows_v2 += rows;
        }
        /* Pages start at a row. */
        assert_int_equal(r->rep[r->nslots], 0);
        int64_t count = 0;
        for (int64_t k = 0; k < nv; k++) count += r->def[r->nslots + k] == max_def;
        if (encoding == JGI_PQ_RLE_DICTIONARY) {
          assert_true(ndict > 0);
          assert_true(vn >= 1);
          uint32_t idx[4096];
          size_t used = 0;
          JGT_OK(jgi_pq_rle_decode(vp + 1, vn - 1, vp[0], count, idx, &used, &jgt_err_));
          if (m->type == JGI_PQ_BYTE_ARRAY) {
            r->offs[r->nvals] = (int64_t)r->bytes.size;
            JGT_OK(jgi_pq_dict_gather_bytes(dict_offs, dict_bytes.data, ndict, idx, count,
                                            r->offs + r->nvals, &r->bytes, &jgt_err_));
          } else {
            JGT_OK(jgi_pq_dict_gather(dict, ndict, width, idx, count, r->vals + r->nvals * width,
                                      &jgt_err_));
          }
          r->nvals += count;
          r->ndict_encoded++;
        } else {
          assert_int_equal(encoding, JGI_PQ_PLAIN);
          decode_plain(m->type, width, vp, vn, count, r);
        }
        r->nslots += nv;
        slots += nv;
        r->ndata_pages++;
      }
      free(page);
      pos += (int64_t)hs + h.compressed_size;
    }
    assert_int_equal(pos, end);
    assert_int_equal(slots, m->num_values);
    jgi_pq_buf_reset(&dict_bytes);
  }
  return r;
}

/* Asserts schema element i's fields. */
static void check_elem(const pqfile *f, int i, const char *name, int type, int repetition,
                       int num_children, int converted, int logical) {
  assert_true(i < f->meta.nschema);
  const jgi_pq_schema_elem *e = &f->meta.schema[i];
  assert_string_equal(e->name, name);
  assert_int_equal(e->type, type);
  assert_int_equal(e->repetition, repetition);
  assert_int_equal(e->num_children, num_children);
  assert_int_equal(e->converted_type, converted);
  assert_int_equal(e->logical.kind, logical);
}

static void check_levels(const colread *r, int64_t n, const int16_t *rep, const int16_t *def) {
  assert_int_equal(r->nslots, n);
  for (int64_t k = 0; k < n; k++) {
    assert_int_equal(r->rep[k], rep[k]);
    assert_int_equal(r->def[k], def[k]);
  }
}

static jg_parquet_write_options opts_plain(void) {
  jg_parquet_write_options o;
  jg_parquet_write_options_init(&o);
  o.codec = JG_PARQUET_UNCOMPRESSED;
  o.dictionary = false;
  return o;
}

/* ------------------------------------------------------------------------------------------ */
/* Schema and values of flat columns                                                           */
/* ------------------------------------------------------------------------------------------ */

static void test_flat_types(void **state) {
  (void)state;
  const int8_t i8[] = {-128, -1, 0, 127};
  const int16_t i16[] = {-32768, -2, 3, 32767};
  const int32_t i32[] = {INT32_MIN, -5, 6, INT32_MAX};
  const int64_t i64[] = {INT64_MIN, -7, 8, INT64_MAX};
  const uint8_t u8[] = {0, 1, 200, 255};
  const uint16_t u16[] = {0, 1, 40000, 65535};
  const uint32_t u32[] = {0, 1, 3000000000u, UINT32_MAX};
  const uint64_t u64[] = {0, 1, 10000000000000000000ull, UINT64_MAX};
  const float f32[] = {-1.5f, 0.0f, 2.25f, 3e38f};
  const double f64[] = {-1.5, -0.0, 1e300, 0.1};
  const uint8_t b[] = {1, 0, 0, 1};
  const uint16_t f16[] = {0x3c00, 0xc000, 0x7bff, 0x0001}; /* 1, -2, 65504, 2^-24 */
  jg_array *fields[] = {
      num(i8, 4, JG_DTYPE_INT8),     num(i16, 4, JG_DTYPE_INT16),  num(i32, 4, JG_DTYPE_INT32),
      num(i64, 4, JG_DTYPE_INT64),   num(u8, 4, JG_DTYPE_UINT8),   num(u16, 4, JG_DTYPE_UINT16),
      num(u32, 4, JG_DTYPE_UINT32),  num(u64, 4, JG_DTYPE_UINT64), num(f32, 4, JG_DTYPE_FLOAT32),
      num(f64, 4, JG_DTYPE_FLOAT64), num(b, 4, JG_DTYPE_BOOL),     num(f16, 4, JG_DTYPE_FLOAT16)};
  const char *names[] = {"i8",  "i16", "i32", "i64", "u8", "u16",
                         "u32", "u64", "f32", "f64", "b",  "f16"};
  jg_array *t = rec(12, fields, names);
  jg_parquet_write_options o = opts_plain();
  pqfile f;
  pq_write(t, &o, &f);
  assert_int_equal(f.meta.num_rows, 4);
  assert_int_equal(f.meta.nrow_groups, 1);
  assert_int_equal(f.meta.nschema, 13);
  assert_string_equal(f.meta.created_by, "jagged " JG_VERSION_STRING);
  check_elem(&f, 0, "schema", -1, -1, 12, -1, JGI_PQ_LT_NONE);
  /* LogicalTypes.md: INT(8, true) is INT32 annotated INT_8, ..., UINT_64 on INT64. */
  const struct {
    int type, ct, lt, bits, sign;
  } want[] = {
      {JGI_PQ_INT32, JGI_PQ_CT_INT_8, JGI_PQ_LT_INTEGER, 8, 1},
      {JGI_PQ_INT32, JGI_PQ_CT_INT_16, JGI_PQ_LT_INTEGER, 16, 1},
      {JGI_PQ_INT32, JGI_PQ_CT_INT_32, JGI_PQ_LT_INTEGER, 32, 1},
      {JGI_PQ_INT64, -1, JGI_PQ_LT_NONE, 0, 0},
      {JGI_PQ_INT32, JGI_PQ_CT_UINT_8, JGI_PQ_LT_INTEGER, 8, 0},
      {JGI_PQ_INT32, JGI_PQ_CT_UINT_16, JGI_PQ_LT_INTEGER, 16, 0},
      {JGI_PQ_INT32, JGI_PQ_CT_UINT_32, JGI_PQ_LT_INTEGER, 32, 0},
      {JGI_PQ_INT64, JGI_PQ_CT_UINT_64, JGI_PQ_LT_INTEGER, 64, 0},
      {JGI_PQ_FLOAT, -1, JGI_PQ_LT_NONE, 0, 0},
      {JGI_PQ_DOUBLE, -1, JGI_PQ_LT_NONE, 0, 0},
      {JGI_PQ_BOOLEAN, -1, JGI_PQ_LT_NONE, 0, 0},
      {JGI_PQ_FIXED_LEN_BYTE_ARRAY, -1, JGI_PQ_LT_FLOAT16, 0, 0},
  };
  for (int k = 0; k < 12; k++) {
    check_elem(&f, k + 1, names[k], want[k].type, JGI_PQ_REQUIRED, -1, want[k].ct, want[k].lt);
    if (want[k].lt == JGI_PQ_LT_INTEGER) {
      assert_int_equal(f.meta.schema[k + 1].logical.bit_width, want[k].bits);
      assert_int_equal(f.meta.schema[k + 1].logical.is_signed, want[k].sign != 0);
    }
    const jgi_pq_column_meta *m = &f.meta.row_groups[0].columns[k].meta;
    assert_int_equal(m->npath, 1);
    assert_string_equal(m->path[0], names[k]);
    assert_int_equal(m->num_values, 4);
    assert_int_equal(m->codec, JGI_PQ_UNCOMPRESSED);
  }
  assert_int_equal(f.meta.schema[12].type_length, 2);
  /* Values: narrow integers widened to INT32 (sign- or zero-extended), the rest as stored. */
  for (int k = 0; k < 12; k++) {
    colread *r = read_col(&f, k, 0, 0);
    assert_int_equal(r->nvals, 4);
    for (int i = 0; i < 4; i++) {
      switch (k) {
        case 0:
          assert_int_equal(((int32_t *)r->vals)[i], i8[i]);
          break;
        case 1:
          assert_int_equal(((int32_t *)r->vals)[i], i16[i]);
          break;
        case 2:
          assert_int_equal(((int32_t *)r->vals)[i], i32[i]);
          break;
        case 3:
          assert_true(((int64_t *)r->vals)[i] == i64[i]);
          break;
        case 4:
          assert_int_equal(((int32_t *)r->vals)[i], u8[i]);
          break;
        case 5:
          assert_int_equal(((int32_t *)r->vals)[i], u16[i]);
          break;
        case 6:
          assert_int_equal(((uint32_t *)r->vals)[i], u32[i]);
          break;
        case 7:
          assert_true(((uint64_t *)r->vals)[i] == u64[i]);
          break;
        case 8:
          assert_memory_equal(r->vals, f32, sizeof f32);
          break;
        case 9:
          assert_memory_equal(r->vals, f64, sizeof f64);
          break;
        case 10:
          assert_int_equal(r->vals[i], b[i]);
          break;
        default:
          assert_memory_equal(r->vals, f16, sizeof f16);
          break;
      }
    }
    colread_reset(r);
  }
  pq_free(&f);
  jg_array_release(t);
}

/* A strided (every other element) and a reversed numeric column. */
static void test_flat_strided(void **state) {
  (void)state;
  const int64_t vals[] = {0, 10, 20, 30, 40, 50, 60, 70};
  jg_array *a = num(vals, 8, JG_DTYPE_INT64);
  jg_view v;
  JGT_OK(jg_array_buffer(a, 0, &v, &jgt_err_));
  jg_slice sl = {false, 1, 8, 2}; /* 10, 30, 50, 70 */
  jg_view s;
  JGT_OK(jg_view_slice(&s, &v, 1, &sl, &jgt_err_));
  jg_array *strided = NULL;
  JGT_OK(jg_array_numeric(&s, &strided, &jgt_err_));
  jg_array_release(a);
  jg_array *t = table1("x", strided);
  jg_parquet_write_options o = opts_plain();
  pqfile f;
  pq_write(t, &o, &f);
  colread *r = read_col(&f, 0, 0, 0);
  const int64_t want[] = {10, 30, 50, 70};
  assert_int_equal(r->nvals, 4);
  assert_memory_equal(r->vals, want, sizeof want);
  colread_reset(r);
  pq_free(&f);
  jg_array_release(t);
}

/* ------------------------------------------------------------------------------------------ */
/* Levels of nested forms, derived by hand                                                     */
/* ------------------------------------------------------------------------------------------ */

/* [[1, 2], [], None, [3]] as ?var * int64: `x` OPTIONAL LIST, `list` REPEATED, `element`
 * REQUIRED. Max def 2 (x present +1, list non-empty +1), max rep 1. Entries: 1 (r0 d2), 2 (r1
 * d2), [] (r0 d1), None (r0 d0), 3 (r0 d2). */
static void test_option_list(void **state) {
  (void)state;
  const int64_t content[] = {1, 2, 3};
  const int64_t off[] = {0, 2, 2, 2, 3};
  const int8_t mask[] = {1, 1, 0, 1};
  jg_array *t = table1("x", bytemask(mask, 4, true, lo64(off, 4, num(content, 3, JG_DTYPE_INT64))));
  for (int version = 1; version <= 2; version++) {
    jg_parquet_write_options o = opts_plain();
    o.data_page_version = version;
    pqfile f;
    pq_write(t, &o, &f);
    assert_int_equal(f.meta.nschema, 4);
    check_elem(&f, 1, "x", -1, JGI_PQ_OPTIONAL, 1, JGI_PQ_CT_LIST, JGI_PQ_LT_LIST);
    check_elem(&f, 2, "list", -1, JGI_PQ_REPEATED, 1, -1, JGI_PQ_LT_NONE);
    check_elem(&f, 3, "element", JGI_PQ_INT64, JGI_PQ_REQUIRED, -1, -1, JGI_PQ_LT_NONE);
    const jgi_pq_column_meta *m = &f.meta.row_groups[0].columns[0].meta;
    assert_int_equal(m->npath, 3);
    assert_string_equal(m->path[0], "x");
    assert_string_equal(m->path[1], "list");
    assert_string_equal(m->path[2], "element");
    assert_int_equal(m->num_values, 5);
    colread *r = read_col(&f, 0, 2, 1);
    check_levels(r, 5, (const int16_t[]){0, 1, 0, 0, 0}, (const int16_t[]){2, 2, 1, 0, 2});
    assert_int_equal(r->nvals, 3);
    assert_memory_equal(r->vals, content, sizeof content);
    if (version == 2) assert_int_equal(r->rows_v2, 4);
    colread_reset(r);
    pq_free(&f);
  }
  jg_array_release(t);
}

/* [[1, None], [], [None]] as var * ?int32 (int32 offsets): list REQUIRED, element OPTIONAL.
 * Max def 2 (non-empty +1, element present +1). 1 (r0 d2), None (r1 d1), [] (r0 d0), None (r0
 * d1). */
static void test_list_of_options(void **state) {
  (void)state;
  const int32_t content[] = {1, 99, 98};
  const int8_t valid[] = {1, 0, 0};
  const int32_t off[] = {0, 2, 2, 3};
  jg_array *t =
      table1("y", lo32(off, 3, bytemask(valid, 3, true, num(content, 3, JG_DTYPE_INT32))));
  jg_parquet_write_options o = opts_plain();
  pqfile f;
  pq_write(t, &o, &f);
  check_elem(&f, 1, "y", -1, JGI_PQ_REQUIRED, 1, JGI_PQ_CT_LIST, JGI_PQ_LT_LIST);
  check_elem(&f, 3, "element", JGI_PQ_INT32, JGI_PQ_OPTIONAL, -1, JGI_PQ_CT_INT_32,
             JGI_PQ_LT_INTEGER);
  colread *r = read_col(&f, 0, 2, 1);
  check_levels(r, 4, (const int16_t[]){0, 1, 0, 0}, (const int16_t[]){2, 1, 0, 1});
  assert_int_equal(r->nvals, 1);
  assert_int_equal(((int32_t *)r->vals)[0], 1);
  colread_reset(r);
  pq_free(&f);
  jg_array_release(t);
}

/* [[[1], []], [], [[2, 3]]] as var * var * int32: max def 2, max rep 2. 1 (r0 d2), inner []
 * (r1 d1), outer [] (r0 d0), 2 (r0 d2), 3 (r2 d2). */
static void test_list_of_lists(void **state) {
  (void)state;
  const int32_t content[] = {1, 2, 3};
  const int64_t inner[] = {0, 1, 1, 3};
  const int64_t outer[] = {0, 2, 2, 3};
  jg_array *t = table1("z", lo64(outer, 3, lo64(inner, 3, num(content, 3, JG_DTYPE_INT32))));
  jg_parquet_write_options o = opts_plain();
  pqfile f;
  pq_write(t, &o, &f);
  assert_int_equal(f.meta.nschema, 6);
  check_elem(&f, 3, "element", -1, JGI_PQ_REQUIRED, 1, JGI_PQ_CT_LIST, JGI_PQ_LT_LIST);
  check_elem(&f, 4, "list", -1, JGI_PQ_REPEATED, 1, -1, JGI_PQ_LT_NONE);
  check_elem(&f, 5, "element", JGI_PQ_INT32, JGI_PQ_REQUIRED, -1, JGI_PQ_CT_INT_32,
             JGI_PQ_LT_INTEGER);
  colread *r = read_col(&f, 0, 2, 2);
  check_levels(r, 5, (const int16_t[]){0, 1, 0, 0, 2}, (const int16_t[]){2, 1, 0, 2, 2});
  assert_int_equal(r->nvals, 3);
  assert_memory_equal(r->vals, content, sizeof content);
  colread_reset(r);
  pq_free(&f);
  jg_array_release(t);
}

/* [[{x: 1, y: [5]}, {x: 2, y: []}], []] as var * {x: int64, y: var * int64}.
 * x: max def 1, max rep 1: 1 (r0 d1), 2 (r1 d1), [] (r0 d0).
 * y: max def 2, max rep 2: 5 (r0 d2), y [] (r1 d1), outer [] (r0 d0). */
static void test_list_of_records(void **state) {
  (void)state;
  const int64_t xs[] = {1, 2};
  const int64_t ys[] = {5};
  const int64_t yoff[] = {0, 1, 1};
  const int64_t off[] = {0, 2, 2};
  jg_array *fields[] = {num(xs, 2, JG_DTYPE_INT64), lo64(yoff, 2, num(ys, 1, JG_DTYPE_INT64))};
  const char *names[] = {"x", "y"};
  jg_array *t = table1("p", lo64(off, 2, rec(2, fields, names)));
  jg_parquet_write_options o = opts_plain();
  pqfile f;
  pq_write(t, &o, &f);
  /* p (LIST), list, element (group of 2), x, y (LIST), list, element */
  assert_int_equal(f.meta.nschema, 8);
  check_elem(&f, 3, "element", -1, JGI_PQ_REQUIRED, 2, -1, JGI_PQ_LT_NONE);
  check_elem(&f, 4, "x", JGI_PQ_INT64, JGI_PQ_REQUIRED, -1, -1, JGI_PQ_LT_NONE);
  check_elem(&f, 5, "y", -1, JGI_PQ_REQUIRED, 1, JGI_PQ_CT_LIST, JGI_PQ_LT_LIST);
  const jgi_pq_column_meta *m = &f.meta.row_groups[0].columns[1].meta;
  assert_int_equal(m->npath, 6);
  const char *path[] = {"p", "list", "element", "y", "list", "element"};
  for (int k = 0; k < 6; k++) assert_string_equal(m->path[k], path[k]);
  colread *r = read_col(&f, 0, 1, 1);
  check_levels(r, 3, (const int16_t[]){0, 1, 0}, (const int16_t[]){1, 1, 0});
  assert_int_equal(((int64_t *)r->vals)[1], 2);
  colread_reset(r);
  r = read_col(&f, 1, 2, 2);
  check_levels(r, 3, (const int16_t[]){0, 1, 0}, (const int16_t[]){2, 1, 0});
  assert_int_equal(r->nvals, 1);
  assert_int_equal(((int64_t *)r->vals)[0], 5);
  colread_reset(r);
  pq_free(&f);
  jg_array_release(t);
}

/* Options at every level: ?{a: ?var * ?float64} over rows
 *   {a: [1.5, None]}, None, {a: None}, {a: []}
 * (the record an indexed option, the list bit-masked MSB-first, the values byte-masked with
 * valid_when false). a.list.element: max def 4 (record +1, a +1, non-empty +1, element +1),
 * max rep 1: 1.5 (r0 d4), None (r1 d3), None record (r0 d0), None a (r0 d1), [] (r0 d2). */
static void test_options_every_level(void **state) {
  (void)state;
  const double vals[] = {1.5, -7.0};
  const int8_t nulls[] = {0, 1};         /* valid when 0 */
  const int64_t off[] = {0, 2, 2, 2};    /* three records' lists */
  const uint8_t bits[] = {0xA0};         /* MSB first: valid, not valid, valid */
  const int64_t index[] = {0, -1, 1, 2}; /* record 1 is None */
  jg_array *vals_opt = bytemask(nulls, 2, false, num(vals, 2, JG_DTYPE_FLOAT64));
  jg_array *lists = bitmask(bits, 1, true, false, 3, lo64(off, 3, vals_opt));
  const char *name = "a";
  jg_array *t = table1("r", indexed(index, 4, rec(1, &lists, &name)));
  jg_parquet_write_options o = opts_plain();
  pqfile f;
  pq_write(t, &o, &f);
  check_elem(&f, 1, "r", -1, JGI_PQ_OPTIONAL, 1, -1, JGI_PQ_LT_NONE);
  check_elem(&f, 2, "a", -1, JGI_PQ_OPTIONAL, 1, JGI_PQ_CT_LIST, JGI_PQ_LT_LIST);
  check_elem(&f, 4, "element", JGI_PQ_DOUBLE, JGI_PQ_OPTIONAL, -1, -1, JGI_PQ_LT_NONE);
  colread *r = read_col(&f, 0, 4, 1);
  check_levels(r, 5, (const int16_t[]){0, 1, 0, 0, 0}, (const int16_t[]){4, 3, 0, 1, 2});
  assert_int_equal(r->nvals, 1);
  assert_true(((double *)r->vals)[0] == 1.5);
  colread_reset(r);
  pq_free(&f);
  jg_array_release(t);
}

/* Offsets that do not start at 0, a slice of a list array, and starts/stops out of order. */
static void test_sliced_and_unordered(void **state) {
  (void)state;
  const int64_t content[] = {9, 9, 9, 1, 2, 3, 4};
  const int64_t off[] = {3, 5, 5, 7};                      /* [[1, 2], [], [3, 4]] */
  const int64_t starts[] = {4, 0, 2}, stops[] = {6, 2, 2}; /* [[2, 3], [9, 9], []] */
  jg_array *full = lo64(off, 3, num(content, 7, JG_DTYPE_INT64));
  jg_array *sliced = NULL;
  JGT_OK(jg_array_slice(full, 1, 3, &sliced, &jgt_err_)); /* [[], [3, 4]] */
  jg_array *fields[] = {full, lss(starts, stops, 3, num(content, 7, JG_DTYPE_INT64))};
  const char *names[] = {"a", "b"};
  jg_array *t = rec(2, fields, names);
  jg_array *t2 = table1("s", sliced);
  jg_parquet_write_options o = opts_plain();
  pqfile f;
  pq_write(t, &o, &f);
  colread *r = read_col(&f, 0, 1, 1);
  check_levels(r, 5, (const int16_t[]){0, 1, 0, 0, 1}, (const int16_t[]){1, 1, 0, 1, 1});
  assert_memory_equal(r->vals, ((const int64_t[]){1, 2, 3, 4}), 4 * sizeof(int64_t));
  colread_reset(r);
  r = read_col(&f, 1, 1, 1);
  check_levels(r, 5, (const int16_t[]){0, 1, 0, 1, 0}, (const int16_t[]){1, 1, 1, 1, 0});
  assert_memory_equal(r->vals, ((const int64_t[]){2, 3, 9, 9}), 4 * sizeof(int64_t));
  colread_reset(r);
  pq_free(&f);
  pq_write(t2, &o, &f);
  r = read_col(&f, 0, 1, 1);
  check_levels(r, 3, (const int16_t[]){0, 0, 1}, (const int16_t[]){0, 1, 1});
  assert_memory_equal(r->vals, ((const int64_t[]){3, 4}), 2 * sizeof(int64_t));
  colread_reset(r);
  pq_free(&f);
  jg_array_release(t);
  jg_array_release(t2);
}

/* Lists of uint8 are BYTE_ARRAY values: ["ab", "", None, "xyz"] (option of the list). Regular
 * lists of other types are LISTs of fixed length; 2-D numeric data too. */
static void test_bytes_and_regular(void **state) {
  (void)state;
  const uint8_t chars[] = {'q', 'a', 'b', 'x', 'y', 'z'};
  const int64_t off[] = {1, 3, 3, 3, 6};
  const int8_t mask[] = {1, 1, 0, 1};
  jg_array *bytes = bytemask(mask, 4, true, lo64(off, 4, num(chars, 6, JG_DTYPE_UINT8)));
  const int16_t r6[] = {1, 2, 3, 4, 5, 6};
  jg_array *reg = NULL, *r6a = num(r6, 6, JG_DTYPE_INT16);
  JGT_OK(jg_array_regular(r6a, 3, -1, &reg, &jgt_err_));
  jg_array_release(r6a);
  /* 2-D float32 data of shape (2, 2), transposed (strides (1, 2)): rows [1, 3], [2, 4]. */
  const float m[] = {1, 2, 3, 4};
  jg_array *m0 = num(m, 4, JG_DTYPE_FLOAT32);
  jg_view v;
  JGT_OK(jg_array_buffer(m0, 0, &v, &jgt_err_));
  v.layout.ndim = 2;
  v.layout.shape[0] = v.layout.shape[1] = 2;
  v.layout.strides[0] = 1;
  v.layout.strides[1] = 2;
  jg_array *m2 = NULL;
  JGT_OK(jg_array_numeric(&v, &m2, &jgt_err_));
  jg_array_release(m0);
  jg_array *fields[] = {bytes, reg, m2};
  const char *names[] = {"s", "r", "m"};
  jg_array *t = NULL;
  JGT_OK(jg_array_record(3, fields, names, 2, &t, &jgt_err_));
  /* The bytes alone, all four rows. */
  jg_array *ta = NULL;
  JGT_OK(jg_array_record(1, fields, names, -1, &ta, &jgt_err_));
  for (int k = 0; k < 3; k++) jg_array_release(fields[k]);
  jg_parquet_write_options o = opts_plain();
  pqfile f;
  pq_write(ta, &o, &f);
  check_elem(&f, 1, "s", JGI_PQ_BYTE_ARRAY, JGI_PQ_OPTIONAL, -1, -1, JGI_PQ_LT_NONE);
  colread *r = read_col(&f, 0, 1, 0);
  check_levels(r, 4, (const int16_t[]){0, 0, 0, 0}, (const int16_t[]){1, 1, 0, 1});
  assert_int_equal(r->nvals, 3);
  assert_int_equal(r->offs[1] - r->offs[0], 2);
  assert_memory_equal(r->bytes.data + r->offs[0], "ab", 2);
  assert_int_equal(r->offs[2] - r->offs[1], 0);
  assert_int_equal(r->offs[3] - r->offs[2], 3);
  assert_memory_equal(r->bytes.data + r->offs[2], "xyz", 3);
  colread_reset(r);
  pq_free(&f);
  pq_write(t, &o, &f);
  check_elem(&f, 2, "r", -1, JGI_PQ_REQUIRED, 1, JGI_PQ_CT_LIST, JGI_PQ_LT_LIST);
  check_elem(&f, 5, "m", -1, JGI_PQ_REQUIRED, 1, JGI_PQ_CT_LIST, JGI_PQ_LT_LIST);
  r = read_col(&f, 1, 1, 1);
  check_levels(r, 6, (const int16_t[]){0, 1, 1, 0, 1, 1}, (const int16_t[]){1, 1, 1, 1, 1, 1});
  for (int k = 0; k < 6; k++) assert_int_equal(((int32_t *)r->vals)[k], r6[k]);
  colread_reset(r);
  r = read_col(&f, 2, 1, 1);
  check_levels(r, 4, (const int16_t[]){0, 1, 0, 1}, (const int16_t[]){1, 1, 1, 1});
  assert_memory_equal(r->vals, ((const float[]){1, 3, 2, 4}), 4 * sizeof(float));
  colread_reset(r);
  pq_free(&f);
  jg_array_release(ta);
  jg_array_release(t);
}

/* ------------------------------------------------------------------------------------------ */
/* Options: codecs, page versions, dictionaries, row groups, pages                             */
/* ------------------------------------------------------------------------------------------ */

/* n rows: row i has i % 4 values, value j of row i is (i * 7 + j) % 5 (few distinct values, so
 * the dictionary is used), None every 5th row; plus a flat column i * 3 (all distinct). */
#define NROWS 301
static jg_array *make_table(int64_t *nvals_out) {
  static int64_t off[NROWS + 1];
  static double vals[NROWS * 4];
  static int8_t mask[NROWS];
  static int64_t flat[NROWS];
  int64_t n = 0;
  for (int i = 0; i < NROWS; i++) {
    off[i] = n;
    for (int j = 0; j < i % 4; j++) vals[n++] = (double)((i * 7 + j) % 5);
    mask[i] = i % 5 != 0;
    flat[i] = 3 * (int64_t)i;
  }
  off[NROWS] = n;
  *nvals_out = n;
  jg_array *fields[] = {
      bytemask(mask, NROWS, true, lo64(off, NROWS, num(vals, n, JG_DTYPE_FLOAT64))),
      num(flat, NROWS, JG_DTYPE_INT64)};
  const char *names[] = {"v", "k"};
  return rec(2, fields, names);
}

static void check_table(const pqfile *f, bool dict_expected) {
  assert_int_equal(f->meta.num_rows, NROWS);
  colread *r = read_col(f, 0, 2, 1);
  int64_t s = 0, n = 0;
  for (int i = 0; i < NROWS; i++) {
    if (i % 5 == 0) {
      assert_int_equal(r->rep[s], 0);
      assert_int_equal(r->def[s++], 0);
      continue;
    }
    if (i % 4 == 0) {
      assert_int_equal(r->rep[s], 0);
      assert_int_equal(r->def[s++], 1);
      continue;
    }
    for (int j = 0; j < i % 4; j++) {
      assert_int_equal(r->rep[s], j == 0 ? 0 : 1);
      assert_int_equal(r->def[s++], 2);
      assert_true(((double *)r->vals)[n++] == (double)((i * 7 + j) % 5));
    }
  }
  assert_int_equal(r->nslots, s);
  assert_int_equal(r->nvals, n);
  if (dict_expected) {
    assert_true(r->ndict_pages == f->meta.nrow_groups);
    assert_true(r->ndict_encoded == r->ndata_pages);
  } else {
    assert_int_equal(r->ndict_pages, 0);
  }
  colread_reset(r);
  r = read_col(f, 1, 0, 0);
  assert_int_equal(r->nvals, NROWS);
  for (int i = 0; i < NROWS; i++) assert_true(((int64_t *)r->vals)[i] == 3 * (int64_t)i);
  /* All distinct: more distinct values than a quarter of the values, so PLAIN. */
  assert_int_equal(r->ndict_pages, 0);
  colread_reset(r);
}

static void test_option_matrix(void **state) {
  (void)state;
  int64_t nv = 0;
  jg_array *t = make_table(&nv);
  const jg_parquet_codec codecs[] = {JG_PARQUET_UNCOMPRESSED, JG_PARQUET_SNAPPY,
                                     JG_PARQUET_GZIP,         JG_PARQUET_ZSTD,
                                     JG_PARQUET_LZ4_RAW,      JG_PARQUET_BROTLI};
  const int64_t rgrs[] = {1, 7, NROWS};
  int tried = 0;
  for (size_t c = 0; c < sizeof codecs / sizeof codecs[0]; c++) {
    if (!jg_parquet_codec_available(codecs[c])) continue;
    for (int version = 1; version <= 2; version++)
      for (int dict = 0; dict <= 1; dict++)
        for (size_t g = 0; g < 3; g++) {
          jg_parquet_write_options o;
          jg_parquet_write_options_init(&o);
          o.codec = codecs[c];
          o.data_page_version = version;
          o.dictionary = dict != 0;
          o.row_group_rows = rgrs[g];
          pqfile f;
          pq_write(t, &o, &f);
          assert_int_equal(f.meta.nrow_groups, (NROWS + rgrs[g] - 1) / rgrs[g]);
          int64_t rows = 0;
          for (int k = 0; k < f.meta.nrow_groups; k++) {
            rows += f.meta.row_groups[k].num_rows;
            assert_int_equal(f.meta.row_groups[k].columns[0].meta.codec, (int)codecs[c]);
          }
          assert_int_equal(rows, NROWS);
          /* One-row groups hold 0..3 values: too few for a dictionary (a quarter of them). */
          check_table(&f, dict != 0 && rgrs[g] == NROWS);
          pq_free(&f);
          tried++;
        }
  }
  assert_true(tried >= 12); /* UNCOMPRESSED always, SNAPPY by default */
  jg_array_release(t);
}

/* A small page size gives many pages, each starting at a row. */
static void test_pages(void **state) {
  (void)state;
  int64_t nv = 0;
  jg_array *t = make_table(&nv);
  for (int version = 1; version <= 2; version++) {
    jg_parquet_write_options o;
    jg_parquet_write_options_init(&o);
    o.page_size = 64;
    o.data_page_version = version;
    o.dictionary = false;
    pqfile f;
    pq_write(t, &o, &f);
    check_table(&f, false);
    colread *r = read_col(&f, 0, 2, 1);
    /* ~451 values of 8 bytes in pages of 64 bytes. */
    assert_true(r->ndata_pages >= 40);
    colread_reset(r);
    pq_free(&f);
  }
  jg_array_release(t);
}

/* The dictionary falls back to PLAIN past its byte limit. */
static void test_dictionary_limit(void **state) {
  (void)state;
  int64_t nv = 0;
  jg_array *t = make_table(&nv);
  jg_parquet_write_options o;
  jg_parquet_write_options_init(&o);
  o.dictionary_size = 16; /* 5 distinct doubles need 40 bytes */
  pqfile f;
  pq_write(t, &o, &f);
  check_table(&f, false);
  const jgi_pq_column_meta *m = &f.meta.row_groups[0].columns[0].meta;
  assert_int_equal(m->dictionary_page_offset, -1);
  pq_free(&f);
  o.dictionary_size = 40;
  pq_write(t, &o, &f);
  check_table(&f, true);
  m = &f.meta.row_groups[0].columns[0].meta;
  assert_int_equal(m->dictionary_page_offset, 4); /* the first chunk starts after "PAR1" */
  bool has_dict = false;
  for (int k = 0; k < m->nencodings; k++) has_dict |= m->encodings[k] == JGI_PQ_RLE_DICTIONARY;
  assert_true(has_dict);
  pq_free(&f);
  jg_array_release(t);
}

/* Byte arrays through the dictionary: 40 rows of 4 distinct strings. */
static void test_dictionary_bytes(void **state) {
  (void)state;
  const char *words[] = {"mu", "", "electron", "tau"};
  uint8_t chars[400];
  int64_t off[41], n = 0;
  for (int i = 0; i < 40; i++) {
    off[i] = n;
    size_t len = strlen(words[i % 4]);
    memcpy(chars + n, words[i % 4], len);
    n += (int64_t)len;
  }
  off[40] = n;
  jg_array *t = table1("w", lo64(off, 40, num(chars, n, JG_DTYPE_UINT8)));
  jg_parquet_write_options o;
  jg_parquet_write_options_init(&o);
  pqfile f;
  pq_write(t, &o, &f);
  colread *r = read_col(&f, 0, 0, 0);
  assert_int_equal(r->ndict_pages, 1);
  assert_int_equal(r->nvals, 40);
  for (int i = 0; i < 40; i++) {
    size_t len = strlen(words[i % 4]);
    assert_int_equal(r->offs[i + 1] - r->offs[i], (int64_t)len);
    if (len > 0) assert_memory_equal(r->bytes.data + r->offs[i], words[i % 4], len);
  }
  colread_reset(r);
  pq_free(&f);
  jg_array_release(t);
}

/* Empty tables, empty lists only, and an empty (unknown) content. */
static void test_empty(void **state) {
  (void)state;
  const int64_t off0[] = {0, 0, 0};
  jg_array *fields[] = {lo64(off0, 2, num(NULL, 0, JG_DTYPE_FLOAT32)), NULL};
  jg_array *e = NULL;
  JGT_OK(jg_array_empty(&e, &jgt_err_));
  fields[1] = lo64(off0, 2, e);
  const char *names[] = {"a", "u"};
  jg_array *t = rec(2, fields, names);
  jg_parquet_write_options o = opts_plain();
  pqfile f;
  pq_write(t, &o, &f);
  check_elem(&f, 6, "element", JGI_PQ_INT32, JGI_PQ_OPTIONAL, -1, -1, JGI_PQ_LT_UNKNOWN);
  colread *r = read_col(&f, 0, 1, 1);
  check_levels(r, 2, (const int16_t[]){0, 0}, (const int16_t[]){0, 0});
  assert_int_equal(r->nvals, 0);
  colread_reset(r);
  r = read_col(&f, 1, 2, 1);
  check_levels(r, 2, (const int16_t[]){0, 0}, (const int16_t[]){0, 0});
  colread_reset(r);
  pq_free(&f);
  /* Zero rows: no row groups. */
  jg_array *t0 = NULL;
  JGT_OK(jg_array_slice(t, 0, 0, &t0, &jgt_err_));
  pq_write(t0, &o, &f);
  assert_int_equal(f.meta.num_rows, 0);
  assert_int_equal(f.meta.nrow_groups, 0);
  assert_int_equal(f.meta.nschema, 7);
  pq_free(&f);
  jg_array_release(t0);
  jg_array_release(t);
}

/* ------------------------------------------------------------------------------------------ */
/* Files and errors                                                                            */
/* ------------------------------------------------------------------------------------------ */

static void test_file(void **state) {
  (void)state;
  int64_t nv = 0;
  jg_array *t = make_table(&nv);
  char path[] = "/tmp/jg_parquet_write_XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  close(fd);
  JGT_OK(jg_parquet_write(t, path, NULL, &jgt_err_));
  pqfile f, g;
  pq_write(t, NULL, &g);
  FILE *fp = fopen(path, "rb");
  assert_non_null(fp);
  f.data = malloc(g.size + 1);
  f.size = fread(f.data, 1, g.size + 1, fp);
  fclose(fp);
  /* The file and the memory variant write the same bytes. */
  assert_int_equal(f.size, g.size);
  assert_memory_equal(f.data, g.data, g.size);
  free(f.data);
  pq_free(&g);
  remove(path);
  jg_array_release(t);
}

static void test_errors(void **state) {
  (void)state;
  jg_error err;
  int64_t nv = 0;
  jg_array *t = make_table(&nv);
  void *data = (void *)1;
  size_t size = 1;
  /* Unwritable path: JG_EIO naming it. */
  JGT_STATUS(JG_EIO, jg_parquet_write(t, "/nonexistent-dir/x.parquet", NULL, &err));
  JGT_CONTAINS(err.message, "/nonexistent-dir/x.parquet");
  JGT_STATUS(JG_EINVAL, jg_parquet_write(t, NULL, NULL, &err));
  JGT_STATUS(JG_EINVAL, jg_parquet_write(NULL, "/tmp/x", NULL, &err));
  JGT_STATUS(JG_EINVAL, jg_parquet_write_memory(t, NULL, NULL, &size, &err));
  /* Bad options. */
  jg_parquet_write_options o;
  jg_parquet_write_options_init(&o);
  o.data_page_version = 3;
  JGT_STATUS(JG_EINVAL, jg_parquet_write_memory(t, &o, &data, &size, &err));
  assert_null(data);
  assert_int_equal(size, 0);
  JGT_CONTAINS(err.message, "data_page_version");
  jg_parquet_write_options_init(&o);
  o.row_group_rows = 0;
  JGT_STATUS(JG_EINVAL, jg_parquet_write_memory(t, &o, &data, &size, &err));
  jg_parquet_write_options_init(&o);
  o.codec = (jg_parquet_codec)3; /* LZO */
  JGT_STATUS(JG_EINVAL, jg_parquet_write_memory(t, &o, &data, &size, &err));
  jg_parquet_write_options_init(&o);
  o.reserved[5] = 1;
  JGT_STATUS(JG_EINVAL, jg_parquet_write_memory(t, &o, &data, &size, &err));
  jg_parquet_write_options_init(&o);
  o.version = 7;
  JGT_STATUS(JG_EINVAL, jg_parquet_write_memory(t, &o, &data, &size, &err));
  /* Not a record. */
  jg_array *c = jg_array_child(t, 1);
  JGT_STATUS(JG_EINVAL, jg_parquet_write_memory(c, NULL, &data, &size, &err));
  JGT_CONTAINS(err.message, "record");
  jg_array_release(t);
  /* Unsupported: records of no fields (complex and bfloat16 arrays cannot be made). */
  jg_array *r0 = NULL;
  JGT_OK(jg_array_record(0, NULL, NULL, 3, &r0, &jgt_err_));
  JGT_STATUS(JG_ENOTSUP, jg_parquet_write_memory(r0, NULL, &data, &size, &err));
  jg_array *tr = table1("empty", r0);
  JGT_STATUS(JG_ENOTSUP, jg_parquet_write_memory(tr, NULL, &data, &size, &err));
  JGT_CONTAINS(err.message, "'empty'");
  jg_array_release(tr);
  /* Invalid arrays are refused by validation (offsets past the content). */
  const int64_t bad_off[] = {0, 5};
  const int64_t one = 1;
  jg_array *tb = table1("bad", lo64(bad_off, 1, num(&one, 1, JG_DTYPE_INT64)));
  JGT_STATUS(JG_EVALUE, jg_parquet_write_memory(tb, NULL, &data, &size, &err));
  /* ... and the failed file write leaves no file behind. */
  JGT_STATUS(JG_EVALUE, jg_parquet_write(tb, "/tmp/jg_parquet_write_bad.parquet", NULL, &err));
  assert_null(fopen("/tmp/jg_parquet_write_bad.parquet", "rb"));
  jg_array_release(tb);
}

/* Device arrays: JG_EBACKEND with the call that fixes it (a fake device buffer, never read). */
static void test_device_table(void **state) {
  (void)state;
  jg_array *a = jgt_fake_device_int64(4);
  jg_array *t = table1("d", a);
  jg_error err;
  void *data = NULL;
  size_t size = 0;
  JGT_STATUS(JG_EBACKEND, jg_parquet_write_memory(t, NULL, &data, &size, &err));
  JGT_CONTAINS(err.message, "jg_array_to_host");
  JGT_STATUS(JG_EBACKEND, jg_parquet_write(t, "/tmp/jg_parquet_write_dev.parquet", NULL, &err));
  jg_array_release(t);
}

/* ------------------------------------------------------------------------------------------ */
/* Round trips through the reader (jg_parquet_read)                                            */
/* ------------------------------------------------------------------------------------------ */

/* Writes t with o, reads the bytes back with the reader and compares values (the full
 * printout) and type (want_type, or t's own type when NULL). */
static void round_trip(const jg_array *t, const jg_parquet_write_options *o,
                       const char *want_type) {
  void *data = NULL;
  size_t size = 0;
  JGT_OK(jg_parquet_write_memory(t, o, &data, &size, &jgt_err_));
  jg_parquet_file *file = NULL;
  JGT_OK(jg_parquet_open_memory(data, size, &file, &jgt_err_));
  jg_array *back = NULL;
  JGT_OK(jg_parquet_read(file, NULL, &back, &jgt_err_));
  char *a = show(t, false), *b = show(back, false);
  assert_true(strlen(a) >= (size_t)jg_array_length(t)); /* the whole printout, not elided */
  if (strcmp(a, b) != 0) print_error("written %s\nread    %s\n", a, b);
  assert_string_equal(a, b);
  free(a);
  free(b);
  a = want_type ? NULL : show(t, true);
  b = show(back, true);
  assert_string_equal(want_type ? want_type : a, b);
  free(a);
  free(b);
  jg_array_release(back);
  jg_parquet_close(file);
  jg_parquet_memory_free(data);
}

/* The nested forms of the tests above, side by side in one table of 3 rows. */
static jg_array *make_forms(void) {
  /* list of lists: [[[1], []], [], [[2, 3]]] */
  const int32_t c1[] = {1, 2, 3};
  const int64_t in1[] = {0, 1, 1, 3}, out1[] = {0, 2, 2, 3};
  jg_array *ll = lo64(out1, 3, lo64(in1, 3, num(c1, 3, JG_DTYPE_INT32)));
  /* list of records: [[{x: 1, y: [5]}, {x: 2, y: []}], [], [{x: 3, y: [6, 7]}]] */
  const int64_t xs[] = {1, 2, 3}, ys[] = {5, 6, 7}, yoff[] = {0, 1, 1, 3}, poff[] = {0, 2, 2, 3};
  jg_array *pf[] = {num(xs, 3, JG_DTYPE_INT64), lo64(yoff, 3, num(ys, 3, JG_DTYPE_INT64))};
  const char *pn[] = {"x", "y"};
  jg_array *lr = lo64(poff, 3, rec(2, pf, pn));
  /* record of lists with options at every level: ?{a: ?var * ?float64} */
  const double vals[] = {1.5, -7.0, 2.5};
  const int8_t nulls[] = {0, 1, 0};
  const int64_t aoff[] = {0, 2, 2, 3};
  const uint8_t bits[] = {0xA0};
  const int64_t index[] = {0, -1, 2};
  jg_array *alist =
      bitmask(bits, 1, true, false, 3,
              lo64(aoff, 3, bytemask(nulls, 3, false, num(vals, 3, JG_DTYPE_FLOAT64))));
  const char *an = "a";
  jg_array *ro = indexed(index, 3, rec(1, &alist, &an));
  /* starts/stops out of order and offsets not starting at 0 */
  const int64_t content[] = {9, 9, 9, 1, 2, 3, 4};
  const int64_t soff[] = {3, 5, 5, 7};
  const int64_t starts[] = {4, 0, 2}, stops[] = {6, 2, 2};
  jg_array *sl = lo64(soff, 3, num(content, 7, JG_DTYPE_INT64));
  jg_array *ss = lss(starts, stops, 3, num(content, 7, JG_DTYPE_INT64));
  /* bytes, with None */
  const uint8_t chars[] = {'q', 'a', 'b', 'x', 'y', 'z'};
  const int64_t boff[] = {1, 3, 3, 6};
  const int8_t bmask[] = {1, 0, 1};
  jg_array *by = bytemask(bmask, 3, true, lo64(boff, 3, num(chars, 6, JG_DTYPE_UINT8)));
  /* all-empty lists and narrow integers */
  const int64_t e0[] = {0, 0, 0, 0};
  jg_array *ee = lo64(e0, 3, num(NULL, 0, JG_DTYPE_UINT16));
  const int8_t i8[] = {-3, 0, 127};
  jg_array *fields[] = {ll, lr, ro, sl, ss, by, ee, num(i8, 3, JG_DTYPE_INT8)};
  const char *names[] = {"ll", "lr", "ro", "sl", "ss", "by", "ee", "i8"};
  return rec(8, fields, names);
}

static void test_round_trip_matrix(void **state) {
  (void)state;
  int64_t nv = 0;
  jg_array *tables[] = {make_table(&nv), make_forms()};
  const jg_parquet_codec codecs[] = {JG_PARQUET_UNCOMPRESSED, JG_PARQUET_SNAPPY,
                                     JG_PARQUET_GZIP,         JG_PARQUET_ZSTD,
                                     JG_PARQUET_LZ4_RAW,      JG_PARQUET_BROTLI};
  const int64_t rgrs[] = {1, 7, 1 << 20};
  int tried = 0;
  for (size_t c = 0; c < sizeof codecs / sizeof codecs[0]; c++) {
    if (!jg_parquet_codec_available(codecs[c])) continue;
    for (int version = 1; version <= 2; version++)
      for (int dict = 0; dict <= 1; dict++)
        for (size_t g = 0; g < 3; g++)
          for (int t = 0; t < 2; t++) {
            jg_parquet_write_options o;
            jg_parquet_write_options_init(&o);
            o.codec = codecs[c];
            o.data_page_version = version;
            o.dictionary = dict != 0;
            o.row_group_rows = rgrs[g];
            o.page_size = g == 1 ? 64 : JG_PARQUET_DEFAULT_PAGE_SIZE;
            round_trip(tables[t], &o, NULL);
            tried++;
          }
  }
  assert_true(tried >= 24);
  /* A slice of the table (rows 100..250: offsets not starting at 0 everywhere) and no rows. */
  jg_array *sliced = NULL;
  JGT_OK(jg_array_slice(tables[0], 100, 250, &sliced, &jgt_err_));
  round_trip(sliced, NULL, NULL);
  jg_array_release(sliced);
  JGT_OK(jg_array_slice(tables[1], 1, 1, &sliced, &jgt_err_));
  round_trip(sliced, NULL, NULL);
  jg_array_release(sliced);
  jg_array_release(tables[0]);
  jg_array_release(tables[1]);
}

/* Regular lists come back as var lists (Parquet has no fixed-size list). */
static void test_round_trip_regular(void **state) {
  (void)state;
  const float m[] = {1, 2, 3, 4, 5, 6};
  jg_array *reg = NULL, *c = num(m, 6, JG_DTYPE_FLOAT32);
  JGT_OK(jg_array_regular(c, 2, -1, &reg, &jgt_err_));
  jg_array_release(c);
  jg_array *t = table1("r", reg);
  round_trip(t, NULL, "3 * {r: var * float32}");
  jg_array_release(t);
}

/* The ADL sample files read, written, and read again: equal values and types. */
static void test_round_trip_adl(void **state) {
  (void)state;
  const char *files[] = {JG_TEST_DATA_DIR "/adl/Run2012B_SingleMu-1000.parquet",
                         JG_TEST_DATA_DIR "/adl/Run2012B_SingleMu-restructured-1000.parquet"};
  for (int k = 0; k < 2; k++) {
    jg_parquet_file *file = NULL;
    JGT_OK(jg_parquet_open(files[k], &file, &jgt_err_));
    jg_array *t = NULL;
    JGT_OK(jg_parquet_read(file, NULL, &t, &jgt_err_));
    jg_parquet_close(file);
    assert_int_equal(jg_array_length(t), 1000);
    round_trip(t, NULL, NULL);
    jg_parquet_write_options o;
    jg_parquet_write_options_init(&o);
    o.data_page_version = 2;
    o.row_group_rows = 300;
    o.page_size = 4096;
    o.codec =
        jg_parquet_codec_available(JG_PARQUET_ZSTD) ? JG_PARQUET_ZSTD : JG_PARQUET_UNCOMPRESSED;
    round_trip(t, &o, NULL);
    jg_array_release(t);
  }
}

/* The dictionary's early give-up (parquet_writer.h, options.dictionary): after 4096 values, and
 * at every doubling, a dictionary to which more than 15/16 of the values seen added an entry is
 * abandoned; otherwise the bounds decide. Columns of 20000 rows, one per case, over each hash
 * table (values of up to 4 bytes, of 8 bytes, byte arrays; tables that grow past their first
 * 1024 slots); the values read back equal in every case. */
static void test_dictionary_give_up(void **state) {
  (void)state;
  enum { N = 20000 };
  int32_t *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b), *c = malloc(N * sizeof *c);
  int64_t *d = malloc(N * sizeof *d), *e = malloc(N * sizeof *e);
  uint16_t *h = malloc(N * sizeof *h);
  uint8_t *chars = malloc(N * 8), *chars2 = malloc(N * 8);
  int64_t *off = malloc((N + 1) * sizeof *off), *off2 = malloc((N + 1) * sizeof *off2);
  assert_true(a && b && c && d && e && h && chars && chars2 && off && off2);
  int64_t nc = 0, nc2 = 0;
  for (int i = 0; i < N; i++) {
    a[i] = i % 1000;                     /* 1000 distinct: dictionary */
    b[i] = i < 4096 ? i : 7;             /* 4096 new in the first 4096: give up (PLAIN) */
    c[i] = i < 4096 ? i % 3800 : 7;      /* 3800 of 4096 (<= 15/16): dictionary */
    d[i] = (int64_t)i * 7919;            /* all distinct: PLAIN */
    e[i] = (int64_t)(i % 3000) << 40;    /* 3000 distinct 8-byte values: dictionary */
    h[i] = (uint16_t)(0x3C00 + i % 500); /* float16 bits, 500 distinct: dictionary */
    off[i] = nc;
    nc += snprintf((char *)chars + nc, 8, "s%d", i); /* all distinct: PLAIN */
    off2[i] = nc2;
    nc2 += snprintf((char *)chars2 + nc2, 8, "t%d", i % 2000); /* 2000 distinct: dictionary */
  }
  off[N] = nc;
  off2[N] = nc2;
  jg_array *fields[] = {num(a, N, JG_DTYPE_INT32),
                        num(b, N, JG_DTYPE_INT32),
                        num(c, N, JG_DTYPE_INT32),
                        num(d, N, JG_DTYPE_INT64),
                        num(e, N, JG_DTYPE_INT64),
                        num(h, N, JG_DTYPE_FLOAT16),
                        lo64(off, N, num(chars, nc, JG_DTYPE_UINT8)),
                        lo64(off2, N, num(chars2, nc2, JG_DTYPE_UINT8))};
  const char *names[] = {"a", "b", "c", "d", "e", "h", "s", "t"};
  const bool want_dict[] = {true, false, true, false, true, true, false, true};
  jg_array *t = rec(8, fields, names);
  pqfile f;
  pq_write(t, NULL, &f);
  assert_int_equal(f.meta.nrow_groups, 1);
  for (int k = 0; k < 8; k++) {
    const jgi_pq_column_meta *m = &f.meta.row_groups[0].columns[k].meta;
    if ((m->dictionary_page_offset >= 0) != want_dict[k])
      print_error("column %s: dictionary %s, expected %s\n", names[k],
                  m->dictionary_page_offset >= 0 ? "on" : "off", want_dict[k] ? "on" : "off");
    assert_int_equal(m->dictionary_page_offset >= 0, want_dict[k]);
  }
  pq_free(&f);
  round_trip(t, NULL, NULL);
  jg_parquet_write_options o;
  jg_parquet_write_options_init(&o);
  o.data_page_version = 2;
  o.row_group_rows = 5000; /* chunks of 5000: b's first 4096 are still all new */
  pq_write(t, &o, &f);
  assert_int_equal(f.meta.nrow_groups, 4);
  assert_true(f.meta.row_groups[0].columns[1].meta.dictionary_page_offset < 0);
  assert_true(f.meta.row_groups[1].columns[1].meta.dictionary_page_offset >= 0); /* all 7 */
  pq_free(&f);
  round_trip(t, &o, NULL);
  jg_array_release(t);
  free(a);
  free(b);
  free(c);
  free(d);
  free(e);
  free(h);
  free(chars);
  free(chars2);
  free(off);
  free(off2);
}

int main(void) {
  JGT_REQUIRE_DATA();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_flat_types),
      cmocka_unit_test(test_flat_strided),
      cmocka_unit_test(test_option_list),
      cmocka_unit_test(test_list_of_options),
      cmocka_unit_test(test_list_of_lists),
      cmocka_unit_test(test_list_of_records),
      cmocka_unit_test(test_options_every_level),
      cmocka_unit_test(test_sliced_and_unordered),
      cmocka_unit_test(test_bytes_and_regular),
      cmocka_unit_test(test_option_matrix),
      cmocka_unit_test(test_pages),
      cmocka_unit_test(test_dictionary_limit),
      cmocka_unit_test(test_dictionary_bytes),
      cmocka_unit_test(test_empty),
      cmocka_unit_test(test_file),
      cmocka_unit_test(test_errors),
      cmocka_unit_test(test_device_table),
      cmocka_unit_test(test_round_trip_matrix),
      cmocka_unit_test(test_round_trip_regular),
      cmocka_unit_test(test_round_trip_adl),
      cmocka_unit_test(test_dictionary_give_up),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
