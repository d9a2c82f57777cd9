/* mask_flags_cuda.cu: CUDA implementation of kernel "mask_flags" (mask_flags.json): one thread
 * per entry, the host's expression; a bad position goes to the error word (smallest wins). */
__global__ void jgk_mask_flags(int64_t n, int64_t m, const bool *__restrict__ mask,
                               int64_t identity, const int64_t *__restrict__ mpos,
                               const int64_t *__restrict__ apos, int64_t valid_mode,
                               const int8_t *__restrict__ valid, int64_t *__restrict__ out_keep,
                               int64_t *__restrict__ out_index, unsigned long long *error_word) {
  JGK_FOR(i, n) {
    const int64_t q = identity ? i : mpos[i];
    if (q < 0 || q >= m) {
      jgk_fail(error_word, i, JGK_MASK_FLAGS_BAD_POSITION);
      continue;
    }
    const bool ok = valid_mode == 0 || (valid[q] != 0) == (valid_mode == 1);
    out_keep[i] = (!ok || ((const unsigned char *)mask)[q] != 0) ? 1 : 0;
    out_index[i] = ok ? (identity ? i : apos[i]) : -1;
  }
}
