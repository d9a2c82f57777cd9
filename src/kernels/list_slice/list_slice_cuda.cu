/* list_slice_cuda.cu: CUDA implementation of kernel "list_slice" (list_slice.json): one thread
 * per list, the host's arithmetic (CPython's slice.indices) verbatim; errors through the error
 * word (the smallest list wins; a zero step is reported at list 0, as on the host). */
__device__ inline int64_t jgk_list_slice_one(int64_t c, int64_t start, int64_t stop,
                                             int64_t step, int64_t has_start, int64_t has_stop,
                                             int64_t *s) {
  const int64_t lower = step < 0 ? -1 : 0, upper = step < 0 ? c - 1 : c;
  int64_t a, b;
  if (has_start) {
    a = start < 0 ? start + c : start;
    a = a < lower ? lower : a > upper ? upper : a;
  } else {
    a = step < 0 ? upper : lower;
  }
  if (has_stop) {
    b = stop < 0 ? stop + c : stop;
    b = b < lower ? lower : b > upper ? upper : b;
  } else {
    b = step < 0 ? lower : upper;
  }
  *s = a;
  if (step > 0) return a < b ? (int64_t)(((uint64_t)(b - a) - 1) / (uint64_t)step + 1) : 0;
  return b < a ? (int64_t)(((uint64_t)(a - b) - 1) / ((uint64_t)0 - (uint64_t)step) + 1) : 0;
}

__global__ void jgk_list_slice(int64_t n, const int64_t *__restrict__ first,
                               const int64_t *__restrict__ count, int64_t start, int64_t stop,
                               int64_t step, int64_t has_start, int64_t has_stop,
                               int64_t *__restrict__ out_start, int64_t *__restrict__ out_count,
                               unsigned long long *error_word) {
  if (n > 0 && step == 0) {
    if (blockIdx.x == 0 && threadIdx.x == 0) jgk_fail(error_word, 0, JGK_LIST_SLICE_ZERO_STEP);
    return;
  }
  JGK_FOR(i, n) {
    const int64_t c = count[i];
    if (c < 0) {
      jgk_fail(error_word, i, JGK_LIST_SLICE_BAD_COUNT);
      continue;
    }
    int64_t s = 0;
    const int64_t k = jgk_list_slice_one(c, start, stop, step, has_start, has_stop, &s);
    out_start[i] = k > 0 ? (int64_t)((uint64_t)first[i] + (uint64_t)s) : first[i];
    out_count[i] = k;
  }
}
