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

#endif /* JGK_COMMON_CUH */
