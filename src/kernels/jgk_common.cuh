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

#endif /* JGK_COMMON_CUH */
