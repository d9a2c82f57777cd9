/* elementwise_kernels.h: the elementwise functions of elementwise_kernels.cu, defined with the
 * JG_ELEMENTWISE macros and compiled by nvcc (so their descriptors have CUDA launchers), used by
 * test_elementwise_gpu.c (built only with CUDA). */
#ifndef JAGGED_TESTS_GPU_ELEMENTWISE_KERNELS_H
#define JAGGED_TESTS_GPU_ELEMENTWISE_KERNELS_H

#include "jagged/elementwise.h"

/* x * x */
JG_ELEMENTWISE_DECLARE(jgt_gpu_square);
/* x * y */
JG_ELEMENTWISE_DECLARE(jgt_gpu_mul);
/* c > 0 ? a : b - 1 */
JG_ELEMENTWISE_DECLARE(jgt_gpu_pick);
/* sin(x) * exp(-y) + atan2(y, x) (transcendental: compared within a tolerance) */
JG_ELEMENTWISE_DECLARE(jgt_gpu_trig);

#endif /* JAGGED_TESTS_GPU_ELEMENTWISE_KERNELS_H */
