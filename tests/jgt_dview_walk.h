/* jgt_dview_walk.h: a generic walk over a device view (device_view.h) that serialises entries
 * into a flat list of doubles, the same on the host (tests/unit/test_device_view.c) and in a
 * kernel (tests/gpu/device_view_kernels.cu), so that device walks can be compared with host
 * walks number for number.
 *
 * Entry i of node `node` is written as:
 *   numeric            its value (jg_dview_get_f64)
 *   list kinds         the list's length, then each item
 *   record             each field's entry i, in field order
 *   option             JGT_NONE when None, else 1 then the content's entry
 *   empty              nothing (an empty node has no entries)
 * Iterative (an explicit stack of JGT_WALK_DEPTH frames) so device code needs no recursion. */
#ifndef JAGGED_TESTS_JGT_DVIEW_WALK_H
#define JAGGED_TESTS_JGT_DVIEW_WALK_H

#include "jagged/device_view.h"

#define JGT_NONE (-1.0e300)
#define JGT_WALK_DEPTH 32

typedef struct jgt_frame {
  int32_t node; /* a list or record node being iterated */
  int64_t i;    /* the record's entry (records) */
  int64_t pos;  /* next item (lists) or field (records) */
  int64_t end;
} jgt_frame;

/* Where a walk writes: up to `cap` values into `out` (may be NULL with cap 0); `count` counts
 * them all and `sum` adds up those that are not JGT_NONE, in walk order. */
typedef struct jgt_sink {
  double *out;
  int64_t cap;
  int64_t count;
  double sum;
} jgt_sink;

static inline JG_HD void jgt_emit(jgt_sink *s, double x) {
  if (s->count < s->cap) s->out[s->count] = x;
  ++s->count;
  if (x != JGT_NONE) s->sum += x;
}

/* Enters entry i of node: writes what it can, pushes a frame for lists and records. Returns
 * false when the stack is full. */
static inline JG_HD bool jgt_enter(jg_dview v, int32_t node, int64_t i, jgt_frame *stack,
                                   int *sp, jgt_sink *s) {
  for (;;) {
    const int32_t kind = jg_dview_kind(v, node);
    if (kind == JG_DV_NUMERIC) {
      jgt_emit(s, jg_dview_get_f64(v, node, i));
      return true;
    }
    if (kind == JG_DV_LIST_OFFSET || kind == JG_DV_LIST || kind == JG_DV_REGULAR) {
      if (*sp == JGT_WALK_DEPTH) return false;
      const jg_drange r = jg_dview_list(v, node, i);
      jgt_emit(s, (double)(r.stop - r.start));
      jgt_frame f;
      f.node = node;
      f.i = i;
      f.pos = r.start;
      f.end = r.stop;
      stack[(*sp)++] = f;
      return true;
    }
    if (kind == JG_DV_RECORD) {
      if (*sp == JGT_WALK_DEPTH) return false;
      jgt_frame f;
      f.node = node;
      f.i = i;
      f.pos = 0;
      f.end = jg_dview_nfields(v, node);
      stack[(*sp)++] = f;
      return true;
    }
    if (kind == JG_DV_BYTE_MASKED || kind == JG_DV_BIT_MASKED || kind == JG_DV_INDEXED_OPTION) {
      const int64_t k = jg_dview_option_index(v, node, i);
      if (k < 0 || !jg_dview_is_valid(v, node, i)) {
        jgt_emit(s, JGT_NONE);
        return true;
      }
      jgt_emit(s, 1.0);
      node = jg_dview_content(v, node);
      i = k;
      continue;
    }
    return true; /* empty */
  }
}

/* Walks entries [first, last) of the root into `s`; returns false when nested deeper than the
 * stack (s->count is then meaningless). */
static inline JG_HD bool jgt_walk_into(jg_dview v, int64_t first, int64_t last, jgt_sink *s) {
  jgt_frame stack[JGT_WALK_DEPTH];
  int sp = 0;
  for (int64_t i = first; i < last; ++i) {
    if (!jgt_enter(v, v.root, i, stack, &sp, s)) return false;
    while (sp > 0) {
      jgt_frame *top = &stack[sp - 1];
      if (top->pos == top->end) {
        --sp;
        continue;
      }
      const int64_t p = top->pos++;
      bool ok;
      if (jg_dview_kind(v, top->node) == JG_DV_RECORD) {
        ok = jgt_enter(v, jg_dview_field(v, top->node, (int32_t)p), top->i, stack, &sp, s);
      } else {
        ok = jgt_enter(v, jg_dview_content(v, top->node), p, stack, &sp, s);
      }
      if (!ok) return false;
    }
  }
  return true;
}

/* Walks entries [first, last) of the root into out (capacity cap); returns the number of values
 * (which may exceed cap: then only cap were written), or -1 when nested deeper than the stack. */
static inline JG_HD int64_t jgt_walk(jg_dview v, int64_t first, int64_t last, double *out,
                                     int64_t cap) {
  jgt_sink s;
  s.out = out;
  s.cap = cap;
  s.count = 0;
  s.sum = 0.0;
  return jgt_walk_into(v, first, last, &s) ? s.count : -1;
}

#endif /* JAGGED_TESTS_JGT_DVIEW_WALK_H */
