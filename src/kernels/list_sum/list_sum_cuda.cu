/* list_sum_cuda.cu: CUDA implementation of kernel "list_sum" (list_sum.json).
 *
 * Lists go in tiles of 32 consecutive lists, one tile per warp, warps looping over the tiles
 * grid-stride. Lane l sums list 32 t + l of tile t by itself when it has at most SHORT_LIST
 * elements (the common case in HEP: a few muons or jets per event; neighbouring lanes read
 * neighbouring lists, so the warp's reads stay close together and every lane is busy); the
 * longer lists of the tile, found with a ballot, are then summed by the whole warp one after the
 * other: the lanes read at lane, lane + 32, ... (coalesced), keep partial sums, and
 * jgk_warp_reduce combines them. A warp with fewer than 32 lanes (a block size that is not a
 * multiple of 32) sums every list of its tile that way. Integer results accumulate in uint64_t
 * (wrapping, as the host; so the order of the additions does not matter and both sides agree
 * exactly), float results in double (float32 too): short lists in element order, as the host,
 * long ones in another order (parity_rtol). A bad list (jgk_list_bad, the host's predicate)
 * goes to the error word and is skipped: content is read only inside good lists. */

/* Lists of at most this many elements are summed by one lane. */
#define SHORT_LIST 32

/* The accumulator of result type R: uint64_t for integers, double for floats. */
template <typename R>
struct sum_acc {
  typedef uint64_t type;
};
template <>
struct sum_acc<float> {
  typedef double type;
};
template <>
struct sum_acc<double> {
  typedef double type;
};

template <typename A>
struct sum_or_prod {
  bool prod;
  __device__ A operator()(A a, A b) const {
    return prod ? a * b : a + b;
  }
};

/* The sum (or product) of content[a:b) by the whole warp; the result in lane 0. */
template <typename A, typename T>
__device__ inline A warp_sum(const T *__restrict__ content, int64_t a, int64_t b,
                             const sum_or_prod<A> &f, const jgk_warp &w) {
  A acc = f.prod ? (A)1 : (A)0;
  for (int64_t j = a + w.lane; j < b; j += w.width) acc = f(acc, (A)content[j]);
  return jgk_warp_reduce(acc, f, w);
}

template <typename I, typename T, typename R>
__global__ void jgk_list_sum(int64_t n, const I *__restrict__ starts, const I *__restrict__ stops,
                             int64_t m, const T *__restrict__ content, int64_t op,
                             R *__restrict__ out, unsigned long long *error_word) {
  typedef typename sum_acc<R>::type A;
  const jgk_warp w = jgk_warp_self();
  sum_or_prod<A> f;
  f.prod = op != 0;
  const int64_t tiles = n / 32 + (n % 32 != 0);
  JGK_FOR_WARP(t, tiles, w) {
    const int64_t first = 32 * t, last = first + 32 < n ? first + 32 : n;
    if (w.width < 32) { /* a partial warp: every list of the tile by the warp */
      for (int64_t i = first; i < last; ++i) {
        const int64_t a = (int64_t)starts[i], b = (int64_t)stops[i];
        if (jgk_list_bad(a, b, m)) {
          if (w.lane == 0) jgk_fail(error_word, i, JGK_LIST_SUM_BAD_RANGE);
          continue;
        }
        const A acc = warp_sum(content, a, b, f, w);
        if (w.lane == 0) out[i] = (R)acc;
      }
      continue;
    }
    const int64_t i = first + w.lane;
    int64_t a = 0, b = 0;
    bool is_long = false;
    if (i < last) {
      a = (int64_t)starts[i];
      b = (int64_t)stops[i];
      if (jgk_list_bad(a, b, m)) {
        jgk_fail(error_word, i, JGK_LIST_SUM_BAD_RANGE);
      } else if (b - a > SHORT_LIST) {
        is_long = true;
      } else {
        A acc = f.prod ? (A)1 : (A)0;
        for (int64_t j = a; j < b; ++j) acc = f(acc, (A)content[j]);
        out[i] = (R)acc;
      }
    }
    unsigned long_lanes = __ballot_sync(0xffffffffu, is_long);
    while (long_lanes != 0u) {
      const int src = __ffs((int)long_lanes) - 1;
      long_lanes &= long_lanes - 1u;
      const int64_t la = __shfl_sync(0xffffffffu, (long long)a, src);
      const int64_t lb = __shfl_sync(0xffffffffu, (long long)b, src);
      const A acc = warp_sum(content, la, lb, f, w);
      if (w.lane == 0) out[first + src] = (R)acc;
    }
  }
}
