/* expr.c: the expression language of jg_array_eval (elementwise.h; internal/jgi_expr.h): a
 * recursive-descent parser into a tree of float64 operations, a host evaluator that runs the
 * tree node by node over blocks of BLOCK elements (the interpreter's dispatch is paid once per
 * node and block, not per element), and a generator of the same tree as CUDA C.
 *
 * Every operation has one formula, written twice below (the host loop and the CUDA text) in the
 * same terms, so that both sides compute the same thing:
 *   -a, a + b, a - b, a * b, a / b        IEEE operations (correctly rounded on both sides)
 *   a % b                                 fmod(a, b) (exact on both sides)
 *   a ** b, pow(a, b)                     pow(a, b); a * a when b is the literal 2
 *   a < b, ..., a != b                    1.0 or 0.0 (false with NaN, but != true)
 *   a && b, a || b, !a                    on a != 0.0 (NaN is true); 1.0 or 0.0
 *   min(a, b), max(a, b)                  a if a is NaN, else b if b is NaN, else the smaller
 *                                         (larger) by <, b on ties (NumPy minimum / maximum)
 *   isnan(a)                              a != a
 *   isfinite(a)                           a - a == 0.0 (false for inf and NaN)
 *   where(c, a, b)                        c != 0.0 ? a : b
 *   abs sqrt floor ceil                   fabs, sqrt, floor, ceil (exact or correctly rounded)
 *   exp log log10 sin ... atan2 hypot     the math library's function (libm on the host, CUDA's
 *                                         on the device: may differ by a few ulp) */
#include <ctype.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal/jgi_expr.h"

/* Elements per block of the host evaluator. */
#define BLOCK 1024

enum {
  OP_CONST,
  OP_VAR,
  OP_NEG,
  OP_NOT,
  OP_ADD,
  OP_SUB,
  OP_MUL,
  OP_DIV,
  OP_MOD,
  OP_POW,
  OP_LT,
  OP_LE,
  OP_GT,
  OP_GE,
  OP_EQ,
  OP_NE,
  OP_AND,
  OP_OR,
  OP_ABS,
  OP_SQRT,
  OP_EXP,
  OP_LOG,
  OP_LOG10,
  OP_SIN,
  OP_COS,
  OP_TAN,
  OP_ASIN,
  OP_ACOS,
  OP_ATAN,
  OP_SINH,
  OP_COSH,
  OP_TANH,
  OP_FLOOR,
  OP_CEIL,
  OP_ISNAN,
  OP_ISFINITE,
  OP_ATAN2,
  OP_HYPOT,
  OP_MIN,
  OP_MAX,
  OP_WHERE
};

typedef struct func_def {
  const char *name;
  int nargs;
  int op;
} func_def;

static const func_def FUNCS[] = {
    {"abs", 1, OP_ABS},     {"sqrt", 1, OP_SQRT},   {"exp", 1, OP_EXP},
    {"log", 1, OP_LOG},     {"log10", 1, OP_LOG10}, {"sin", 1, OP_SIN},
    {"cos", 1, OP_COS},     {"tan", 1, OP_TAN},     {"asin", 1, OP_ASIN},
    {"acos", 1, OP_ACOS},   {"atan", 1, OP_ATAN},   {"sinh", 1, OP_SINH},
    {"cosh", 1, OP_COSH},   {"tanh", 1, OP_TANH},   {"floor", 1, OP_FLOOR},
    {"ceil", 1, OP_CEIL},   {"isnan", 1, OP_ISNAN}, {"isfinite", 1, OP_ISFINITE},
    {"atan2", 2, OP_ATAN2}, {"pow", 2, OP_POW},     {"min", 2, OP_MIN},
    {"max", 2, OP_MAX},     {"hypot", 2, OP_HYPOT}, {"where", 3, OP_WHERE}};

/* The C / CUDA name of a one-argument math function. */
static const char *math1_name(int op) {
  switch (op) {
    case OP_ABS:
      return "fabs";
    case OP_SQRT:
      return "sqrt";
    case OP_EXP:
      return "exp";
    case OP_LOG:
      return "log";
    case OP_LOG10:
      return "log10";
    case OP_SIN:
      return "sin";
    case OP_COS:
      return "cos";
    case OP_TAN:
      return "tan";
    case OP_ASIN:
      return "asin";
    case OP_ACOS:
      return "acos";
    case OP_ATAN:
      return "atan";
    case OP_SINH:
      return "sinh";
    case OP_COSH:
      return "cosh";
    case OP_TANH:
      return "tanh";
    case OP_FLOOR:
      return "floor";
    case OP_CEIL:
      return "ceil";
    default:
      return NULL;
  }
}

/* ------------------------------------------------------------------------------------------ */
/* The parser                                                                                  */
/* ------------------------------------------------------------------------------------------ */

enum { TOK_END, TOK_NUM, TOK_NAME, TOK_OP, TOK_BAD };

typedef struct parser {
  const char *fn;
  const char *text;
  size_t len;
  size_t pos;   /* next byte to scan */
  int tok;      /* current token */
  size_t start; /* its first byte */
  size_t tlen;  /* its length */
  double num;   /* TOK_NUM: its value */
  int nargs;
  const char *const *names;
  int depth;
  jgi_expr *e;
  jg_error *err;
  jg_status st;
} parser;

/* Sets the parser's error once: "<fn>: <what> at column C of "<text>"", index = column - 1. */
static int fail_at(parser *p, size_t at, const char *what) {
  if (p->st != JG_OK) return -1;
  char shown[160];
  size_t k = 0;
  for (size_t i = 0; i < p->len && k + 4 < sizeof shown; i++) {
    const unsigned char ch = (unsigned char)p->text[i];
    shown[k++] = ch < 0x20 || ch == 0x7f ? ' ' : (char)ch;
  }
  if (k < p->len) {
    memcpy(shown + k, "...", 3);
    k += 3;
  }
  shown[k] = '\0';
  p->st = jg_error_set(p->err, JG_EINVAL, (int64_t)at, "%s: %s at column %zu of \"%s\"", p->fn,
                       what, at + 1, shown);
  return -1;
}

static bool is_name_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_name_char(char c) {
  return is_name_start(c) || (c >= '0' && c <= '9');
}

/* Reads the number at p->pos (digits, optional fraction, optional exponent). */
static void scan_number(parser *p) {
  const char *t = p->text;
  size_t i = p->pos, digits = 0;
  while (i < p->len && isdigit((unsigned char)t[i])) i++, digits++;
  if (i < p->len && t[i] == '.') {
    i++;
    while (i < p->len && isdigit((unsigned char)t[i])) i++, digits++;
  }
  if (digits == 0) {
    p->tok = TOK_BAD;
    p->tlen = 1;
    return;
  }
  if (i < p->len && (t[i] == 'e' || t[i] == 'E')) {
    size_t j = i + 1;
    if (j < p->len && (t[j] == '+' || t[j] == '-')) j++;
    if (j < p->len && isdigit((unsigned char)t[j])) {
      while (j < p->len && isdigit((unsigned char)t[j])) j++;
      i = j;
    } else {
      p->tok = TOK_BAD; /* "1e" or "1e+" */
      p->tlen = j - p->pos;
      return;
    }
  }
  if (i < p->len && is_name_char(t[i])) { /* "2x", "1.5e3q" */
    p->tok = TOK_BAD;
    p->tlen = i - p->pos + 1;
    return;
  }
  /* strtod reads the locale's decimal point: give it that one. */
  const size_t n = i - p->pos;
  const char *dp = localeconv()->decimal_point;
  const size_t dpl = dp != NULL && dp[0] != '\0' ? strlen(dp) : 1;
  char *copy = malloc(n * dpl + 1);
  if (copy == NULL) {
    p->st = jg_error_set(p->err, JG_ENOMEM, -1, "%s: out of memory", p->fn);
    p->tok = TOK_BAD;
    return;
  }
  size_t k = 0;
  for (size_t j = p->pos; j < i; j++) {
    if (t[j] == '.' && dp != NULL && dp[0] != '\0') {
      memcpy(copy + k, dp, dpl);
      k += dpl;
    } else {
      copy[k++] = t[j];
    }
  }
  copy[k] = '\0';
  p->num = strtod(copy, NULL);
  free(copy);
  p->tok = TOK_NUM;
  p->tlen = n;
}

static const char *const OPS2[] = {"**", "&&", "||", "==", "!=", "<=", ">="};

/* Moves to the next token. */
static void next(parser *p) {
  const char *t = p->text;
  while (p->pos < p->len && (t[p->pos] == ' ' || t[p->pos] == '\t' || t[p->pos] == '\n' ||
                             t[p->pos] == '\r' || t[p->pos] == '\f' || t[p->pos] == '\v'))
    p->pos++;
  p->start = p->pos;
  if (p->pos >= p->len) {
    p->tok = TOK_END;
    p->tlen = 0;
    return;
  }
  const char c = t[p->pos];
  if (isdigit((unsigned char)c) ||
      (c == '.' && p->pos + 1 < p->len && isdigit((unsigned char)t[p->pos + 1]))) {
    scan_number(p);
  } else if (is_name_start(c)) {
    size_t i = p->pos;
    while (i < p->len && is_name_char(t[i])) i++;
    p->tok = TOK_NAME;
    p->tlen = i - p->pos;
  } else {
    p->tok = TOK_BAD;
    p->tlen = 1;
    for (size_t k = 0; k < sizeof OPS2 / sizeof OPS2[0]; k++) {
      if (p->pos + 1 < p->len && t[p->pos] == OPS2[k][0] && t[p->pos + 1] == OPS2[k][1]) {
        p->tok = TOK_OP;
        p->tlen = 2;
        break;
      }
    }
    if (p->tok == TOK_BAD && strchr("+-*/%<>!(),", c) != NULL) p->tok = TOK_OP;
  }
  p->pos = p->start + p->tlen;
}

/* Whether the current token is the operator `op`. */
static bool is_op(const parser *p, const char *op) {
  const size_t n = strlen(op);
  return p->tok == TOK_OP && p->tlen == n && memcmp(p->text + p->start, op, n) == 0;
}

static int add_node(parser *p, int op, int a, int b, int c) {
  if (p->st != JG_OK) return -1;
  jgi_expr *e = p->e;
  if (e->n == e->cap) {
    const int cap = e->cap == 0 ? 16 : 2 * e->cap;
    jgi_expr_node *nodes = realloc(e->nodes, (size_t)cap * sizeof *nodes);
    if (nodes == NULL) {
      p->st = jg_error_set(p->err, JG_ENOMEM, -1, "%s: out of memory", p->fn);
      return -1;
    }
    e->nodes = nodes;
    e->cap = cap;
  }
  jgi_expr_node *nd = &e->nodes[e->n];
  nd->op = op;
  nd->arg[0] = a;
  nd->arg[1] = b;
  nd->arg[2] = c;
  nd->var = -1;
  nd->value = 0.0;
  return e->n++;
}

static int add_const(parser *p, double v) {
  const int k = add_node(p, OP_CONST, -1, -1, -1);
  if (k >= 0) p->e->nodes[k].value = v;
  return k;
}

/* A binary node; a power with the literal exponent 2 is a product (exact on both sides). */
static int add_binary(parser *p, int op, int a, int b) {
  if (a < 0 || b < 0) return -1;
  if (op == OP_POW && p->e->nodes[b].op == OP_CONST && p->e->nodes[b].value == 2.0) {
    return add_node(p, OP_MUL, a, a, -1);
  }
  return add_node(p, op, a, b, -1);
}

static int parse_or(parser *p);

/* Describes the current token for "expected ..." messages. */
static void expected(parser *p, const char *what) {
  char msg[256];
  if (p->tok == TOK_END) {
    snprintf(msg, sizeof msg, "expected %s", what);
  } else if (p->tok == TOK_BAD) {
    snprintf(msg, sizeof msg, "unexpected '%.*s'", (int)(p->tlen > 20 ? 20 : p->tlen),
             p->text + p->start);
  } else {
    snprintf(msg, sizeof msg, "expected %s, found '%.*s'", what, (int)(p->tlen > 20 ? 20 : p->tlen),
             p->text + p->start);
  }
  fail_at(p, p->start, msg);
}

/* name '(' args ')' with the name at [at, at + n). */
static int parse_call(parser *p, size_t at, size_t n) {
  const func_def *f = NULL;
  for (size_t k = 0; k < sizeof FUNCS / sizeof FUNCS[0]; k++) {
    if (strlen(FUNCS[k].name) == n && memcmp(FUNCS[k].name, p->text + at, n) == 0) f = &FUNCS[k];
  }
  char msg[256];
  if (f == NULL) {
    snprintf(msg, sizeof msg,
             "unknown function '%.*s' (the functions are abs sqrt exp log log10 sin cos tan asin "
             "acos atan sinh cosh tanh floor ceil isnan isfinite atan2 pow min max hypot where)",
             (int)(n > 40 ? 40 : n), p->text + at);
    return fail_at(p, at, msg);
  }
  next(p); /* '(' */
  int args[3] = {-1, -1, -1};
  int count = 0;
  if (!is_op(p, ")")) {
    for (;;) {
      const int a = parse_or(p);
      if (a < 0) return -1;
      if (count < 3) args[count] = a;
      count++;
      if (is_op(p, ",")) {
        next(p);
        continue;
      }
      break;
    }
  }
  if (!is_op(p, ")")) {
    expected(p, "',' or ')'");
    return -1;
  }
  next(p);
  if (count != f->nargs) {
    snprintf(msg, sizeof msg, "%s takes %d argument%s, not %d", f->name, f->nargs,
             f->nargs == 1 ? "" : "s", count);
    return fail_at(p, at, msg);
  }
  if (f->nargs == 2) return add_binary(p, f->op, args[0], args[1]);
  return add_node(p, f->op, args[0], args[1], args[2]);
}

static int parse_primary(parser *p) {
  if (p->tok == TOK_NUM) {
    const double v = p->num;
    next(p);
    return add_const(p, v);
  }
  if (p->tok == TOK_NAME) {
    const size_t at = p->start, n = p->tlen;
    next(p);
    if (is_op(p, "(")) return parse_call(p, at, n);
    for (int k = 0; k < p->nargs; k++) {
      if (strlen(p->names[k]) == n && memcmp(p->names[k], p->text + at, n) == 0) {
        const int v = add_node(p, OP_VAR, -1, -1, -1);
        if (v >= 0) p->e->nodes[v].var = k;
        return v;
      }
    }
    static const struct {
      const char *name;
      double value;
    } consts[] = {{"pi", 3.14159265358979323846},
                  {"e", 2.71828182845904523536},
                  {"inf", INFINITY},
                  {"nan", NAN}};
    for (size_t k = 0; k < sizeof consts / sizeof consts[0]; k++) {
      if (strlen(consts[k].name) == n && memcmp(consts[k].name, p->text + at, n) == 0) {
        return add_const(p, consts[k].value);
      }
    }
    char msg[320];
    int w = snprintf(msg, sizeof msg, "unknown name '%.*s'", (int)(n > 40 ? 40 : n), p->text + at);
    for (int k = 0; k < p->nargs && w > 0 && (size_t)w < sizeof msg - 48; k++) {
      w += snprintf(msg + w, sizeof msg - (size_t)w, "%s%.32s",
                    k == 0 ? " (the arguments are " : ", ", p->names[k]);
    }
    if (w > 0 && (size_t)w < sizeof msg - 2) snprintf(msg + w, sizeof msg - (size_t)w, ")");
    return fail_at(p, at, msg);
  }
  if (is_op(p, "(")) {
    next(p);
    const int v = parse_or(p);
    if (v < 0) return -1;
    if (!is_op(p, ")")) {
      expected(p, "')'");
      return -1;
    }
    next(p);
    return v;
  }
  expected(p, "a number, a name or '('");
  return -1;
}

static int parse_unary(parser *p);

/* Counts one level of nesting (parentheses and calls, unary operators, powers); false, with the
 * error set, past JGI_EXPR_MAX_DEPTH. */
static bool enter(parser *p) {
  if (++p->depth <= JGI_EXPR_MAX_DEPTH) return true;
  fail_at(p, p->start, "expression nested too deeply (more than 200 levels)");
  return false;
}

/* primary ('**' unary)? : right-associative, tighter than a unary minus on its left. */
static int parse_power(parser *p) {
  const int b = parse_primary(p);
  if (b < 0 || !is_op(p, "**")) return b;
  next(p);
  if (!enter(p)) return -1;
  const int v = add_binary(p, OP_POW, b, parse_unary(p));
  p->depth--;
  return v;
}

static int parse_unary(parser *p) {
  const bool neg = is_op(p, "-"), plus = is_op(p, "+"), not = is_op(p, "!");
  if (!neg && !plus && !not ) return parse_power(p);
  next(p);
  if (!enter(p)) return -1;
  const int a = parse_unary(p);
  p->depth--;
  if (a < 0 || plus) return a;
  return add_node(p, neg ? OP_NEG : OP_NOT, a, -1, -1);
}

/* One left-associative level: operands from `sub`, operators ops[k] -> codes[k]. */
static int parse_level(parser *p, int (*sub)(parser *), const char *const *ops, const int *codes,
                       int nops) {
  int l = sub(p);
  while (l >= 0) {
    int op = -1;
    for (int k = 0; k < nops && op < 0; k++) {
      if (is_op(p, ops[k])) op = codes[k];
    }
    if (op < 0) break;
    next(p);
    l = add_binary(p, op, l, sub(p));
  }
  return l;
}

static int parse_mul(parser *p) {
  static const char *const ops[] = {"*", "/", "%"};
  static const int codes[] = {OP_MUL, OP_DIV, OP_MOD};
  return parse_level(p, parse_unary, ops, codes, 3);
}

static int parse_add(parser *p) {
  static const char *const ops[] = {"+", "-"};
  static const int codes[] = {OP_ADD, OP_SUB};
  return parse_level(p, parse_mul, ops, codes, 2);
}

static int parse_rel(parser *p) {
  static const char *const ops[] = {"<=", ">=", "<", ">"};
  static const int codes[] = {OP_LE, OP_GE, OP_LT, OP_GT};
  return parse_level(p, parse_add, ops, codes, 4);
}

static int parse_eq(parser *p) {
  static const char *const ops[] = {"==", "!="};
  static const int codes[] = {OP_EQ, OP_NE};
  return parse_level(p, parse_rel, ops, codes, 2);
}

static int parse_and(parser *p) {
  static const char *const ops[] = {"&&"};
  static const int codes[] = {OP_AND};
  return parse_level(p, parse_eq, ops, codes, 1);
}

static int parse_or(parser *p) {
  static const char *const ops[] = {"||"};
  static const int codes[] = {OP_OR};
  if (!enter(p)) return -1;
  const int v = parse_level(p, parse_and, ops, codes, 1);
  p->depth--;
  return v;
}

void jgi_expr_reset(jgi_expr *e) {
  free(e->nodes);
  memset(e, 0, sizeof *e);
  e->root = -1;
}

jg_status jgi_expr_parse(const char *fn, const char *text, int nargs, const char *const *names,
                         jgi_expr *e, jg_error *err) {
  memset(e, 0, sizeof *e);
  e->root = -1;
  for (int k = 0; k < nargs; k++) {
    const char *nm = names[k];
    JG_RETURN_IF_AT(nm == NULL, JG_EINVAL, err, k, "%s: names[%d] is NULL", fn, k);
    bool ok = is_name_start(nm[0]);
    for (const char *c = nm; ok && *c != '\0'; c++) ok = is_name_char(*c);
    JG_RETURN_IF_AT(!ok, JG_EINVAL, err, k,
                    "%s: names[%d] '%.40s' is not a name ([A-Za-z_][A-Za-z0-9_]*)", fn, k, nm);
    for (int j = 0; j < k; j++) {
      JG_RETURN_IF_AT(strcmp(names[j], nm) == 0, JG_EINVAL, err, k,
                      "%s: names[%d] and names[%d] are both '%.40s'", fn, j, k, nm);
    }
  }
  const size_t len = strlen(text);
  JG_RETURN_IF(len > JGI_EXPR_MAX_LENGTH, JG_EINVAL, err,
               "%s: the expression is %zu bytes long; at most %d are accepted", fn, len,
               JGI_EXPR_MAX_LENGTH);
  parser p;
  memset(&p, 0, sizeof p);
  p.fn = fn;
  p.text = text;
  p.len = len;
  p.nargs = nargs;
  p.names = names;
  p.e = e;
  p.err = err;
  p.st = JG_OK;
  next(&p);
  if (p.tok == TOK_END) {
    fail_at(&p, 0, "empty expression");
  } else {
    const int root = parse_or(&p);
    if (root >= 0 && p.tok != TOK_END) {
      expected(&p, "an operator or the end");
    }
    e->root = root;
  }
  if (p.st != JG_OK) {
    jgi_expr_reset(e);
    return p.st;
  }
  e->nargs = nargs;
  return JG_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* The host evaluator                                                                          */
/* ------------------------------------------------------------------------------------------ */

static void apply(const jgi_expr_node *nd, int64_t m, const double *a, const double *b,
                  const double *c, double *d) {
  switch (nd->op) {
    case OP_NEG:
      for (int64_t i = 0; i < m; i++) d[i] = -a[i];
      break;
    case OP_NOT:
      for (int64_t i = 0; i < m; i++) d[i] = a[i] == 0.0 ? 1.0 : 0.0;
      break;
    case OP_ADD:
      for (int64_t i = 0; i < m; i++) d[i] = a[i] + b[i];
      break;
    case OP_SUB:
      for (int64_t i = 0; i < m; i++) d[i] = a[i] - b[i];
      break;
    case OP_MUL:
      for (int64_t i = 0; i < m; i++) d[i] = a[i] * b[i];
      break;
    case OP_DIV:
      for (int64_t i = 0; i < m; i++) d[i] = a[i] / b[i];
      break;
    case OP_MOD:
      for (int64_t i = 0; i < m; i++) d[i] = fmod(a[i], b[i]);
      break;
    case OP_POW:
      for (int64_t i = 0; i < m; i++) d[i] = pow(a[i], b[i]);
      break;
    case OP_LT:
      for (int64_t i = 0; i < m; i++) d[i] = a[i] < b[i] ? 1.0 : 0.0;
      break;
    case OP_LE:
      for (int64_t i = 0; i < m; i++) d[i] = a[i] <= b[i] ? 1.0 : 0.0;
      break;
    case OP_GT:
      for (int64_t i = 0; i < m; i++) d[i] = a[i] > b[i] ? 1.0 : 0.0;
      break;
    case OP_GE:
      for (int64_t i = 0; i < m; i++) d[i] = a[i] >= b[i] ? 1.0 : 0.0;
      break;
    case OP_EQ:
      for (int64_t i = 0; i < m; i++) d[i] = a[i] == b[i] ? 1.0 : 0.0;
      break;
    case OP_NE:
      for (int64_t i = 0; i < m; i++) d[i] = a[i] != b[i] ? 1.0 : 0.0;
      break;
    case OP_AND:
      for (int64_t i = 0; i < m; i++) d[i] = a[i] != 0.0 && b[i] != 0.0 ? 1.0 : 0.0;
      break;
    case OP_OR:
      for (int64_t i = 0; i < m; i++) d[i] = a[i] != 0.0 || b[i] != 0.0 ? 1.0 : 0.0;
      break;
    case OP_ABS:
      for (int64_t i = 0; i < m; i++) d[i] = fabs(a[i]);
      break;
    case OP_SQRT:
      for (int64_t i = 0; i < m; i++) d[i] = sqrt(a[i]);
      break;
    case OP_EXP:
      for (int64_t i = 0; i < m; i++) d[i] = exp(a[i]);
      break;
    case OP_LOG:
      for (int64_t i = 0; i < m; i++) d[i] = log(a[i]);
      break;
    case OP_LOG10:
      for (int64_t i = 0; i < m; i++) d[i] = log10(a[i]);
      break;
    case OP_SIN:
      for (int64_t i = 0; i < m; i++) d[i] = sin(a[i]);
      break;
    case OP_COS:
      for (int64_t i = 0; i < m; i++) d[i] = cos(a[i]);
      break;
    case OP_TAN:
      for (int64_t i = 0; i < m; i++) d[i] = tan(a[i]);
      break;
    case OP_ASIN:
      for (int64_t i = 0; i < m; i++) d[i] = asin(a[i]);
      break;
    case OP_ACOS:
      for (int64_t i = 0; i < m; i++) d[i] = acos(a[i]);
      break;
    case OP_ATAN:
      for (int64_t i = 0; i < m; i++) d[i] = atan(a[i]);
      break;
    case OP_SINH:
      for (int64_t i = 0; i < m; i++) d[i] = sinh(a[i]);
      break;
    case OP_COSH:
      for (int64_t i = 0; i < m; i++) d[i] = cosh(a[i]);
      break;
    case OP_TANH:
      for (int64_t i = 0; i < m; i++) d[i] = tanh(a[i]);
      break;
    case OP_FLOOR:
      for (int64_t i = 0; i < m; i++) d[i] = floor(a[i]);
      break;
    case OP_CEIL:
      for (int64_t i = 0; i < m; i++) d[i] = ceil(a[i]);
      break;
    case OP_ISNAN:
      for (int64_t i = 0; i < m; i++) d[i] = a[i] != a[i] ? 1.0 : 0.0;
      break;
    case OP_ISFINITE:
      for (int64_t i = 0; i < m; i++) d[i] = a[i] - a[i] == 0.0 ? 1.0 : 0.0;
      break;
    case OP_ATAN2:
      for (int64_t i = 0; i < m; i++) d[i] = atan2(a[i], b[i]);
      break;
    case OP_HYPOT:
      for (int64_t i = 0; i < m; i++) d[i] = hypot(a[i], b[i]);
      break;
    case OP_MIN:
      for (int64_t i = 0; i < m; i++) {
        const double x = a[i], y = b[i];
        d[i] = x != x ? x : (y != y ? y : (x < y ? x : y));
      }
      break;
    case OP_MAX:
      for (int64_t i = 0; i < m; i++) {
        const double x = a[i], y = b[i];
        d[i] = x != x ? x : (y != y ? y : (x > y ? x : y));
      }
      break;
    case OP_WHERE:
      for (int64_t i = 0; i < m; i++) d[i] = a[i] != 0.0 ? b[i] : c[i];
      break;
    default:
      break;
  }
}

bool jgi_expr_dtype_ok(jg_dtype d) {
  return (d >= JG_DTYPE_BOOL && d <= JG_DTYPE_UINT64) || d == JG_DTYPE_FLOAT32 ||
         d == JG_DTYPE_FLOAT64;
}

/* d[0..m) = (double)p[first .. first + m) for p of dtype t (jgi_expr_dtype_ok). */
static void load_f64(const void *p, jg_dtype t, int64_t first, int64_t m, double *d) {
#define LOAD_AS(C)                                           \
  do {                                                       \
    const C *q = (const C *)p + first;                       \
    for (int64_t i = 0; i < m; i++) d[i] = (double)q[i];     \
  } while (0)
  switch (t) {
    case JG_DTYPE_BOOL: LOAD_AS(bool); break;
    case JG_DTYPE_INT8: LOAD_AS(int8_t); break;
    case JG_DTYPE_INT16: LOAD_AS(int16_t); break;
    case JG_DTYPE_INT32: LOAD_AS(int32_t); break;
    case JG_DTYPE_INT64: LOAD_AS(int64_t); break;
    case JG_DTYPE_UINT8: LOAD_AS(uint8_t); break;
    case JG_DTYPE_UINT16: LOAD_AS(uint16_t); break;
    case JG_DTYPE_UINT32: LOAD_AS(uint32_t); break;
    case JG_DTYPE_UINT64: LOAD_AS(uint64_t); break;
    case JG_DTYPE_FLOAT32: LOAD_AS(float); break;
    default: LOAD_AS(double); break;
  }
#undef LOAD_AS
}

jg_status jgi_expr_eval_host(const jgi_expr *e, int64_t n, const void *const *in,
                             const jg_dtype *dtypes, const int64_t *step, double *out,
                             jg_error *err) {
  if (n <= 0) return JG_OK;
  const int nn = e->n;
  /* Per node: its value in the current block, how many uses are left, and its pool buffer. */
  const double **val = calloc((size_t)nn, sizeof *val);
  int *uses = calloc((size_t)nn, sizeof *uses);
  int *left = calloc((size_t)nn, sizeof *left);
  int *slot = calloc((size_t)nn, sizeof *slot);
  double **pool = calloc((size_t)nn, sizeof *pool); /* buffers, allocated on first need */
  int *free_slots = calloc((size_t)nn, sizeof *free_slots);
  jg_status st = JG_OK;
  if (val == NULL || uses == NULL || left == NULL || slot == NULL || pool == NULL ||
      free_slots == NULL) {
    st = jg_error_set(err, JG_ENOMEM, -1, "out of memory");
    goto done;
  }
  for (int k = 0; k < nn; k++) {
    for (int j = 0; j < 3; j++) {
      if (e->nodes[k].arg[j] >= 0) uses[e->nodes[k].arg[j]]++;
    }
  }
  int npool = 0;
  for (int64_t base = 0; base < n; base += BLOCK) {
    const int64_t m = n - base < BLOCK ? n - base : BLOCK;
    int nfree = 0;
    for (int s = npool - 1; s >= 0; s--) free_slots[nfree++] = s;
    for (int k = 0; k < nn; k++) {
      const jgi_expr_node *nd = &e->nodes[k];
      left[k] = uses[k];
      slot[k] = -1;
      const bool f64 =
          nd->op != OP_VAR || dtypes == NULL || dtypes[nd->var] == JG_DTYPE_FLOAT64;
      if (nd->op == OP_VAR && step[nd->var] != 0 && f64) {
        val[k] = (const double *)in[nd->var] + base;
        continue;
      }
      double *d;
      if (k == e->root) {
        d = out + base;
      } else {
        int s;
        if (nfree > 0) {
          s = free_slots[--nfree];
        } else {
          s = npool;
          pool[s] = malloc(BLOCK * sizeof(double));
          if (pool[s] == NULL) {
            st = jg_error_set(err, JG_ENOMEM, -1, "out of memory");
            goto done;
          }
          npool++;
        }
        slot[k] = s;
        d = pool[s];
      }
      if (nd->op == OP_VAR && step[nd->var] != 0) { /* another dtype: converted per block */
        load_f64(in[nd->var], dtypes[nd->var], base, m, d);
      } else if (nd->op == OP_CONST || nd->op == OP_VAR) {
        double v = nd->value;
        if (nd->op == OP_VAR) load_f64(in[nd->var], f64 ? JG_DTYPE_FLOAT64 : dtypes[nd->var], 0, 1, &v);
        for (int64_t i = 0; i < m; i++) d[i] = v;
      } else {
        apply(nd, m, val[nd->arg[0]], nd->arg[1] >= 0 ? val[nd->arg[1]] : NULL,
              nd->arg[2] >= 0 ? val[nd->arg[2]] : NULL, d);
        for (int j = 0; j < 3; j++) {
          const int a = nd->arg[j];
          if (a >= 0 && --left[a] == 0 && slot[a] >= 0) free_slots[nfree++] = slot[a];
        }
      }
      val[k] = d;
    }
    if (val[e->root] != out + base) memcpy(out + base, val[e->root], (size_t)m * sizeof(double));
  }
  for (int s = 0; s < npool; s++) free(pool[s]);
done:
  free(val);
  free(uses);
  free(left);
  free(slot);
  free(pool);
  free(free_slots);
  return st;
}

/* ------------------------------------------------------------------------------------------ */
/* The CUDA generator                                                                          */
/* ------------------------------------------------------------------------------------------ */

typedef struct strbuf {
  char *s;
  size_t len;
  size_t cap;
  bool failed;
} strbuf;

#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 2, 3)))
#endif
static void
put(strbuf *b, const char *fmt, ...) {
  if (b->failed) return;
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    const int w = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    if (w < 0) {
      b->failed = true;
      return;
    }
    if ((size_t)w < b->cap - b->len) {
      b->len += (size_t)w;
      return;
    }
    const size_t cap = 2 * b->cap + (size_t)w + 64;
    char *s = realloc(b->s, cap);
    if (s == NULL) {
      b->failed = true;
      return;
    }
    b->s = s;
    b->cap = cap;
  }
}

/* The CUDA C type of dtype d (jgi_expr_dtype_ok). */
static const char *cuda_type(jg_dtype d) {
  switch (d) {
    case JG_DTYPE_BOOL: return "bool";
    case JG_DTYPE_INT8: return "signed char";
    case JG_DTYPE_INT16: return "short";
    case JG_DTYPE_INT32: return "int";
    case JG_DTYPE_INT64: return "long long";
    case JG_DTYPE_UINT8: return "unsigned char";
    case JG_DTYPE_UINT16: return "unsigned short";
    case JG_DTYPE_UINT32: return "unsigned int";
    case JG_DTYPE_UINT64: return "unsigned long long";
    case JG_DTYPE_FLOAT32: return "float";
    default: return "double";
  }
}

jg_status jgi_expr_cuda_source(const jgi_expr *e, const jg_dtype *dtypes, char **source,
                               jg_error *err) {
  strbuf b = {malloc(4096), 0, 4096, false};
  if (b.s == NULL) return jg_error_set(err, JG_ENOMEM, -1, "out of memory");
  b.s[0] = '\0';
  put(&b,
      "/* Generated by jagged (jg_array_eval): out[i] = f(a0[i * s0], ...), s_k 1 or 0. */\n"
      "extern \"C\" __global__ void jg_expr(long long n");
  for (int k = 0; k < e->nargs; k++) {
    put(&b, ", const %s *__restrict__ a%d, long long s%d",
        cuda_type(dtypes != NULL ? dtypes[k] : JG_DTYPE_FLOAT64), k, k);
  }
  put(&b,
      ", double *__restrict__ out) {\n"
      "  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;\n"
      "       i += (long long)blockDim.x * gridDim.x) {\n");
  for (int k = 0; k < e->n; k++) {
    const jgi_expr_node *nd = &e->nodes[k];
    const int a = nd->arg[0], bb = nd->arg[1], c = nd->arg[2];
    put(&b, "    const double t%d = ", k);
    const char *f1 = math1_name(nd->op);
    uint64_t bits;
    switch (nd->op) {
      case OP_CONST:
        memcpy(&bits, &nd->value, sizeof bits);
        put(&b, "__longlong_as_double(0x%016llxLL)", (unsigned long long)bits);
        break;
      case OP_VAR:
        put(&b, "(double)a%d[i * s%d]", nd->var, nd->var);
        break;
      case OP_NEG:
        put(&b, "-t%d", a);
        break;
      case OP_NOT:
        put(&b, "t%d == 0.0 ? 1.0 : 0.0", a);
        break;
      case OP_ADD:
        put(&b, "t%d + t%d", a, bb);
        break;
      case OP_SUB:
        put(&b, "t%d - t%d", a, bb);
        break;
      case OP_MUL:
        put(&b, "t%d * t%d", a, bb);
        break;
      case OP_DIV:
        put(&b, "t%d / t%d", a, bb);
        break;
      case OP_MOD:
        put(&b, "fmod(t%d, t%d)", a, bb);
        break;
      case OP_POW:
        put(&b, "pow(t%d, t%d)", a, bb);
        break;
      case OP_LT:
        put(&b, "t%d < t%d ? 1.0 : 0.0", a, bb);
        break;
      case OP_LE:
        put(&b, "t%d <= t%d ? 1.0 : 0.0", a, bb);
        break;
      case OP_GT:
        put(&b, "t%d > t%d ? 1.0 : 0.0", a, bb);
        break;
      case OP_GE:
        put(&b, "t%d >= t%d ? 1.0 : 0.0", a, bb);
        break;
      case OP_EQ:
        put(&b, "t%d == t%d ? 1.0 : 0.0", a, bb);
        break;
      case OP_NE:
        put(&b, "t%d != t%d ? 1.0 : 0.0", a, bb);
        break;
      case OP_AND:
        put(&b, "t%d != 0.0 && t%d != 0.0 ? 1.0 : 0.0", a, bb);
        break;
      case OP_OR:
        put(&b, "t%d != 0.0 || t%d != 0.0 ? 1.0 : 0.0", a, bb);
        break;
      case OP_ISNAN:
        put(&b, "t%d != t%d ? 1.0 : 0.0", a, a);
        break;
      case OP_ISFINITE:
        put(&b, "t%d - t%d == 0.0 ? 1.0 : 0.0", a, a);
        break;
      case OP_ATAN2:
        put(&b, "atan2(t%d, t%d)", a, bb);
        break;
      case OP_HYPOT:
        put(&b, "hypot(t%d, t%d)", a, bb);
        break;
      case OP_MIN:
        put(&b, "t%d != t%d ? t%d : (t%d != t%d ? t%d : (t%d < t%d ? t%d : t%d))", a, a, a, bb, bb,
            bb, a, bb, a, bb);
        break;
      case OP_MAX:
        put(&b, "t%d != t%d ? t%d : (t%d != t%d ? t%d : (t%d > t%d ? t%d : t%d))", a, a, a, bb, bb,
            bb, a, bb, a, bb);
        break;
      case OP_WHERE:
        put(&b, "t%d != 0.0 ? t%d : t%d", a, bb, c);
        break;
      default:
        if (f1 != NULL) {
          put(&b, "%s(t%d)", f1, a);
        } else {
          put(&b, "0.0");
        }
        break;
    }
    put(&b, ";\n");
  }
  put(&b, "    out[i] = t%d;\n  }\n}\n", e->root);
  if (b.failed) {
    free(b.s);
    return jg_error_set(err, JG_ENOMEM, -1, "out of memory");
  }
  *source = b.s;
  return JG_OK;
}
