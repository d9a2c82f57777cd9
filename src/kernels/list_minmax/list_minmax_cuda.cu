/* list_minmax_cuda.cu: CUDA implementation of kernel "list_minmax" (list_minmax.json).
 *
 * One warp per list, warps looping over the lists grid-stride (JGK_FOR_WARP): each lane keeps the
 * minimum (maximum) of the elements at lane, lane + 32, ..., starting from the identity
 * (jgk_limits), and jgk_warp_reduce combines the lanes; lane 0 writes out[i] and valid[i]. A NaN
 * wins every comparison (the combining function takes b when b is NaN, and keeps a NaN a), so a
 * list with a NaN gives NaN whatever the order, as on the host. A bad list (jgk_list_bad) goes to
 * the error word through lane 0 and is skipped. */

template <typename T>
struct min_or_max {
  bool max;
  __device__ T operator()(T a, T b) const {
    return (jgk_isnan(b) || (max ? a < b : b < a)) ? b : a;
  }
};

template <typename I, typename T>
__global__ void jgk_list_minmax(int64_t n, const I *__restrict__ starts,
                                const I *__restrict__ stops, int64_t m,
                                const T *__restrict__ content, int64_t op, T *__restrict__ out,
                                bool *__restrict__ valid, unsigned long long *error_word) {
  const jgk_warp w = jgk_warp_self();
  min_or_max<T> f;
  f.max = op != 0;
  const T identity = f.max ? jgk_limits<T>::lowest() : jgk_limits<T>::highest();
  JGK_FOR_WARP(i, n, w) {
    const int64_t a = (int64_t)starts[i], b = (int64_t)stops[i];
    if (jgk_list_bad(a, b, m)) {
      if (w.lane == 0) jgk_fail(error_word, i, JGK_LIST_MINMAX_BAD_RANGE);
      continue;
    }
    T acc = identity;
    for (int64_t j = a + w.lane; j < b; j += w.width) acc = f(acc, content[j]);
    acc = jgk_warp_reduce(acc, f, w);
    if (w.lane == 0) {
      out[i] = acc;
      valid[i] = b > a;
    }
  }
}
