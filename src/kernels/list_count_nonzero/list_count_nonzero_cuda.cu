/* list_count_nonzero_cuda.cu: CUDA implementation of kernel "list_count_nonzero"
 * (list_count_nonzero.json). One warp per list, warps looping over the lists grid-stride
 * (JGK_FOR_WARP): each lane counts the elements != 0 (NaN included) at lane, lane + 32, ...,
 * jgk_warp_reduce adds the counts, lane 0 writes out[i]. A bad list (jgk_list_bad) goes to the
 * error word through lane 0 and is skipped. */

struct count_add {
  __device__ int64_t operator()(int64_t a, int64_t b) const {
    return a + b;
  }
};

template <typename I, typename T>
__global__ void jgk_list_count_nonzero(int64_t n, const I *__restrict__ starts,
                                       const I *__restrict__ stops, int64_t m,
                                       const T *__restrict__ content, int64_t *__restrict__ out,
                                       unsigned long long *error_word) {
  const jgk_warp w = jgk_warp_self();
  const count_add f = count_add();
  JGK_FOR_WARP(i, n, w) {
    const int64_t a = (int64_t)starts[i], b = (int64_t)stops[i];
    if (jgk_list_bad(a, b, m)) {
      if (w.lane == 0) jgk_fail(error_word, i, JGK_LIST_COUNT_NONZERO_BAD_RANGE);
      continue;
    }
    int64_t count = 0;
    for (int64_t j = a + w.lane; j < b; j += w.width) count += content[j] != 0;
    count = jgk_warp_reduce(count, f, w);
    if (w.lane == 0) out[i] = count;
  }
}
