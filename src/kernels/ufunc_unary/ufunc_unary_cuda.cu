/* ufunc_unary_cuda.cu: CUDA implementation of kernel "ufunc_unary" (ufunc_unary.json), with the
 * semantics of ufunc_unary_body.h (the host side): grid-stride, several elements in flight per
 * thread, coalesced, the function number uniform across the grid. BAD_OP is checked first by every
 * thread and reported by thread 0. Floats stay in T's precision with the CUDA math library:
 * exact for negative, abs, sqrt, floor, ceil and the tests; within a few ulp of the host's libm
 * for exp, log and the trigonometric and hyperbolic functions. */

/* At most 64 registers a thread (1024 threads a block must still launch); a macro, so that the
 * catalog's signature check finds the kernel name right after `void`. */
#define JGK_UFU_BOUNDS __launch_bounds__(1024, 1)
template <typename T>
struct jgk_ufu_kind {
  static constexpr bool is_float = false;
};
template <>
struct jgk_ufu_kind<float> {
  static constexpr bool is_float = true;
};
template <>
struct jgk_ufu_kind<double> {
  static constexpr bool is_float = true;
};
template <typename T>
struct jgk_ufu_is_bool {
  static constexpr bool value = false;
};
template <>
struct jgk_ufu_is_bool<bool> {
  static constexpr bool value = true;
};

__device__ inline bool jgk_ufu_defined(int64_t op, bool t_float, bool t_bool, bool r_bool) {
  if (r_bool && !t_bool) return op >= 56 && op <= 59;
  if (t_bool) return op == 41 || (op >= 56 && op <= 60);
  if (t_float) return op >= 40 && op <= 55;
  return op == 40 || op == 41 || op == 60;
}

template <typename T, typename R>
__device__ inline R jgk_ufu_apply(int64_t op, T a) {
  constexpr bool fl = jgk_ufu_kind<T>::is_float;
  constexpr bool bo = jgk_ufu_is_bool<T>::value;
  constexpr bool sg = !fl && ((T)-1 < (T)0);
  if constexpr (fl) {
    switch (op) {
      case 40: return (R)(-a);
      case 41: return (R)fabs(a);
      case 42: return (R)sqrt(a);
      case 43: return (R)exp(a);
      case 44: return (R)log(a);
      case 45: return (R)sin(a);
      case 46: return (R)cos(a);
      case 47: return (R)tan(a);
      case 48: return (R)asin(a);
      case 49: return (R)acos(a);
      case 50: return (R)atan(a);
      case 51: return (R)sinh(a);
      case 52: return (R)cosh(a);
      case 53: return (R)tanh(a);
      case 54: return (R)floor(a);
      case 55: return (R)ceil(a);
      case 56: return (R)(a != a);
      case 57: return (R)(a - a == 0);
      case 58: return (R)(a == a && a - a != 0);
      default: return (R)(a == 0);
    }
  } else {
    switch (op) {
      case 40: return (R)(T)(0ull - (uint64_t)a);
      case 41:
        if constexpr (sg) return (R)(T)(a < 0 ? 0ull - (uint64_t)a : (uint64_t)a);
        else return (R)a;
      case 56: return (R) false;
      case 57: return (R) true;
      case 58: return (R) false;
      case 59: return (R)(a == 0);
      default:
        if constexpr (bo) return (R)(a == 0);
        else return (R)(T)(~(uint64_t)a);
    }
  }
}

template <typename T, typename R>
__global__ void JGK_UFU_BOUNDS jgk_ufunc_unary(int64_t n, int64_t op,
                                                          const T *__restrict__ x,
                                                          R *__restrict__ out,
                                                          unsigned long long *error_word) {
  if (!jgk_ufu_defined(op, jgk_ufu_kind<T>::is_float, jgk_ufu_is_bool<T>::value,
                       jgk_ufu_is_bool<R>::value)) {
    if (blockIdx.x == 0 && threadIdx.x == 0) jgk_fail(error_word, op, JGK_UFUNC_UNARY_BAD_OP);
    return;
  }
  /* JGK_UFS_UNROLL (jgk_common.cuh) loads a grid apart in flight per thread, then the results. */
  const int64_t stride = (int64_t)blockDim.x * gridDim.x;
  for (int64_t k0 = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; k0 < n;
       k0 += JGK_UFS_UNROLL * stride) {
    T a[JGK_UFS_UNROLL];
#pragma unroll
    for (int r = 0; r < JGK_UFS_UNROLL; ++r) {
      const int64_t k = k0 + r * stride;
      a[r] = k < n ? x[k] : (T)0;
    }
#pragma unroll
    for (int r = 0; r < JGK_UFS_UNROLL; ++r) {
      const int64_t k = k0 + r * stride;
      if (k < n) out[k] = jgk_ufu_apply<T, R>(op, a[r]);
    }
  }
}
