/* reduce_axis_lengths_cuda.cu: CUDA implementation of kernel "reduce_axis_lengths"
 * (reduce_axis_lengths.json). One thread per slot, looping over its contributors in order (a
 * slot merges the lists of one group: few for a middle axis, every list of the array for axis
 * 0); bad lists go to the error word, whose atomic minimum keeps the smallest, as the host. */
template <typename I>
__global__ void jgk_reduce_axis_lengths(int64_t n, const int64_t *__restrict__ slot_offsets, int64_t total,
                                        const int64_t *__restrict__ contrib, int64_t nlists,
                                        const I *__restrict__ starts, const I *__restrict__ stops,
                                        int64_t m, int64_t *__restrict__ out,
                                        unsigned long long *error_word) {
  JGK_FOR(s, n) {
    const int64_t a = slot_offsets[s], b = slot_offsets[s + 1];
    int64_t most = 0;
    if (a >= 0 && a <= b && b <= total) {
      for (int64_t r = a; r < b; ++r) {
        const int64_t q = contrib[r];
        if (q < 0 || q >= nlists) continue;
        const int64_t x = (int64_t)starts[q], y = (int64_t)stops[q];
        if (jgk_list_bad(x, y, m)) {
          jgk_fail(error_word, q, JGK_REDUCE_AXIS_LENGTHS_BAD_RANGE);
          continue;
        }
        if (y - x > most) most = y - x;
      }
    }
    out[s] = most;
  }
}
