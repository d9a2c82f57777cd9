/* jgk_common.cuh: what every CUDA kernel of the catalog may use. Compiled by nvcc (through the
 * generated <name>_cuda_gen.cu) and by NVRTC (jg_catalog_compile_all, with this file given as an
 * in-memory header), so it includes nothing NVRTC cannot see. */
#ifndef JGK_COMMON_CUH
#define JGK_COMMON_CUH

#ifdef __CUDACC_RTC__
/* NVRTC has no C library headers: the fixed-width types of an LP64 host. */
typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef long int64_t;
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned long uint64_t;
#else
#include <stdint.h>
#endif

/** Grid-stride loop over i in [0, n): correct for any grid, so a launch can cap its grid. */
#define JGK_FOR(i, n)                                                                 \
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < (int64_t)(n); \
       i += (int64_t)blockDim.x * gridDim.x)

/** Reports data error `code` (a JGK_<NAME>_<ID> constant) at element `index` (>= 0) into the
 *  call's error word: the smallest index wins, as on the host, whose loop stops at the first. */
__device__ inline void jgk_fail(unsigned long long *error_word, int64_t index, int code) {
  atomicMin(error_word, ((unsigned long long)index << 8) | (unsigned long long)(code & 0xff));
}

/* ------------------------------------------------------- one warp per item (reductions) */

/** The calling thread's warp, for kernels that give each item (a list) to one warp: its lanes
 *  stride through the item, a shuffle reduction combines them, lane 0 writes. Correct for any
 *  block size: a block of 50 threads has one warp of 32 lanes and one of 18 (`width`), and the
 *  shuffles name only the lanes that exist (`mask`). */
struct jgk_warp {
  int lane;      /**< 0..width-1 */
  int width;     /**< lanes of this warp that exist: 32, or fewer in a block's last warp */
  unsigned mask; /**< bit l set for every existing lane l */
  int64_t id;    /**< the warp's number in the grid */
  int64_t count; /**< warps in the grid */
};

__device__ inline jgk_warp jgk_warp_self() {
  jgk_warp w;
  const int per_block = ((int)blockDim.x + 31) / 32;
  const int in_block = (int)threadIdx.x / 32;
  const int left = (int)blockDim.x - in_block * 32;
  w.lane = (int)threadIdx.x % 32;
  w.width = left < 32 ? left : 32;
  w.mask = w.width == 32 ? 0xffffffffu : (1u << w.width) - 1u;
  w.id = (int64_t)blockIdx.x * per_block + in_block;
  w.count = (int64_t)gridDim.x * per_block;
  return w;
}

/** Grid-stride loop over items i in [0, n) by warps (every lane of a warp sees the same i, so
 *  the warp stays converged for the shuffles). */
#define JGK_FOR_WARP(i, n, w) for (int64_t i = (w).id; i < (int64_t)(n); i += (w).count)

/* __shfl_down_sync for every element type of the catalog (narrow ones through int). A reduction
 * over another type (a value with its position) provides its own overload, found by
 * argument-dependent lookup. */
__device__ inline bool jgk_shfl_down(unsigned mask, bool v, int d) {
  return __shfl_down_sync(mask, (int)v, d) != 0;
}
__device__ inline int8_t jgk_shfl_down(unsigned mask, int8_t v, int d) {
  return (int8_t)__shfl_down_sync(mask, (int)v, d);
}
__device__ inline int16_t jgk_shfl_down(unsigned mask, int16_t v, int d) {
  return (int16_t)__shfl_down_sync(mask, (int)v, d);
}
__device__ inline int32_t jgk_shfl_down(unsigned mask, int32_t v, int d) {
  return __shfl_down_sync(mask, v, d);
}
__device__ inline int64_t jgk_shfl_down(unsigned mask, int64_t v, int d) {
  return (int64_t)__shfl_down_sync(mask, (long long)v, d);
}
__device__ inline uint8_t jgk_shfl_down(unsigned mask, uint8_t v, int d) {
  return (uint8_t)__shfl_down_sync(mask, (unsigned)v, d);
}
__device__ inline uint16_t jgk_shfl_down(unsigned mask, uint16_t v, int d) {
  return (uint16_t)__shfl_down_sync(mask, (unsigned)v, d);
}
__device__ inline uint32_t jgk_shfl_down(unsigned mask, uint32_t v, int d) {
  return __shfl_down_sync(mask, v, d);
}
__device__ inline uint64_t jgk_shfl_down(unsigned mask, uint64_t v, int d) {
  return (uint64_t)__shfl_down_sync(mask, (unsigned long long)v, d);
}
__device__ inline float jgk_shfl_down(unsigned mask, float v, int d) {
  return __shfl_down_sync(mask, v, d);
}
__device__ inline double jgk_shfl_down(unsigned mask, double v, int d) {
  return __shfl_down_sync(mask, v, d);
}

/** Combines the `v` of every lane of warp `w` with `op` (a functor, V op(V a, V b)) and returns
 *  the result in lane 0 (other lanes get partial results). A tree: lane l takes lane l + d's
 *  value for d = 16, 8, 4, 2, 1, so op must be associative and commutative for the values at
 *  hand (a value-position pair that breaks ties by position is). Every lane of the warp must
 *  call it, with the same `op`. */
template <typename V, typename Op>
__device__ inline V jgk_warp_reduce(V v, const Op &op, const jgk_warp &w) {
  for (int d = 16; d > 0; d >>= 1) {
    const V other = jgk_shfl_down(w.mask, v, d);
    if (w.lane + d < w.width) v = op(v, other);
  }
  return v;
}

/** A list [start, stop) of a content of m elements is bad when stop < start, or when it is not
 *  empty and leaves [0, m): Awkward's rule (an empty list may start anywhere). The reduction
 *  kernels' BAD_RANGE, the same predicate as their host side. */
__device__ inline bool jgk_list_bad(int64_t start, int64_t stop, int64_t m) {
  return stop < start || (start < stop && (start < 0 || stop > m));
}

/** x is a NaN (false for every non-float type). */
template <typename T>
__device__ inline bool jgk_isnan(T) {
  return false;
}
template <>
__device__ inline bool jgk_isnan<float>(float x) {
  return x != x;
}
template <>
__device__ inline bool jgk_isnan<double>(double x) {
  return x != x;
}

/** The smallest and largest value of each element type: the identities of max and min
 *  (-inf and +inf for floats; false and true for bool). */
template <typename T>
struct jgk_limits;
#define JGK_LIMITS(T, LO, HI)                                  \
  template <>                                                  \
  struct jgk_limits<T> {                                       \
    __device__ static T lowest() { return LO; }                \
    __device__ static T highest() { return HI; }               \
  };
JGK_LIMITS(bool, false, true)
JGK_LIMITS(int8_t, (int8_t)-128, (int8_t)127)
JGK_LIMITS(int16_t, (int16_t)-32768, (int16_t)32767)
JGK_LIMITS(int32_t, (int32_t)(-2147483647 - 1), (int32_t)2147483647)
JGK_LIMITS(int64_t, (int64_t)(-9223372036854775807LL - 1), (int64_t)9223372036854775807LL)
JGK_LIMITS(uint8_t, (uint8_t)0, (uint8_t)255)
JGK_LIMITS(uint16_t, (uint16_t)0, (uint16_t)65535)
JGK_LIMITS(uint32_t, 0u, 4294967295u)
JGK_LIMITS(uint64_t, (uint64_t)0, (uint64_t)18446744073709551615ULL)
JGK_LIMITS(float, __int_as_float((int)0xff800000u), __int_as_float(0x7f800000))
JGK_LIMITS(double, __longlong_as_double((long long)0xfff0000000000000ULL),
           __longlong_as_double(0x7ff0000000000000LL))
#undef JGK_LIMITS

/* ======================================================================================== */
/* Appended for the ufuncs (issue 5 speed work; used by ufunc_binary, ufunc_binary_lists):   */
/* the simple binary functions and a dense loop with several loads in flight per thread.     */
/* ======================================================================================== */

/** Kinds of an element type at compile time: is_float (float, double), is_bool. */
template <typename T>
struct jgk_ufs_kind {
  static constexpr bool is_float = false;
  static constexpr bool is_bool = false;
};
template <>
struct jgk_ufs_kind<float> {
  static constexpr bool is_float = true;
  static constexpr bool is_bool = false;
};
template <>
struct jgk_ufs_kind<double> {
  static constexpr bool is_float = true;
  static constexpr bool is_bool = false;
};
template <>
struct jgk_ufs_kind<bool> {
  static constexpr bool is_float = false;
  static constexpr bool is_bool = true;
};

/** Whether jg_ufunc number `op` is one of the simple binary functions (cheap, no errors): add 1,
 *  subtract 2, multiply 3, true_divide 4, minimum 8, maximum 9, the comparisons 11..16, the
 *  logical functions 17..19 and the bitwise ones 20..22 (not floor_divide, remainder, power,
 *  arctan2). Whether it is defined for a variant is ufunc_binary's rule. */
__device__ inline bool jgk_ufunc_is_simple(int64_t op) {
  return (op >= 1 && op <= 4) || op == 8 || op == 9 || (op >= 11 && op <= 22);
}

/** f(a, b) for simple function `op` (jgk_ufunc_is_simple) defined for (T, R), with NumPy's
 *  semantics as ufunc_binary has them: integers wrap (through 64-bit unsigned arithmetic), bool
 *  add / multiply / minimum / maximum are or / and / and / or, minimum and maximum propagate a
 *  NaN of a, comparisons and logical functions give R = bool. Undefined ops give R(0). */
template <typename T, typename R>
__device__ inline R jgk_ufunc_simple(int64_t op, T a, T b) {
  constexpr bool fl = jgk_ufs_kind<T>::is_float;
  constexpr bool bo = jgk_ufs_kind<T>::is_bool;
  switch (op) {
    case 11: return (R)(a == b);
    case 12: return (R)(a != b);
    case 13: return (R)(a < b);
    case 14: return (R)(a <= b);
    case 15: return (R)(a > b);
    case 16: return (R)(a >= b);
    case 17: return (R)((a != 0) & (b != 0));
    case 18: return (R)((a != 0) | (b != 0));
    case 19: return (R)((a != 0) ^ (b != 0));
    default: break;
  }
  if constexpr (fl) {
    switch (op) {
      case 1: return (R)(a + b);
      case 2: return (R)(a - b);
      case 3: return (R)(a * b);
      case 4: return (R)(a / b);
      case 8: return (R)((a < b || a != a) ? a : b);
      case 9: return (R)((a > b || a != a) ? a : b);
      default: return (R)0;
    }
  } else if constexpr (bo) {
    switch (op) {
      case 1: case 9: case 21: return (R)(a | b);
      case 3: case 8: case 20: return (R)(a & b);
      case 22: return (R)(a ^ b);
      default: return (R)0;
    }
  } else {
    switch (op) {
      case 1: return (R)(T)((uint64_t)a + (uint64_t)b);
      case 2: return (R)(T)((uint64_t)a - (uint64_t)b);
      case 3: return (R)(T)((uint64_t)a * (uint64_t)b);
      case 8: return (R)(a < b ? a : b);
      case 9: return (R)(a > b ? a : b);
      case 20: return (R)(T)((uint64_t)a & (uint64_t)b);
      case 21: return (R)(T)((uint64_t)a | (uint64_t)b);
      case 22: return (R)(T)((uint64_t)a ^ (uint64_t)b);
      default: return (R)0;
    }
  }
}

/** A scalar passed by value as two kernel parameters: `vf` for a float T, else the bits `vi`
 *  (converted modulo 2^bits; bool: nonzero). */
template <typename T>
__device__ inline T jgk_ufs_scalar(double vf, int64_t vi) {
  if constexpr (jgk_ufs_kind<T>::is_float) {
    return (T)vf;
  } else if constexpr (jgk_ufs_kind<T>::is_bool) {
    return vi != 0;
  } else {
    return (T)(uint64_t)vi;
  }
}

/** Elements each thread of jgk_ufs_dense's scalar loop loads before computing (a grid apart). */
#define JGK_UFS_UNROLL 4
/** 16-byte vectors each thread of jgk_ufs_dense's vector loop loads before computing. */
#define JGK_UFS_VEC_UNROLL 2

/** out[k] = f(u[k], w_k) for k < count, w_k = v[k] (v non-NULL) or s; swapped: f(w_k, u[k]).
 *  When T and R have the same size and u, v and out are 16-byte aligned, each thread moves
 *  whole 16-byte vectors (16 / sizeof(T) elements; JGK_UFS_VEC_UNROLL of them a grid apart
 *  loaded before any is computed), so that enough bytes are in flight per SM to reach copy
 *  bandwidth; the remaining count % (16 / sizeof(T)) elements, and every other case, go
 *  through a grid-stride loop of JGK_UFS_UNROLL independent coalesced loads per thread.
 *  Correct for any grid; fastest with about count / (blockDim.x * 8) blocks. */
template <typename T, typename R>
__device__ inline void jgk_ufs_dense(int64_t count, int64_t op, bool swap,
                                     const T *__restrict__ u, const T *__restrict__ v, T s,
                                     R *__restrict__ out) {
  const int64_t stride = (int64_t)blockDim.x * gridDim.x;
  const int64_t tid = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  int64_t done = 0;
  if constexpr (sizeof(T) == sizeof(R) && 16 % sizeof(T) == 0) {
    const unsigned long long bits = (unsigned long long)(const void *)u |
                                    (unsigned long long)(const void *)v |
                                    (unsigned long long)(const void *)out;
    if (bits % 16 == 0) {
      constexpr int V = (int)(16 / sizeof(T));
      union vin {
        uint4 q;
        T e[V];
      };
      union vout {
        uint4 q;
        R e[V];
      };
      const int64_t nvec = count / V;
      const uint4 *u4 = (const uint4 *)(const void *)u;
      const uint4 *v4 = (const uint4 *)(const void *)v;
      uint4 *o4 = (uint4 *)(void *)out;
      for (int64_t k0 = tid; k0 < nvec; k0 += JGK_UFS_VEC_UNROLL * stride) {
        vin a[JGK_UFS_VEC_UNROLL], b[JGK_UFS_VEC_UNROLL];
#pragma unroll
        for (int r = 0; r < JGK_UFS_VEC_UNROLL; ++r) {
          const int64_t k = k0 + r * stride;
          if (k < nvec) {
            a[r].q = u4[k];
            if (v != 0) b[r].q = v4[k];
          }
        }
#pragma unroll
        for (int r = 0; r < JGK_UFS_VEC_UNROLL; ++r) {
          const int64_t k = k0 + r * stride;
          if (k < nvec) {
            vout o;
#pragma unroll
            for (int e = 0; e < V; ++e) {
              const T bb = v != 0 ? b[r].e[e] : s;
              o.e[e] = swap ? jgk_ufunc_simple<T, R>(op, bb, a[r].e[e])
                            : jgk_ufunc_simple<T, R>(op, a[r].e[e], bb);
            }
            o4[k] = o.q;
          }
        }
      }
      done = nvec * V;
    }
  }
  for (int64_t k0 = done + tid; k0 < count; k0 += JGK_UFS_UNROLL * stride) {
    T a[JGK_UFS_UNROLL], b[JGK_UFS_UNROLL];
#pragma unroll
    for (int r = 0; r < JGK_UFS_UNROLL; ++r) {
      const int64_t k = k0 + r * stride;
      a[r] = (T)0;
      b[r] = s;
      if (k < count) {
        a[r] = u[k];
        if (v != 0) b[r] = v[k];
      }
    }
#pragma unroll
    for (int r = 0; r < JGK_UFS_UNROLL; ++r) {
      const int64_t k = k0 + r * stride;
      if (k < count) {
        out[k] = swap ? jgk_ufunc_simple<T, R>(op, b[r], a[r])
                      : jgk_ufunc_simple<T, R>(op, a[r], b[r]);
      }
    }
  }
}
/* ======================================================================= end of ufunc part */

/* ======================================================================================== */
/* Appended for masks (issue 5 speed work; used by list_mask): a decoupled look-back scan     */
/* across blocks, reusable by any single-pass kernel that needs the exclusive prefix of       */
/* per-tile totals (e.g. combinations' output offsets).                                     */
/* ======================================================================================== */

/** Decoupled look-back (Merrill & Garland 2016, "Single-pass Parallel Prefix Scan with
 *  Decoupled Look-back"), for int64 totals below 2^62. `status` holds one word per tile, zero
 *  before the launch (scratch memory reset on the stream): (flag << 62) | value, flag 0 = not
 *  yet published, JGK_LOOKBACK_AGGREGATE = value is the tile's own total, JGK_LOOKBACK_PREFIX =
 *  value is the inclusive prefix up to the end of the tile.
 *
 *  Called by every lane of one warp `w` of the block that owns tile `tile` (same tile and
 *  aggregate in every lane), once per tile: publishes the tile's aggregate (tile 0: its prefix),
 *  reads back over the predecessors 32 at a time (lane l looks at tile - 1 - l - 32 k, spinning
 *  while that word is unpublished) until it meets a published prefix, publishes the tile's
 *  inclusive prefix and returns the exclusive prefix (the sum of every earlier tile) in every
 *  lane. The block must then share it (shared memory and __syncthreads).
 *
 *  Deadlock freedom: a tile only waits for tiles with smaller numbers, so tile numbers must be
 *  handed out in the order blocks start, and every tile publishes its aggregate before it looks
 *  back. Either an atomic counter (list_mask: guaranteed by construction), or blockIdx.x as
 *  CUB's single-pass scans use it (list_mask_select), which relies on the hardware dispatching
 *  blocks in index order: the programming model does not promise it, CUB has depended on it
 *  for years. */
#define JGK_LOOKBACK_AGGREGATE 1ULL
#define JGK_LOOKBACK_PREFIX 2ULL

__device__ inline unsigned long long jgk_lookback_word(unsigned long long flag, int64_t value) {
  return (flag << 62) | (unsigned long long)value;
}

__device__ inline int64_t jgk_lookback(unsigned long long *status, int64_t tile,
                                       int64_t aggregate, const jgk_warp &w) {
  volatile unsigned long long *st = status;
  const unsigned long long value_bits = (1ULL << 62) - 1ULL;
  if (tile == 0) {
    if (w.lane == 0) st[0] = jgk_lookback_word(JGK_LOOKBACK_PREFIX, aggregate);
    return 0;
  }
  if (w.lane == 0) st[tile] = jgk_lookback_word(JGK_LOOKBACK_AGGREGATE, aggregate);
  int64_t exclusive = 0;
  int64_t end = tile - 1; /* the predecessor lane 0 looks at */
  for (;;) {
    const int64_t p = end - w.lane;
    unsigned long long s = jgk_lookback_word(JGK_LOOKBACK_PREFIX, 0); /* before tile 0: 0 */
    if (p >= 0) {
      do {
        s = st[p];
      } while ((s >> 62) == 0ULL);
    }
    const unsigned prefixes = __ballot_sync(w.mask, (s >> 62) == JGK_LOOKBACK_PREFIX);
    /* Lanes up to the nearest published prefix contribute (all of them when none has one). */
    const int last = prefixes != 0u ? __ffs((int)prefixes) - 1 : w.width - 1;
    int64_t v = w.lane <= last ? (int64_t)(s & value_bits) : 0;
    for (int d = 16; d > 0; d >>= 1) {
      const int64_t o = jgk_shfl_down(w.mask, v, d);
      if (w.lane + d < w.width) v += o;
    }
    exclusive += (int64_t)__shfl_sync(w.mask, (long long)v, 0);
    if (prefixes != 0u) break;
    end -= w.width;
  }
  if (w.lane == 0) st[tile] = jgk_lookback_word(JGK_LOOKBACK_PREFIX, exclusive + aggregate);
  return exclusive;
}
/* ======================================================================= end of masks part */

#endif /* JGK_COMMON_CUH */
