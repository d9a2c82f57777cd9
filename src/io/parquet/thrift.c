/* thrift.c: the Thrift compact protocol's bounded reader and growable writer (thrift.h). */
#include "io/parquet/thrift.h"

#include <string.h>

const char *jgi_tc_type_name(int type) {
  switch (type) {
    case JGI_TC_STOP:
      return "stop";
    case JGI_TC_TRUE:
      return "bool (true)";
    case JGI_TC_FALSE:
      return "bool (false)";
    case JGI_TC_BYTE:
      return "i8";
    case JGI_TC_I16:
      return "i16";
    case JGI_TC_I32:
      return "i32";
    case JGI_TC_I64:
      return "i64";
    case JGI_TC_DOUBLE:
      return "double";
    case JGI_TC_BINARY:
      return "binary";
    case JGI_TC_LIST:
      return "list";
    case JGI_TC_SET:
      return "set";
    case JGI_TC_MAP:
      return "map";
    case JGI_TC_STRUCT:
      return "struct";
    case JGI_TC_UUID:
      return "uuid";
    default:
      return "unknown";
  }
}

/* ---- Reader ------------------------------------------------------------------------------- */

void jgi_tc_reader_init(jgi_tc_reader *r, const uint8_t *buf, size_t n) {
  r->base = r->p = buf;
  r->end = buf == NULL ? buf : buf + n;
  r->depth = 0;
}

/* A value of `n` bytes named `what` does not fit in what is left. */
static jg_status truncated(const jgi_tc_reader *r, const char *what, uint64_t n, jg_error *err) {
  return jg_error_set(err, JG_ECORRUPT, (int64_t)jgi_tc_offset(r),
                      "Thrift: %s of %llu bytes at byte %zu runs past the end (%zu bytes)", what,
                      (unsigned long long)n, jgi_tc_offset(r), (size_t)(r->end - r->base));
}

jg_status jgi_tc_read_varint(jgi_tc_reader *r, uint64_t *v, jg_error *err) {
  const uint8_t *p = r->p;
  uint64_t x = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (JGI_UNLIKELY(p == r->end)) {
      return jg_error_set(err, JG_ECORRUPT, (int64_t)jgi_tc_offset(r),
                          "Thrift: a varint at byte %zu runs past the end (%zu bytes)",
                          jgi_tc_offset(r), (size_t)(r->end - r->base));
    }
    const uint8_t b = *p++;
    /* The 10th byte holds bit 63 only. */
    JG_RETURN_IF_AT(shift == 63 && b > 1, JG_ECORRUPT, err, jgi_tc_offset(r),
                    "Thrift: the varint at byte %zu is longer than 64 bits", jgi_tc_offset(r));
    x |= (uint64_t)(b & 0x7F) << shift;
    if ((b & 0x80) == 0) {
      r->p = p;
      *v = x;
      return JG_OK;
    }
  }
  return jg_error_set(err, JG_ECORRUPT, (int64_t)jgi_tc_offset(r),
                      "Thrift: the varint at byte %zu is longer than 10 bytes", jgi_tc_offset(r));
}

static inline int64_t zigzag_decode(uint64_t u) {
  return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

jg_status jgi_tc_read_i64(jgi_tc_reader *r, int64_t *v, jg_error *err) {
  uint64_t u;
  JG_RETURN_NOT_OK(jgi_tc_read_varint(r, &u, err));
  *v = zigzag_decode(u);
  return JG_OK;
}

jg_status jgi_tc_read_i32(jgi_tc_reader *r, int32_t *v, jg_error *err) {
  const size_t at = jgi_tc_offset(r);
  int64_t x;
  JG_RETURN_NOT_OK(jgi_tc_read_i64(r, &x, err));
  JG_RETURN_IF_AT(x < INT32_MIN || x > INT32_MAX, JG_ECORRUPT, err, at,
                  "Thrift: the i32 at byte %zu is %lld, outside the i32 range", at, (long long)x);
  *v = (int32_t)x;
  return JG_OK;
}

jg_status jgi_tc_read_i16(jgi_tc_reader *r, int16_t *v, jg_error *err) {
  const size_t at = jgi_tc_offset(r);
  int64_t x;
  JG_RETURN_NOT_OK(jgi_tc_read_i64(r, &x, err));
  JG_RETURN_IF_AT(x < INT16_MIN || x > INT16_MAX, JG_ECORRUPT, err, at,
                  "Thrift: the i16 at byte %zu is %lld, outside the i16 range", at, (long long)x);
  *v = (int16_t)x;
  return JG_OK;
}

jg_status jgi_tc_read_byte(jgi_tc_reader *r, int8_t *v, jg_error *err) {
  if (JGI_UNLIKELY(r->p == r->end)) return truncated(r, "an i8", 1, err);
  *v = (int8_t)*r->p++;
  return JG_OK;
}

jg_status jgi_tc_read_double(jgi_tc_reader *r, double *v, jg_error *err) {
  if (JGI_UNLIKELY(jgi_tc_left(r) < 8)) return truncated(r, "a double", 8, err);
  uint64_t u = 0;
  for (int i = 0; i < 8; i++) u |= (uint64_t)r->p[i] << (8 * i);
  memcpy(v, &u, sizeof *v);
  r->p += 8;
  return JG_OK;
}

jg_status jgi_tc_read_binary(jgi_tc_reader *r, const uint8_t **p, size_t *n, jg_error *err) {
  uint64_t len;
  JG_RETURN_NOT_OK(jgi_tc_read_varint(r, &len, err));
  if (JGI_UNLIKELY(len > jgi_tc_left(r))) return truncated(r, "a binary", len, err);
  *p = r->p;
  *n = (size_t)len;
  r->p += len;
  return JG_OK;
}

static jg_status depth_exceeded(const jgi_tc_reader *r, jg_error *err) {
  return jg_error_set(err, JG_ECORRUPT, (int64_t)jgi_tc_offset(r),
                      "Thrift: structs and containers nested deeper than %d at byte %zu",
                      JGI_TC_MAX_DEPTH, jgi_tc_offset(r));
}

jg_status jgi_tc_struct_begin(jgi_tc_reader *r, int16_t *last_id, jg_error *err) {
  if (JGI_UNLIKELY(r->depth >= JGI_TC_MAX_DEPTH)) return depth_exceeded(r, err);
  r->depth++;
  *last_id = 0;
  return JG_OK;
}

jg_status jgi_tc_read_field(jgi_tc_reader *r, int16_t *last_id, int *type, int16_t *id,
                            jg_error *err) {
  const size_t at = jgi_tc_offset(r);
  if (JGI_UNLIKELY(r->p == r->end)) {
    return jg_error_set(err, JG_ECORRUPT, (int64_t)at,
                        "Thrift: a struct runs past the end (%zu bytes) without its stop byte",
                        (size_t)(r->end - r->base));
  }
  const uint8_t b = *r->p++;
  if (b == 0) {
    *type = JGI_TC_STOP;
    *id = 0;
    r->depth--;
    return JG_OK;
  }
  const int t = b & 0x0F, delta = b >> 4;
  JG_RETURN_IF_AT(t == JGI_TC_STOP || t > JGI_TC_UUID, JG_ECORRUPT, err, at,
                  "Thrift: field header 0x%02x at byte %zu has unknown type %d", b, at, t);
  int16_t fid;
  if (delta != 0) {
    const int x = *last_id + delta;
    JG_RETURN_IF_AT(x > INT16_MAX, JG_ECORRUPT, err, at,
                    "Thrift: the field id at byte %zu (%d) is beyond the i16 range", at, x);
    fid = (int16_t)x;
  } else {
    JG_RETURN_NOT_OK(jgi_tc_read_i16(r, &fid, err));
  }
  *last_id = fid;
  *id = fid;
  *type = t;
  return JG_OK;
}

jg_status jgi_tc_read_list(jgi_tc_reader *r, int *elem_type, int32_t *size, jg_error *err) {
  const size_t at = jgi_tc_offset(r);
  if (JGI_UNLIKELY(r->p == r->end)) return truncated(r, "a list header", 1, err);
  const uint8_t b = *r->p++;
  const int t = b & 0x0F;
  uint64_t n = b >> 4;
  JG_RETURN_IF_AT(t == JGI_TC_STOP || t > JGI_TC_UUID, JG_ECORRUPT, err, at,
                  "Thrift: list header 0x%02x at byte %zu has unknown element type %d", b, at, t);
  if (n == 15) JG_RETURN_NOT_OK(jgi_tc_read_varint(r, &n, err));
  /* Every element takes at least one byte. */
  JG_RETURN_IF_AT(n > jgi_tc_left(r) || n > INT32_MAX, JG_ECORRUPT, err, at,
                  "Thrift: the list at byte %zu has %llu elements, more than the %zu bytes left",
                  at, (unsigned long long)n, jgi_tc_left(r));
  *elem_type = t;
  *size = (int32_t)n;
  return JG_OK;
}

static jg_status skip_bytes(jgi_tc_reader *r, size_t n, const char *what, jg_error *err) {
  if (JGI_UNLIKELY(n > jgi_tc_left(r))) return truncated(r, what, n, err);
  r->p += n;
  return JG_OK;
}

jg_status jgi_tc_skip(jgi_tc_reader *r, int type, bool in_container, jg_error *err) {
  const size_t at = jgi_tc_offset(r);
  uint64_t u;
  switch (type) {
    case JGI_TC_TRUE:
    case JGI_TC_FALSE:
      return in_container ? skip_bytes(r, 1, "a bool", err) : JG_OK;
    case JGI_TC_BYTE:
      return skip_bytes(r, 1, "an i8", err);
    case JGI_TC_I16:
    case JGI_TC_I32:
    case JGI_TC_I64:
      return jgi_tc_read_varint(r, &u, err);
    case JGI_TC_DOUBLE:
      return skip_bytes(r, 8, "a double", err);
    case JGI_TC_UUID:
      return skip_bytes(r, 16, "a uuid", err);
    case JGI_TC_BINARY: {
      const uint8_t *p;
      size_t n;
      return jgi_tc_read_binary(r, &p, &n, err);
    }
    case JGI_TC_LIST:
    case JGI_TC_SET: {
      int et;
      int32_t n;
      JG_RETURN_NOT_OK(jgi_tc_read_list(r, &et, &n, err));
      if (JGI_UNLIKELY(r->depth >= JGI_TC_MAX_DEPTH)) return depth_exceeded(r, err);
      r->depth++;
      for (int32_t i = 0; i < n; i++) JG_RETURN_NOT_OK(jgi_tc_skip(r, et, true, err));
      r->depth--;
      return JG_OK;
    }
    case JGI_TC_MAP: {
      JG_RETURN_NOT_OK(jgi_tc_read_varint(r, &u, err));
      if (u == 0) return JG_OK;
      if (JGI_UNLIKELY(r->p == r->end)) return truncated(r, "a map header", 1, err);
      const uint8_t kv = *r->p++;
      const int kt = kv >> 4, vt = kv & 0x0F;
      JG_RETURN_IF_AT(kt == 0 || kt > JGI_TC_UUID || vt == 0 || vt > JGI_TC_UUID, JG_ECORRUPT, err,
                      at, "Thrift: map header at byte %zu has unknown types 0x%02x", at, kv);
      /* Every entry takes at least two bytes. */
      JG_RETURN_IF_AT(u > jgi_tc_left(r) / 2, JG_ECORRUPT, err, at,
                      "Thrift: the map at byte %zu has %llu entries, more than the %zu bytes "
                      "left hold",
                      at, (unsigned long long)u, jgi_tc_left(r));
      if (JGI_UNLIKELY(r->depth >= JGI_TC_MAX_DEPTH)) return depth_exceeded(r, err);
      r->depth++;
      for (uint64_t i = 0; i < u; i++) {
        JG_RETURN_NOT_OK(jgi_tc_skip(r, kt, true, err));
        JG_RETURN_NOT_OK(jgi_tc_skip(r, vt, true, err));
      }
      r->depth--;
      return JG_OK;
    }
    case JGI_TC_STRUCT: {
      int16_t last, id;
      int ft;
      JG_RETURN_NOT_OK(jgi_tc_struct_begin(r, &last, err));
      for (;;) {
        JG_RETURN_NOT_OK(jgi_tc_read_field(r, &last, &ft, &id, err));
        if (ft == JGI_TC_STOP) return JG_OK;
        JG_RETURN_NOT_OK(jgi_tc_skip(r, ft, false, err));
      }
    }
    default:
      return jg_error_set(err, JG_ECORRUPT, (int64_t)at,
                          "Thrift: cannot skip a value of unknown type %d at byte %zu", type, at);
  }
}

/* ---- Writer ------------------------------------------------------------------------------- */

void jgi_tc_writer_init(jgi_tc_writer *w, jgi_pq_buf *out, jg_error *err) {
  w->out = out;
  w->err = err;
  w->status = JG_OK;
  w->depth = 0;
  w->last_id[0] = 0;
}

static void put(jgi_tc_writer *w, const void *p, size_t n) {
  if (w->status == JG_OK) w->status = jgi_pq_buf_append(w->out, p, n, w->err);
}

void jgi_tc_write_varint(jgi_tc_writer *w, uint64_t v) {
  uint8_t b[10];
  size_t n = 0;
  while (v >= 0x80) {
    b[n++] = (uint8_t)(v | 0x80);
    v >>= 7;
  }
  b[n++] = (uint8_t)v;
  put(w, b, n);
}

void jgi_tc_write_i64(jgi_tc_writer *w, int64_t v) {
  const uint64_t u = ((uint64_t)v << 1) ^ (v < 0 ? UINT64_MAX : 0);
  jgi_tc_write_varint(w, u);
}

void jgi_tc_write_byte(jgi_tc_writer *w, int8_t v) {
  const uint8_t b = (uint8_t)v;
  put(w, &b, 1);
}

void jgi_tc_write_double(jgi_tc_writer *w, double v) {
  uint64_t u;
  memcpy(&u, &v, sizeof u);
  uint8_t b[8];
  for (int i = 0; i < 8; i++) b[i] = (uint8_t)(u >> (8 * i));
  put(w, b, 8);
}

void jgi_tc_write_binary(jgi_tc_writer *w, const void *p, size_t n) {
  jgi_tc_write_varint(w, n);
  put(w, p, n);
}

void jgi_tc_write_list(jgi_tc_writer *w, int elem_type, int64_t size) {
  if (size < 0) {
    if (w->status == JG_OK) {
      w->status =
          jg_error_set(w->err, JG_EINVAL, size, "Thrift: negative list size %lld", (long long)size);
    }
    return;
  }
  if (size < 15) {
    const uint8_t b = (uint8_t)((size << 4) | (elem_type & 0x0F));
    put(w, &b, 1);
  } else {
    const uint8_t b = (uint8_t)(0xF0 | (elem_type & 0x0F));
    put(w, &b, 1);
    jgi_tc_write_varint(w, (uint64_t)size);
  }
}

void jgi_tc_write_struct_begin(jgi_tc_writer *w) {
  if (w->depth >= JGI_TC_MAX_DEPTH) {
    if (w->status == JG_OK) {
      w->status = jg_error_set(w->err, JG_EINVAL, -1, "Thrift: structs nested deeper than %d",
                               JGI_TC_MAX_DEPTH);
    }
    return;
  }
  w->last_id[++w->depth] = 0;
}

void jgi_tc_write_struct_end(jgi_tc_writer *w) {
  const uint8_t stop = 0;
  put(w, &stop, 1);
  if (w->depth > 0) w->depth--;
}

void jgi_tc_write_field(jgi_tc_writer *w, int16_t id, int type) {
  const int16_t last = w->last_id[w->depth];
  if (id > last && id - last <= 15) {
    const uint8_t b = (uint8_t)(((id - last) << 4) | (type & 0x0F));
    put(w, &b, 1);
  } else {
    const uint8_t b = (uint8_t)(type & 0x0F);
    put(w, &b, 1);
    jgi_tc_write_i64(w, id);
  }
  w->last_id[w->depth] = id;
}

void jgi_tc_write_field_bool(jgi_tc_writer *w, int16_t id, bool v) {
  jgi_tc_write_field(w, id, v ? JGI_TC_TRUE : JGI_TC_FALSE);
}

void jgi_tc_write_field_i32(jgi_tc_writer *w, int16_t id, int32_t v) {
  jgi_tc_write_field(w, id, JGI_TC_I32);
  jgi_tc_write_i64(w, v);
}

void jgi_tc_write_field_i64(jgi_tc_writer *w, int16_t id, int64_t v) {
  jgi_tc_write_field(w, id, JGI_TC_I64);
  jgi_tc_write_i64(w, v);
}

void jgi_tc_write_field_binary(jgi_tc_writer *w, int16_t id, const void *p, size_t n) {
  jgi_tc_write_field(w, id, JGI_TC_BINARY);
  jgi_tc_write_binary(w, p, n);
}

void jgi_tc_write_field_string(jgi_tc_writer *w, int16_t id, const char *s) {
  jgi_tc_write_field_binary(w, id, s, strlen(s));
}
