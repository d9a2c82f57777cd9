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
 * Mode 2 (one value per list): a block takes a tile of JGK_UFL_TILE consecutive lists and loads
 * their JGK_UFL_TILE + 1 offsets and their values v into shared memory in one round of loads:
 * with 256 threads and a whole tile (all its values present), each thread first loads its 4
 * offsets and 4 values into registers (thread 0 also the tile's last offset) and only then
 * stores them, so that all its loads are in flight together (a shared store right after its load
 * waits for it, a memory latency per load; x * w 0.640 -> 0.473 ms at 50 M lists on the H200,
 * BENCHMARKS.md "Sixth session of issue 5"); other block sizes and the last, partial tile take
 * coalesced loops. Each thread then checks its lists; in the usual short tile (at most JGK_UFL_IDS
 * elements) each good list's thread also writes the list's tile-local number at its elements'
 * places in shared memory (lid), so that an element finds its list with one shared load, and
 * one barrier (which also tells whether any list was bad) separates this from the walk. When
 * the tile has no bad list, the block walks its element range [s[0], s[T]) together:
 *  - vector walk (T and R of 4 or 8 bytes, u and the result 16-byte aligned at the same element,
 *    a short tile): thread t takes 16-byte groups t, t + blockDim.x, ... of the range rounded out
 *    to whole vectors, JGK_UFL_VEC_ITEMS groups loaded before any is computed; a group's list
 *    numbers are one 8- (or 4-) byte shared load; the tile's first and last groups, which may
 *    hold elements of the neighbouring tiles, load and store their own elements one by one; all
 *    positions are 32-bit and tile-local;
 *  - element walk (any other case): chunks of JGK_UFL_ITEMS * blockDim.x elements, thread t first
 *    loading its elements t, t + blockDim.x, ... (coalesced, all in flight at once), each
 *    element's list from lid, or in a long tile by a binary search in the shared offsets ("the
 *    last list that starts at or before j" skips empty lists; a very long list is walked by the
 *    whole block).
 * So a tile costs two rounds of memory latency for a few thousand elements and a few
 * instructions per element. A tile with a bad list writes its good lists one thread per list,
 * as the host does, and lowers info[2] (atomic minimum over the unsigned word: the smallest bad
 * list). Nothing but u, v, offsets and out is touched per element: no parents or index arrays.
 * The op launches one block of 256 per tile; any grid is correct. */

/* At most 40 registers a thread (__maxnreg__: 6 blocks of 256 per SM; no __launch_bounds__, so
 * that 1024-thread blocks still launch); a macro, so that the catalog's signature check finds
 * the kernel name right after `void`. */
#define JGK_UFL_BOUNDS __maxnreg__(40)
/* Lists per tile and elements per thread per chunk of mode 2. */
#define JGK_UFL_TILE 1024
#define JGK_UFL_ITEMS 4
/* 16-byte vectors per thread per chunk of mode 2 (the vector path). */
#define JGK_UFL_VEC_ITEMS 2
/* Most elements of a tile whose list numbers are kept in shared memory (else a binary search). */
#define JGK_UFL_IDS 4096

/* A 16-byte vector of V elements of T (mode 2's vector walk). */
template <typename T, int V>
union jgk_ufl_vec {
  uint4 q;
  T e[V];
};

/* Mode 2's vector walk: loads groups g = g0 + r bs (r < N, g < ng) of the tile into a[r]:
 * elements ub[V g .. V g + V - 1], whole when inside [k0, k1), else one by one those inside
 * (the others 0). */
template <typename T, int V, int N>
__device__ inline void jgk_ufl_load(jgk_ufl_vec<T, V> *a, const T *__restrict__ ub, int g0, int bs,
                                    int ng, int k0, int k1) {
#pragma unroll
  for (int r = 0; r < N; ++r) {
    const int g = g0 + r * bs, k = g * V;
    if (g < ng) {
      if (k >= k0 && k + V <= k1) {
        a[r].q = *(const uint4 *)(const void *)(ub + k);
      } else {
#pragma unroll
        for (int c = 0; c < V; ++c) a[r].e[c] = k + c >= k0 && k + c < k1 ? ub[k + c] : (T)0;
      }
    }
  }
}

/* Mode 2's vector walk, one group g loaded into a (elements ub[V g .. V g + V - 1], those in
 * [k0, k1) valid): stores f(u, v[list]) (swapped: f(v[list], u)) for its elements in [k0, k1);
 * the group's list numbers are one 8- (V = 4) or 4-byte (V = 2) shared load from lid, its
 * values from sv. */
template <typename T, typename R, int V>
__device__ __forceinline__ void jgk_ufl_put(const jgk_ufl_vec<T, V> &a, int g, int64_t f, bool sw,
                                            R *__restrict__ ob, const unsigned short *lid,
                                            const T *sv, int k0, int k1) {
  const int k = g * V;
  unsigned short id[V];
  if constexpr (V == 4) {
    const uint2 p = ((const uint2 *)(const void *)lid)[g];
    id[0] = (unsigned short)(p.x & 0xffffu);
    id[1] = (unsigned short)(p.x >> 16);
    id[2] = (unsigned short)(p.y & 0xffffu);
    id[3] = (unsigned short)(p.y >> 16);
  } else {
    const unsigned p = ((const unsigned *)(const void *)lid)[g];
    id[0] = (unsigned short)(p & 0xffffu);
    id[1] = (unsigned short)(p >> 16);
  }
  if (k >= k0 && k + V <= k1) {
    union {
      uint4 q;
      R e[V];
    } o;
#pragma unroll
    for (int c = 0; c < V; ++c) {
      const T w = sv[id[c]];
      o.e[c] = sw ? jgk_ufunc_simple<T, R>(f, w, a.e[c]) : jgk_ufunc_simple<T, R>(f, a.e[c], w);
    }
    *(uint4 *)(void *)(ob + k) = o.q;
  } else {
#pragma unroll
    for (int c = 0; c < V; ++c) {
      if (k + c < k0 || k + c >= k1) continue;
      const T w = sv[id[c]];
      ob[k + c] = sw ? jgk_ufunc_simple<T, R>(f, w, a.e[c]) : jgk_ufunc_simple<T, R>(f, a.e[c], w);
    }
  }
}

/* Mode 2's vector walk of one short tile: thread t takes groups t, t + blockDim.x, ... of the
 * ng groups, JGK_UFL_VEC_ITEMS loaded before any is computed, and stores f(u, v[list])
 * (jgk_ufl_put) for the elements in [k0, k1). OP is the function when nonzero (1..4, fixed at
 * compile time), else `op`. */
template <typename T, typename R, int V, int OP>
__device__ inline void jgk_ufl_walk(int64_t op, bool sw, const T *__restrict__ ub,
                                    R *__restrict__ ob, const unsigned short *lid, const T *sv,
                                    int ng, int k0, int k1) {
  if constexpr (V > 1) { /* never called with V = 1 (no vector path) */
    const int64_t f = OP != 0 ? (int64_t)OP : op;
    const int bs = (int)blockDim.x;
    for (int g0 = (int)threadIdx.x; g0 < ng; g0 += bs * JGK_UFL_VEC_ITEMS) {
      jgk_ufl_vec<T, V> a[JGK_UFL_VEC_ITEMS];
      jgk_ufl_load<T, V, JGK_UFL_VEC_ITEMS>(a, ub, g0, bs, ng, k0, k1);
#pragma unroll
      for (int r = 0; r < JGK_UFL_VEC_ITEMS; ++r) {
        const int g = g0 + r * bs;
        if (g >= ng) continue;
        jgk_ufl_put<T, R, V>(a[r], g, f, sw, ob, lid, sv, k0, k1);
      }
    }
  }
}

/* Mode 2 of the kernel below (inlined into it: one register budget with the dense modes). */
template <typename T, typename R>
__device__ __forceinline__ void jgk_ufl_lists(int64_t n, int64_t op, bool sw, int64_t nu,
                                              const T *__restrict__ u, int64_t nv,
                                              const T *__restrict__ v, int64_t nl,
                                              const int64_t *__restrict__ offsets, int64_t ninfo,
                                              int64_t *__restrict__ info, R *__restrict__ out) {
  /* V elements of T make one 16-byte vector (1: no vector path for this T and R). */
  constexpr int V =
      sizeof(T) == sizeof(R) && (sizeof(T) == 4 || sizeof(T) == 8) ? (int)(16 / sizeof(T)) : 1;
  __shared__ int64_t so[JGK_UFL_TILE + 1];
  __shared__ T sv[JGK_UFL_TILE];
  __shared__ __align__(16) unsigned short lid[JGK_UFL_IDS];
  const int64_t lo = offsets[0];
  /* Element j of u and result position j - lo sit on 16-byte boundaries together (uniform). */
  const bool vec = V > 1 && (unsigned long long)(const void *)u % 16 == 0 &&
                   ((unsigned long long)(const void *)out -
                    (unsigned long long)lo * (unsigned long long)sizeof(R)) % 16 == 0;
  const int bs = (int)blockDim.x, tid = (int)threadIdx.x;
  for (int64_t t0 = (int64_t)blockIdx.x * JGK_UFL_TILE; t0 < nl;
       t0 += (int64_t)JGK_UFL_TILE * gridDim.x) {
    const int tl = nl - t0 < JGK_UFL_TILE ? (int)(nl - t0) : JGK_UFL_TILE;
    /* A whole tile (all its values present) and 256 threads: a thread's 4 offsets and 4 values
     * in registers, all loads issued (unpredicated) before the first shared store waits for one;
     * thread 0 also takes the tile's last offset. The leading `true &&` and the two tests of
     * b256 are the measured version's code: the bare condition, or one if with the stores
     * inside, make ptxas allocate otherwise (float32: 12 -> 68 bytes of spill stores). */
    const bool b256 = true && bs == 256 && tl == JGK_UFL_TILE && t0 + JGK_UFL_TILE <= nv;
    int64_t ro[4], rl = 0;
    T rv[4];
    if (b256) {
#pragma unroll
      for (int r = 0; r < 4; ++r) {
        ro[r] = offsets[t0 + tid + r * 256];
        rv[r] = v[t0 + tid + r * 256];
      }
      if (tid == 0) rl = offsets[t0 + JGK_UFL_TILE];
    } else {
      for (int q = tid; q <= tl; q += bs) so[q] = offsets[t0 + q];
      for (int q = tid; q < tl; q += bs) sv[q] = t0 + q < nv ? v[t0 + q] : (T)0;
    }
    if (b256) {
#pragma unroll
      for (int r = 0; r < 4; ++r) {
        so[tid + r * 256] = ro[r];
        sv[tid + r * 256] = rv[r];
      }
      if (tid == 0) so[JGK_UFL_TILE] = rl;
    }
    __syncthreads();
    const int64_t e0 = so[0], e1 = so[tl];
    /* The tile's range checked once: with it, a list is good when its stop is not below its
     * start (the offsets are then nondecreasing across the tile, inside [e0, e1]). */
    const bool tile_ok = e0 >= lo && e0 >= 0 && e1 >= e0 && e1 <= nu &&
                         (uint64_t)e1 - (uint64_t)lo <= (uint64_t)n && t0 + tl <= nv;
    /* List numbers are kept for elements [base, e1), base = e0 rounded down to a vector. */
    const int64_t base = vec ? e0 - (int64_t)((uint64_t)e0 % (uint64_t)V) : e0;
    const bool ids = tile_ok && e1 - base <= JGK_UFL_IDS;
    const bool fast = vec && ids;
    /* Tile-local 32-bit positions of the vector walk: element base + k is ub[k], goes to ob[k]. */
    const int k0 = fast ? (int)(e0 - base) : 0, k1 = fast ? (int)(e1 - base) : 0;
    const int ng = (k1 + V - 1) / V;
    const T *ub = u + (fast ? base : 0);
    bool bad = !tile_ok;
    for (int q = tid; q < tl; q += bs) {
      const int64_t s = so[q], e = so[q + 1];
      if (e < s) {
        bad = true;
      } else if (ids && s >= e0 && e <= e1) {
        /* Short tiles (the usual case): the list's number at each of its elements, so that an
         * element finds its list with one shared load. */
        for (int k = (int)(s - base); k < (int)(e - base); ++k) lid[k] = (unsigned short)q;
      }
    }
    if (!__syncthreads_or(bad)) {
      if (fast) {
        /* The function fixed at compile time for the four arithmetic ones (no switch per
         * element). */
        R *ob = out + (base - lo);
        switch (op) {
          case 1: jgk_ufl_walk<T, R, V, 1>(op, sw, ub, ob, lid, sv, ng, k0, k1); break;
          case 2: jgk_ufl_walk<T, R, V, 2>(op, sw, ub, ob, lid, sv, ng, k0, k1); break;
          case 3: jgk_ufl_walk<T, R, V, 3>(op, sw, ub, ob, lid, sv, ng, k0, k1); break;
          case 4: jgk_ufl_walk<T, R, V, 4>(op, sw, ub, ob, lid, sv, ng, k0, k1); break;
          default: jgk_ufl_walk<T, R, V, 0>(op, sw, ub, ob, lid, sv, ng, k0, k1); break;
        }
      } else {
        for (int64_t c0 = e0 + tid; c0 < e1; c0 += (int64_t)bs * JGK_UFL_ITEMS) {
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
              int q = 0;
              if (ids) {
                q = lid[j - base];
              } else {
                int len = tl;
                while (len > 1) {
                  const int half = len >> 1;
                  if (so[q + half] <= j) q += half;
                  len -= half;
                }
              }
              const T w = sv[q];
              out[j - lo] = sw ? jgk_ufunc_simple<T, R>(op, w, a[r])
                               : jgk_ufunc_simple<T, R>(op, a[r], w);
            }
          }
        }
      }
    } else {
      for (int q = tid; q < tl; q += bs) {
        const int64_t i = t0 + q, s = so[q], e = so[q + 1];
        if (s < lo || e < s || s < 0 || e > nu || (uint64_t)e - (uint64_t)lo > (uint64_t)n ||
            i >= nv) {
          if (ninfo >= 3) atomicMin((unsigned long long *)(info + 2), (unsigned long long)i);
          continue;
        }
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
  jgk_ufl_lists<T, R>(n, op, sw, nu, u, nv, v, nl, offsets, ninfo, info, out);
}
