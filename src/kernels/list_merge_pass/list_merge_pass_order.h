/* list_merge_pass_order.h: the order of kernel "list_merge_pass" (list_merge_pass.json) for its
 * host implementations; list_merge_pass_cuda.cu has the same function for the device. An entry
 * is a class (0 a number, 1 NaN, 2 None) and a value; `a` comes strictly before `b` when its class
 * is smaller, or both are numbers and a < b (a > b when descending). Equal keys are never
 * "before" each other, which is what makes the merge stable. */
#ifndef JGK_LIST_MERGE_PASS_ORDER_H
#define JGK_LIST_MERGE_PASS_ORDER_H

/* Key of local position l of list i: class into *cls, value into *val. */
#define JGK_MERGE_KEY(T, i, l, cls, val)                                                     \
  do {                                                                                       \
    int64_t g_ = starts[i] + (l);                                                            \
    *(cls) = 0;                                                                              \
    if (has_option != 0) {                                                                   \
      g_ = optindex[g_];                                                                     \
      if (g_ < 0) *(cls) = 2;                                                                \
    }                                                                                        \
    if (*(cls) == 0) {                                                                       \
      *(val) = content[g_];                                                                  \
      if (*(val) != *(val)) *(cls) = 1;                                                      \
    }                                                                                        \
  } while (0)

#define JGK_MERGE_BEFORE(ca, va, cb, vb) \
  ((ca) < (cb) || ((ca) == 0 && (cb) == 0 && (descending != 0 ? (va) > (vb) : (va) < (vb))))

#endif /* JGK_LIST_MERGE_PASS_ORDER_H */
