/* copy_cuda.cu: strided copy kernels and their extern "C" launcher (interface in copy.h).
 *
 * Three kernels, each specialised on the element type (1, 2, 4, 8 or 16 bytes, chosen by the
 * planner after it packed contiguous inner runs into wider elements where alignment allows):
 *   - copy_1d_kernel:    one axis, any strides (reversed, stepped, broadcast);
 *   - copy_tiled_kernel: src's fastest axis `a` differs from dst's last axis `l` (transposes and
 *     batched transposes): a 32 x 32 tile goes through shared memory so that both the loads
 *     (along a) and the stores (along l) are coalesced;
 *   - copy_nd_kernel:    anything else; a linear index is split into coordinates with 32-bit
 *     multiply-shift division by precomputed divisors when the volume fits, 64-bit division
 *     otherwise. Offsets are always 64-bit.
 * All kernels use grid-stride loops and issue several loads before their stores. */
#include <cuda_runtime.h>
#include <stdint.h>
#include <string.h>

#include "internal/jgi_cuda.h"
#include "kernels/copy/copy.h"

namespace {

constexpr int kThreads = 256;  // threads per block of the 1-D and n-d kernels
constexpr int kIlp = 4;        // elements in flight per thread
constexpr int kTile = 32;      // tile edge of the tiled kernel
constexpr int kTileRows = 8;   // thread rows of the tiled kernel (block = kTile x kTileRows)
constexpr int kSmallDims = 4;  // parameter blocks sized for <= 4 axes; 64 beyond that

template <int N>
struct elem;
template <>
struct elem<1> {
  typedef uint8_t type;
};
template <>
struct elem<2> {
  typedef uint16_t type;
};
template <>
struct elem<4> {
  typedef uint32_t type;
};
template <>
struct elem<8> {
  typedef unsigned long long type;
};
template <>
struct elem<16> {
  typedef uint4 type;
};

/* Unsigned 32-bit division by an invariant divisor d (1 <= d < 2^32), the round-up method of
 * Granlund and Montgomery ("Division by invariant integers using multiplication", PLDI 1994,
 * theorem 4.2): with s = ceil(log2 d) and mul = floor(2^32 (2^s - d) / d) + 1,
 * n / d = (umulhi(n, mul) + n) >> s for every 32-bit n (the sum is formed in 64 bits). */
struct fast_div {
  uint32_t div;
  uint32_t mul;
  uint32_t shift;
};

fast_div make_fast_div(uint32_t d) {
  fast_div f;
  f.div = d;
  uint32_t s = 0;
  while ((UINT64_C(1) << s) < (uint64_t)d) ++s;
  f.shift = s;
  f.mul = (uint32_t)(((UINT64_C(1) << 32) * ((UINT64_C(1) << s) - d)) / d + 1);
  return f;
}

__device__ __forceinline__ uint32_t fdiv(uint32_t n, const fast_div &f) {
  return (uint32_t)(((uint64_t)__umulhi(n, f.mul) + n) >> f.shift);
}

/* ---- n-d kernel ---------------------------------------------------------------------------- */

template <int MAXD>
struct nd_params {
  int32_t ndim;
  int64_t volume;
  fast_div div[MAXD];  // extents as divisors (32-bit path only)
  int64_t shape[MAXD];
  int64_t ds[MAXD];  // dst strides in elements
  int64_t ss[MAXD];  // src strides in elements
};

/* Element offsets of linear C-order index i. SMALL: i and every extent fit in 32 bits. */
template <int MAXD, bool SMALL>
__device__ __forceinline__ void nd_offsets(const nd_params<MAXD> &p, int64_t i, int64_t &od,
                                           int64_t &os) {
  od = 0;
  os = 0;
  if (SMALL) {
    uint32_t r = (uint32_t)i;
#pragma unroll
    for (int j = 0; j < MAXD - 1; ++j) {
      const int k = p.ndim - 1 - j;
      if (k <= 0) break;
      const uint32_t q = fdiv(r, p.div[k]);
      const int64_t c = (int64_t)(r - q * p.div[k].div);
      od += c * p.ds[k];
      os += c * p.ss[k];
      r = q;
    }
    od += (int64_t)r * p.ds[0];
    os += (int64_t)r * p.ss[0];
  } else {
    int64_t r = i;
#pragma unroll
    for (int j = 0; j < MAXD - 1; ++j) {
      const int k = p.ndim - 1 - j;
      if (k <= 0) break;
      const int64_t q = r / p.shape[k];
      const int64_t c = r - q * p.shape[k];
      od += c * p.ds[k];
      os += c * p.ss[k];
      r = q;
    }
    od += r * p.ds[0];
    os += r * p.ss[0];
  }
}

template <typename T, int MAXD, bool SMALL>
__global__ void __launch_bounds__(kThreads)
    copy_nd_kernel(T *__restrict__ dst, const T *__restrict__ src, const nd_params<MAXD> p) {
  const int64_t step = (int64_t)gridDim.x * kThreads * kIlp;
  for (int64_t base = (int64_t)blockIdx.x * kThreads * kIlp + threadIdx.x; base < p.volume;
       base += step) {
    T v[kIlp];
    int64_t od[kIlp];
#pragma unroll
    for (int u = 0; u < kIlp; ++u) {
      const int64_t i = base + (int64_t)u * kThreads;
      od[u] = 0;
      if (i < p.volume) {
        int64_t os;
        nd_offsets<MAXD, SMALL>(p, i, od[u], os);
        v[u] = src[os];
      }
    }
#pragma unroll
    for (int u = 0; u < kIlp; ++u) {
      const int64_t i = base + (int64_t)u * kThreads;
      if (i < p.volume) dst[od[u]] = v[u];
    }
  }
}

/* ---- 1-d kernel ---------------------------------------------------------------------------- */

template <typename T>
__global__ void __launch_bounds__(kThreads)
    copy_1d_kernel(T *__restrict__ dst, const T *__restrict__ src, int64_t n, int64_t ds,
                   int64_t ss) {
  const int64_t step = (int64_t)gridDim.x * kThreads * kIlp;
  for (int64_t base = (int64_t)blockIdx.x * kThreads * kIlp + threadIdx.x; base < n; base += step) {
    T v[kIlp];
#pragma unroll
    for (int u = 0; u < kIlp; ++u) {
      const int64_t i = base + (int64_t)u * kThreads;
      if (i < n) v[u] = src[i * ss];
    }
#pragma unroll
    for (int u = 0; u < kIlp; ++u) {
      const int64_t i = base + (int64_t)u * kThreads;
      if (i < n) dst[i * ds] = v[u];
    }
  }
}

/* ---- tiled kernel ------------------------------------------------------------------------- */

/* Axis a is src's fastest axis, axis l (the last) dst's; the other axes form the batch. */
template <int MAXD>
struct tiled_params {
  int32_t nbatch;  // number of batch axes (ndim - 2)
  int64_t na, nl;  // extents of a and l
  int64_t dsa, dsl, ssa, ssl;
  uint32_t tiles_total;  // tiles over (batch, a, l), < 2^31
  fast_div tiles_l;      // tiles along l
  fast_div tiles_a;      // tiles along a
  fast_div bdiv[MAXD];   // batch extents, in axis order
  int64_t bds[MAXD], bss[MAXD];
};

template <typename T, int MAXD>
__global__ void __launch_bounds__(kTile *kTileRows)
    copy_tiled_kernel(T *__restrict__ dst, const T *__restrict__ src, const tiled_params<MAXD> p) {
  __shared__ T tile[kTile][kTile + 1];
  const int tx = (int)threadIdx.x;
  const int ty = (int)threadIdx.y;
  for (uint32_t t = blockIdx.x; t < p.tiles_total; t += gridDim.x) {
    /* Tile t: l fastest, then a, then the batch index. */
    const uint32_t rest = fdiv(t, p.tiles_l);
    const uint32_t tl = t - rest * p.tiles_l.div;
    uint32_t b = fdiv(rest, p.tiles_a);
    const uint32_t ta = rest - b * p.tiles_a.div;
    int64_t od = 0, os = 0;
    for (int k = p.nbatch - 1; k >= 0; --k) {
      const uint32_t q = fdiv(b, p.bdiv[k]);
      const int64_t c = (int64_t)(b - q * p.bdiv[k].div);
      od += c * p.bds[k];
      os += c * p.bss[k];
      b = q;
    }
    const int64_t a0 = (int64_t)ta * kTile;
    const int64_t l0 = (int64_t)tl * kTile;
    /* Load: a warp walks along a (src's fast axis). */
    const int64_t ia = a0 + tx;
    if (ia < p.na) {
      const int64_t so = os + ia * p.ssa;
#pragma unroll
      for (int j = 0; j < kTile; j += kTileRows) {
        const int64_t il = l0 + j + ty;
        if (il < p.nl) tile[j + ty][tx] = src[so + il * p.ssl];
      }
    }
    __syncthreads();
    /* Store: a warp walks along l (dst's fast axis). */
    const int64_t il = l0 + tx;
    if (il < p.nl) {
      const int64_t doff = od + il * p.dsl;
#pragma unroll
      for (int j = 0; j < kTile; j += kTileRows) {
        const int64_t ja = a0 + j + ty;
        if (ja < p.na) dst[doff + ja * p.dsa] = tile[tx][j + ty];
      }
    }
    __syncthreads();
  }
}

/* ---- launchers ---------------------------------------------------------------------------- */

jg_status check_launch(jg_error *err, const char *what) {
  const cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) return jgi_cuda_error(err, e, what);
  return JG_OK;
}

int64_t abs64(int64_t x) {
  return x < 0 ? -x : x;
}

unsigned grid_for(int64_t work_items, int64_t per_block, int sms) {
  int64_t blocks = (work_items + per_block - 1) / per_block;
  const int64_t cap = (int64_t)(sms > 0 ? sms : 1) * 32;
  if (blocks > cap) blocks = cap;
  if (blocks < 1) blocks = 1;
  return (unsigned)blocks;
}

template <typename T, int MAXD>
jg_status launch_nd(T *dst, const T *src, const jgi_copy_desc *d, int64_t volume, cudaStream_t s,
                    int sms, jg_error *err) {
  nd_params<MAXD> p;
  memset(&p, 0, sizeof p);
  p.ndim = d->ndim;
  p.volume = volume;
  const bool small = volume <= INT32_MAX;
  for (int k = 0; k < d->ndim; ++k) {
    p.shape[k] = d->shape[k];
    p.ds[k] = d->dst_strides[k];
    p.ss[k] = d->src_strides[k];
    if (small) p.div[k] = make_fast_div((uint32_t)d->shape[k]);
  }
  const unsigned grid = grid_for(volume, (int64_t)kThreads * kIlp, sms);
  if (small) {
    copy_nd_kernel<T, MAXD, true><<<grid, kThreads, 0, s>>>(dst, src, p);
  } else {
    copy_nd_kernel<T, MAXD, false><<<grid, kThreads, 0, s>>>(dst, src, p);
  }
  return check_launch(err, "launching copy_nd_kernel");
}

/* Returns JG_OK after launching the tiled kernel, or JG_ENOTSUP (no error set) when the tile
 * count does not fit its 32-bit indexing, in which case the caller falls back. */
template <typename T, int MAXD>
jg_status launch_tiled(T *dst, const T *src, const jgi_copy_desc *d, int a, int64_t volume,
                       cudaStream_t s, int sms, jg_error *err) {
  const int l = d->ndim - 1;
  tiled_params<MAXD> p;
  memset(&p, 0, sizeof p);
  p.na = d->shape[a];
  p.nl = d->shape[l];
  p.dsa = d->dst_strides[a];
  p.dsl = d->dst_strides[l];
  p.ssa = d->src_strides[a];
  p.ssl = d->src_strides[l];
  const int64_t ta = (p.na + kTile - 1) / kTile;
  const int64_t tl = (p.nl + kTile - 1) / kTile;
  const int64_t batch = volume / (p.na * p.nl);
  if (ta > INT32_MAX || tl > INT32_MAX || batch > INT32_MAX) return JG_ENOTSUP;
  const int64_t tiles = ta * tl * batch; /* < 2^93 in theory; checked stepwise below */
  if (ta * tl > INT32_MAX || batch > INT32_MAX / (ta * tl) || tiles > INT32_MAX) {
    return JG_ENOTSUP;
  }
  p.tiles_total = (uint32_t)tiles;
  p.tiles_l = make_fast_div((uint32_t)tl);
  p.tiles_a = make_fast_div((uint32_t)ta);
  int nb = 0;
  for (int k = 0; k < l; ++k) {
    if (k == a) continue;
    p.bdiv[nb] = make_fast_div((uint32_t)d->shape[k]);
    p.bds[nb] = d->dst_strides[k];
    p.bss[nb] = d->src_strides[k];
    ++nb;
  }
  p.nbatch = nb;
  const unsigned grid = grid_for(tiles, 1, sms);
  const dim3 block(kTile, kTileRows);
  copy_tiled_kernel<T, MAXD><<<grid, block, 0, s>>>(dst, src, p);
  return check_launch(err, "launching copy_tiled_kernel");
}

template <typename T>
jg_status launch_typed(void *dst_v, const void *src_v, const jgi_copy_desc *d, int64_t volume,
                       cudaStream_t s, int sms, jg_error *err) {
  T *dst = static_cast<T *>(dst_v);
  const T *src = static_cast<const T *>(src_v);
  const int n = d->ndim;
  if (n == 1) {
    const unsigned grid = grid_for(volume, (int64_t)kThreads * kIlp, sms);
    copy_1d_kernel<T>
        <<<grid, kThreads, 0, s>>>(dst, src, volume, d->dst_strides[0], d->src_strides[0]);
    return check_launch(err, "launching copy_1d_kernel");
  }
  /* src's fastest axis; ties keep the last axis (then no transpose is needed). */
  const int l = n - 1;
  int a = l;
  for (int k = 0; k < l; ++k) {
    if (abs64(d->src_strides[k]) < abs64(d->src_strides[a])) a = k;
  }
  if (a != l && d->shape[a] >= 16 && d->shape[l] >= 16) {
    jg_status st = (n - 2 <= kSmallDims)
                       ? launch_tiled<T, kSmallDims>(dst, src, d, a, volume, s, sms, err)
                       : launch_tiled<T, JG_MAX_NDIM>(dst, src, d, a, volume, s, sms, err);
    if (st != JG_ENOTSUP) return st;
  }
  if (n <= kSmallDims) return launch_nd<T, kSmallDims>(dst, src, d, volume, s, sms, err);
  return launch_nd<T, JG_MAX_NDIM>(dst, src, d, volume, s, sms, err);
}

}  // namespace

jg_status jgi_copy_strided_cuda(void *dst, const void *src, const jgi_copy_desc *desc,
                                jg_stream stream, jg_error *err) {
  JG_RETURN_IF(desc == NULL || dst == NULL || src == NULL, JG_EINVAL, err,
               "jgi_copy_strided_cuda: NULL argument");
  JG_RETURN_IF(desc->ndim < 1 || desc->ndim > JG_MAX_NDIM, JG_EINVAL, err,
               "jgi_copy_strided_cuda: ndim %d out of range", (int)desc->ndim);
  int64_t volume = 1;
  for (int k = 0; k < desc->ndim; ++k) {
    JG_RETURN_IF_AT(desc->shape[k] < 1, JG_EINVAL, err, k,
                    "jgi_copy_strided_cuda: extent %lld of axis %d is < 1",
                    (long long)desc->shape[k], k);
    JG_RETURN_IF(jgi_mul_overflow(volume, desc->shape[k], &volume), JG_EOVERFLOW, err,
                 "jgi_copy_strided_cuda: volume overflows int64");
  }
  int dev = 0;
  JG_CUDA_RETURN_NOT_OK(cudaGetDevice(&dev), "cudaGetDevice", err);
  int sms = 0;
  JG_CUDA_RETURN_NOT_OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev),
                        "cudaDeviceGetAttribute(MultiProcessorCount)", err);
  cudaStream_t s = stream != NULL ? (cudaStream_t)stream : cudaStreamLegacy;
  switch (desc->itemsize) {
    case 1:
      return launch_typed<elem<1>::type>(dst, src, desc, volume, s, sms, err);
    case 2:
      return launch_typed<elem<2>::type>(dst, src, desc, volume, s, sms, err);
    case 4:
      return launch_typed<elem<4>::type>(dst, src, desc, volume, s, sms, err);
    case 8:
      return launch_typed<elem<8>::type>(dst, src, desc, volume, s, sms, err);
    case 16:
      return launch_typed<elem<16>::type>(dst, src, desc, volume, s, sms, err);
    default:
      return jg_error_set(err, JG_EINVAL, -1, "jgi_copy_strided_cuda: itemsize %lld unsupported",
                          (long long)desc->itemsize);
  }
}
