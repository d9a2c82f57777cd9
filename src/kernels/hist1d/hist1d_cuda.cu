/* hist1d_cuda.cu: CUDA implementation of kernel "hist1d" (hist1d.json; layout of counts and
 * sumw2 in hist1d_cpu.c).
 *
 * Each block counts into a private copy of the histogram in shared memory (when use_shared is
 * set and the launch gave it (n_bins + 2) * 2 doubles of dynamic shared memory; with less it
 * falls back to global atomics, so a wrong launch is slow, never wrong), then adds its
 * copy to the global arrays with one atomicAdd per bin: contention on popular bins stays inside
 * the block. Unweighted, the lanes of a warp that fall in one bin are counted together
 * (__match_any_sync): one shared atomic per distinct bin and warp. Without use_shared every
 * value goes to global memory with atomicAdd. Unweighted counts are sums of integers, exact in
 * any order, so host and GPU agree bit for bit; weighted sums depend on the order of
 * additions. The entry and NaN counters are accumulated per thread and
 * added once per thread. */

__device__ inline int64_t jgk_hist1d_slot(double v, int64_t n_bins, double lo, double hi,
                                          double w) {
  if (v != v) return -1;
  if (v < lo) return 0;
  if (v >= hi) return n_bins + 1;
  int64_t k = (int64_t)floor(__ddiv_rn(__dsub_rn(v, lo), w));
  if (k >= n_bins) k = n_bins - 1;
  if (k < 0) k = 0;
  return k + 1;
}

template <typename T, typename W>
__global__ void jgk_hist1d(int64_t n, const T *values, int64_t nw, const W *weights,
                           int64_t n_bins, double lo, double hi, int64_t use_shared,
                           double *counts, double *sumw2, unsigned long long *error_word) {
  /* As the host: the bin width must be finite and positive too (hi - lo may overflow to inf,
   * (hi - lo) / n_bins underflow to 0). */
  const double w0 = n_bins < 1 ? 0.0 : __ddiv_rn(__dsub_rn(hi, lo), (double)n_bins);
  if (n_bins < 1 || !(lo < hi) || !isfinite(lo) || !isfinite(hi) || !isfinite(w0) ||
      !(w0 > 0.0)) {
    if (blockIdx.x == 0 && threadIdx.x == 0) jgk_fail(error_word, n_bins, JGK_HIST1D_BAD_AXIS);
    return;
  }
  if (nw > 0 && nw < n) {
    if (blockIdx.x == 0 && threadIdx.x == 0) jgk_fail(error_word, nw, JGK_HIST1D_WEIGHTS_SHORT);
    return;
  }
  extern __shared__ double jgk_hist1d_shared[];
  const int64_t slots = n_bins + 2;
  double *c = counts, *c2 = sumw2;
  unsigned int smem = 0; /* dynamic shared memory the launch gave, in bytes */
  asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(smem));
  if (use_shared && (uint64_t)smem < (uint64_t)(2 * slots) * sizeof(double)) use_shared = 0;
  if (use_shared) {
    c = jgk_hist1d_shared;
    c2 = jgk_hist1d_shared + slots;
    for (int64_t s = threadIdx.x; s < 2 * slots; s += blockDim.x) jgk_hist1d_shared[s] = 0.0;
    __syncthreads();
  }
  const double w = __ddiv_rn(__dsub_rn(hi, lo), (double)n_bins);
  double entries = 0.0, nans = 0.0;
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  JGK_FOR(i, n) {
    const int64_t s = jgk_hist1d_slot((double)values[i], n_bins, lo, hi, w);
    if (s < 0) {
      nans += 1.0;
      continue;
    }
    if (nw == 0) {
      /* The lanes of the warp that fall in the same slot add their count once, from the lowest
       * of them: a popular bin (MET at low values) takes one atomic per warp, not 32. */
      const unsigned peers = __match_any_sync(__activemask(), (long long)s);
      if (lane == (unsigned)(__ffs(peers) - 1)) {
        const double k = (double)__popc(peers);
        atomicAdd(c + s, k);
        atomicAdd(c2 + s, k);
      }
      entries += 1.0;
      continue;
    }
    const double wt = (double)weights[i];
    atomicAdd(c + s, wt);
    atomicAdd(c2 + s, __dmul_rn(wt, wt));
    entries += 1.0;
  }
  if (entries != 0.0) atomicAdd(counts + n_bins + 2, entries);
  if (nans != 0.0) atomicAdd(counts + n_bins + 3, nans);
  if (use_shared) {
    __syncthreads();
    for (int64_t s = threadIdx.x; s < slots; s += blockDim.x) {
      if (c[s] != 0.0) atomicAdd(counts + s, c[s]);
      if (c2[s] != 0.0) atomicAdd(sumw2 + s, c2[s]);
    }
  }
}
