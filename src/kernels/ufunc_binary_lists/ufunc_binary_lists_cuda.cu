/* ufunc_binary_lists_cuda.cu: CUDA implementation of kernel "ufunc_binary_lists"
 * (ufunc_binary_lists.json), the semantics of its host side (ufunc_binary_lists_cpu.c) with the
 * simple functions of jgk_common.cuh (jgk_ufunc_simple: ufunc_binary's expressions).
 *
 * Modes 0 and 1 (dense): jgk_ufs_dense: 16-byte vectors (two a grid apart per thread, loaded
 * before any is computed) when the pointers are aligned and T and R have one size, else a
 * grid-stride loop of JGK_UFS_UNROLL independent coalesced loads per thread; the function's
 * switch is uniform across the grid. The op launches ceil(n / 2048) blocks of 256; any grid is
 * correct.
 *
 * Mode 2 (one value per list): a block takes a tile of JGK_UFL_TILE consecutive lists, loads
 * their JGK_UFL_TILE + 1 offsets and their values v into shared memory (coalesced, one round of
 * loads), each thread checks its lists, and when the tile has no bad list the block walks the
 * tile's element range [s[0], s[T]) together in chunks of JGK_UFL_ITEMS * blockDim.x elements:
 * thread t first loads its JGK_UFL_ITEMS elements t, t + blockDim.x, ... of the chunk (coalesced,
 * all in flight at once), then finds each element's list by a binary search in the shared
 * offsets (empty lists are skipped by "the last list that starts at or before j"; a very long
 * list is walked by the whole block) and stores f(u[j], v[list]) (coalesced). So a tile costs
 * two rounds of memory latency for a few thousand elements. A tile with a bad list writes its
 * good lists one thread per list, as the host does, and lowers info[2] (atomic minimum over the
 * unsigned word: the smallest bad list). Nothing but u, v, offsets and out is touched per
 * element: no parents or index arrays. */

/* At most 64 registers a thread (1024 threads a block must still launch); a macro, so that the
 * catalog's signature check finds the kernel name right after `void`. */
#define JGK_UFL_BOUNDS __launch_bounds__(1024, 1)
/* Lists per tile and elements per thread per chunk of mode 2. */
#define JGK_UFL_TILE 1024
#define JGK_UFL_ITEMS 4

template <typename T, typename R>
__global__ void JGK_UFL_BOUNDS jgk_ufunc_binary_lists(
    int64_t n, int64_t op, int64_t swap, int64_t nu, const T *__restrict__ u, int64_t vmode,
    int64_t nv, const T *__restrict__ v, double vf, int64_t vi, int64_t nl,
    const int64_t *__restrict__ offsets, int64_t ninfo, int64_t *__restrict__ info,
    R *__restrict__ out) {
  if (nl >= 0 && ninfo >= 2 && blockIdx.x == 0 && threadIdx.x == 0) {
    info[0] = offsets[0];
    info[1] = offsets[nl];
  }
  const bool sw = swap != 0;
  if (vmode == 0 || vmode == 1) {
    int64_t count = n < nu ? n : nu;
    if (vmode == 0 && nv < count) count = nv;
    const T s = jgk_ufs_scalar<T>(vf, vi);
    jgk_ufs_dense<T, R>(count, op, sw, u, vmode == 0 ? v : (const T *)0, s, out);
    return;
  }
  if (vmode != 2 || nl <= 0) return;
  __shared__ int64_t so[JGK_UFL_TILE + 1];
  __shared__ T sv[JGK_UFL_TILE];
  const int64_t lo = offsets[0];
  const int bs = (int)blockDim.x, tid = (int)threadIdx.x;
  for (int64_t t0 = (int64_t)blockIdx.x * JGK_UFL_TILE; t0 < nl;
       t0 += (int64_t)JGK_UFL_TILE * gridDim.x) {
    const int tl = nl - t0 < JGK_UFL_TILE ? (int)(nl - t0) : JGK_UFL_TILE;
    for (int q = tid; q <= tl; q += bs) so[q] = offsets[t0 + q];
    for (int q = tid; q < tl; q += bs) sv[q] = t0 + q < nv ? v[t0 + q] : (T)0;
    __syncthreads();
    bool bad = false;
    for (int q = tid; q < tl; q += bs) {
      const int64_t i = t0 + q, s = so[q], e = so[q + 1];
      if (s < lo || e < s || s < 0 || e > nu || (uint64_t)e - (uint64_t)lo > (uint64_t)n ||
          i >= nv) {
        bad = true;
        if (ninfo >= 3) atomicMin((unsigned long long *)(info + 2), (unsigned long long)i);
      }
    }
    if (!__syncthreads_or(bad)) {
      const int64_t e1 = so[tl];
      for (int64_t c0 = so[0] + tid; c0 < e1; c0 += (int64_t)bs * JGK_UFL_ITEMS) {
        T a[JGK_UFL_ITEMS];
#pragma unroll
        for (int r = 0; r < JGK_UFL_ITEMS; ++r) {
          const int64_t j = c0 + (int64_t)r * bs;
          a[r] = j < e1 ? u[j] : (T)0;
        }
#pragma unroll
        for (int r = 0; r < JGK_UFL_ITEMS; ++r) {
          const int64_t j = c0 + (int64_t)r * bs;
          if (j < e1) {
            int q = 0, len = tl;
            while (len > 1) {
              const int half = len >> 1;
              if (so[q + half] <= j) q += half;
              len -= half;
            }
            const T w = sv[q];
            out[j - lo] = sw ? jgk_ufunc_simple<T, R>(op, w, a[r])
                             : jgk_ufunc_simple<T, R>(op, a[r], w);
          }
        }
      }
    } else {
      for (int q = tid; q < tl; q += bs) {
        const int64_t i = t0 + q, s = so[q], e = so[q + 1];
        if (s < lo || e < s || s < 0 || e > nu || (uint64_t)e - (uint64_t)lo > (uint64_t)n ||
            i >= nv)
          continue;
        const T w = sv[q];
        for (int64_t j = s; j < e; ++j) {
          const T a = u[j];
          out[j - lo] = sw ? jgk_ufunc_simple<T, R>(op, w, a) : jgk_ufunc_simple<T, R>(op, a, w);
        }
      }
    }
    __syncthreads();
  }
}
