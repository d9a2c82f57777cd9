/* jgt_text.h: host arrays written as text, made by jagged's own builder (builder.h), so tests
 * see the representations the library itself produces (indexed-option nodes for None, empty
 * nodes for lists that never got a value). The text is Awkward's printout: numbers (an integer
 * is int64 unless it has a '.', 'e', "inf" or "nan"), true, false, None, [lists]; blanks and
 * commas separate items. The test fails on text the builder refuses. Include after jg_test.h. */
#ifndef JAGGED_TESTS_JGT_TEXT_H
#define JAGGED_TESTS_JGT_TEXT_H

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Appends the item at *p to b and moves *p past it. */
static inline void jgt_text_item(jg_builder *b, const char **p) {
  while (**p == ' ' || **p == ',') (*p)++;
  if (**p == '[') {
    (*p)++;
    JGT_OK(jg_builder_begin_list(b, &jgt_err_));
    for (;;) {
      while (**p == ' ' || **p == ',') (*p)++;
      if (**p == ']') break;
      assert_true(**p != '\0');
      jgt_text_item(b, p);
    }
    (*p)++;
    JGT_OK(jg_builder_end_list(b, &jgt_err_));
  } else if (strncmp(*p, "None", 4) == 0) {
    *p += 4;
    JGT_OK(jg_builder_null(b, &jgt_err_));
  } else if (strncmp(*p, "true", 4) == 0 || strncmp(*p, "false", 5) == 0) {
    const bool v = **p == 't';
    *p += v ? 4 : 5;
    JGT_OK(jg_builder_bool(b, v, &jgt_err_));
  } else {
    const char *start = *p;
    size_t n = strcspn(start, " ,]");
    assert_true(n > 0);
    char tok[64];
    assert_true(n < sizeof tok);
    memcpy(tok, start, n);
    tok[n] = '\0';
    *p += n;
    if (strpbrk(tok, ".en") != NULL) {
      JGT_OK(jg_builder_float64(b, strtod(tok, NULL), &jgt_err_));
    } else {
      JGT_OK(jg_builder_int64(b, strtoll(tok, NULL, 10), &jgt_err_));
    }
  }
}

/* The array of the top-level list `text` ("[[1, None], [], None]": 3 entries). */
static inline jg_array *jgt_text(const char *text) {
  jg_builder *b = NULL;
  JGT_OK(jg_builder_create(&b, &jgt_err_));
  const char *p = text;
  while (*p == ' ') p++;
  assert_true(*p == '[');
  p++;
  for (;;) {
    while (*p == ' ' || *p == ',') p++;
    if (*p == ']' || *p == '\0') break;
    jgt_text_item(b, &p);
  }
  jg_array *a = NULL;
  JGT_OK(jg_builder_snapshot(b, &a, &jgt_err_));
  jg_builder_destroy(b);
  return a;
}

#endif /* JAGGED_TESTS_JGT_TEXT_H */
