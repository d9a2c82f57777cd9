/* list_mean_cuda.cu: CUDA implementation of kernel "list_mean" (list_mean.json). One warp per
 * list, warps looping over the lists grid-stride (JGK_FOR_WARP): each lane sums the elements at
 * lane, lane + 32, ... in double, jgk_warp_reduce adds the partial sums (an order other than the
 * host's element order: parity_rtol), lane 0 writes the sum divided by the length, NaN for an
 * empty list. A bad list (jgk_list_bad) goes to the error word through lane 0 and is skipped. */

struct mean_add {
  __device__ double operator()(double a, double b) const {
    return a + b;
  }
};

template <typename I, typename T>
__global__ void jgk_list_mean(int64_t n, const I *__restrict__ starts, const I *__restrict__ stops,
                              int64_t m, const T *__restrict__ content, double *__restrict__ out,
                              unsigned long long *error_word) {
  const jgk_warp w = jgk_warp_self();
  const mean_add f = mean_add();
  JGK_FOR_WARP(i, n, w) {
    const int64_t a = (int64_t)starts[i], b = (int64_t)stops[i];
    if (jgk_list_bad(a, b, m)) {
      if (w.lane == 0) jgk_fail(error_word, i, JGK_LIST_MEAN_BAD_RANGE);
      continue;
    }
    double sum = 0.0;
    for (int64_t j = a + w.lane; j < b; j += w.width) sum += (double)content[j];
    sum = jgk_warp_reduce(sum, f, w);
    if (w.lane == 0) {
      out[i] = b > a ? sum / (double)(b - a) : __longlong_as_double(0x7ff8000000000000LL);
    }
  }
}
