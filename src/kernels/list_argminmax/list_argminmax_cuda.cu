/* list_argminmax_cuda.cu: CUDA implementation of kernel "list_argminmax" (list_argminmax.json).
 *
 * One warp per list, warps looping over the lists grid-stride (JGK_FOR_WARP). Each lane scans
 * the positions lane, lane + 32, ... in increasing order, keeping a (value, position) candidate;
 * jgk_warp_reduce then combines the lanes' candidates with the same rule, which decides by
 * position when values tie, so the result does not depend on the order of combination:
 *   - no candidate (position -1, an empty lane) loses to any;
 *   - a NaN beats every number, and between two NaNs the smaller position wins (the first NaN);
 *   - otherwise the strictly smaller (argmin) or larger (argmax) value wins, and equal values
 *     (-0.0 == 0.0 included) go to the smaller position: the first minimum, as on the host.
 * A lane stops scanning at its first NaN (its later positions cannot win). Lane 0 writes out[i]
 * (-1 for an empty list). A bad list (jgk_list_bad) goes to the error word through lane 0. */

template <typename T>
struct arg_candidate {
  T v;
  int64_t p; /* position in the list; -1: none */
};

template <typename T>
__device__ inline arg_candidate<T> jgk_shfl_down(unsigned mask, arg_candidate<T> c, int d) {
  arg_candidate<T> r;
  r.v = jgk_shfl_down(mask, c.v, d);
  r.p = jgk_shfl_down(mask, c.p, d);
  return r;
}

template <typename T>
struct arg_best {
  bool max;
  __device__ arg_candidate<T> operator()(arg_candidate<T> a, arg_candidate<T> b) const {
    if (b.p < 0) return a;
    if (a.p < 0) return b;
    const bool an = jgk_isnan(a.v), bn = jgk_isnan(b.v);
    if (an || bn) return an && bn ? (b.p < a.p ? b : a) : (bn ? b : a);
    if (max ? a.v < b.v : b.v < a.v) return b;
    if (max ? b.v < a.v : a.v < b.v) return a;
    return b.p < a.p ? b : a;
  }
};

template <typename I, typename T>
__global__ void jgk_list_argminmax(int64_t n, const I *__restrict__ starts,
                                   const I *__restrict__ stops, int64_t m,
                                   const T *__restrict__ content, int64_t op,
                                   int64_t *__restrict__ out, unsigned long long *error_word) {
  const jgk_warp w = jgk_warp_self();
  arg_best<T> f;
  f.max = op != 0;
  JGK_FOR_WARP(i, n, w) {
    const int64_t a = (int64_t)starts[i], b = (int64_t)stops[i];
    if (jgk_list_bad(a, b, m)) {
      if (w.lane == 0) jgk_fail(error_word, i, JGK_LIST_ARGMINMAX_BAD_RANGE);
      continue;
    }
    arg_candidate<T> best;
    best.v = T();
    best.p = -1;
    for (int64_t j = w.lane; j < b - a; j += w.width) {
      arg_candidate<T> c;
      c.v = content[a + j];
      c.p = j;
      best = f(best, c);
      if (jgk_isnan(c.v)) break;
    }
    best = jgk_warp_reduce(best, f, w);
    if (w.lane == 0) out[i] = best.p;
  }
}
