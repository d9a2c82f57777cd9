/* list_parents_cuda.cu: CUDA implementation of kernel "list_parents" (list_parents.json).
 *
 * Tiles of lists: a block takes blockDim.x consecutive lists, loads their blockDim.x + 1 offsets
 * into shared memory (coalesced, read once), each thread checks its own list with the host's
 * predicate (a bad list goes to jgk_fail, whose atomic minimum keeps the smallest, where the
 * host loop stops), and when the tile has no bad list the block walks the tile's elements
 * together (thread t takes elements t, t + blockDim.x, ...: coalesced int64 writes), finding each
 * element's list by a binary search in the shared offsets ("the last list that starts at or
 * before j" skips empty lists; a very long list is walked by the whole block). A tile with a bad
 * list writes nothing (out is unspecified on error). Writes stay inside out[0, m) because every
 * list of a written tile passed the check. */

/* At most 64 registers a thread (1024 threads a block must still launch); a macro, so that the
 * catalog's signature check finds the kernel name right after `void`. */
#define JGK_LP_BOUNDS __launch_bounds__(1024, 1)
#define JGK_LP_MAX_BLOCK 1024

template <typename I>
__global__ void JGK_LP_BOUNDS jgk_list_parents(int64_t n, int64_t m,
                                                        const I *__restrict__ offsets,
                                                        int64_t *__restrict__ out,
                                                        unsigned long long *error_word) {
  if (n <= 0) return;
  __shared__ int64_t so[JGK_LP_MAX_BLOCK + 1];
  const int64_t base = (int64_t)offsets[0];
  const int bs = (int)blockDim.x;
  for (int64_t t0 = (int64_t)blockIdx.x * bs; t0 < n; t0 += (int64_t)bs * gridDim.x) {
    const int tl = n - t0 < bs ? (int)(n - t0) : bs;
    for (int q = (int)threadIdx.x; q <= tl; q += bs) so[q] = (int64_t)offsets[t0 + q];
    __syncthreads();
    bool bad = false;
    if ((int)threadIdx.x < tl) {
      const int64_t a = so[threadIdx.x], b = so[threadIdx.x + 1];
      bad = !(base <= a && a <= b && m >= 0 && (uint64_t)b - (uint64_t)base <= (uint64_t)m);
      if (bad) jgk_fail(error_word, t0 + threadIdx.x, JGK_LIST_PARENTS_BAD_OFFSETS);
    }
    if (!__syncthreads_or(bad)) {
      const int64_t e1 = so[tl];
      for (int64_t j = so[0] + threadIdx.x; j < e1; j += bs) {
        int q = 0, len = tl;
        while (len > 1) {
          const int half = len >> 1;
          if (so[q + half] <= j) q += half;
          len -= half;
        }
        out[j - base] = t0 + q;
      }
    }
    __syncthreads();
  }
}
