/* array_print.c: jg_array_type_string and jg_array_to_string (array.h).
 *
 * Both follow Awkward Array's text forms (scikit-hep/awkward: src/awkward/types/ for types,
 * src/awkward/_prettyprint.py for values; written here from their documented behaviour):
 *   - types: "N * " then the node's type: "var * T" for lists, "K * T" for regular lists and for
 *     the inner axes of multi-dimensional numeric data, dtype names for numbers, "unknown" for
 *     empty nodes, "{x: T, y: U}" for records (names that are not identifiers are JSON-quoted),
 *     "(T, U)" for tuples, "?T" for options, except "option[T]" when T is a list or regular type;
 *   - values: lists in brackets, records in braces with "name: value", tuples in parentheses,
 *     None for missing values, True / False for booleans, integers in full, floating-point
 *     numbers in the fewest significant digits that read back to the same value ("%g" style, so
 *     1.0 prints "1" as Awkward prints it). A list that does not fit in the width keeps entries
 *     from its front and back, taken alternately while they fit, and shows "..." for the middle
 *     ("[1, 2, 3, ..., 98, 99]"); a record that does not fit ends in "...".
 *
 * The printout reads buffers on the host, checking every list range and index it follows, so an
 * array that fails FULL validation gives JG_EVALUE instead of reading out of bounds. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal/jgi_array.h"
#include "internal/jgi_check.h"

/* Deepest nesting the type string follows (a guard against runaway recursion on corrupt trees;
 * the printout relies on jg_array_validate's guard). */
#define MAX_DEPTH 1000
/* Default width of jg_array_to_string, Awkward's. */
#define DEFAULT_WIDTH 80

/* ------------------------------------------------------------------------------------------ */
/* Writing to the caller's buffer                                                              */
/* ------------------------------------------------------------------------------------------ */

/* Text going to buf (capacity size): what fits is stored, everything is counted. */
typedef struct sink {
  char *buf;
  size_t size;
  size_t len;              /* bytes of the full text so far */
  bool cut;                /* some byte did not fit */
  unsigned char first_cut; /* the first byte that did not fit */
} sink;

static void sink_put(sink *s, const char *p, size_t n) {
  const size_t room = s->size > 0 && s->len < s->size - 1 ? s->size - 1 - s->len : 0;
  const size_t k = n < room ? n : room;
  if (k > 0) memcpy(s->buf + s->len, p, k);
  if (n > k && !s->cut) {
    s->cut = true;
    s->first_cut = (unsigned char)p[k];
  }
  s->len += n;
}

static void sink_puts(sink *s, const char *p) {
  sink_put(s, p, strlen(p));
}

/* NUL-terminates the stored text; a truncated text does not end inside a UTF-8 sequence. */
static void sink_finish(sink *s, size_t *needed) {
  if (needed != NULL) *needed = s->len;
  if (s->size == 0) return;
  size_t end = s->len < s->size - 1 ? s->len : s->size - 1;
  if (s->cut && (s->first_cut & 0xC0) == 0x80) {
    while (end > 0 && ((unsigned char)s->buf[end - 1] & 0xC0) == 0x80) end--;
    if (end > 0 && ((unsigned char)s->buf[end - 1] & 0xC0) == 0xC0) end--;
  }
  s->buf[end] = '\0';
}

/* ------------------------------------------------------------------------------------------ */
/* Field names                                                                                 */
/* ------------------------------------------------------------------------------------------ */

/* Awkward prints names matching [A-Za-z_][A-Za-z_0-9]* bare and quotes the others. */
static bool is_identifier(const char *s) {
  if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || *s == '_')) return false;
  for (s++; *s != '\0'; s++) {
    if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
          *s == '_')) {
      return false;
    }
  }
  return true;
}

/* Decodes one UTF-8 sequence at s (NUL-terminated); returns its length and the code point, or
 * length 1 and -1 for a malformed sequence. */
static int utf8_decode(const unsigned char *s, long *cp) {
  int n;
  long c;
  long min;
  if (s[0] < 0x80) {
    *cp = s[0];
    return 1;
  } else if (s[0] >= 0xC2 && s[0] <= 0xDF) {
    n = 2, c = s[0] & 0x1F, min = 0x80;
  } else if (s[0] >= 0xE0 && s[0] <= 0xEF) {
    n = 3, c = s[0] & 0x0F, min = 0x800;
  } else if (s[0] >= 0xF0 && s[0] <= 0xF4) {
    n = 4, c = s[0] & 0x07, min = 0x10000;
  } else {
    *cp = -1;
    return 1;
  }
  for (int k = 1; k < n; k++) {
    if ((s[k] & 0xC0) != 0x80) {
      *cp = -1;
      return 1;
    }
    c = (c << 6) | (s[k] & 0x3F);
  }
  if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) {
    *cp = -1;
    return 1;
  }
  *cp = c;
  return n;
}

/* A name as a JSON string with ASCII-only output (Python's json.dumps, which Awkward's types
 * use): \" \\ \b \f \n \r \t, other control characters and every non-ASCII character as u-escapes
 * (UTF-16 surrogate pairs above U+FFFF); malformed UTF-8 bytes as U+FFFD. */
static void put_json_name(sink *s, const char *name) {
  char tmp[16];
  sink_put(s, "\"", 1);
  const unsigned char *p = (const unsigned char *)name;
  while (*p != '\0') {
    long cp;
    const int n = utf8_decode(p, &cp);
    p += n;
    if (cp < 0) cp = 0xFFFD;
    switch (cp) {
      case '"':
        sink_puts(s, "\\\"");
        continue;
      case '\\':
        sink_puts(s, "\\\\");
        continue;
      case '\b':
        sink_puts(s, "\\b");
        continue;
      case '\f':
        sink_puts(s, "\\f");
        continue;
      case '\n':
        sink_puts(s, "\\n");
        continue;
      case '\r':
        sink_puts(s, "\\r");
        continue;
      case '\t':
        sink_puts(s, "\\t");
        continue;
      default:
        break;
    }
    if (cp >= 0x20 && cp < 0x7F) {
      tmp[0] = (char)cp;
      sink_put(s, tmp, 1);
    } else if (cp < 0x10000) {
      snprintf(tmp, sizeof tmp, "\\u%04lx", cp);
      sink_puts(s, tmp);
    } else {
      const long v = cp - 0x10000;
      snprintf(tmp, sizeof tmp, "\\u%04lx\\u%04lx", 0xD800 + (v >> 10), 0xDC00 + (v & 0x3FF));
      sink_puts(s, tmp);
    }
  }
  sink_put(s, "\"", 1);
}

/* ------------------------------------------------------------------------------------------ */
/* Type string                                                                                 */
/* ------------------------------------------------------------------------------------------ */

static void put_len(sink *s, jg_len n, const char *suffix) {
  char tmp[32];
  snprintf(tmp, sizeof tmp, "%lld%s", (long long)n, suffix);
  sink_puts(s, tmp);
}

/* Whether a node's type prints as a list or regular type (what "option[...]" wraps). */
static bool is_list_type(const jg_array *a) {
  switch (a->kind) {
    case JG_NODE_LIST_OFFSET:
    case JG_NODE_LIST:
    case JG_NODE_REGULAR:
      return true;
    case JG_NODE_NUMERIC:
      return a->nbuffers == 1 && a->buffers[0].layout.ndim > 1;
    default:
      return false;
  }
}

static jg_status type_node(sink *s, const jg_array *a, int depth, jg_error *err) {
  static const char fn[] = "jg_array_type_string";
  JG_RETURN_IF(depth > MAX_DEPTH, JG_EINVAL, err, "%s: nested deeper than %d levels", fn,
               MAX_DEPTH);
  const bool one_child =
      a->kind != JG_NODE_NUMERIC && a->kind != JG_NODE_EMPTY && a->kind != JG_NODE_RECORD;
  JG_RETURN_IF(one_child && (a->nchildren != 1 || a->children == NULL || a->children[0] == NULL),
               JG_EINVAL, err, "%s: a %s node without its content", fn,
               jgi_array_node_name(a->kind));
  switch (a->kind) {
    case JG_NODE_NUMERIC: {
      JG_RETURN_IF(a->nbuffers != 1, JG_EINVAL, err, "%s: a numeric node without data", fn);
      const jg_layout *l = &a->buffers[0].layout;
      for (int k = 1; k < l->ndim && k < JG_MAX_NDIM; k++) put_len(s, l->shape[k], " * ");
      sink_puts(s, jg_dtype_name(a->buffers[0].dtype));
      return JG_OK;
    }
    case JG_NODE_EMPTY:
      sink_puts(s, "unknown");
      return JG_OK;
    case JG_NODE_LIST_OFFSET:
    case JG_NODE_LIST:
      sink_puts(s, "var * ");
      return type_node(s, a->children[0], depth + 1, err);
    case JG_NODE_REGULAR:
      put_len(s, a->regular_size, " * ");
      return type_node(s, a->children[0], depth + 1, err);
    case JG_NODE_RECORD: {
      const bool tuple = a->names == NULL;
      JG_RETURN_IF(a->nchildren > 0 && a->children == NULL, JG_EINVAL, err,
                   "%s: a record node without its fields", fn);
      sink_puts(s, tuple ? "(" : "{");
      for (int k = 0; k < a->nchildren; k++) {
        JG_RETURN_IF_AT(a->children[k] == NULL || (!tuple && a->names[k] == NULL), JG_EINVAL, err,
                        k, "%s: field %d of a record node is not set", fn, k);
        if (k > 0) sink_puts(s, ", ");
        if (!tuple) {
          if (is_identifier(a->names[k])) {
            sink_puts(s, a->names[k]);
          } else {
            put_json_name(s, a->names[k]);
          }
          sink_puts(s, ": ");
        }
        JG_RETURN_NOT_OK(type_node(s, a->children[k], depth + 1, err));
      }
      sink_puts(s, tuple ? ")" : "}");
      return JG_OK;
    }
    case JG_NODE_BYTE_MASKED:
    case JG_NODE_BIT_MASKED:
    case JG_NODE_INDEXED_OPTION: {
      const bool wrap = is_list_type(a->children[0]);
      sink_puts(s, wrap ? "option[" : "?");
      JG_RETURN_NOT_OK(type_node(s, a->children[0], depth + 1, err));
      if (wrap) sink_puts(s, "]");
      return JG_OK;
    }
  }
  return jg_error_set(err, JG_EINVAL, -1, "%s: unknown node kind %d", fn, (int)a->kind);
}

jg_status jg_array_type_string(const jg_array *a, char *buf, size_t size, size_t *needed,
                               jg_error *err) {
  static const char fn[] = "jg_array_type_string";
  JG_RETURN_IF(a == NULL, JG_EINVAL, err, "%s: a is NULL", fn);
  JG_RETURN_IF(buf == NULL && size > 0, JG_EINVAL, err, "%s: buf is NULL but size is %zu", fn,
               size);
  sink s = {buf, size, 0, false, 0};
  put_len(&s, a->length, " * ");
  const jg_status st = type_node(&s, a, 0, err);
  if (st != JG_OK) {
    if (size > 0) buf[0] = '\0';
    if (needed != NULL) *needed = 0;
    return st;
  }
  sink_finish(&s, needed);
  return JG_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* Growing strings for the printout                                                            */
/* ------------------------------------------------------------------------------------------ */

typedef struct dstr {
  char *p;
  size_t len, cap;
} dstr;

static void dstr_free(dstr *d) {
  free(d->p);
  d->p = NULL;
  d->len = d->cap = 0;
}

static jg_status dstr_reserve(dstr *d, size_t extra, jg_error *err) {
  JG_RETURN_IF(extra > SIZE_MAX / 2 - d->len, JG_ENOMEM, err,
               "jg_array_to_string: printout too long");
  if (d->len + extra + 1 <= d->cap) return JG_OK;
  size_t cap = d->cap == 0 ? 64 : d->cap;
  while (cap < d->len + extra + 1) cap *= 2;
  char *p = realloc(d->p, cap);
  JG_RETURN_IF(p == NULL, JG_ENOMEM, err, "jg_array_to_string: cannot allocate %zu bytes", cap);
  d->p = p;
  d->cap = cap;
  return JG_OK;
}

static jg_status dstr_put(dstr *d, const char *s, size_t n, jg_error *err) {
  JG_RETURN_NOT_OK(dstr_reserve(d, n, err));
  memcpy(d->p + d->len, s, n);
  d->len += n;
  d->p[d->len] = '\0';
  return JG_OK;
}

static jg_status dstr_puts(dstr *d, const char *s, jg_error *err) {
  return dstr_put(d, s, strlen(s), err);
}

/* ------------------------------------------------------------------------------------------ */
/* Numbers                                                                                     */
/* ------------------------------------------------------------------------------------------ */

static double half_to_double(uint16_t h) {
  const int e = (h >> 10) & 0x1F;
  const int m = h & 0x3FF;
  double v;
  if (e == 0) {
    v = ldexp((double)m, -24);
  } else if (e == 31) {
    v = m != 0 ? NAN : INFINITY;
  } else {
    v = ldexp((double)(m + 1024), e - 25);
  }
  return (h & 0x8000) ? -v : v;
}

/* The float16 nearest to x (ties to even), as bits. */
static uint16_t double_to_half(double x) {
  const uint16_t sign = signbit(x) ? 0x8000 : 0;
  const double ax = fabs(x);
  if (isnan(x)) return (uint16_t)(sign | 0x7E00);
  if (ax >= 65520.0) return (uint16_t)(sign | 0x7C00); /* rounds to infinity */
  if (ax < ldexp(1.0, -14)) {                          /* subnormal (or the smallest normal) */
    return (uint16_t)(sign | (uint16_t)rint(ldexp(ax, 24)));
  }
  int e2 = 0;
  (void)frexp(ax, &e2);
  int e = e2 - 1; /* ax in [2^e, 2^(e+1)) */
  double m = rint(ldexp(ax, 10 - e));
  if (m >= 2048.0) {
    m = 1024.0;
    e++;
  }
  if (e > 15) return (uint16_t)(sign | 0x7C00);
  return (uint16_t)(sign | ((e + 15) << 10) | ((int)m - 1024));
}

/* Non-finite values as Python prints them. Returns false for finite x. */
static bool put_nonfinite(double x, char *out, size_t cap) {
  if (isnan(x)) {
    snprintf(out, cap, "nan");
  } else if (isinf(x)) {
    snprintf(out, cap, x > 0 ? "inf" : "-inf");
  } else {
    return false;
  }
  return true;
}

/* Makes the decimal separator '.' whatever the C locale. */
static void fix_decimal_point(char *s) {
  for (; *s != '\0'; s++) {
    if (*s == ',') *s = '.';
  }
}

/* %g switches to an exponent once the shortest precision is below the number of integer digits
 * (10 with one digit is "1e+01"); Awkward and NumPy print such values plainly ("10") up to
 * 1e16. Re-formats `out` with enough digits for the integer part when that happens. */
static void plain_integer_part(double x, int p, char *out, size_t cap) {
  const double ax = fabs(x);
  if (strchr(out, 'e') == NULL || ax < 1.0 || ax >= 1e16) return;
  int digits = 1;
  for (double t = ax; t >= 10.0; t /= 10.0) digits++;
  if (digits > p) snprintf(out, cap, "%.*g", digits, x);
}

/* The fewest significant digits (%g) that read back to the same value of the type. */
static void format_float64(double x, char *out, size_t cap) {
  if (put_nonfinite(x, out, cap)) return;
  int p = 1;
  for (; p <= 17; p++) {
    snprintf(out, cap, "%.*g", p, x);
    if (strtod(out, NULL) == x) break;
  }
  plain_integer_part(x, p, out, cap);
  fix_decimal_point(out);
}

static void format_float32(float x, char *out, size_t cap) {
  if (put_nonfinite(x, out, cap)) return;
  int p = 1;
  for (; p <= 9; p++) {
    snprintf(out, cap, "%.*g", p, (double)x);
    if (strtof(out, NULL) == x) break;
  }
  plain_integer_part((double)x, p, out, cap);
  fix_decimal_point(out);
}

static void format_float16(uint16_t h, char *out, size_t cap) {
  const double x = half_to_double(h);
  if (put_nonfinite(x, out, cap)) return;
  int p = 1;
  for (; p <= 5; p++) {
    snprintf(out, cap, "%.*g", p, x);
    if (double_to_half(strtod(out, NULL)) == h) break;
  }
  plain_integer_part(x, p, out, cap);
  fix_decimal_point(out);
}

/* Element `eoff` (in elements from the base) of numeric data, as text. */
static void format_scalar(const jg_view *d, int64_t eoff, char *out, size_t cap) {
  const char *p = (const char *)d->base + eoff * d->layout.itemsize;
  switch (d->dtype) {
    case JG_DTYPE_BOOL: {
      uint8_t v;
      memcpy(&v, p, 1);
      snprintf(out, cap, "%s", v != 0 ? "True" : "False");
      return;
    }
    case JG_DTYPE_INT8: {
      int8_t v;
      memcpy(&v, p, sizeof v);
      snprintf(out, cap, "%d", (int)v);
      return;
    }
    case JG_DTYPE_INT16: {
      int16_t v;
      memcpy(&v, p, sizeof v);
      snprintf(out, cap, "%d", (int)v);
      return;
    }
    case JG_DTYPE_INT32: {
      int32_t v;
      memcpy(&v, p, sizeof v);
      snprintf(out, cap, "%ld", (long)v);
      return;
    }
    case JG_DTYPE_INT64: {
      int64_t v;
      memcpy(&v, p, sizeof v);
      snprintf(out, cap, "%lld", (long long)v);
      return;
    }
    case JG_DTYPE_UINT8: {
      uint8_t v;
      memcpy(&v, p, sizeof v);
      snprintf(out, cap, "%u", (unsigned)v);
      return;
    }
    case JG_DTYPE_UINT16: {
      uint16_t v;
      memcpy(&v, p, sizeof v);
      snprintf(out, cap, "%u", (unsigned)v);
      return;
    }
    case JG_DTYPE_UINT32: {
      uint32_t v;
      memcpy(&v, p, sizeof v);
      snprintf(out, cap, "%lu", (unsigned long)v);
      return;
    }
    case JG_DTYPE_UINT64: {
      uint64_t v;
      memcpy(&v, p, sizeof v);
      snprintf(out, cap, "%llu", (unsigned long long)v);
      return;
    }
    case JG_DTYPE_FLOAT16: {
      uint16_t v;
      memcpy(&v, p, sizeof v);
      format_float16(v, out, cap);
      return;
    }
    case JG_DTYPE_FLOAT32: {
      float v;
      memcpy(&v, p, sizeof v);
      format_float32(v, out, cap);
      return;
    }
    case JG_DTYPE_FLOAT64: {
      double v;
      memcpy(&v, p, sizeof v);
      format_float64(v, out, cap);
      return;
    }
    default:
      snprintf(out, cap, "?");
      return;
  }
}

/* ------------------------------------------------------------------------------------------ */
/* Printout                                                                                    */
/* ------------------------------------------------------------------------------------------ */

/* A run of entries: entries [start, start + length) of a non-numeric node, or `length` elements
 * along `axis` of numeric data, the first at element offset `eoff`, `estride` apart. */
typedef struct seq {
  const jg_array *node;
  jg_len start;
  jg_len length;
  int axis;
  int64_t eoff;
  jg_stride estride;
} seq;

static seq make_seq(const jg_array *node, jg_len start, jg_len length) {
  seq q = {node, start, length, 0, 0, 0};
  if (node->kind == JG_NODE_NUMERIC) {
    const jg_layout *l = &node->buffers[0].layout;
    q.eoff = l->slice_offset + start * l->strides[0];
    q.estride = l->strides[0];
  }
  return q;
}

static jg_status print_seq(const seq *q, int64_t limit, dstr *out, jg_error *err);
static jg_status print_entry(const jg_array *a, jg_len i, int64_t limit, dstr *out, jg_error *err);

/* Numeric data at `axis`, element offset `eoff`: a number on the last axis, else a list. */
static jg_status print_numeric(const jg_array *a, int axis, int64_t eoff, int64_t limit, dstr *out,
                               jg_error *err) {
  const jg_view *d = &a->buffers[0];
  if (axis == d->layout.ndim - 1) {
    char tmp[64];
    format_scalar(d, eoff, tmp, sizeof tmp);
    return dstr_puts(out, tmp, err);
  }
  const seq q = {a, 0, d->layout.shape[axis + 1], axis + 1, eoff, d->layout.strides[axis + 1]};
  return print_seq(&q, limit, out, err);
}

static jg_status seq_entry(const seq *q, jg_len j, int64_t limit, dstr *out, jg_error *err) {
  if (q->node->kind == JG_NODE_NUMERIC) {
    return print_numeric(q->node, q->axis, q->eoff + j * q->estride, limit, out, err);
  }
  return print_entry(q->node, q->start + j, limit, out, err);
}

/* Awkward's layout: front entries and back entries alternately while they fit in `limit`
 * (brackets and a possible ", ..." reserved), then "..." for what is left out. */
static jg_status print_seq(const seq *q, int64_t limit, dstr *out, jg_error *err) {
  const jg_len n = q->length;
  JG_RETURN_NOT_OK(dstr_puts(out, "[", err));
  limit -= 2;
  if (n == 1) {
    JG_RETURN_NOT_OK(seq_entry(q, 0, limit, out, err));
  } else if (n > 1) {
    limit -= 5; /* room for ", ..." */
    const jg_len half = n - n / 2;
    jg_len f = 0, b = n - 1, shown = 0;
    bool forward = true, backward = true;
    /* Back entries are appended to `back` as they come (last entry first) and written out in
     * reverse at the end; marks[k] is where entry k starts. */
    dstr back = {NULL, 0, 0}, tmp = {NULL, 0, 0};
    size_t *marks = NULL, nmarks = 0, cap = 0;
    jg_status st = JG_OK;
    while (st == JG_OK && (forward || backward)) {
      if (forward && f >= half) forward = false;
      if (forward) {
        const int64_t comma = shown == 0 ? 0 : 2;
        if (limit - comma < 1) break;
        tmp.len = 0;
        st = seq_entry(q, f, limit - comma, &tmp, err);
        if (st != JG_OK) break;
        if (limit - comma - (int64_t)tmp.len < 0) break;
        if (comma > 0) st = dstr_puts(out, ", ", err);
        if (st == JG_OK) st = dstr_put(out, tmp.p, tmp.len, err);
        limit -= comma + (int64_t)tmp.len;
        f++;
        shown++;
      }
      if (backward && b < half) backward = false;
      if (backward && st == JG_OK) {
        if (limit - 2 < 1) break;
        tmp.len = 0;
        st = seq_entry(q, b, limit - 2, &tmp, err);
        if (st != JG_OK) break;
        if (limit - 2 - (int64_t)tmp.len < 0) break;
        if (nmarks == cap) {
          cap = cap == 0 ? 16 : 2 * cap;
          size_t *m = realloc(marks, cap * sizeof *m);
          if (m == NULL) {
            st = jg_error_set(err, JG_ENOMEM, -1, "jg_array_to_string: out of memory");
            break;
          }
          marks = m;
        }
        marks[nmarks++] = back.len;
        st = dstr_puts(&back, ", ", err);
        if (st == JG_OK) st = dstr_put(&back, tmp.p, tmp.len, err);
        limit -= 2 + (int64_t)tmp.len;
        b--;
        shown++;
      }
    }
    if (st == JG_OK && shown != n) st = dstr_puts(out, shown == 0 ? "..." : ", ...", err);
    for (size_t k = nmarks; st == JG_OK && k > 0; k--) {
      const size_t end = k == nmarks ? back.len : marks[k];
      st = dstr_put(out, back.p + marks[k - 1], end - marks[k - 1], err);
    }
    free(marks);
    dstr_free(&back);
    dstr_free(&tmp);
    JG_RETURN_NOT_OK(st);
  }
  return dstr_puts(out, "]", err);
}

/* A field name as Python's repr() writes it (Awkward's printout of non-identifier names). */
static jg_status put_repr_name(dstr *out, const char *name, jg_error *err) {
  const char q = strchr(name, '\'') != NULL && strchr(name, '"') == NULL ? '"' : '\'';
  char tmp[8];
  JG_RETURN_NOT_OK(dstr_put(out, &q, 1, err));
  for (const unsigned char *p = (const unsigned char *)name; *p != '\0'; p++) {
    const char c = (char)*p;
    if (c == '\\' || c == q) {
      tmp[0] = '\\';
      tmp[1] = c;
      JG_RETURN_NOT_OK(dstr_put(out, tmp, 2, err));
    } else if (c == '\n') {
      JG_RETURN_NOT_OK(dstr_puts(out, "\\n", err));
    } else if (c == '\r') {
      JG_RETURN_NOT_OK(dstr_puts(out, "\\r", err));
    } else if (c == '\t') {
      JG_RETURN_NOT_OK(dstr_puts(out, "\\t", err));
    } else if (*p < 0x20 || *p == 0x7F) {
      snprintf(tmp, sizeof tmp, "\\x%02x", (unsigned)*p);
      JG_RETURN_NOT_OK(dstr_puts(out, tmp, err));
    } else {
      JG_RETURN_NOT_OK(dstr_put(out, &c, 1, err));
    }
  }
  return dstr_put(out, &q, 1, err);
}

/* Record i: "{x: 1, y: [2, 3]}" or "(1, [2, 3])"; fields that do not fit become "...". */
static jg_status print_record(const jg_array *a, jg_len i, int64_t limit, dstr *out,
                              jg_error *err) {
  const bool tuple = a->names == NULL;
  const int nf = a->nchildren;
  JG_RETURN_NOT_OK(dstr_puts(out, tuple ? "(" : "{", err));
  limit -= 2 + 5; /* brackets, and room for ", ..." */
  dstr key = {NULL, 0, 0}, tmp = {NULL, 0, 0};
  jg_status st = JG_OK;
  int k = 0;
  for (; k < nf && st == JG_OK; k++) {
    const int64_t comma = k == 0 ? 0 : 2;
    key.len = 0;
    if (!tuple) {
      if (is_identifier(a->names[k])) {
        st = dstr_puts(&key, a->names[k], err);
      } else {
        st = put_repr_name(&key, a->names[k], err);
      }
      if (st == JG_OK) st = dstr_puts(&key, ": ", err);
      if (st != JG_OK) break;
    }
    if (limit - (comma + (int64_t)key.len + 3) < 0) break;
    if (comma > 0) st = dstr_puts(out, ", ", err);
    if (st == JG_OK && key.len > 0) st = dstr_put(out, key.p, key.len, err);
    if (st != JG_OK) break;
    limit -= comma + (int64_t)key.len;
    const int64_t target = nf == 1 ? limit : limit - limit / 2; /* Awkward: half of the rest */
    tmp.len = 0;
    st = print_entry(a->children[k], i, target, &tmp, err);
    if (st != JG_OK) break;
    if (limit - (int64_t)tmp.len >= 0) {
      st = dstr_put(out, tmp.p, tmp.len, err);
      limit -= (int64_t)tmp.len;
    } else {
      st = dstr_puts(out, "...", err);
      k++;
      break;
    }
  }
  if (st == JG_OK && k < nf) {
    st = dstr_puts(out, k == 0 ? "..." : ", ...", err);
  }
  dstr_free(&key);
  dstr_free(&tmp);
  JG_RETURN_NOT_OK(st);
  return dstr_puts(out, tuple ? ")" : "}", err);
}

/* A list [start, stop) over `len` entries is printable when empty (any start) or inside. */
static jg_status check_list(const jg_array *a, jg_len i, int64_t start, int64_t stop,
                            jg_error *err) {
  const jg_len len = a->children[0]->length;
  if (start == stop || (start >= 0 && start < stop && stop <= len)) return JG_OK;
  return jg_error_set(err, JG_EVALUE, i,
                      "jg_array_to_string: list %lld of a %s node spans [%lld, %lld), not "
                      "inside its content of %lld entries (jg_array_validate at "
                      "JG_VALIDATE_FULL names the first bad position)",
                      (long long)i, jgi_array_node_name(a->kind), (long long)start, (long long)stop,
                      (long long)len);
}

static jg_status print_entry(const jg_array *a, jg_len i, int64_t limit, dstr *out, jg_error *err) {
  switch (a->kind) {
    case JG_NODE_NUMERIC: {
      const jg_layout *l = &a->buffers[0].layout;
      return print_numeric(a, 0, l->slice_offset + i * l->strides[0], limit, out, err);
    }
    case JG_NODE_LIST_OFFSET:
    case JG_NODE_LIST: {
      const bool offsets = a->kind == JG_NODE_LIST_OFFSET;
      const int64_t start = jgi_view_get_index(&a->buffers[0], i);
      const int64_t stop = jgi_view_get_index(&a->buffers[offsets ? 0 : 1], offsets ? i + 1 : i);
      JG_RETURN_NOT_OK(check_list(a, i, start, stop, err));
      /* an empty list may have any start: do not compute offsets from it */
      const seq q = start == stop ? make_seq(a->children[0], 0, 0)
                                  : make_seq(a->children[0], start, stop - start);
      return print_seq(&q, limit, out, err);
    }
    case JG_NODE_REGULAR: {
      const seq q = make_seq(a->children[0], i * a->regular_size, a->regular_size);
      return print_seq(&q, limit, out, err);
    }
    case JG_NODE_RECORD:
      return print_record(a, i, limit, out, err);
    case JG_NODE_BYTE_MASKED: {
      const bool set = jgi_view_get_index(&a->buffers[0], i) != 0;
      if (set != a->valid_when) return dstr_puts(out, "None", err);
      return print_entry(a->children[0], i, limit, out, err);
    }
    case JG_NODE_BIT_MASKED: {
      const jg_len bit = a->bit_offset + i;
      const int64_t byte = jgi_view_get_index(&a->buffers[0], bit / 8);
      const int shift = a->lsb_order ? (int)(bit % 8) : 7 - (int)(bit % 8);
      const bool set = ((byte >> shift) & 1) != 0;
      if (set != a->valid_when) return dstr_puts(out, "None", err);
      return print_entry(a->children[0], i, limit, out, err);
    }
    case JG_NODE_INDEXED_OPTION: {
      const int64_t k = jgi_view_get_index(&a->buffers[0], i);
      if (k < 0) return dstr_puts(out, "None", err);
      const jg_len len = a->children[0]->length;
      JG_RETURN_IF_AT(k >= len, JG_EVALUE, err, i,
                      "jg_array_to_string: index[%lld] = %lld is past the end of the content "
                      "(%lld entries)",
                      (long long)i, (long long)k, (long long)len);
      return print_entry(a->children[0], k, limit, out, err);
    }
    case JG_NODE_EMPTY:
      break;
  }
  return jg_error_set(err, JG_EINTERNAL, i, "jg_array_to_string: entry %lld of a %s node",
                      (long long)i, jgi_array_node_name(a->kind));
}

jg_status jg_array_to_string(const jg_array *a, size_t max_width, char *buf, size_t size,
                             size_t *needed, jg_error *err) {
  static const char fn[] = "jg_array_to_string";
  if (needed != NULL) *needed = 0;
  JG_RETURN_IF(buf == NULL && size > 0, JG_EINVAL, err, "%s: buf is NULL but size is %zu", fn,
               size);
  if (size > 0) buf[0] = '\0';
  JG_RETURN_IF(a == NULL, JG_EINVAL, err, "%s: a is NULL", fn);
  JG_RETURN_IF(a->backend == JG_BACKEND_CUDA, JG_EBACKEND, err,
               "%s: the array is on cuda:%d: copy it with jg_array_to_host first", fn,
               (int)a->device.id);
  JG_RETURN_NOT_OK(jg_array_validate(a, JG_VALIDATE_MINIMAL, NULL, err));
  int64_t limit = DEFAULT_WIDTH;
  if (max_width > 0)
    limit = max_width > (size_t)(INT64_MAX / 4) ? INT64_MAX / 4 : (int64_t)max_width;
  dstr text = {NULL, 0, 0};
  const seq q = make_seq(a, 0, a->length);
  jg_status st = print_seq(&q, limit, &text, err);
  if (st == JG_OK) {
    sink s = {buf, size, 0, false, 0};
    sink_put(&s, text.p, text.len);
    sink_finish(&s, needed);
  }
  dstr_free(&text);
  return st;
}
