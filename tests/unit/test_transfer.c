/* test_transfer.c: transfer counters (transfer.h) and the log callback (log.h), without a GPU:
 * counter init, scopes and their errors, nesting, the event log and its capacity, the report's
 * exact text, jg_transfer_expect_none with masks, process totals, kind names, the call-site
 * stack and its wrapper macros, per-thread counters and call sites, the log callback (set/get,
 * level filtering, truncation, names, consistency under concurrent set). Events are made with
 * jg_transfer_record_at and jgi_transfer_record, as the library makes them. */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdatomic.h>

#include "internal/jgi_transfer.h"
#include "jg_test.h"

/* Runs `stmt` and stores the line of this invocation in `line`: the line that __FILE__/__LINE__
 * macros inside `stmt` (the call-site wrappers, jg_transfer_record) expand to. */
#define AT_LINE(line, stmt) \
  do {                      \
    (line) = __LINE__;      \
    stmt;                   \
  } while (0)

/* ------------------------------------------------------------------------------------------ */
/* Helpers                                                                                     */
/* ------------------------------------------------------------------------------------------ */

static void begin(jg_transfer_counter *c) {
  JGT_OK(jg_transfer_scope_begin(c, &jgt_err_));
}
static void end(jg_transfer_counter *c) {
  JGT_OK(jg_transfer_scope_end(c, &jgt_err_));
}

static void assert_counts(const jg_transfer_counter *c, uint64_t n0, uint64_t n1, uint64_t n2,
                          uint64_t n3) {
  assert_int_equal(c->count[JG_TRANSFER_TO_DEVICE], n0);
  assert_int_equal(c->count[JG_TRANSFER_TO_HOST], n1);
  assert_int_equal(c->count[JG_TRANSFER_DEVICE_COPY], n2);
  assert_int_equal(c->count[JG_TRANSFER_FALLBACK], n3);
}

static void assert_event(const jg_transfer_event *e, jg_transfer_kind kind, uint64_t bytes,
                         const char *what, const char *file, int line) {
  assert_int_equal(e->kind, kind);
  assert_int_equal(e->bytes, bytes);
  if (what == NULL) {
    assert_null(e->what);
  } else {
    assert_non_null(e->what);
    assert_string_equal(e->what, what);
  }
  if (file == NULL) {
    assert_null(e->file);
  } else {
    assert_non_null(e->file);
    assert_string_equal(e->file, file);
  }
  assert_int_equal(e->line, line);
}

/* Every test starts with no call site on this thread. */
static int clear_site(void **state) {
  (void)state;
  jg_callsite_set(NULL, 0);
  return 0;
}

/* ------------------------------------------------------------------------------------------ */
/* Counters                                                                                    */
/* ------------------------------------------------------------------------------------------ */

static void test_kind_names(void **state) {
  (void)state;
  assert_string_equal(jg_transfer_kind_name(JG_TRANSFER_TO_DEVICE), "to_device");
  assert_string_equal(jg_transfer_kind_name(JG_TRANSFER_TO_HOST), "to_host");
  assert_string_equal(jg_transfer_kind_name(JG_TRANSFER_DEVICE_COPY), "device_copy");
  assert_string_equal(jg_transfer_kind_name(JG_TRANSFER_FALLBACK), "fallback");
  assert_string_equal(jg_transfer_kind_name(JG_TRANSFER_KIND_COUNT), "unknown");
  assert_string_equal(jg_transfer_kind_name((jg_transfer_kind)-1), "unknown");
  /* Pinned numbers. */
  assert_int_equal(JG_TRANSFER_TO_DEVICE, 0);
  assert_int_equal(JG_TRANSFER_TO_HOST, 1);
  assert_int_equal(JG_TRANSFER_DEVICE_COPY, 2);
  assert_int_equal(JG_TRANSFER_FALLBACK, 3);
  assert_int_equal(JG_TRANSFER_MASK(JG_TRANSFER_DEVICE_COPY), 4u);
}

static void test_init_begin_end(void **state) {
  (void)state;
  jg_transfer_event ev[4];
  jg_transfer_counter c;
  memset(&c, 0xab, sizeof c);
  jg_transfer_counter_init(&c, ev, 4);
  assert_counts(&c, 0, 0, 0, 0);
  for (int k = 0; k < JG_TRANSFER_KIND_COUNT; ++k) assert_int_equal(c.bytes[k], 0);
  assert_ptr_equal(c.events, ev);
  assert_int_equal(c.capacity, 4);
  assert_int_equal(c.n_events, 0);
  assert_int_equal(c.n_dropped, 0);
  assert_int_equal(c.active_, 0);
  assert_null(c.outer_);
  jg_transfer_counter_init(NULL, ev, 4); /* no-op */

  /* Not counted before the scope. */
  jg_transfer_record_at(JG_TRANSFER_TO_HOST, 7, "before", "f.c", 1);
  assert_counts(&c, 0, 0, 0, 0);

  begin(&c);
  jg_transfer_record_at(JG_TRANSFER_TO_DEVICE, 100, "w1", "f.c", 10);
  jg_transfer_record_at(JG_TRANSFER_TO_HOST, 8, "w2", "g.c", 20);
  jg_transfer_record_at(JG_TRANSFER_TO_DEVICE, 28, "w3", "f.c", 30);
  jg_transfer_record_at(JG_TRANSFER_FALLBACK, 0, "w4", NULL, 99); /* no site: line 0 */
  end(&c);
  jg_transfer_record_at(JG_TRANSFER_TO_HOST, 9, "after", "f.c", 2);

  assert_counts(&c, 2, 1, 0, 1);
  assert_int_equal(c.bytes[JG_TRANSFER_TO_DEVICE], 128);
  assert_int_equal(c.bytes[JG_TRANSFER_TO_HOST], 8);
  assert_int_equal(c.bytes[JG_TRANSFER_DEVICE_COPY], 0);
  assert_int_equal(c.bytes[JG_TRANSFER_FALLBACK], 0);
  assert_int_equal(c.n_events, 4);
  assert_int_equal(c.n_dropped, 0);
  assert_event(&ev[0], JG_TRANSFER_TO_DEVICE, 100, "w1", "f.c", 10);
  assert_event(&ev[1], JG_TRANSFER_TO_HOST, 8, "w2", "g.c", 20);
  assert_event(&ev[2], JG_TRANSFER_TO_DEVICE, 28, "w3", "f.c", 30);
  assert_event(&ev[3], JG_TRANSFER_FALLBACK, 0, "w4", NULL, 0);

  /* Counts accumulate over a second scope; init resets them. */
  begin(&c);
  jg_transfer_record_at(JG_TRANSFER_DEVICE_COPY, 5, "w5", "h.c", 5);
  end(&c);
  assert_counts(&c, 2, 1, 1, 1);
  assert_int_equal(c.bytes[JG_TRANSFER_DEVICE_COPY], 5);
  assert_int_equal(c.n_events, 4); /* the log was full */
  assert_int_equal(c.n_dropped, 1);
  jg_transfer_counter_init(&c, NULL, 0);
  assert_counts(&c, 0, 0, 0, 0);
  assert_int_equal(c.n_dropped, 0);
  assert_null(c.events);
}

static void test_unknown_kind_ignored(void **state) {
  (void)state;
  jg_transfer_counter c;
  jg_transfer_counter_init(&c, NULL, 0);
  uint64_t before[JG_TRANSFER_KIND_COUNT], after[JG_TRANSFER_KIND_COUNT];
  jg_transfer_totals(before, NULL);
  begin(&c);
  jg_transfer_record_at(JG_TRANSFER_KIND_COUNT, 10, "x", "f.c", 1);
  jg_transfer_record_at((jg_transfer_kind)-1, 10, "x", "f.c", 1);
  jgi_transfer_record((jg_transfer_kind)17, 10, "x");
  end(&c);
  jg_transfer_totals(after, NULL);
  assert_counts(&c, 0, 0, 0, 0);
  assert_int_equal(c.n_dropped, 0);
  for (int k = 0; k < JG_TRANSFER_KIND_COUNT; ++k) assert_int_equal(after[k], before[k]);
}

static void test_scope_errors(void **state) {
  (void)state;
  jg_error err;
  jg_transfer_counter a, b;
  jg_transfer_counter_init(&a, NULL, 0);
  jg_transfer_counter_init(&b, NULL, 0);
  JGT_STATUS(JG_EINVAL, jg_transfer_scope_begin(NULL, &err));
  JGT_CONTAINS(err.message, "NULL");
  JGT_STATUS(JG_EINVAL, jg_transfer_scope_end(NULL, &err));
  JGT_STATUS(JG_ESTATE, jg_transfer_scope_end(&a, &err)); /* never begun */
  JGT_CONTAINS(err.message, "not active");
  assert_int_equal(jg_transfer_scope_end(&a, NULL), JG_ESTATE); /* err may be NULL */
  begin(&a);
  JGT_STATUS(JG_ESTATE, jg_transfer_scope_begin(&a, &err));
  JGT_CONTAINS(err.message, "already active");
  assert_int_equal(a.active_, 1);
  assert_null(a.outer_); /* the failed begin changed nothing */
  end(&a);
  JGT_STATUS(JG_ESTATE, jg_transfer_scope_end(&a, &err)); /* ended twice */
}

static void test_nesting(void **state) {
  (void)state;
  jg_error err;
  jg_transfer_event eo[8], ei[8];
  jg_transfer_counter outer, inner;
  jg_transfer_counter_init(&outer, eo, 8);
  jg_transfer_counter_init(&inner, ei, 8);
  begin(&outer);
  jg_transfer_record_at(JG_TRANSFER_TO_DEVICE, 1, "a", "n.c", 1);
  begin(&inner);
  assert_ptr_equal(inner.outer_, &outer);
  jg_transfer_record_at(JG_TRANSFER_TO_HOST, 2, "b", "n.c", 2);

  /* Out of order: refused, and nothing changes. */
  JGT_STATUS(JG_ESTATE, jg_transfer_scope_end(&outer, &err));
  JGT_CONTAINS(err.message, "innermost");
  assert_int_equal(outer.active_, 1);
  assert_int_equal(inner.active_, 1);
  assert_ptr_equal(inner.outer_, &outer);
  jg_transfer_record_at(JG_TRANSFER_DEVICE_COPY, 4, "c", "n.c", 3); /* still reaches both */

  end(&inner);
  jg_transfer_record_at(JG_TRANSFER_TO_HOST, 8, "d", "n.c", 4);
  end(&outer);

  assert_counts(&outer, 1, 2, 1, 0);
  assert_int_equal(outer.bytes[JG_TRANSFER_TO_HOST], 10);
  assert_int_equal(outer.n_events, 4);
  assert_event(&eo[0], JG_TRANSFER_TO_DEVICE, 1, "a", "n.c", 1);
  assert_event(&eo[1], JG_TRANSFER_TO_HOST, 2, "b", "n.c", 2);
  assert_event(&eo[2], JG_TRANSFER_DEVICE_COPY, 4, "c", "n.c", 3);
  assert_event(&eo[3], JG_TRANSFER_TO_HOST, 8, "d", "n.c", 4);

  assert_counts(&inner, 0, 1, 1, 0);
  assert_int_equal(inner.n_events, 2);
  assert_event(&ei[0], JG_TRANSFER_TO_HOST, 2, "b", "n.c", 2);
  assert_event(&ei[1], JG_TRANSFER_DEVICE_COPY, 4, "c", "n.c", 3);

  /* A counter can be begun again inside another one after ending. */
  begin(&outer);
  begin(&inner);
  JGT_STATUS(JG_ESTATE, jg_transfer_scope_begin(&outer, &err)); /* active further out */
  end(&inner);
  end(&outer);
}

static void test_event_log_capacity(void **state) {
  (void)state;
  jg_transfer_event ev[3];
  memset(ev, 0, sizeof ev);
  jg_transfer_counter c;
  jg_transfer_counter_init(&c, ev, 2);
  begin(&c);
  for (int i = 0; i < 5; ++i) {
    jg_transfer_record_at(JG_TRANSFER_TO_HOST, 10u + (uint64_t)i, "x", "f.c", i + 1);
  }
  end(&c);
  assert_int_equal(c.count[JG_TRANSFER_TO_HOST], 5);
  assert_int_equal(c.bytes[JG_TRANSFER_TO_HOST], 10 + 11 + 12 + 13 + 14);
  assert_int_equal(c.n_events, 2);
  assert_int_equal(c.n_dropped, 3);
  assert_event(&ev[0], JG_TRANSFER_TO_HOST, 10, "x", "f.c", 1);
  assert_event(&ev[1], JG_TRANSFER_TO_HOST, 11, "x", "f.c", 2);
  assert_int_equal(ev[2].bytes, 0); /* never written past the capacity */

  /* Count only: NULL log (a capacity without an array is ignored). */
  jg_transfer_counter n;
  jg_transfer_counter_init(&n, NULL, 10);
  assert_int_equal(n.capacity, 0);
  begin(&n);
  jg_transfer_record_at(JG_TRANSFER_TO_DEVICE, 3, "x", "f.c", 1);
  jg_transfer_record_at(JG_TRANSFER_TO_DEVICE, 4, "x", "f.c", 1);
  end(&n);
  assert_int_equal(n.count[JG_TRANSFER_TO_DEVICE], 2);
  assert_int_equal(n.bytes[JG_TRANSFER_TO_DEVICE], 7);
  assert_int_equal(n.n_events, 0);
  assert_int_equal(n.n_dropped, 2);
}

/* ------------------------------------------------------------------------------------------ */
/* Report and expect_none                                                                      */
/* ------------------------------------------------------------------------------------------ */

static void test_report(void **state) {
  (void)state;
  static const char copy_name[] = "jg_copy"; /* same text as the literal, another address */
  jg_transfer_event ev[16];
  jg_transfer_counter c;
  jg_transfer_counter_init(&c, ev, 16);
  char buf[1024];

  assert_int_equal(jg_transfer_report(&c, buf, sizeof buf), strlen("no transfers"));
  assert_string_equal(buf, "no transfers");
  assert_int_equal(jg_transfer_report(NULL, buf, sizeof buf), strlen("no transfers"));
  assert_string_equal(buf, "no transfers");

  begin(&c);
  jg_transfer_record_at(JG_TRANSFER_TO_HOST, 8, "validate: error words", "b.c", 2);
  jg_transfer_record_at(JG_TRANSFER_TO_DEVICE, 100, "jg_copy", "a.c", 1);
  jg_transfer_record_at(JG_TRANSFER_FALLBACK, 0, "fallback of kernel 'k'", "c.c", 3);
  jg_transfer_record_at(JG_TRANSFER_TO_DEVICE, 10, "user", NULL, 0);
  jg_transfer_record_at(JG_TRANSFER_TO_DEVICE, 50, copy_name, "a.c", 1);
  jg_transfer_record_at(JG_TRANSFER_TO_DEVICE, 1, "jg_array_to_device", "a.c", 1);
  jg_transfer_record_at(JG_TRANSFER_TO_DEVICE, 2, "jg_copy", "a.c", 9);
  jg_transfer_record_at(JG_TRANSFER_DEVICE_COPY, 3, NULL, "d.c", 4);
  end(&c);

  const char *expected =
      "to_device: 5 events, 163 bytes\n"
      "to_host: 1 event, 8 bytes\n"
      "device_copy: 1 event, 3 bytes\n"
      "fallback: 1 event, 0 bytes\n"
      "  to_device x2 150 bytes at a.c:1 (jg_copy)\n"
      "  to_device x1 10 bytes at unknown call site (user)\n"
      "  to_device x1 1 bytes at a.c:1 (jg_array_to_device)\n"
      "  to_device x1 2 bytes at a.c:9 (jg_copy)\n"
      "  to_host x1 8 bytes at b.c:2 (validate: error words)\n"
      "  device_copy x1 3 bytes at d.c:4 (?)\n"
      "  fallback x1 0 bytes at c.c:3 (fallback of kernel 'k')";
  const size_t len = strlen(expected);
  assert_int_equal(jg_transfer_report(&c, buf, sizeof buf), len);
  assert_string_equal(buf, expected);

  /* Sizing: NULL buffer, and truncation always NUL-terminated. */
  assert_int_equal(jg_transfer_report(&c, NULL, 0), len);
  char small[12];
  memset(small, 'z', sizeof small);
  assert_int_equal(jg_transfer_report(&c, small, sizeof small), len);
  assert_string_equal(small, "to_device: ");
  char one[1] = {'z'};
  assert_int_equal(jg_transfer_report(&c, one, 1), len);
  assert_int_equal(one[0], '\0');
  /* Every size gives a prefix of the full text. */
  for (size_t size = 1; size <= len + 1; size += 7) {
    char t[1024];
    assert_int_equal(jg_transfer_report(&c, t, size), len);
    assert_int_equal(strlen(t), size - 1 < len ? size - 1 : len);
    assert_memory_equal(t, expected, strlen(t));
  }

  /* Dropped events: one line, singular and plural. */
  jg_transfer_counter d;
  jg_transfer_counter_init(&d, ev, 1);
  begin(&d);
  jg_transfer_record_at(JG_TRANSFER_TO_HOST, 4, "x", "f.c", 7);
  jg_transfer_record_at(JG_TRANSFER_TO_HOST, 4, "x", "f.c", 7);
  end(&d);
  jg_transfer_report(&d, buf, sizeof buf);
  assert_string_equal(buf,
                      "to_host: 2 events, 8 bytes\n"
                      "  to_host x1 4 bytes at f.c:7 (x)\n"
                      "  (1 event not in the event log)");
  jg_transfer_counter n;
  jg_transfer_counter_init(&n, NULL, 0);
  begin(&n);
  jg_transfer_record_at(JG_TRANSFER_TO_DEVICE, 4, "x", "f.c", 7);
  jg_transfer_record_at(JG_TRANSFER_TO_DEVICE, 5, "x", "f.c", 7);
  end(&n);
  jg_transfer_report(&n, buf, sizeof buf);
  assert_string_equal(buf,
                      "to_device: 2 events, 9 bytes\n"
                      "  (2 events not in the event log)");
}

static void test_expect_none(void **state) {
  (void)state;
  jg_error err;
  jg_transfer_event ev[8];
  jg_transfer_counter c;
  jg_transfer_counter_init(&c, ev, 8);
  JGT_STATUS(JG_EINVAL, jg_transfer_expect_none(NULL, 0, &err));

  /* Nothing recorded: OK and err untouched. */
  jg_error_set(&err, JG_ECUDA, 42, "sentinel");
  JGT_OK(jg_transfer_expect_none(&c, 0, &err));
  assert_int_equal(err.status, JG_ECUDA);
  assert_int_equal(err.index, 42);
  assert_string_equal(err.message, "sentinel");

  begin(&c);
  jg_transfer_record_at(JG_TRANSFER_DEVICE_COPY, 64, "jg_copy", "t.c", 5);
  jg_transfer_record_at(JG_TRANSFER_DEVICE_COPY, 64, "jg_copy", "t.c", 5);
  end(&c);
  const unsigned hd =
      JG_TRANSFER_MASK(JG_TRANSFER_TO_HOST) | JG_TRANSFER_MASK(JG_TRANSFER_TO_DEVICE);
  JGT_OK(jg_transfer_expect_none(&c, hd, &err));
  JGT_OK(jg_transfer_expect_none(&c, hd | 0x100u, &err)); /* unknown bits ignored */
  JGT_STATUS(JG_ESTATE, jg_transfer_expect_none(&c, 0, &err));
  assert_int_equal(err.index, 2);
  assert_string_equal(err.message,
                      "expected no transfers (to_device, to_host, device_copy, fallback) but 2 "
                      "were recorded:\n"
                      "device_copy: 2 events, 128 bytes\n"
                      "  device_copy x2 128 bytes at t.c:5 (jg_copy)");
  JGT_STATUS(JG_EINVAL, jg_transfer_expect_none(&c, 0x30u, &err)); /* no known kind */
  JGT_CONTAINS(err.message, "0x30");

  begin(&c);
  jg_transfer_record_at(JG_TRANSFER_TO_HOST, 8, "validate: error words", "t.c", 9);
  end(&c);
  JGT_STATUS(JG_ESTATE, jg_transfer_expect_none(&c, hd, &err));
  assert_int_equal(err.index, 1);
  /* The report in the message is limited to the masked kinds. */
  assert_string_equal(err.message,
                      "expected no transfers (to_device, to_host) but 1 was recorded:\n"
                      "to_host: 1 event, 8 bytes\n"
                      "  to_host x1 8 bytes at t.c:9 (validate: error words)");
  JGT_OK(jg_transfer_expect_none(&c, JG_TRANSFER_MASK(JG_TRANSFER_FALLBACK), &err));
  assert_int_equal(jg_transfer_expect_none(&c, hd, NULL), JG_ESTATE); /* err may be NULL */

  /* A long report is cut to the message size. */
  jg_transfer_event many[64];
  jg_transfer_counter m;
  jg_transfer_counter_init(&m, many, 64);
  begin(&m);
  for (int i = 0; i < 64; ++i) {
    jg_transfer_record_at(JG_TRANSFER_TO_HOST, 1, "x", "a-long-file-name.c", i + 1);
  }
  end(&m);
  JGT_STATUS(JG_ESTATE, jg_transfer_expect_none(&m, 0, &err));
  assert_int_equal(err.index, 64);
  assert_int_equal(strlen(err.message), JG_ERROR_MESSAGE_SIZE - 1);
  JGT_CONTAINS(err.message, "  to_host x1 1 bytes at a-long-file-name.c:1 (x)");
}

static void test_totals(void **state) {
  (void)state;
  uint64_t c0[JG_TRANSFER_KIND_COUNT], b0[JG_TRANSFER_KIND_COUNT];
  uint64_t c1[JG_TRANSFER_KIND_COUNT], b1[JG_TRANSFER_KIND_COUNT];
  jg_transfer_totals(c0, b0);
  jg_transfer_record_at(JG_TRANSFER_TO_DEVICE, 1000, "x", "f.c", 1); /* no counter active */
  jg_transfer_record_at(JG_TRANSFER_TO_HOST, 3, "x", "f.c", 1);
  jgi_transfer_record(JG_TRANSFER_TO_HOST, 4, "x");
  jgi_transfer_record(JG_TRANSFER_FALLBACK, 0, "x");
  jg_transfer_totals(c1, b1);
  assert_int_equal(c1[JG_TRANSFER_TO_DEVICE] - c0[JG_TRANSFER_TO_DEVICE], 1);
  assert_int_equal(b1[JG_TRANSFER_TO_DEVICE] - b0[JG_TRANSFER_TO_DEVICE], 1000);
  assert_int_equal(c1[JG_TRANSFER_TO_HOST] - c0[JG_TRANSFER_TO_HOST], 2);
  assert_int_equal(b1[JG_TRANSFER_TO_HOST] - b0[JG_TRANSFER_TO_HOST], 7);
  assert_int_equal(c1[JG_TRANSFER_DEVICE_COPY], c0[JG_TRANSFER_DEVICE_COPY]);
  assert_int_equal(c1[JG_TRANSFER_FALLBACK] - c0[JG_TRANSFER_FALLBACK], 1);
  uint64_t only[JG_TRANSFER_KIND_COUNT];
  jg_transfer_totals(only, NULL); /* either pointer may be NULL */
  assert_int_equal(only[JG_TRANSFER_TO_HOST], c1[JG_TRANSFER_TO_HOST]);
  jg_transfer_totals(NULL, only);
  assert_int_equal(only[JG_TRANSFER_TO_DEVICE], b1[JG_TRANSFER_TO_DEVICE]);
  jg_transfer_totals(NULL, NULL);
}

/* jgi_transfer_move: the classification the library's copies use. */
static void test_move_classification(void **state) {
  (void)state;
  jg_transfer_event ev[8];
  jg_transfer_counter c;
  jg_transfer_counter_init(&c, ev, 8);
  begin(&c);
  jgi_transfer_move(true, false, 10, "h2d");
  jgi_transfer_move(false, true, 20, "d2h");
  jgi_transfer_move(true, true, 30, "d2d");
  jgi_transfer_move(false, false, 40, "h2h"); /* not a transfer */
  jgi_transfer_move(true, false, 0, "empty"); /* nothing moved */
  end(&c);
  assert_counts(&c, 1, 1, 1, 0);
  assert_int_equal(c.n_events, 3);
  assert_event(&ev[0], JG_TRANSFER_TO_DEVICE, 10, "h2d", NULL, 0);
  assert_event(&ev[1], JG_TRANSFER_TO_HOST, 20, "d2h", NULL, 0);
  assert_event(&ev[2], JG_TRANSFER_DEVICE_COPY, 30, "d2d", NULL, 0);
}

/* ------------------------------------------------------------------------------------------ */
/* Call sites                                                                                  */
/* ------------------------------------------------------------------------------------------ */

static void test_record_macro_site(void **state) {
  (void)state;
  jg_transfer_event ev[2];
  jg_transfer_counter c;
  jg_transfer_counter_init(&c, ev, 2);
  begin(&c);
  int line = 0;
  AT_LINE(line, jg_transfer_record(JG_TRANSFER_TO_HOST, 4, "raw cudaMemcpy"));
  assert_int_equal(line, __LINE__ - 1); /* this file's line, counted independently */
  end(&c);
  assert_int_equal(c.n_events, 1);
  assert_event(&ev[0], JG_TRANSFER_TO_HOST, 4, "raw cudaMemcpy", __FILE__, line);
}

static void test_callsite_stack(void **state) {
  (void)state;
  jg_transfer_event ev[64];
  jg_transfer_counter c;
  jg_transfer_counter_init(&c, ev, 64);
  begin(&c);
  jgi_transfer_record(JG_TRANSFER_TO_HOST, 1, "none"); /* ev[0] */
  jg_callsite_push("x.c", 10);
  jgi_transfer_record(JG_TRANSFER_TO_HOST, 1, "x"); /* ev[1] */
  jg_callsite_push("y.c", 20);
  jgi_transfer_record(JG_TRANSFER_TO_HOST, 1, "y"); /* ev[2] */
  /* An explicit site wins over the current one. */
  jg_transfer_record_at(JG_TRANSFER_TO_HOST, 1, "explicit", "z.c", 30); /* ev[3] */
  assert_int_equal(jg_callsite_pop(JG_EINVAL), JG_EINVAL); /* passes the status through */
  jgi_transfer_record(JG_TRANSFER_TO_HOST, 1, "x again");  /* ev[4] */
  assert_int_equal(jg_callsite_pop(JG_OK), JG_OK);
  jgi_transfer_record(JG_TRANSFER_TO_HOST, 1, "none again"); /* ev[5] */
  assert_int_equal(jg_callsite_pop(JG_ECUDA), JG_ECUDA);     /* unbalanced: clears, no harm */
  jgi_transfer_record(JG_TRANSFER_TO_HOST, 1, "still none"); /* ev[6] */

  /* set replaces the current site without pushing; a push/pop pair restores it. */
  jg_callsite_set("s.c", 5);
  jgi_transfer_record(JG_TRANSFER_TO_HOST, 1, "set"); /* ev[7] */
  jg_callsite_push("p.c", 6);
  jg_callsite_set("q.c", 7);
  jgi_transfer_record(JG_TRANSFER_TO_HOST, 1, "set inside"); /* ev[8] */
  jg_callsite_pop(JG_OK);
  jgi_transfer_record(JG_TRANSFER_TO_HOST, 1, "restored"); /* ev[9] */
  jg_callsite_set(NULL, 123);
  jgi_transfer_record(JG_TRANSFER_TO_HOST, 1, "cleared"); /* ev[10] */
  end(&c);

  assert_int_equal(c.n_events, 11);
  assert_event(&ev[0], JG_TRANSFER_TO_HOST, 1, "none", NULL, 0);
  assert_event(&ev[1], JG_TRANSFER_TO_HOST, 1, "x", "x.c", 10);
  assert_event(&ev[2], JG_TRANSFER_TO_HOST, 1, "y", "y.c", 20);
  assert_event(&ev[3], JG_TRANSFER_TO_HOST, 1, "explicit", "z.c", 30);
  assert_event(&ev[4], JG_TRANSFER_TO_HOST, 1, "x again", "x.c", 10);
  assert_event(&ev[5], JG_TRANSFER_TO_HOST, 1, "none again", NULL, 0);
  assert_event(&ev[6], JG_TRANSFER_TO_HOST, 1, "still none", NULL, 0);
  assert_event(&ev[7], JG_TRANSFER_TO_HOST, 1, "set", "s.c", 5);
  assert_event(&ev[8], JG_TRANSFER_TO_HOST, 1, "set inside", "q.c", 7);
  assert_event(&ev[9], JG_TRANSFER_TO_HOST, 1, "restored", "s.c", 5);
  assert_event(&ev[10], JG_TRANSFER_TO_HOST, 1, "cleared", NULL, 0);
}

/* Deeper than the 16 saved levels: the extra pushes leave the 16th site current, and popping
 * them restores nothing until the stack is back within its 16 levels. */
static void test_callsite_deep(void **state) {
  (void)state;
  static const char *const files[20] = {"f0",  "f1",  "f2",  "f3",  "f4",  "f5",  "f6",
                                        "f7",  "f8",  "f9",  "f10", "f11", "f12", "f13",
                                        "f14", "f15", "f16", "f17", "f18", "f19"};
  jg_transfer_event ev[64];
  jg_transfer_counter c;
  jg_transfer_counter_init(&c, ev, 64);
  begin(&c);
  for (int i = 0; i < 20; ++i) {
    jg_callsite_push(files[i], i);
    jgi_transfer_record(JG_TRANSFER_TO_HOST, 1, "push");
  }
  for (int i = 19; i >= 0; --i) {
    jg_callsite_pop(JG_OK);
    jgi_transfer_record(JG_TRANSFER_TO_HOST, 1, "pop");
  }
  end(&c);
  assert_int_equal(c.n_events, 40);
  for (int i = 0; i < 20; ++i) {
    const int cur = i < 16 ? i : 15;
    assert_event(&ev[i], JG_TRANSFER_TO_HOST, 1, "push", files[cur], cur);
  }
  /* After popping level i (0-based) the current site is level i - 1's. */
  for (int j = 0; j < 20; ++j) {
    const int popped = 19 - j;
    const int cur = popped - 1;
    if (cur < 0) {
      assert_event(&ev[20 + j], JG_TRANSFER_TO_HOST, 1, "pop", NULL, 0);
    } else {
      const int shown = cur < 16 ? cur : 15;
      assert_event(&ev[20 + j], JG_TRANSFER_TO_HOST, 1, "pop", files[shown], shown);
    }
  }
}

/* The wrapper macros of view.h restore the site that was current before the call, also when
 * the call fails; `(jg_copy)(...)` calls the function itself. */
static void test_wrapper_macros_restore(void **state) {
  (void)state;
  jg_transfer_event ev[8];
  jg_transfer_counter c;
  jg_transfer_counter_init(&c, ev, 8);
  double src[4] = {1, 2, 3, 4}, dst[4] = {0};
  jg_view sv, dv;
  jg_layout l;
  const jg_len n = 4;
  JGT_OK(jg_layout_init(&l, 1, &n, NULL, 8, &jgt_err_));
  const jg_device host = JG_DEVICE_HOST_INIT;
  JGT_OK(jg_view_from_pointer(&sv, src, host, &l, JG_DTYPE_FLOAT64, true, &jgt_err_));
  JGT_OK(jg_view_from_pointer(&dv, dst, host, &l, JG_DTYPE_FLOAT64, false, &jgt_err_));

  jg_error err;
  begin(&c);
  jg_callsite_set("outer.c", 5);
  JGT_OK(jg_copy(&dv, &sv, &jgt_err_)); /* host to host: no event */
  jgi_transfer_record(JG_TRANSFER_TO_HOST, 1, "after jg_copy");
  JGT_STATUS(JG_EINVAL, jg_copy(NULL, &sv, &err)); /* failing call */
  jgi_transfer_record(JG_TRANSFER_TO_HOST, 1, "after a failure");
  JGT_OK(jg_copy_async(&dv, &sv, NULL, &jgt_err_));
  size_t temp_bytes = 0;
  JGT_OK(jg_copy_ex(&dv, &sv, NULL, &temp_bytes, NULL, &jgt_err_));
  assert_int_equal(temp_bytes, 1);
  JGT_OK((jg_copy)(&dv, &sv, &jgt_err_));
  jg_array *a = NULL, *h = NULL;
  JGT_OK(jg_array_from_host(src, 4, JG_DTYPE_FLOAT64, &a, &jgt_err_));
  JGT_OK(jg_array_to_host(a, NULL, &h, &jgt_err_)); /* already on the host: shared */
  assert_ptr_equal(h, a);
  jg_array_release(h);
  JGT_OK(jg_array_to_host_ex(a, jg_memory_resource_host(), NULL, &h, &jgt_err_));
  jg_array_release(h);
  jg_array_release(a);
  jgi_transfer_record(JG_TRANSFER_TO_HOST, 1, "after the rest");
  end(&c);
  jg_callsite_set(NULL, 0);

  assert_int_equal(c.n_events, 3);
  assert_event(&ev[0], JG_TRANSFER_TO_HOST, 1, "after jg_copy", "outer.c", 5);
  assert_event(&ev[1], JG_TRANSFER_TO_HOST, 1, "after a failure", "outer.c", 5);
  assert_event(&ev[2], JG_TRANSFER_TO_HOST, 1, "after the rest", "outer.c", 5);
  assert_memory_equal(dst, src, sizeof src);
}

/* jgi_call_enter / leave: the outermost name wins, and is gone after the outermost leave. */
static void test_call_names(void **state) {
  (void)state;
  assert_string_equal(jgi_call_name("fallback"), "fallback");
  assert_null(jgi_call_name(NULL));
  jgi_call_enter("outer");
  assert_string_equal(jgi_call_name("fallback"), "outer");
  jgi_call_enter("inner");
  assert_string_equal(jgi_call_name("fallback"), "outer");
  jgi_call_leave();
  assert_string_equal(jgi_call_name("fallback"), "outer");
  jgi_call_leave();
  assert_string_equal(jgi_call_name("fallback"), "fallback");
  jgi_call_leave(); /* unbalanced: no-op */
  jgi_call_enter("again");
  assert_string_equal(jgi_call_name(NULL), "again");
  jgi_call_leave();
  assert_null(jgi_call_name(NULL));
}

/* ------------------------------------------------------------------------------------------ */
/* Threads                                                                                     */
/* ------------------------------------------------------------------------------------------ */

typedef struct thread_arg {
  jg_transfer_counter *foreign; /* a counter active on the main thread */
  jg_status end_foreign;        /* what ending it from this thread gave */
  jg_transfer_counter own;
  jg_transfer_event ev[4];
  atomic_int *go; /* 1: the main thread has recorded its events */
} thread_arg;

static void *worker(void *p) {
  thread_arg *t = p;
  jg_transfer_counter_init(&t->own, t->ev, 4);
  if (jg_transfer_scope_begin(&t->own, NULL) != JG_OK) return NULL;
  /* The main thread's call site is not this thread's. */
  jgi_transfer_record(JG_TRANSFER_TO_DEVICE, 100, "thread b");
  jgi_transfer_record(JG_TRANSFER_TO_DEVICE, 200, "thread b");
  jg_callsite_push("b.c", 2);
  jgi_transfer_record(JG_TRANSFER_TO_HOST, 300, "thread b");
  jg_callsite_pop(JG_OK);
  t->end_foreign = jg_transfer_scope_end(t->foreign, NULL);
  while (atomic_load(t->go) == 0) {
  }
  (void)jg_transfer_scope_end(&t->own, NULL);
  return NULL;
}

static void test_threads(void **state) {
  (void)state;
  uint64_t c0[JG_TRANSFER_KIND_COUNT], c1[JG_TRANSFER_KIND_COUNT];
  jg_transfer_totals(c0, NULL);
  jg_transfer_event ev[8];
  jg_transfer_counter mine;
  jg_transfer_counter_init(&mine, ev, 8);
  atomic_int go = 0;
  thread_arg t;
  memset(&t, 0, sizeof t);
  t.foreign = &mine;
  t.go = &go;
  begin(&mine);
  jg_callsite_push("a.c", 1);
  pthread_t th;
  assert_int_equal(pthread_create(&th, NULL, worker, &t), 0);
  jgi_transfer_record(JG_TRANSFER_DEVICE_COPY, 7, "thread a"); /* while b runs */
  atomic_store(&go, 1);
  assert_int_equal(pthread_join(th, NULL), 0);
  jg_callsite_pop(JG_OK);
  assert_int_equal(mine.active_, 1); /* b could not end it */
  end(&mine);

  assert_int_equal(t.end_foreign, JG_ESTATE);
  assert_counts(&mine, 0, 0, 1, 0);
  assert_int_equal(mine.n_events, 1);
  assert_event(&ev[0], JG_TRANSFER_DEVICE_COPY, 7, "thread a", "a.c", 1);
  assert_counts(&t.own, 2, 1, 0, 0);
  assert_int_equal(t.own.bytes[JG_TRANSFER_TO_DEVICE], 300);
  assert_int_equal(t.own.n_events, 3);
  assert_event(&t.ev[0], JG_TRANSFER_TO_DEVICE, 100, "thread b", NULL, 0);
  assert_event(&t.ev[2], JG_TRANSFER_TO_HOST, 300, "thread b", "b.c", 2);
  /* The totals count both threads. */
  jg_transfer_totals(c1, NULL);
  assert_int_equal(c1[JG_TRANSFER_TO_DEVICE] - c0[JG_TRANSFER_TO_DEVICE], 2);
  assert_int_equal(c1[JG_TRANSFER_TO_HOST] - c0[JG_TRANSFER_TO_HOST], 1);
  assert_int_equal(c1[JG_TRANSFER_DEVICE_COPY] - c0[JG_TRANSFER_DEVICE_COPY], 1);
}

/* ------------------------------------------------------------------------------------------ */
/* Log                                                                                         */
/* ------------------------------------------------------------------------------------------ */

typedef struct log_sink {
  int calls;
  jg_log_level level;
  char message[2048];
} log_sink;

static void sink_fn(jg_log_level level, const char *message, void *user) {
  log_sink *s = user;
  s->calls++;
  s->level = level;
  snprintf(s->message, sizeof s->message, "%s", message);
}

static void other_fn(jg_log_level level, const char *message, void *user) {
  (void)level;
  (void)message;
  (void)user;
}

/* Runs first among the log tests: the defaults before any jg_log_set_callback. */
static void test_log_defaults(void **state) {
  (void)state;
  jg_log_fn fn = other_fn;
  void *user = &fn;
  jg_log_level level = JG_LOG_DEBUG;
  jg_log_get_callback(&fn, &user, &level);
  assert_true(fn == NULL);
  assert_null(user);
  assert_int_equal(level, JG_LOG_WARN);
  assert_false(jgi_log_enabled(JG_LOG_ERROR));
  jgi_log(JG_LOG_ERROR, "dropped %d", 1); /* no callback: nothing happens */
  jg_log_get_callback(NULL, NULL, NULL);  /* out pointers may be NULL */
}

static void test_log_names(void **state) {
  (void)state;
  assert_string_equal(jg_log_level_name(JG_LOG_DEBUG), "debug");
  assert_string_equal(jg_log_level_name(JG_LOG_INFO), "info");
  assert_string_equal(jg_log_level_name(JG_LOG_WARN), "warning");
  assert_string_equal(jg_log_level_name(JG_LOG_ERROR), "error");
  assert_string_equal(jg_log_level_name((jg_log_level)0), "unknown");
  assert_string_equal(jg_log_level_name((jg_log_level)25), "unknown");
  assert_int_equal(JG_LOG_DEBUG, 10);
  assert_int_equal(JG_LOG_INFO, 20);
  assert_int_equal(JG_LOG_WARN, 30);
  assert_int_equal(JG_LOG_ERROR, 40);
}

static void test_log_callback(void **state) {
  (void)state;
  log_sink s;
  memset(&s, 0, sizeof s);
  jg_log_set_callback(sink_fn, &s, JG_LOG_WARN);
  jg_log_fn fn = NULL;
  void *user = NULL;
  jg_log_level level = JG_LOG_DEBUG;
  jg_log_get_callback(&fn, &user, &level);
  assert_true(fn == sink_fn);
  assert_ptr_equal(user, &s);
  assert_int_equal(level, JG_LOG_WARN);

  assert_false(jgi_log_enabled(JG_LOG_INFO));
  assert_true(jgi_log_enabled(JG_LOG_WARN));
  jgi_log(JG_LOG_DEBUG, "debug %d", 1);
  jgi_log(JG_LOG_INFO, "info %d", 2);
  assert_int_equal(s.calls, 0);
  jgi_log(JG_LOG_WARN, "kernel '%s' has no CUDA implementation; running the host one", "x");
  assert_int_equal(s.calls, 1);
  assert_int_equal(s.level, JG_LOG_WARN);
  assert_string_equal(s.message, "kernel 'x' has no CUDA implementation; running the host one");
  jgi_log(JG_LOG_ERROR, "e%d", 40);
  assert_int_equal(s.calls, 2);
  assert_int_equal(s.level, JG_LOG_ERROR);
  assert_string_equal(s.message, "e40");

  /* A lower minimum passes more; above ERROR passes nothing. */
  jg_log_set_callback(sink_fn, &s, JG_LOG_DEBUG);
  jgi_log(JG_LOG_DEBUG, "d");
  assert_int_equal(s.calls, 3);
  assert_int_equal(s.level, JG_LOG_DEBUG);
  jg_log_set_callback(sink_fn, &s, (jg_log_level)(JG_LOG_ERROR + 1));
  jgi_log(JG_LOG_ERROR, "e");
  assert_int_equal(s.calls, 3);
  assert_false(jgi_log_enabled(JG_LOG_ERROR));

  /* Long messages are cut at 1023 bytes, ending in "...". */
  jg_log_set_callback(sink_fn, &s, JG_LOG_INFO);
  char big[1500];
  memset(big, 'a', sizeof big - 1);
  big[sizeof big - 1] = '\0';
  jgi_log(JG_LOG_INFO, "%s", big);
  assert_int_equal(s.calls, 4);
  assert_int_equal(strlen(s.message), 1023);
  assert_string_equal(s.message + 1020, "...");
  assert_int_equal(s.message[1019], 'a');
  big[1023] = '\0'; /* exactly 1023 bytes: not cut */
  jgi_log(JG_LOG_INFO, "%s", big);
  assert_int_equal(strlen(s.message), 1023);
  assert_int_equal(s.message[1022], 'a');

  /* NULL callback: everything dropped. */
  jg_log_set_callback(NULL, &s, JG_LOG_DEBUG);
  assert_false(jgi_log_enabled(JG_LOG_ERROR));
  jgi_log(JG_LOG_ERROR, "dropped");
  assert_int_equal(s.calls, 5);
  jg_log_get_callback(&fn, &user, &level);
  assert_true(fn == NULL);
  assert_ptr_equal(user, &s);
  assert_int_equal(level, JG_LOG_DEBUG);
  jg_log_set_callback(NULL, NULL, JG_LOG_WARN);
}

/* The callback and its user pointer change together: a delivered message never pairs one
 * callback with the other's user pointer while another thread swaps them. */
typedef struct pair_sink {
  atomic_int calls;
  atomic_int mismatches;
} pair_sink;

static pair_sink g_pa, g_pb;

static void pair_a(jg_log_level level, const char *message, void *user) {
  (void)level;
  (void)message;
  atomic_fetch_add(&g_pa.calls, 1);
  if (user != &g_pa) atomic_fetch_add(&g_pa.mismatches, 1);
}

static void pair_b(jg_log_level level, const char *message, void *user) {
  (void)level;
  (void)message;
  atomic_fetch_add(&g_pb.calls, 1);
  if (user != &g_pb) atomic_fetch_add(&g_pb.mismatches, 1);
}

static atomic_int g_stop;

static void *swapper(void *p) {
  (void)p;
  while (atomic_load(&g_stop) == 0) {
    jg_log_set_callback(pair_a, &g_pa, JG_LOG_INFO);
    jg_log_set_callback(pair_b, &g_pb, JG_LOG_DEBUG);
  }
  return NULL;
}

static void test_log_concurrent_set(void **state) {
  (void)state;
  jg_log_set_callback(pair_a, &g_pa, JG_LOG_INFO);
  atomic_store(&g_stop, 0);
  pthread_t th;
  assert_int_equal(pthread_create(&th, NULL, swapper, NULL), 0);
  for (int i = 0; i < 200000; ++i) jgi_log(JG_LOG_WARN, "m %d", i);
  atomic_store(&g_stop, 1);
  assert_int_equal(pthread_join(th, NULL), 0);
  jg_log_set_callback(NULL, NULL, JG_LOG_WARN);
  assert_int_equal(atomic_load(&g_pa.calls) + atomic_load(&g_pb.calls), 200000);
  assert_int_equal(atomic_load(&g_pa.mismatches), 0);
  assert_int_equal(atomic_load(&g_pb.mismatches), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_log_defaults), /* first: nothing has set the callback yet */
      cmocka_unit_test(test_log_names),
      cmocka_unit_test(test_log_callback),
      cmocka_unit_test(test_log_concurrent_set),
      cmocka_unit_test_setup(test_kind_names, clear_site),
      cmocka_unit_test_setup(test_init_begin_end, clear_site),
      cmocka_unit_test_setup(test_unknown_kind_ignored, clear_site),
      cmocka_unit_test_setup(test_scope_errors, clear_site),
      cmocka_unit_test_setup(test_nesting, clear_site),
      cmocka_unit_test_setup(test_event_log_capacity, clear_site),
      cmocka_unit_test_setup(test_report, clear_site),
      cmocka_unit_test_setup(test_expect_none, clear_site),
      cmocka_unit_test_setup(test_totals, clear_site),
      cmocka_unit_test_setup(test_move_classification, clear_site),
      cmocka_unit_test_setup(test_record_macro_site, clear_site),
      cmocka_unit_test_setup(test_callsite_stack, clear_site),
      cmocka_unit_test_setup(test_callsite_deep, clear_site),
      cmocka_unit_test_setup(test_wrapper_macros_restore, clear_site),
      cmocka_unit_test_setup(test_call_names, clear_site),
      cmocka_unit_test_setup(test_threads, clear_site),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
