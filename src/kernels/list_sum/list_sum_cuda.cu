/* list_sum_cuda.cu: CUDA implementation of kernel "list_sum" (list_sum.json).
 *
 * One warp per list, warps looping over the lists grid-stride (JGK_FOR_WARP): the lanes read
 * the list's elements at lane, lane + 32, ... (coalesced), each keeps a partial sum or product,
 * and jgk_warp_reduce combines the partials; lane 0 writes out[i]. Integer results accumulate in
 * uint64_t (wrapping, as the host; so the order of the additions does not matter and both sides
 * agree exactly), float results in double (float32 too), where the order differs from the host's
 * element order (parity_rtol). A bad list (jgk_list_bad, the host's predicate) goes to the error
 * word through lane 0 and is skipped: content is read only inside good lists. */

/* The accumulator of result type R: uint64_t for integers, double for floats. */
template <typename R>
struct sum_acc {
  typedef uint64_t type;
};
template <>
struct sum_acc<float> {
  typedef double type;
};
template <>
struct sum_acc<double> {
  typedef double type;
};

template <typename A>
struct sum_or_prod {
  bool prod;
  __device__ A operator()(A a, A b) const {
    return prod ? a * b : a + b;
  }
};

template <typename I, typename T, typename R>
__global__ void jgk_list_sum(int64_t n, const I *__restrict__ starts, const I *__restrict__ stops,
                             int64_t m, const T *__restrict__ content, int64_t op,
                             R *__restrict__ out, unsigned long long *error_word) {
  typedef typename sum_acc<R>::type A;
  const jgk_warp w = jgk_warp_self();
  sum_or_prod<A> f;
  f.prod = op != 0;
  JGK_FOR_WARP(i, n, w) {
    const int64_t a = (int64_t)starts[i], b = (int64_t)stops[i];
    if (jgk_list_bad(a, b, m)) {
      if (w.lane == 0) jgk_fail(error_word, i, JGK_LIST_SUM_BAD_RANGE);
      continue;
    }
    A acc = f.prod ? (A)1 : (A)0;
    for (int64_t j = a + w.lane; j < b; j += w.width) acc = f(acc, (A)content[j]);
    acc = jgk_warp_reduce(acc, f, w);
    if (w.lane == 0) out[i] = (R)acc;
  }
}
