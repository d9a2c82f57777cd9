/* list_range_cuda.cu: CUDA implementation of kernel "list_range" (list_range.json): one thread
 * per entry, grid-stride, with the host's predicate; a bad entry goes to the error word
 * (jgk_fail keeps the smallest, the one the host loop stops at). carry, gate and the outputs are
 * coalesced; starts, stops and mask are gathers at p. */
template <typename I, typename C>
__global__ void jgk_list_range(int64_t n, int64_t nlists, int64_t m, int64_t regular_size,
                               const I *__restrict__ starts, const I *__restrict__ stops,
                               int64_t use_carry, const C *__restrict__ carry,
                               int64_t mask_mode, const int8_t *__restrict__ mask,
                               int64_t use_gate, const bool *__restrict__ gate,
                               int64_t *__restrict__ out_start, int64_t *__restrict__ out_count,
                               bool *__restrict__ out_valid, unsigned long long *error_word) {
  JGK_FOR(i, n) {
    const int64_t p = use_carry ? (int64_t)carry[i] : i;
    bool valid = !(use_carry && p < 0);
    if (valid && p >= nlists) {
      jgk_fail(error_word, i, JGK_LIST_RANGE_BAD_CARRY);
      continue;
    }
    if (valid && mask_mode != 0) valid = (mask[p] != 0) == (mask_mode == 1);
    if (valid && use_gate) valid = gate[i];
    int64_t s = 0, e = 0;
    if (valid) {
      if (regular_size >= 0) {
        s = p * regular_size;
        e = s + regular_size;
      } else {
        s = (int64_t)starts[p];
        e = (int64_t)stops[p];
      }
      if (e < s || (s < e && (s < 0 || e > m))) {
        jgk_fail(error_word, i, JGK_LIST_RANGE_BAD_LIST);
        continue;
      }
    }
    out_start[i] = s;
    out_count[i] = e - s;
    out_valid[i] = valid;
  }
}
