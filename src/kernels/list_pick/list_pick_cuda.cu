/* list_pick_cuda.cu: CUDA implementation of kernel "list_pick" (list_pick.json): one thread per
 * list, the host's expression. */
__global__ void jgk_list_pick(int64_t n, const int64_t *__restrict__ first,
                              const int64_t *__restrict__ count, const bool *__restrict__ valid,
                              int64_t last, int64_t fallback, int64_t *__restrict__ out_pos,
                              bool *__restrict__ out_valid) {
  JGK_FOR(i, n) {
    const bool ok = valid[i] && count[i] > 0;
    out_pos[i] = !ok ? fallback
                     : last ? (int64_t)((uint64_t)first[i] + (uint64_t)count[i] - 1u) : first[i];
    out_valid[i] = ok;
  }
}
