/* ufunc_binary_cuda.cu: CUDA implementation of kernel "ufunc_binary" (ufunc_binary.json), with
 * the semantics of ufunc_binary_body.h (the host side): grid-stride and coalesced; the function
 * number is uniform across the grid, so the switch does not diverge. The simple functions
 * (jgk_common.cuh's jgk_ufunc_is_simple: arithmetic but floor_divide, remainder, power,
 * arctan2; comparisons, logical, bitwise) run jgk_ufs_dense (several elements in flight per
 * thread); the others one element per thread. __launch_bounds__(1024, 1) caps the registers
 * (pow and the float divmod) at 64 while any block size up to 1024 still launches.
 * The checks come first and are the same for every thread (BAD_OP, then BAD_LENGTH, reported by
 * thread 0 alone); a negative integer exponent goes to jgk_fail, whose atomic minimum keeps the
 * smallest position, where the host loop stops. Kinds of T are resolved at compile time (if
 * constexpr); integer work goes through 64-bit integers as on the host, floats stay in T's
 * precision (the CUDA math library: exact for +, -, *, /, sqrt, floor, ceil, fmod, copysign;
 * within a few ulp of the host's libm for pow, atan2). */

/* At most 64 registers a thread (1024 threads a block must still launch); a macro, so that the
 * catalog's signature check finds the kernel name right after `void`. */
#define JGK_UFB_BOUNDS __launch_bounds__(1024, 1)
template <typename T>
struct jgk_ufb_kind {
  static constexpr bool is_float = false;
};
template <>
struct jgk_ufb_kind<float> {
  static constexpr bool is_float = true;
};
template <>
struct jgk_ufb_kind<double> {
  static constexpr bool is_float = true;
};
template <typename T>
struct jgk_ufb_is_bool {
  static constexpr bool value = false;
};
template <>
struct jgk_ufb_is_bool<bool> {
  static constexpr bool value = true;
};

__device__ inline bool jgk_ufb_defined(int64_t op, bool t_float, bool t_bool, bool r_bool) {
  const bool cmp_logic = op >= 11 && op <= 19;
  if (r_bool && !t_bool) return cmp_logic;
  if (t_bool) return cmp_logic || op == 1 || op == 3 || op == 8 || op == 9 || (op >= 20 && op <= 22);
  if (t_float) return op >= 1 && op <= 10;
  return (op >= 1 && op <= 9 && op != 4) || (op >= 20 && op <= 22);
}

template <typename F>
__device__ inline F jgk_ufb_floordiv(F a, F b) {
  if (b == 0) return a / b;
  F mod = fmod(a, b);
  F div = (a - mod) / b;
  if (mod != 0) {
    if ((b < 0) != (mod < 0)) div -= 1;
  }
  F floordiv;
  if (div != 0) {
    floordiv = floor(div);
    if (div - floordiv > (F)0.5) floordiv += 1;
  } else {
    floordiv = copysign((F)0, a / b);
  }
  return floordiv;
}

template <typename F>
__device__ inline F jgk_ufb_remainder(F a, F b) {
  if (b == 0) return fmod(a, b);
  F mod = fmod(a, b);
  if (mod != 0) {
    if ((b < 0) != (mod < 0)) mod += b;
  } else {
    mod = copysign((F)0, b);
  }
  return mod;
}

__device__ inline int64_t jgk_ufb_sfloordiv(int64_t a, int64_t b) {
  if (b == 0) return 0;
  if (b == -1) return (int64_t)(0ull - (uint64_t)a);
  int64_t q = a / b;
  if (a % b != 0 && ((a < 0) != (b < 0))) q -= 1;
  return q;
}
__device__ inline int64_t jgk_ufb_sremainder(int64_t a, int64_t b) {
  if (b == 0 || b == -1) return 0;
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}
__device__ inline uint64_t jgk_ufb_upow(uint64_t base, uint64_t e) {
  uint64_t r = 1;
  while (e != 0) {
    if (e & 1u) r *= base;
    base *= base;
    e >>= 1;
  }
  return r;
}

/* f(a, b) for a defined op; *neg set for a negative integer exponent. */
template <typename T, typename R>
__device__ inline R jgk_ufb_apply(int64_t op, T a, T b, bool *neg) {
  constexpr bool fl = jgk_ufb_kind<T>::is_float;
  constexpr bool bo = jgk_ufb_is_bool<T>::value;
  constexpr bool sg = !fl && ((T)-1 < (T)0);
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
      case 5: return (R)jgk_ufb_floordiv<T>(a, b);
      case 6: return (R)jgk_ufb_remainder<T>(a, b);
      case 7: return (R)pow(a, b);
      case 8: return (R)((a < b || a != a) ? a : b);
      case 9: return (R)((a > b || a != a) ? a : b);
      default: return (R)atan2(a, b);
    }
  } else if constexpr (bo) {
    switch (op) {
      case 1: case 9: case 21: return (R)(a | b);
      case 3: case 8: case 20: return (R)(a & b);
      default: return (R)(a ^ b);
    }
  } else {
    switch (op) {
      case 1: return (R)(T)((uint64_t)a + (uint64_t)b);
      case 2: return (R)(T)((uint64_t)a - (uint64_t)b);
      case 3: return (R)(T)((uint64_t)a * (uint64_t)b);
      case 5:
        if constexpr (sg) return (R)(T)jgk_ufb_sfloordiv((int64_t)a, (int64_t)b);
        else return (R)(T)(b == 0 ? (uint64_t)0 : (uint64_t)a / (uint64_t)b);
      case 6:
        if constexpr (sg) return (R)(T)jgk_ufb_sremainder((int64_t)a, (int64_t)b);
        else return (R)(T)(b == 0 ? (uint64_t)0 : (uint64_t)a % (uint64_t)b);
      case 7:
        if (sg && (int64_t)b < 0) {
          *neg = true;
          return (R)0;
        }
        return (R)(T)jgk_ufb_upow((uint64_t)a, (uint64_t)b);
      case 8: return (R)(a < b ? a : b);
      case 9: return (R)(a > b ? a : b);
      case 20: return (R)(T)((uint64_t)a & (uint64_t)b);
      case 21: return (R)(T)((uint64_t)a | (uint64_t)b);
      default: return (R)(T)((uint64_t)a ^ (uint64_t)b);
    }
  }
}

template <typename T, typename R>
__global__ void JGK_UFB_BOUNDS jgk_ufunc_binary(int64_t n, int64_t op, int64_t nx, const T *__restrict__ x,
                                 int64_t ny, const T *__restrict__ y, R *__restrict__ out,
                                 unsigned long long *error_word) {
  const bool first = blockIdx.x == 0 && threadIdx.x == 0;
  if (!jgk_ufb_defined(op, jgk_ufb_kind<T>::is_float, jgk_ufb_is_bool<T>::value,
                       jgk_ufb_is_bool<R>::value)) {
    if (first) jgk_fail(error_word, op, JGK_UFUNC_BINARY_BAD_OP);
    return;
  }
  if (n <= 0) return;
  const int64_t bad = nx != n && nx != 1 ? nx : ny != n && ny != 1 ? ny : -1;
  if (bad >= 0) {
    if (first) jgk_fail(error_word, bad, JGK_UFUNC_BINARY_BAD_LENGTH);
    return;
  }
  /* The simple functions (the common case) in their own loop: several loads in flight per
   * thread, no exponent check, the heavy functions' code out of the way. */
  if (jgk_ufunc_is_simple(op) && (nx == n || ny == n)) {
    if (nx == n) {
      jgk_ufs_dense<T, R>(n, op, false, x, ny == n ? y : (const T *)0, y[0], out);
    } else {
      jgk_ufs_dense<T, R>(n, op, true, y, (const T *)0, x[0], out);
    }
    return;
  }
  const int64_t sx = nx == n, sy = ny == n;
  JGK_FOR(i, n) {
    bool neg = false;
    const R r = jgk_ufb_apply<T, R>(op, x[sx * i], y[sy * i], &neg);
    if (neg) {
      jgk_fail(error_word, i, JGK_UFUNC_BINARY_NEGATIVE_POWER);
    } else {
      out[i] = r;
    }
  }
}
