/* catalog_check.c: jg_catalog_check, the check that both sides of every kernel take the
 * parameters of its spec, by name, order, type and direction.
 *
 * The compilers already check types: the generated prototypes make gcc reject a host function
 * whose types drift, and the generated launch thunks make nvcc reject a __global__ function whose
 * types differ from the spec. What no compiler sees is two parameters of the same type swapped
 * (dt and dx) or a const missing on an input; this check reads the embedded sources for that,
 * and reports every mismatch of every kernel at once. */
#define _POSIX_C_SOURCE 200809L /* strtok_r */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal/jgi_check.h"
#include "internal/jgi_kernel.h"

#define MAX_PARSED 40

typedef struct parsed_param {
  char name[64];
  char base[64]; /* the type without const, pointer and restrict */
  bool pointer;
  bool is_const;
} parsed_param;

typedef struct report {
  char *buf;
  size_t size;
  size_t len;
  size_t count;
  jg_error *err;
} report;

static void add(report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(report *r, const char *fmt, ...) {
  char line[JG_ERROR_MESSAGE_SIZE];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  if (r->count++ == 0) jg_error_set(r->err, JG_EVALUE, -1, "%s", line);
  if (r->buf != NULL && r->len + 1 < r->size) {
    const int w = snprintf(r->buf + r->len, r->size - r->len, "%s\n", line);
    if (w > 0) r->len += (size_t)w < r->size - r->len ? (size_t)w : r->size - r->len - 1;
  }
}

/* The source without comments, string contents and backslash-newlines. malloc'd. */
static char *clean_source(const char *s) {
  const size_t n = strlen(s);
  char *o = malloc(n + 1); /* every input byte yields at most one output byte */
  if (o == NULL) return NULL;
  size_t j = 0;
  for (size_t i = 0; i < n; ++i) {
    if (s[i] == '\\' && s[i + 1] == '\n') {
      ++i;
      continue;
    }
    if (s[i] == '/' && s[i + 1] == '*') {
      const char *e = strstr(s + i + 2, "*/");
      i = e != NULL ? (size_t)(e - s) + 1 : n;
      o[j++] = ' ';
      continue;
    }
    if (s[i] == '/' && s[i + 1] == '/') {
      while (i < n && s[i] != '\n') ++i;
      o[j++] = '\n';
      continue;
    }
    if (s[i] == '"' || s[i] == '\'') {
      /* A string or character literal becomes an empty one (its content could hold anything,
       * parentheses and quotes included); an unterminated one runs to the end. */
      const char q = s[i];
      o[j++] = q;
      for (++i; i < n && s[i] != q; ++i)
        if (s[i] == '\\' && i + 1 < n) ++i;
      if (i < n) o[j++] = q;
      continue;
    }
    o[j++] = s[i];
  }
  o[j] = '\0';
  return o;
}

static bool ident_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* Splits the parameter list text in [b, e) into params; false when it cannot be parsed. */
static bool parse_params(const char *b, const char *e, parsed_param *out, size_t *n) {
  *n = 0;
  const char *p = b;
  while (p < e) {
    const char *q = p;
    int depth = 0;
    while (q < e && (depth > 0 || *q != ',')) {
      if (*q == '(' || *q == '<') ++depth;
      if (*q == ')' || *q == '>') --depth;
      ++q;
    }
    /* [p, q) is one parameter. */
    char text[256];
    size_t len = (size_t)(q - p) < sizeof text - 1 ? (size_t)(q - p) : sizeof text - 1;
    memcpy(text, p, len);
    text[len] = '\0';
    while (len > 0 && isspace((unsigned char)text[len - 1])) text[--len] = '\0';
    char *t = text;
    while (isspace((unsigned char)*t)) ++t;
    if (*t == '\0' || strcmp(t, "void") == 0) {
      p = q + 1;
      continue;
    }
    if (*n == MAX_PARSED) return false;
    parsed_param *pp = &out[(*n)++];
    memset(pp, 0, sizeof *pp);
    size_t end = strlen(t);
    size_t nb = end;
    while (nb > 0 && ident_char(t[nb - 1])) --nb;
    if (nb == end) return false;
    snprintf(pp->name, sizeof pp->name, "%s", t + nb);
    t[nb] = '\0';
    /* The type: words other than const/restrict, and stars. */
    char *save = NULL;
    for (char *w = strtok_r(t, " \t\n*", &save); w != NULL; w = strtok_r(NULL, " \t\n*", &save)) {
      if (strcmp(w, "const") == 0) {
        pp->is_const = true;
      } else if (strcmp(w, "restrict") == 0 || strcmp(w, "__restrict__") == 0 ||
                 strcmp(w, "__restrict") == 0) {
        continue;
      } else {
        const size_t bl = strlen(pp->base);
        snprintf(pp->base + bl, sizeof pp->base - bl, "%s%s", bl ? " " : "", w);
      }
    }
    pp->pointer = memchr(p, '*', (size_t)(q - p)) != NULL;
    p = q + 1;
  }
  return true;
}

/* Finds a definition or declaration `<prefix>[_<suffix>](...)` in src where the suffix is any
 * identifier or a macro paste `_##S`; writes the parameter list bounds. */
static bool find_function(const char *src, const char *prefix, bool need_global,
                          const char **b, const char **e) {
  const size_t pl = strlen(prefix);
  if (pl == 0) return false;
  for (const char *p = strstr(src, prefix); p != NULL; p = strstr(p + 1, prefix)) {
    if (p > src && ident_char(p[-1])) continue;
    const char *q = p + pl;
    if (q[0] == '_' && q[1] == '#' && q[2] == '#') q += 3;
    else if (q[0] == '_' && !need_global) ++q;
    else if (ident_char(q[0])) continue;
    while (ident_char(*q)) ++q;
    if (need_global && q != p + pl) continue;
    while (isspace((unsigned char)*q)) ++q;
    if (*q != '(') continue;
    if (need_global) {
      /* "__global__" must come between the previous statement's end and the name. */
      const char *g = p;
      while (g > src && g[-1] != ';' && g[-1] != '}' && g[-1] != '{' && g[-1] != ')') --g;
      bool global = false;
      for (const char *x = g; x + 10 <= p && !global; ++x) global = strncmp(x, "__global__", 10) == 0;
      if (!global) continue;
    }
    int depth = 0;
    const char *r = q;
    for (; *r != '\0'; ++r) {
      if (*r == '(') ++depth;
      if (*r == ')' && --depth == 0) break;
    }
    if (*r != ')') continue;
    *b = q + 1;
    *e = r;
    return true;
  }
  return false;
}

static const char *c_type(jg_dtype d) {
  switch (d) {
    case JG_DTYPE_BOOL: return "bool";
    case JG_DTYPE_INT8: return "int8_t";
    case JG_DTYPE_INT16: return "int16_t";
    case JG_DTYPE_INT32: return "int32_t";
    case JG_DTYPE_INT64: return "int64_t";
    case JG_DTYPE_UINT8: return "uint8_t";
    case JG_DTYPE_UINT16: return "uint16_t";
    case JG_DTYPE_UINT32: return "uint32_t";
    case JG_DTYPE_UINT64: return "uint64_t";
    case JG_DTYPE_FLOAT32: return "float";
    case JG_DTYPE_FLOAT64: return "double";
    default: return "?";
  }
}

/* Spellings of the same type on an LP64 host (NVRTC has no <stdint.h>, so CUDA sources compiled
 * at run time often say `long` for int64_t). */
static const char *const synonyms[][5] = {
    {"int8_t", "signed char", NULL},
    {"int16_t", "short", "short int", NULL},
    {"int32_t", "int", "signed", "signed int", NULL},
    {"int64_t", "long", "long int", "long long", "long long int"},
    {"uint8_t", "unsigned char", NULL},
    {"uint16_t", "unsigned short", "unsigned short int", NULL},
    {"uint32_t", "unsigned", "unsigned int", NULL},
    {"uint64_t", "unsigned long", "unsigned long long", "size_t", "unsigned long int"},
};

static bool same_type(const char *spelled, const char *c) {
  if (strcmp(spelled, c) == 0) return true;
  for (size_t i = 0; i < sizeof synonyms / sizeof synonyms[0]; ++i) {
    if (strcmp(synonyms[i][0], c) != 0) continue;
    for (size_t j = 1; j < 5 && synonyms[i][j] != NULL; ++j)
      if (strcmp(synonyms[i][j], spelled) == 0) return true;
  }
  return false;
}

static bool base_matches(const jg_kernel *k, size_t i, const char *base) {
  const jg_kernel_param *p = &k->params[i];
  if (p->type_var != NULL && strcmp(base, p->type_var) == 0) return true;
  for (size_t v = 0; v < k->n_variants; ++v)
    if (same_type(base, c_type(k->variants[v].dtypes[i]))) return true;
  return false;
}

static void names_list(char *buf, size_t size, const char *const *names, size_t n) {
  size_t len = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < n && len + 1 < size; ++i) {
    const int w = snprintf(buf + len, size - len, "%s%s", i ? ", " : "", names[i]);
    if (w > 0) len += (size_t)w;
  }
}

/* Compares parsed params with the spec; `side` names the implementation in messages. */
static void compare(report *r, const jg_kernel *k, const char *side, const parsed_param *pp,
                    size_t n) {
  bool same_names = n == k->n_params;
  for (size_t i = 0; same_names && i < n; ++i) same_names = strcmp(pp[i].name, k->params[i].name) == 0;
  if (!same_names) {
    const char *a[MAX_PARSED], *b[MAX_PARSED];
    for (size_t i = 0; i < k->n_params && i < MAX_PARSED; ++i) a[i] = k->params[i].name;
    for (size_t i = 0; i < n; ++i) b[i] = pp[i].name;
    char sa[256], sb[256];
    names_list(sa, sizeof sa, a, k->n_params < MAX_PARSED ? k->n_params : MAX_PARSED);
    names_list(sb, sizeof sb, b, n);
    add(r, "kernel '%s': the spec takes (%s), %s (%s)", k->name, sa, side, sb);
    return;
  }
  for (size_t i = 0; i < n; ++i) {
    const jg_kernel_param *p = &k->params[i];
    const bool arr = p->kind == JG_PARAM_ARRAY;
    if (pp[i].pointer != arr) {
      add(r, "kernel '%s': parameter '%s' is %s in the spec but %s in %s", k->name, p->name,
          arr ? "an array" : "a scalar", pp[i].pointer ? "a pointer" : "not a pointer", side);
      continue;
    }
    if (!base_matches(k, i, pp[i].base)) {
      add(r, "kernel '%s': parameter '%s' has type %s in %s, the spec says %s", k->name,
          p->name, pp[i].base, side,
          p->type_var != NULL ? p->type_var : c_type(k->variants[0].dtypes[i]));
      continue;
    }
    if (arr && pp[i].is_const != (p->dir == JG_PARAM_IN)) {
      add(r, "kernel '%s': parameter '%s' is %s in %s but %s in the spec", k->name, p->name,
          pp[i].is_const ? "const" : "not const", side,
          p->dir == JG_PARAM_IN ? "in (const)" : p->dir == JG_PARAM_OUT ? "out" : "inout");
    }
  }
}

static void check_kernel(report *r, const jg_kernel *k) {
  parsed_param pp[MAX_PARSED];
  size_t n;
  const char *b, *e;
  char prefix[160], side[160];
  if (k->host_source != NULL && k->user_host == NULL) {
    char *src = clean_source(k->host_source);
    if (src == NULL) {
      add(r, "kernel '%s': out of memory while checking", k->name);
      return;
    }
    for (size_t i = 0; i < k->n_host_impls; ++i) {
      snprintf(prefix, sizeof prefix, "jgk_%s_%s", k->name, k->host_impls[i]);
      snprintf(side, sizeof side, "the '%s' host implementation", k->host_impls[i]);
      if (!find_function(src, prefix, false, &b, &e) || !parse_params(b, e, pp, &n)) {
        add(r, "kernel '%s': %s has no function %s... in its source", k->name, side, prefix);
        continue;
      }
      if (n == 0 || strcmp(pp[n - 1].name, "err") != 0 || strcmp(pp[n - 1].base, "jg_error") != 0) {
        add(r, "kernel '%s': %s must end with the parameter jg_error *err", k->name, side);
        continue;
      }
      compare(r, k, side, pp, n - 1);
    }
    free(src);
  }
  if (k->cuda_source != NULL) {
    char *src = clean_source(k->cuda_source);
    if (src == NULL) {
      add(r, "kernel '%s': out of memory while checking", k->name);
      return;
    }
    const char *entry = k->user_host != NULL ? k->cuda_entry : NULL;
    if (entry == NULL) {
      snprintf(prefix, sizeof prefix, "jgk_%s", k->name);
      entry = prefix;
    }
    if (!find_function(src, entry, true, &b, &e) || !parse_params(b, e, pp, &n)) {
      add(r, "kernel '%s': the CUDA source has no __global__ function %s", k->name, entry);
    } else {
      if (k->n_errors > 0) {
        if (n == 0 || strcmp(pp[n - 1].name, "error_word") != 0 || !pp[n - 1].pointer ||
            strcmp(pp[n - 1].base, "unsigned long long") != 0) {
          add(r, "kernel '%s': the CUDA kernel reports data errors and must end with the "
                 "parameter unsigned long long *error_word", k->name);
          free(src);
          return;
        }
        --n;
      }
      compare(r, k, "the CUDA kernel", pp, n);
    }
    free(src);
  }
}

jg_status jg_catalog_check(char *buf, size_t size, jg_error *err) {
  report r = {buf, size, 0, 0, err};
  if (buf != NULL && size > 0) buf[0] = '\0';
  const size_t nk = jg_catalog_size();
  for (size_t i = 0; i < nk; ++i) check_kernel(&r, jg_catalog_at(i));
  if (r.count == 0) return JG_OK;
  if (err != NULL) err->index = (int64_t)r.count;
  return JG_EVALUE;
}
