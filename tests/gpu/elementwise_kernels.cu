/* elementwise_kernels.cu: elementwise functions for test_elementwise_gpu.c, defined once with
 * the JG_ELEMENTWISE macros: compiled by nvcc, each gets a host loop and a CUDA kernel with its
 * launcher from the same expression. None of the exact ones has an a * b + c that nvcc could
 * contract into a fused multiply-add, so their host and device results must agree bit for bit. */
#include <math.h>

#include "gpu/elementwise_kernels.h"

JG_ELEMENTWISE1(jgt_gpu_square, x, x * x);
JG_ELEMENTWISE2(jgt_gpu_mul, x, y, x * y);
JG_ELEMENTWISE3(jgt_gpu_pick, c, a, b, c > 0 ? a : b - 1);
JG_ELEMENTWISE2(jgt_gpu_trig, x, y, sin(x) * exp(-y) + atan2(y, x));
