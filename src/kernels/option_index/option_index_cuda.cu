/* option_index_cuda.cu: CUDA implementation of kernel "option_index" (option_index.json). One
 * thread per entry, grid-stride; the same predicate as the host reference, entry by entry, so the
 * outputs are identical. Loads of the mask and stores of out and flags are coalesced (a bit mask
 * byte is shared by 8 neighbouring threads: one broadcast load). An index at or past the
 * content's m entries goes to the error word (the smallest position wins) and writes -1. */
template <typename M>
__global__ void jgk_option_index(int64_t n, int64_t kind, int64_t valid_when, int64_t bit_offset,
                                 int64_t shift, int64_t negate, int64_t m,
                                 const M *__restrict__ mask, int64_t *__restrict__ out,
                                 bool *__restrict__ flags, unsigned long long *error_word) {
  JGK_FOR(i, n) {
    bool valid = false;
    int64_t pos = i;
    if (kind == 0) {
      valid = ((int64_t)(mask[i] != 0)) == (valid_when != 0);
    } else if (kind == 1 || kind == 2) {
      const int64_t b = bit_offset + i;
      const unsigned byte = (unsigned)(uint8_t)mask[b >> 3];
      const int sh = kind == 1 ? (int)(b & 7) : 7 - (int)(b & 7);
      valid = ((int64_t)((byte >> sh) & 1u)) == (valid_when != 0);
    } else if (kind == 3) {
      pos = (int64_t)mask[i];
      valid = pos >= 0;
      if (pos >= m) {
        jgk_fail(error_word, i, JGK_OPTION_INDEX_BAD_INDEX);
        valid = false;
      }
    } else if (kind == 4) {
      valid = true;
    }
    out[i] = valid ? pos + shift : -1;
    flags[i] = negate != 0 ? valid : !valid;
  }
}
