/* column.c: one leaf column's chunks to definition and repetition levels and dense values.
 *
 * Spec: parquet.thrift (ColumnMetaData, PageHeader, DataPageHeader, DataPageHeaderV2,
 * DictionaryPageHeader) and Encodings.md. A chunk is an optional dictionary page followed by
 * data pages. Data page v1: the whole page is compressed; inside it, repetition levels, then
 * definition levels (each RLE with a 4-byte little-endian length prefix, or the deprecated
 * BIT_PACKED without one; absent when the column's maximum level is 0), then the values. Data
 * page v2: repetition then definition levels, RLE without prefix, uncompressed, of the lengths
 * its header gives; then the values, compressed unless is_compressed is false. Values are
 * present only where the definition level is the column's maximum. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/parquet/pq_reader.h"

void jgi_pq_column_data_reset(jgi_pq_column_data *cd) {
  if (cd == NULL) return;
  jgi_pq_buf_reset(&cd->rep);
  jgi_pq_buf_reset(&cd->def);
  jgi_pq_buf_reset(&cd->values);
  jgi_pq_buf_reset(&cd->offsets);
  jgi_pq_buf_reset(&cd->page);
  jgi_pq_buf_reset(&cd->raw);
  memset(cd, 0, sizeof *cd);
}

void jgi_pq_column_data_clear(jgi_pq_column_data *cd) {
  cd->rep.size = cd->def.size = cd->values.size = cd->offsets.size = 0;
  cd->page.size = cd->raw.size = 0;
  cd->nlevels = cd->nvalues = 0;
}

/* State of one chunk's decoding. */
typedef struct chunk {
  const jgi_pq_leaf *leaf;
  jgi_pq_column_data *cd;
  jgi_pq_where where;
  int codec;
  bool has_dict;
  int64_t ndict;
  jgi_pq_buf dict;         /* fixed: ndict values at out_width; bytes: the bytes */
  jgi_pq_buf dict_offsets; /* bytes: ndict + 1 int64 */
  jgi_pq_buf page;         /* decompressed page */
  jgi_pq_buf raw;          /* values before conversion; dictionary indices */
  jgi_pq_buf tmp_offsets, tmp_bytes;
} chunk;

static void chunk_reset(chunk *c) {
  jgi_pq_buf_reset(&c->dict);
  jgi_pq_buf_reset(&c->dict_offsets);
  jgi_pq_buf_reset(&c->page);
  jgi_pq_buf_reset(&c->raw);
  jgi_pq_buf_reset(&c->tmp_offsets);
  jgi_pq_buf_reset(&c->tmp_bytes);
}

/* Prefixes err's message with where it happened: "<file>: column <c>, row group <g>, page
 * <p>: ". */
static jg_status at(const jgi_pq_where *w, jg_status st, jg_error *err) {
  if (st == JG_OK || err == NULL) return st;
  char where[384];
  if (w->page >= 0)
    snprintf(where, sizeof where, "%s: column %s, row group %d, page %d", w->file, w->column,
             w->row_group, w->page);
  else
    snprintf(where, sizeof where, "%s: column %s, row group %d", w->file, w->column,
             w->row_group);
  return jgi_error_prefix(st, where, err);
}

/* Makes room for n more bytes past b->size, plus the padding the spreading loops may read. */
static jg_status reserve(jgi_pq_buf *b, int64_t n, jg_error *err) {
  JG_RETURN_IF(n < 0 || (uint64_t)n > SIZE_MAX - JGI_PQ_PAD, JG_EOVERFLOW, err,
               "a buffer of %lld bytes is too large", (long long)n);
  return jgi_pq_buf_reserve(b, (size_t)n + JGI_PQ_PAD, err);
}

/* The most bytes a page of `stored` bytes may decode to (see JGI_PQ_PAGE_EXPAND_MIN). */
static int64_t expand_limit(int64_t stored) {
  int64_t lim = stored > INT64_MAX / JGI_PQ_EXPAND_RATIO ? INT64_MAX
                                                         : stored * JGI_PQ_EXPAND_RATIO;
  return lim > JGI_PQ_PAGE_EXPAND_MIN ? lim : JGI_PQ_PAGE_EXPAND_MIN;
}

static uint32_t load_u32le(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* ---- conversions of stored values to the leaf's values ----------------------------------- */

/* Julian day of 1970-01-01 and nanoseconds a day (the Impala INT96 timestamp layout: 8 bytes
 * of nanoseconds within the day, then 4 bytes of Julian day, both little-endian). */
#define JULIAN_EPOCH 2440588
#define NANOS_PER_DAY 86400000000000ULL

static void convert(int conversion, const uint8_t *src, int64_t n, uint8_t *dst) {
  switch (conversion) {
    case JGI_PQC_I8:
      for (int64_t i = 0; i < n; i++) {
        int32_t v;
        memcpy(&v, src + 4 * i, 4);
        dst[i] = (uint8_t)v;
      }
      break;
    case JGI_PQC_I16:
      for (int64_t i = 0; i < n; i++) {
        int32_t v;
        memcpy(&v, src + 4 * i, 4);
        uint16_t w = (uint16_t)v;
        memcpy(dst + 2 * i, &w, 2);
      }
      break;
    case JGI_PQC_INT96:
      for (int64_t i = 0; i < n; i++) {
        uint64_t nanos;
        int32_t day;
        memcpy(&nanos, src + 12 * i, 8);
        memcpy(&day, src + 12 * i + 8, 4);
        uint64_t t = (uint64_t)((int64_t)day - JULIAN_EPOCH) * NANOS_PER_DAY + nanos;
        memcpy(dst + 8 * i, &t, 8);
      }
      break;
    default:
      break;
  }
}

/* ---- fixed-width values: PLAIN (and BOOLEAN), stored at raw width -------------------------- */

/* Decodes `count` PLAIN values of the leaf's physical type from p[0..n) into out (raw width:
 * one byte per BOOLEAN). */
static jg_status plain_fixed(const jgi_pq_leaf *l, const uint8_t *p, size_t n, int64_t count,
                             uint8_t *out, jg_error *err) {
  size_t used = 0;
  if (l->physical == JGI_PQ_BOOLEAN) return jgi_pq_plain_decode_bool(p, n, count, out, &used, err);
  return jgi_pq_plain_decode_fixed(p, n, l->raw_width, count, out, &used, err);
}

/* Space for `count` more output values at cd->values; the pointer to write them at. */
static jg_status values_room(chunk *c, int64_t count, uint8_t **dst, jg_error *err) {
  int64_t bytes;
  JG_RETURN_IF(jgi_mul_overflow(count, (int64_t)c->leaf->out_width, &bytes), JG_EOVERFLOW, err,
               "%lld values are too many", (long long)count);
  JG_RETURN_NOT_OK(reserve(&c->cd->values, bytes, err));
  *dst = c->cd->values.data + c->cd->values.size;
  return JG_OK;
}

/* The dictionary page: PLAIN values, converted once to the leaf's width. */
static jg_status read_dictionary(chunk *c, const jgi_pq_page_header *h, const uint8_t *p,
                                 size_t n, jg_error *err) {
  const jgi_pq_leaf *l = c->leaf;
  int64_t nd = h->dict.num_values;
  JG_RETURN_IF(c->has_dict, JG_ECORRUPT, err, "a second dictionary page");
  JG_RETURN_IF(h->dict.encoding != JGI_PQ_PLAIN && h->dict.encoding != JGI_PQ_PLAIN_DICTIONARY,
               JG_ENOTSUP, err, "dictionary page encoding %s (only PLAIN is defined)",
               jgi_pq_encoding_name(h->dict.encoding));
  JG_RETURN_IF(nd < 0, JG_ECORRUPT, err, "dictionary of %lld values", (long long)nd);
  if (l->value_kind == JGI_PQV_BYTES) {
    JG_RETURN_IF((uint64_t)nd > n / 4, JG_ECORRUPT, err,
                 "dictionary of %lld byte arrays in %zu bytes", (long long)nd, n);
    JG_RETURN_NOT_OK(reserve(&c->dict_offsets, (nd + 1) * 8, err));
    int64_t *offs = (int64_t *)(void *)c->dict_offsets.data;
    offs[0] = 0;
    size_t used = 0;
    JG_RETURN_NOT_OK(jgi_pq_plain_decode_bytes(p, n, nd, offs, &c->dict, &used, err));
    c->dict_offsets.size = (size_t)(nd + 1) * 8;
  } else {
    bool is_bool = l->physical == JGI_PQ_BOOLEAN;
    JG_RETURN_IF(is_bool ? (uint64_t)nd > (uint64_t)n * 8
                         : (uint64_t)nd > n / (size_t)l->raw_width,
                 JG_ECORRUPT, err, "dictionary of %lld values of %d bytes in %zu bytes",
                 (long long)nd, l->raw_width, n);
    if (l->conversion == JGI_PQC_NONE) {
      JG_RETURN_NOT_OK(reserve(&c->dict, nd * l->out_width, err));
      JG_RETURN_NOT_OK(plain_fixed(l, p, n, nd, c->dict.data, err));
    } else {
      JG_RETURN_NOT_OK(reserve(&c->raw, nd * l->raw_width, err));
      JG_RETURN_NOT_OK(plain_fixed(l, p, n, nd, c->raw.data, err));
      JG_RETURN_NOT_OK(reserve(&c->dict, nd * l->out_width, err));
      convert(l->conversion, c->raw.data, nd, c->dict.data);
    }
    c->dict.size = (size_t)(nd * l->out_width);
  }
  c->ndict = nd;
  c->has_dict = true;
  return JG_OK;
}

/* Dictionary indices of `count` values: a bit-width byte, then the RLE / bit-packed hybrid. */
static jg_status read_indices(chunk *c, const uint8_t *p, size_t n, int64_t count,
                              jg_error *err) {
  JG_RETURN_IF(!c->has_dict, JG_ECORRUPT, err, "a dictionary-encoded page without a dictionary");
  JG_RETURN_IF(n < 1, JG_ECORRUPT, err, "dictionary indices without their bit width byte");
  int bw = p[0];
  JG_RETURN_IF(bw > 32, JG_ECORRUPT, err, "dictionary index bit width %d (above 32)", bw);
  JG_RETURN_NOT_OK(reserve(&c->raw, count * 4, err));
  size_t used = 0;
  return jgi_pq_rle_decode(p + 1, n - 1, bw, count, (uint32_t *)(void *)c->raw.data, &used, err);
}

/* Values of a fixed-width leaf (numeric or FIXED_LEN_BYTE_ARRAY). */
static jg_status values_fixed(chunk *c, int encoding, const uint8_t *p, size_t n, int64_t count,
                              jg_error *err) {
  const jgi_pq_leaf *l = c->leaf;
  jgi_pq_column_data *cd = c->cd;
  uint8_t *dst = NULL;
  bool direct = l->conversion == JGI_PQC_NONE;
  int ptype = l->physical;
  switch (encoding) {
    case JGI_PQ_PLAIN: {
      bool is_bool = ptype == JGI_PQ_BOOLEAN;
      JG_RETURN_IF(is_bool ? (uint64_t)count > (uint64_t)n * 8
                           : (uint64_t)count > n / (size_t)l->raw_width,
                   JG_ECORRUPT, err, "%lld PLAIN values of %d bytes need more than the %zu bytes left",
                   (long long)count, is_bool ? 1 : l->raw_width, n);
      JG_RETURN_NOT_OK(values_room(c, count, &dst, err));
      if (direct) {
        JG_RETURN_NOT_OK(plain_fixed(l, p, n, count, dst, err));
      } else {
        JG_RETURN_NOT_OK(reserve(&c->raw, count * l->raw_width, err));
        JG_RETURN_NOT_OK(plain_fixed(l, p, n, count, c->raw.data, err));
        convert(l->conversion, c->raw.data, count, dst);
      }
      break;
    }
    case JGI_PQ_PLAIN_DICTIONARY:
    case JGI_PQ_RLE_DICTIONARY:
      JG_RETURN_NOT_OK(read_indices(c, p, n, count, err));
      JG_RETURN_NOT_OK(values_room(c, count, &dst, err));
      JG_RETURN_NOT_OK(jgi_pq_dict_gather(c->dict.data, c->ndict, l->out_width,
                                          (const uint32_t *)(void *)c->raw.data, count, dst, err));
      break;
    case JGI_PQ_DELTA_BINARY_PACKED: {
      JG_RETURN_IF(ptype != JGI_PQ_INT32 && ptype != JGI_PQ_INT64, JG_ENOTSUP, err,
                   "DELTA_BINARY_PACKED values of type %s (only INT32 and INT64)",
                   jgi_pq_type_name(ptype));
      size_t used = 0;
      JG_RETURN_NOT_OK(values_room(c, count, &dst, err));
      if (direct) {
        JG_RETURN_NOT_OK(jgi_pq_delta_decode(p, n, l->raw_width, count, dst, &used, err));
      } else {
        JG_RETURN_NOT_OK(reserve(&c->raw, count * l->raw_width, err));
        JG_RETURN_NOT_OK(jgi_pq_delta_decode(p, n, l->raw_width, count, c->raw.data, &used, err));
        convert(l->conversion, c->raw.data, count, dst);
      }
      break;
    }
    case JGI_PQ_BYTE_STREAM_SPLIT: {
      JG_RETURN_IF(ptype == JGI_PQ_BOOLEAN || ptype == JGI_PQ_INT96, JG_ENOTSUP, err,
                   "BYTE_STREAM_SPLIT values of type %s", jgi_pq_type_name(ptype));
      JG_RETURN_IF((uint64_t)count > n / (size_t)l->raw_width, JG_ECORRUPT, err,
                   "%lld BYTE_STREAM_SPLIT values of %d bytes need more than the %zu bytes left",
                   (long long)count, l->raw_width, n);
      JG_RETURN_NOT_OK(values_room(c, count, &dst, err));
      if (direct) {
        JG_RETURN_NOT_OK(jgi_pq_byte_stream_split_decode(p, n, l->raw_width, count, dst, err));
      } else {
        JG_RETURN_NOT_OK(reserve(&c->raw, count * l->raw_width, err));
        JG_RETURN_NOT_OK(
            jgi_pq_byte_stream_split_decode(p, n, l->raw_width, count, c->raw.data, err));
        convert(l->conversion, c->raw.data, count, dst);
      }
      break;
    }
    case JGI_PQ_RLE: {
      /* Booleans (Encodings.md: RLE of bit width 1 with a 4-byte length prefix). */
      JG_RETURN_IF(ptype != JGI_PQ_BOOLEAN, JG_ENOTSUP, err, "RLE values of type %s",
                   jgi_pq_type_name(ptype));
      JG_RETURN_IF(n < 4, JG_ECORRUPT, err, "RLE booleans without their length prefix");
      uint32_t len = load_u32le(p);
      JG_RETURN_IF(len > n - 4, JG_ECORRUPT, err, "RLE booleans of %u bytes, %zu left", len,
                   n - 4);
      JG_RETURN_NOT_OK(reserve(&c->raw, count * 4, err));
      size_t used = 0;
      uint32_t *v = (uint32_t *)(void *)c->raw.data;
      JG_RETURN_NOT_OK(jgi_pq_rle_decode(p + 4, len, 1, count, v, &used, err));
      JG_RETURN_NOT_OK(values_room(c, count, &dst, err));
      for (int64_t i = 0; i < count; i++) dst[i] = (uint8_t)(v[i] != 0);
      break;
    }
    case JGI_PQ_DELTA_BYTE_ARRAY: {
      JG_RETURN_IF(ptype != JGI_PQ_FIXED_LEN_BYTE_ARRAY, JG_ENOTSUP, err,
                   "DELTA_BYTE_ARRAY values of type %s", jgi_pq_type_name(ptype));
      JG_RETURN_NOT_OK(reserve(&c->tmp_offsets, (count + 1) * 8, err));
      int64_t *offs = (int64_t *)(void *)c->tmp_offsets.data;
      offs[0] = 0;
      c->tmp_bytes.size = 0;
      size_t used = 0;
      JG_RETURN_NOT_OK(jgi_pq_delta_bytes_decode(p, n, count, offs, &c->tmp_bytes, &used, err));
      for (int64_t i = 0; i < count; i++)
        JG_RETURN_IF_AT(offs[i + 1] - offs[i] != l->type_length, JG_ECORRUPT, err, i,
                        "value %lld has %lld bytes, the FIXED_LEN_BYTE_ARRAY length is %d",
                        (long long)i, (long long)(offs[i + 1] - offs[i]), l->type_length);
      JG_RETURN_NOT_OK(values_room(c, count, &dst, err));
      if (count > 0) memcpy(dst, c->tmp_bytes.data, (size_t)(count * l->type_length));
      break;
    }
    default:
      return jg_error_set(err, JG_ENOTSUP, -1, "values encoding %s (%d) for type %s",
                          jgi_pq_encoding_name(encoding), encoding, jgi_pq_type_name(ptype));
  }
  cd->values.size += (size_t)(count * l->out_width);
  cd->nvalues += count;
  return JG_OK;
}

/* Values of a BYTE_ARRAY leaf: offsets continue cd->offsets, bytes append to cd->values. */
static jg_status values_bytes(chunk *c, int encoding, const uint8_t *p, size_t n, int64_t count,
                              int64_t limit, jg_error *err) {
  jgi_pq_column_data *cd = c->cd;
  if (cd->offsets.size == 0) {
    JG_RETURN_NOT_OK(reserve(&cd->offsets, 8, err));
    memset(cd->offsets.data, 0, 8);
    cd->offsets.size = 8;
  }
  JG_RETURN_NOT_OK(reserve(&cd->offsets, count * 8, err));
  int64_t *offs = (int64_t *)(void *)cd->offsets.data + cd->nvalues;
  size_t used = 0;
  switch (encoding) {
    case JGI_PQ_PLAIN:
      JG_RETURN_IF((uint64_t)count > n / 4, JG_ECORRUPT, err,
                   "%lld PLAIN byte arrays in %zu bytes", (long long)count, n);
      JG_RETURN_NOT_OK(jgi_pq_plain_decode_bytes(p, n, count, offs, &cd->values, &used, err));
      break;
    case JGI_PQ_PLAIN_DICTIONARY:
    case JGI_PQ_RLE_DICTIONARY: {
      JG_RETURN_NOT_OK(read_indices(c, p, n, count, err));
      const uint32_t *idx = (const uint32_t *)(void *)c->raw.data;
      const int64_t *doffs = (const int64_t *)(void *)c->dict_offsets.data;
      /* The bytes the gather will append, bounded before it allocates them. */
      uint64_t total = 0;
      uint32_t bad = 0;
      uint32_t nd = c->ndict > UINT32_MAX ? UINT32_MAX : (uint32_t)c->ndict;
      for (int64_t i = 0; i < count; i++) {
        uint32_t j = idx[i];
        bad |= j >= nd;
        j = j < nd ? j : 0;
        total += nd ? (uint64_t)(doffs[j + 1] - doffs[j]) : 0;
      }
      if (!bad)
        JG_RETURN_IF(total > (uint64_t)limit, JG_ENOTSUP, err,
                     "the page's dictionary values expand to %llu bytes, above the reader's "
                     "limit of %lld for this page",
                     (unsigned long long)total, (long long)limit);
      JG_RETURN_NOT_OK(jgi_pq_dict_gather_bytes(doffs, c->dict.data, c->ndict, idx, count, offs,
                                                &cd->values, err));
      break;
    }
    case JGI_PQ_DELTA_LENGTH_BYTE_ARRAY:
      JG_RETURN_NOT_OK(jgi_pq_delta_length_decode(p, n, count, offs, &cd->values, &used, err));
      break;
    case JGI_PQ_DELTA_BYTE_ARRAY:
      JG_RETURN_NOT_OK(jgi_pq_delta_bytes_decode(p, n, count, offs, &cd->values, &used, err));
      break;
    default:
      return jg_error_set(err, JG_ENOTSUP, -1, "values encoding %s (%d) for type BYTE_ARRAY",
                          jgi_pq_encoding_name(encoding), encoding);
  }
  cd->offsets.size += (size_t)count * 8;
  cd->nvalues += count;
  /* Keep the padding the spreading loop may read past the bytes. */
  return reserve(&cd->values, 0, err);
}

/* ---- levels --------------------------------------------------------------------------------- */

/* Decodes `count` levels of maximum `max` into b (appended at `at` entries). v1 levels carry a
 * 4-byte length prefix when RLE; v2 levels have `n` bytes exactly. *used: bytes consumed. */
static jg_status read_levels(const char *what, int encoding, bool v2, const uint8_t *p,
                             size_t n, int max, int64_t count, jgi_pq_buf *b, int64_t at,
                             size_t *used, jg_error *err) {
  int bw = jgi_pq_bit_width((uint64_t)max);
  JG_RETURN_NOT_OK(reserve(b, count * 2, err));
  int16_t *out = (int16_t *)(void *)b->data + at;
  size_t u = 0;
  if (v2) {
    JG_RETURN_NOT_OK(jgi_pq_rle_decode_levels(p, n, bw, count, out, &u, err));
    u = n;
  } else if (encoding == JGI_PQ_RLE) {
    JG_RETURN_IF(n < 4, JG_ECORRUPT, err, "%s levels without their length prefix", what);
    uint32_t len = load_u32le(p);
    JG_RETURN_IF(len > n - 4, JG_ECORRUPT, err, "%s levels of %u bytes, only %zu left", what,
                 len, n - 4);
    JG_RETURN_NOT_OK(jgi_pq_rle_decode_levels(p + 4, len, bw, count, out, &u, err));
    u = 4 + (size_t)len;
  } else if (encoding == JGI_PQ_BIT_PACKED) {
    JG_RETURN_NOT_OK(jgi_pq_bitpacked_decode_levels(p, n, bw, count, out, &u, err));
  } else {
    return jg_error_set(err, JG_ENOTSUP, -1, "%s level encoding %s (%d)", what,
                        jgi_pq_encoding_name(encoding), encoding);
  }
  /* Every level within [0, max]: assembly indexes by them. Nothing to check when max fills
   * its bit width; else four levels a word: a lane is above max when bit 15 is set or its low
   * 15 bits plus 0x7fff - max carry into bit 15. */
  uint64_t bad = 0;
  if (max != (1 << bw) - 1) {
    const uint64_t high = 0x8000800080008000ULL, low = ~high;
    const uint64_t add = (uint64_t)(0x7fff - max) * 0x0001000100010001ULL;
    int64_t i = 0;
    for (; i + 4 <= count; i += 4) {
      uint64_t w;
      memcpy(&w, out + i, 8);
      bad |= (((w & low) + add) | w) & high;
    }
    for (; i < count; i++) bad |= (uint64_t)((uint16_t)out[i] > (uint16_t)max);
  }
  if (bad) {
    for (int64_t i = 0; i < count; i++)
      JG_RETURN_IF_AT((uint16_t)out[i] > (uint16_t)max, JG_ECORRUPT, err, i,
                      "%s level %d at %lld is above the column's maximum %d", what,
                      (int)(uint16_t)out[i], (long long)i, max);
  }
  b->size = (size_t)(at + count) * 2;
  *used = u;
  return JG_OK;
}

/* ---- pages --------------------------------------------------------------------------------- */

/* The page's bytes after decompression: either the stored bytes or c->page. */
static jg_status decompress(chunk *c, bool compressed, const uint8_t *src, size_t n,
                            int64_t uncompressed, const uint8_t **out, jg_error *err) {
  if (!compressed || c->codec == JGI_PQ_UNCOMPRESSED) {
    JG_RETURN_IF((int64_t)n != uncompressed, JG_ECORRUPT, err,
                 "uncompressed page of %zu bytes says it has %lld", n, (long long)uncompressed);
    *out = src;
    return JG_OK;
  }
  JG_RETURN_IF(uncompressed > expand_limit((int64_t)n), JG_ENOTSUP, err,
               "page of %zu bytes says it decompresses to %lld, above the reader's limit", n,
               (long long)uncompressed);
  JG_RETURN_NOT_OK(reserve(&c->page, uncompressed, err));
  JG_RETURN_NOT_OK(jgi_pq_decompress(c->codec, src, n, c->page.data, (size_t)uncompressed, err));
  *out = c->page.data;
  return JG_OK;
}

static jg_status data_page(chunk *c, const jgi_pq_page_header *h, const uint8_t *body,
                           size_t stored, int64_t remaining, jg_error *err) {
  const jgi_pq_leaf *l = c->leaf;
  jgi_pq_column_data *cd = c->cd;
  bool v2 = h->type == JGI_PQ_DATA_PAGE_V2;
  int64_t count = v2 ? h->v2.num_values : h->v1.num_values;
  int encoding = v2 ? h->v2.encoding : h->v1.encoding;
  JG_RETURN_IF(count < 0, JG_ECORRUPT, err, "page of %lld values", (long long)count);
  JG_RETURN_IF(count > remaining, JG_ECORRUPT, err,
               "page of %lld values, but the chunk has only %lld values left", (long long)count,
               (long long)remaining);
  int64_t limit = expand_limit((int64_t)stored);
  int width = l->value_kind == JGI_PQV_BYTES ? 8 : (l->out_width > 4 ? l->out_width : 4);
  JG_RETURN_IF(count > limit / (width + 4), JG_ENOTSUP, err,
               "page of %lld values in %zu bytes, above the reader's expansion limit",
               (long long)count, stored);

  const uint8_t *p;
  size_t n;
  int64_t at = cd->nlevels;
  if (!v2) {
    JG_RETURN_NOT_OK(decompress(c, true, body, stored, h->uncompressed_size, &p, err));
    n = (size_t)h->uncompressed_size;
    size_t used = 0;
    if (l->max_rep > 0) {
      JG_RETURN_NOT_OK(read_levels("repetition", h->v1.rep_encoding, false, p, n, l->max_rep,
                                   count, &cd->rep, at, &used, err));
      p += used;
      n -= used;
    }
    if (l->max_def > 0) {
      JG_RETURN_NOT_OK(read_levels("definition", h->v1.def_encoding, false, p, n, l->max_def,
                                   count, &cd->def, at, &used, err));
      p += used;
      n -= used;
    }
  } else {
    int64_t rb = h->v2.rep_bytes, db = h->v2.def_bytes;
    JG_RETURN_IF(rb < 0 || db < 0 || rb + db > (int64_t)stored ||
                     rb + db > (int64_t)h->uncompressed_size,
                 JG_ECORRUPT, err,
                 "level lengths %lld and %lld do not fit the page's %zu stored and %d "
                 "uncompressed bytes",
                 (long long)rb, (long long)db, stored, (int)h->uncompressed_size);
    size_t used = 0;
    if (l->max_rep > 0)
      JG_RETURN_NOT_OK(read_levels("repetition", JGI_PQ_RLE, true, body, (size_t)rb, l->max_rep,
                                   count, &cd->rep, at, &used, err));
    if (l->max_def > 0)
      JG_RETURN_NOT_OK(read_levels("definition", JGI_PQ_RLE, true, body + rb, (size_t)db,
                                   l->max_def, count, &cd->def, at, &used, err));
    JG_RETURN_NOT_OK(decompress(c, h->v2.is_compressed, body + rb + db,
                                stored - (size_t)(rb + db),
                                (int64_t)h->uncompressed_size - rb - db, &p, err));
    n = (size_t)((int64_t)h->uncompressed_size - rb - db);
  }
  /* Values are stored where the definition level is the maximum. */
  int64_t nvals = count;
  if (l->max_def > 0) {
    const int16_t *d = (const int16_t *)(void *)cd->def.data + at;
    int md = l->max_def;
    nvals = jgi_pq_count_ge(d, count, md); /* levels are at most md */
  }
  cd->nlevels += count;
  if (nvals == 0) return JG_OK;
  if (l->value_kind == JGI_PQV_BYTES) return values_bytes(c, encoding, p, n, nvals, limit, err);
  return values_fixed(c, encoding, p, n, nvals, err);
}

jg_status jgi_pq_column_reserve(const jgi_pq_file_meta *meta, const jgi_pq_leaf *leaf,
                                int leaf_index, int rg_begin, int rg_end,
                                jgi_pq_column_data *cd, jg_error *err) {
  int64_t nv = 0, stored = 0;
  for (int g = rg_begin; g < rg_end; g++) {
    const jgi_pq_row_group *rg = &meta->row_groups[g];
    if (leaf_index >= rg->ncolumns || !rg->columns[leaf_index].has_meta) continue;
    const jgi_pq_column_meta *m = &rg->columns[leaf_index].meta;
    if (m->num_values < 0 || m->total_compressed_size < 0 ||
        jgi_add_overflow(nv, m->num_values, &nv) ||
        jgi_add_overflow(stored, m->total_compressed_size, &stored))
      return JG_OK; /* the chunk reads will say what is wrong */
  }
  if (nv == 0 || nv > INT64_MAX / 64 || stored > INT64_MAX / 64 || nv > stored * 64)
    return JG_OK;
  if (leaf->max_rep > 0) JG_RETURN_NOT_OK(reserve(&cd->rep, nv * 2, err));
  if (leaf->max_def > 0) JG_RETURN_NOT_OK(reserve(&cd->def, nv * 2, err));
  if (leaf->value_kind == JGI_PQV_BYTES) return reserve(&cd->offsets, (nv + 1) * 8, err);
  int64_t bytes;
  if (jgi_mul_overflow(nv, (int64_t)leaf->out_width, &bytes)) return JG_OK;
  return reserve(&cd->values, bytes, err);
}

jg_status jgi_pq_column_read(const uint8_t *data, size_t size, const jgi_pq_file_meta *meta,
                             const jgi_pq_leaf *leaf, int leaf_index, int rg, const char *file,
                             jgi_pq_column_data *cd, jg_error *err) {
  chunk c;
  memset(&c, 0, sizeof c);
  c.leaf = leaf;
  c.cd = cd;
  c.where = (jgi_pq_where){file, leaf->path, rg, -1};
  const jgi_pq_row_group *g = &meta->row_groups[rg];
  JG_RETURN_IF(leaf_index >= g->ncolumns, JG_ECORRUPT, err,
               "%s: row group %d has %d columns, the schema %d or more", file, rg, g->ncolumns,
               leaf_index + 1);
  const jgi_pq_column_chunk *cc = &g->columns[leaf_index];
  JG_RETURN_IF(cc->file_path != NULL, JG_ENOTSUP, err,
               "%s: column %s, row group %d: the chunk is in another file ('%s')", file,
               leaf->path, rg, cc->file_path);
  JG_RETURN_IF(!cc->has_meta, JG_ENOTSUP, err,
               "%s: column %s, row group %d: the chunk has no metadata (encrypted?)", file,
               leaf->path, rg);
  const jgi_pq_column_meta *m = &cc->meta;
  JG_RETURN_IF(m->type != leaf->physical, JG_ECORRUPT, err,
               "%s: column %s, row group %d: the chunk's type %s differs from the schema's %s",
               file, leaf->path, rg, jgi_pq_type_name(m->type), jgi_pq_type_name(leaf->physical));
  c.codec = m->codec;
  int64_t start = m->data_page_offset;
  if (m->dictionary_page_offset >= 4 && m->dictionary_page_offset < start)
    start = m->dictionary_page_offset;
  int64_t end;
  JG_RETURN_IF(start < 4 || m->total_compressed_size < 0 ||
                   jgi_add_overflow(start, m->total_compressed_size, &end) ||
                   (uint64_t)end > size,
               JG_ECORRUPT, err,
               "%s: column %s, row group %d: the chunk's bytes [%lld, %lld + %lld) are not "
               "inside the file's %zu bytes of data",
               file, leaf->path, rg, (long long)start, (long long)start,
               (long long)m->total_compressed_size, size);
  JG_RETURN_IF(m->num_values < 0, JG_ECORRUPT, err, "%s: column %s, row group %d: %lld values",
               file, leaf->path, rg, (long long)m->num_values);

  c.page = cd->page; /* scratch buffers lent by cd, given back below */
  c.raw = cd->raw;
  memset(&cd->page, 0, sizeof cd->page);
  memset(&cd->raw, 0, sizeof cd->raw);
  jg_status st = JG_OK;
  int64_t pos = start, seen = 0;
  int page = 0;
  bool data_seen = false;
  while (pos < end && seen < m->num_values) {
    c.where.page = page;
    jgi_pq_page_header h;
    size_t hsize = 0;
    st = jgi_pq_page_header_parse(data + pos, (size_t)(end - pos), &h, &hsize, err);
    if (st != JG_OK) break;
    pos += (int64_t)hsize;
    if (h.compressed_size < 0 || h.compressed_size > end - pos || h.uncompressed_size < 0) {
      st = jg_error_set(err, JG_ECORRUPT, -1,
                        "page of %d stored bytes (%d uncompressed), %lld left in the chunk",
                        (int)h.compressed_size, (int)h.uncompressed_size,
                        (long long)(end - pos));
      break;
    }
    const uint8_t *body = data + pos;
    pos += h.compressed_size;
    if (h.type == JGI_PQ_DICTIONARY_PAGE) {
      if (data_seen) {
        st = jg_error_set(err, JG_ECORRUPT, -1, "a dictionary page after data pages");
        break;
      }
      const uint8_t *p;
      st = decompress(&c, true, body, (size_t)h.compressed_size, h.uncompressed_size, &p, err);
      if (st == JG_OK) st = read_dictionary(&c, &h, p, (size_t)h.uncompressed_size, err);
    } else if (h.type == JGI_PQ_DATA_PAGE || h.type == JGI_PQ_DATA_PAGE_V2) {
      data_seen = true;
      int64_t before = cd->nlevels;
      st = data_page(&c, &h, body, (size_t)h.compressed_size, m->num_values - seen, err);
      seen += cd->nlevels - before;
    } /* index pages and page types added later are skipped */
    if (st != JG_OK) break;
    page++;
  }
  if (st == JG_OK && seen != m->num_values) {
    c.where.page = -1;
    st = jg_error_set(err, JG_ECORRUPT, -1,
                      "the pages hold %lld values, the chunk's metadata says %lld",
                      (long long)seen, (long long)m->num_values);
  }
  cd->page = c.page;
  cd->raw = c.raw;
  memset(&c.page, 0, sizeof c.page);
  memset(&c.raw, 0, sizeof c.raw);
  chunk_reset(&c);
  return at(&c.where, st, err);
}
