/* copy.c: copies between any two views (jg_copy, jg_copy_async, jg_copy_ex).
 *
 * Every copy goes through one plan (the design of NVIDIA cuda-python PR #1367 for
 * StridedMemoryView.copy_from / copy_to):
 *   1. check the views (valid layouts whose byte offsets fit in int64, dtype, shape, read-only,
 *      unique destination); empty views stop here;
 *   2. squeeze extent-1 axes, permute both layouts by the destination's stride order and flip the
 *      axes where the destination's stride is negative, so that dst is walked as C-like as it
 *      can be; then flatten both with the AND of their flatten masks (co-iteration);
 *   3. if both are now 1-D with stride 1, the copy is one memcpy (cudaMemcpyAsync when CUDA is
 *      involved, memcpy between pageable host buffers);
 *   4. if both views are the same elements in the same order, nothing is copied; if the byte
 *      ranges of their elements intersect in one memory space (both host-accessible, or both
 *      device memory of one device), the source is first copied into a dense temporary, on the
 *      host or on that device, and the temporary into the destination (NumPy's semantics: as if
 *      the source were read completely before the destination is written; a contiguous host copy
 *      is a memmove instead);
 *   5. otherwise pick a path by where the memory lives (below).
 * "Host side" means host-accessible (pageable, pinned, registered, managed): host loops may touch
 * it, and bulk moves use cudaMemcpyAsync whenever CUDA is usable. "Device side" means device-only.
 *   host <-> host     a strided host loop (memcpy of inner runs, else itemsize-specialised);
 *   device -> device  the strided kernel (copy_cuda.cu); across devices, a bulk move of the
 *                     source's span first;
 *   host -> device    bulk move of the source's span into a device temporary and the kernel when
 *                     the span is no larger than the data (transposed, reversed, broadcast
 *                     sources); else a host pack into a dense temporary and a memcpy into a
 *                     dense destination, or into a device temporary and the kernel;
 *   device -> host    the kernel into a dense device temporary and a memcpy into a dense
 *                     destination; a memcpy of a dense source into a host temporary and a host
 *                     unpack; or kernel, memcpy and host unpack.
 * Dense temporaries are laid out in C order over the co-iterated shape (dst's order).
 * A host loop that touches device-accessible memory first waits for the stream, so that it sees
 * the work enqueued before the copy.
 * Transfer counting (transfer.h): run_cuda records each move it enqueues, once: every
 * cudaMemcpyAsync and every copy kernel, classified by the two sides (device-only memory or
 * host-accessible memory; staging temporaries count as the memory they are), named after the
 * outermost public call in progress (jgi_call_name). Host-to-host moves are not transfers. */
#include "kernels/copy/copy.h"

#include <string.h>

#include "internal/jgi_check.h"
#include "internal/jgi_cuda.h"
#include "internal/jgi_layout.h"
#include "internal/jgi_transfer.h"
#include "jagged/device.h"
#include "jagged/view.h"

/* ------------------------------------------------------------------------------------------ */
/* Plan                                                                                        */
/* ------------------------------------------------------------------------------------------ */

typedef enum copy_path {
  PATH_NOOP = 0,      /* source and destination are the same elements */
  PATH_MEMCPY,        /* one contiguous run: memcpy or cudaMemcpyAsync */
  PATH_HOST_LOOP,     /* host <-> host, strided */
  PATH_KERNEL,        /* device -> device on one device */
  PATH_SPAN_KERNEL,   /* move src's span to a device temporary, then the kernel */
  PATH_PACK_MEMCPY,   /* host pack into a host temporary, memcpy into the dense dst */
  PATH_PACK_KERNEL,   /* host pack, memcpy into a device temporary, kernel into dst */
  PATH_KERNEL_MEMCPY, /* kernel into a dense device temporary, memcpy into the dense dst */
  PATH_MEMCPY_UNPACK, /* memcpy the dense src into a host temporary, host loop into dst */
  PATH_KERNEL_UNPACK, /* kernel into a device temporary, memcpy to a host one, host loop */
  PATH_HOST_MEMMOVE,  /* overlapping host views, one contiguous run each: memmove */
  PATH_HOST_STAGED,   /* overlapping host views: host loop into a dense host temporary, back */
  PATH_DEVICE_STAGED  /* overlapping device views: src into a dense device temporary, then dst */
} copy_path;

typedef struct copy_plan {
  jg_layout d, s;               /* co-iterated layouts, slice offsets from each base */
  jg_stride dense[JG_MAX_NDIM]; /* C-order dense strides of the co-iterated shape */
  jg_len volume;
  size_t bytes;          /* volume * itemsize */
  bool d_dense, s_dense; /* strides equal `dense` */
  jg_offset s_lo, s_hi;  /* src element offsets, relative to its element 0 */
  jg_offset d_lo, d_hi;  /* dst element offsets, relative to its element 0 */
  size_t s_span;         /* bytes of src's span [s_lo, s_hi] */
  copy_path path;
  size_t dev_temp, host_temp; /* staging bytes */
  bool use_cuda;              /* CUDA calls are involved */
  int device;                 /* device to run on, -1: keep the current one */
} copy_plan;

typedef enum temp_mode {
  TEMP_ALLOCATE = 0, /* jg_copy, jg_copy_async: stage through memory allocated here */
  TEMP_QUERY,        /* jg_copy_ex with temp NULL */
  TEMP_CALLER        /* jg_copy_ex with caller memory */
} temp_mode;

static const char *const kSide[2] = {"dst", "src"};

/* Argument checks shared by every variant. Sets *empty for a zero-volume copy. */
static jg_status check_views(const jg_view *dst, const jg_view *src, const char *fn, bool *empty,
                             jg_error *err) {
  JG_RETURN_IF(dst == NULL, JG_EINVAL, err, "%s: dst is NULL", fn);
  JG_RETURN_IF(src == NULL, JG_EINVAL, err, "%s: src is NULL", fn);
  const jg_view *v[2] = {dst, src};
  for (int i = 0; i < 2; ++i) {
    const jg_layout *l = &v[i]->layout;
    /* Views are public structs: their layouts may be hand-made. Byte offsets must fit so that
     * the plan's arithmetic (spans, byte strides, host loop offsets) cannot overflow. */
    JG_RETURN_NOT_OK(jgi_layout_check_bytes(l, fn, kSide[i], err));
    const int64_t itemsize = jg_dtype_itemsize(v[i]->dtype);
    JG_RETURN_IF(itemsize == 0, JG_EDTYPE, err, "%s: %s has an invalid dtype (%d)", fn, kSide[i],
                 (int)v[i]->dtype);
    JG_RETURN_IF(l->itemsize != itemsize, JG_EDTYPE, err,
                 "%s: %s's layout itemsize %lld does not match its dtype %s", fn, kSide[i],
                 (long long)l->itemsize, jg_dtype_name(v[i]->dtype));
  }
  JG_RETURN_IF(dst->dtype != src->dtype, JG_EDTYPE, err, "%s: dtypes differ: dst is %s, src is %s",
               fn, jg_dtype_name(dst->dtype), jg_dtype_name(src->dtype));
  const int nd = dst->layout.ndim, ns = src->layout.ndim;
  const int nmax = nd > ns ? nd : ns;
  for (int k = 0; k < nmax; ++k) {
    if (k >= nd || k >= ns) {
      return jg_error_set(err, JG_ESHAPE, k, "%s: dst has %d axes but src has %d", fn, nd, ns);
    }
    JG_RETURN_IF_AT(dst->layout.shape[k] != src->layout.shape[k], JG_ESHAPE, err, k,
                    "%s: shapes differ at axis %d: dst has extent %lld, src %lld", fn, k,
                    (long long)dst->layout.shape[k], (long long)src->layout.shape[k]);
  }
  JG_RETURN_IF(dst->readonly, JG_EREADONLY, err, "%s: dst is read-only", fn);
  const jg_len volume = jg_layout_volume(&dst->layout); /* valid: >= 0 */
  *empty = volume == 0;
  if (*empty) return JG_OK;
  for (int i = 0; i < 2; ++i) {
    JG_RETURN_IF(v[i]->base == NULL, JG_EINVAL, err, "%s: %s has %lld elements but a NULL base", fn,
                 kSide[i], (long long)volume);
    JG_RETURN_IF(!v[i]->host_accessible && !v[i]->device_accessible, JG_EINVAL, err,
                 "%s: %s's memory is neither host- nor device-accessible", fn, kSide[i]);
  }
  JG_RETURN_IF(!jg_layout_is_unique(&dst->layout), JG_EVALUE, err,
               "%s: dst is not unique (several indices share an element, e.g. a broadcast); "
               "the copy result would be undefined",
               fn);
  return JG_OK;
}

/* Walks axis k backwards: element 0 moves to the axis's last element. */
static jg_status flip_axis(jg_layout *l, int k, jg_error *err) {
  jg_offset delta = 0, off = 0;
  const bool ovf = l->strides[k] == INT64_MIN ||
                   jgi_mul_overflow(l->shape[k] - 1, l->strides[k], &delta) ||
                   jgi_add_overflow(l->slice_offset, delta, &off);
  JG_RETURN_IF(ovf, JG_EOVERFLOW, err, "copy plan: offset overflows int64 on axis %d", k);
  l->slice_offset = off;
  l->strides[k] = -l->strides[k];
  return JG_OK;
}

/* Element offsets of the co-iterated layout `l` relative to its element 0 (*lo <= 0 <= *hi)
 * and the byte span (*hi - *lo + 1) * itemsize, all overflow-checked (the views passed
 * jgi_layout_check_bytes, so these cannot fail; checked anyway). Every byte offset the host loop
 * forms, a stride times itemsize included, lies within +-span. */
static jg_status rel_span(const jg_layout *l, jg_offset *lo, jg_offset *hi, size_t *span_bytes,
                          const char *side, jg_error *err) {
  jg_offset mn = 0, mx = 0;
  for (int k = 0; k < l->ndim; ++k) {
    jg_offset ext = 0;
    bool ovf = jgi_mul_overflow(l->strides[k], l->shape[k] - 1, &ext);
    if (!ovf) ovf = ext < 0 ? jgi_add_overflow(mn, ext, &mn) : jgi_add_overflow(mx, ext, &mx);
    JG_RETURN_IF_AT(ovf, JG_EOVERFLOW, err, k, "copy plan: the %s span overflows int64", side);
  }
  int64_t span = 0;
  const bool ovf = jgi_sub_overflow(mx, mn, &span) || jgi_add_overflow(span, (int64_t)1, &span) ||
                   jgi_mul_overflow(span, l->itemsize, &span);
  JG_RETURN_IF(ovf, JG_EOVERFLOW, err,
               "copy plan: the %s span (element offsets %lld..%lld of %lld bytes) overflows "
               "int64 bytes",
               side, (long long)mn, (long long)mx, (long long)l->itemsize);
  *lo = mn;
  *hi = mx;
  *span_bytes = (size_t)span;
  return JG_OK;
}

/* Steps 2 and 3 of the plan; the views are checked and not empty. */
static jg_status co_iterate(copy_plan *p, const jg_view *dst, const jg_view *src, jg_error *err) {
  jg_layout d = dst->layout, s = src->layout;
  JG_RETURN_NOT_OK(jg_layout_squeeze(&d, &d, err));
  JG_RETURN_NOT_OK(jg_layout_squeeze(&s, &s, err));
  if (d.ndim == 0) {
    /* 0-d (or all extents 1): one element. */
    d.ndim = s.ndim = 1;
    d.shape[0] = s.shape[0] = 1;
    d.strides[0] = s.strides[0] = 1;
  } else {
    int perm[JG_MAX_NDIM];
    jg_layout_stride_order(&d, perm);
    JG_RETURN_NOT_OK(jg_layout_permute(&d, &d, perm, err));
    JG_RETURN_NOT_OK(jg_layout_permute(&s, &s, perm, err));
    for (int k = 0; k < d.ndim; ++k) {
      if (d.strides[k] < 0) {
        JG_RETURN_NOT_OK(flip_axis(&d, k, err));
        JG_RETURN_NOT_OK(flip_axis(&s, k, err));
      }
    }
    const uint64_t mask = jg_layout_flatten_mask(&d) & jg_layout_flatten_mask(&s);
    JG_RETURN_NOT_OK(jg_layout_flatten(&d, &d, 0, -1, mask, err));
    JG_RETURN_NOT_OK(jg_layout_flatten(&s, &s, 0, -1, mask, err));
  }
  JG_RETURN_IF(d.ndim != s.ndim || d.ndim < 1, JG_EINTERNAL, err,
               "copy plan: co-flattening gave %d and %d axes", (int)d.ndim, (int)s.ndim);
  p->d = d;
  p->s = s;
  const int n = d.ndim;
  jg_len volume = 1;
  for (int k = n - 1; k >= 0; --k) {
    JG_RETURN_IF(d.shape[k] != s.shape[k], JG_EINTERNAL, err,
                 "copy plan: co-flattened shapes differ at axis %d", k);
    p->dense[k] = volume;
    JG_RETURN_IF(jgi_mul_overflow(volume, d.shape[k], &volume), JG_EOVERFLOW, err,
                 "copy plan: volume overflows");
  }
  p->volume = volume;
  int64_t bytes = 0;
  JG_RETURN_IF(jgi_mul_overflow(volume, d.itemsize, &bytes), JG_EOVERFLOW, err,
               "copy: %lld elements of %lld bytes overflow int64", (long long)volume,
               (long long)d.itemsize);
  p->bytes = (size_t)bytes;
  p->d_dense = p->s_dense = true;
  for (int k = 0; k < n; ++k) {
    if (d.strides[k] != p->dense[k]) p->d_dense = false;
    if (s.strides[k] != p->dense[k]) p->s_dense = false;
  }
  size_t d_span = 0;
  JG_RETURN_NOT_OK(rel_span(&d, &p->d_lo, &p->d_hi, &d_span, "dst", err));
  JG_RETURN_NOT_OK(rel_span(&s, &p->s_lo, &p->s_hi, &p->s_span, "src", err));
  return JG_OK;
}

/* Byte address of element (0, ..., 0) of a co-iterated layout. */
static char *elem0(void *base, const jg_layout *l) {
  return (char *)((uintptr_t)base + (uintptr_t)l->slice_offset * (uintptr_t)l->itemsize);
}

/* Whether the bytes of dst's and src's elements intersect (the views are not empty). Only
 * possible within one memory space: both host-accessible (one host address space), or both
 * device memory of the same device. The ranges run from the lowest element's first byte to the
 * highest element's last byte, so interleaved views (a[::2] and a[1::2]) count as overlapping. */
static bool views_overlap(const copy_plan *p, const jg_view *dst, const jg_view *src) {
  const bool both_host = dst->host_accessible && src->host_accessible;
  const bool same_device =
      !dst->host_accessible && !src->host_accessible && dst->device.id == src->device.id;
  if (!both_host && !same_device) return false;
  /* Unsigned arithmetic: lo <= 0 wraps to the right address; every byte offset fits in int64
   * (jgi_layout_check_bytes). */
  const uintptr_t isz = (uintptr_t)p->d.itemsize;
  const uintptr_t d0 = (uintptr_t)elem0(dst->base, &p->d), s0 = (uintptr_t)elem0(src->base, &p->s);
  const uintptr_t d_begin = d0 + (uintptr_t)p->d_lo * isz;
  const uintptr_t d_end = d0 + (uintptr_t)(p->d_hi + 1) * isz;
  const uintptr_t s_begin = s0 + (uintptr_t)p->s_lo * isz;
  const uintptr_t s_end = s0 + (uintptr_t)(p->s_hi + 1) * isz;
  return d_begin < s_end && s_begin < d_end;
}

/* Steps 4 and 5: the path, the staging sizes and the device to run on. */
static jg_status choose_path(copy_plan *p, const jg_view *dst, const jg_view *src, const char *fn,
                             jg_error *err) {
  const bool d_host = dst->host_accessible, s_host = src->host_accessible;
  const bool need_cuda = !d_host || !s_host;
  if (need_cuda) JG_RETURN_NOT_OK(jgi_cuda_require(err));
  /* Host-accessible memory that CUDA also knows about goes through CUDA when CUDA works; without
   * a usable device nothing can be pending on a stream, so plain host code is right. */
  p->use_cuda = need_cuda || ((dst->device_accessible || src->device_accessible) &&
                              jgi_cuda_require(NULL) == JG_OK);
  p->device = -1;
  p->dev_temp = p->host_temp = 0;
  const int n = p->d.ndim;
  const bool contiguous = n == 1 && p->d.strides[0] == 1 && p->s.strides[0] == 1;

  bool same_strides = true;
  for (int k = 0; k < n; ++k) same_strides = same_strides && p->d.strides[k] == p->s.strides[k];
  if (same_strides && elem0(dst->base, &p->d) == elem0(src->base, &p->s)) {
    p->path = PATH_NOOP;
    return JG_OK;
  }
  if (views_overlap(p, dst, src)) {
    if (d_host && s_host) {
      p->path = contiguous ? PATH_HOST_MEMMOVE : PATH_HOST_STAGED;
      p->host_temp = contiguous ? 0 : p->bytes;
    } else {
      p->path = PATH_DEVICE_STAGED;
      p->device = dst->device.id;
      p->dev_temp = p->bytes;
    }
    return JG_OK;
  }
  if (contiguous) {
    p->path = PATH_MEMCPY;
    if (!d_host)
      p->device = dst->device.id;
    else if (!s_host)
      p->device = src->device.id;
    return JG_OK;
  }
  if (d_host && s_host) {
    p->path = PATH_HOST_LOOP;
    return JG_OK;
  }
  const bool span_fits = p->s_span <= p->bytes;
  if (!d_host && !s_host) {
    p->device = dst->device.id;
    if (dst->device.id == src->device.id) {
      p->path = PATH_KERNEL;
    } else if (span_fits) {
      p->path = PATH_SPAN_KERNEL;
      p->dev_temp = p->s_span;
    } else {
      return jg_error_set(err, JG_ENOTSUP, -1,
                          "%s: a strided copy from device %d to device %d needs a source whose "
                          "elements fill their span (copy it to a dense view on device %d first)",
                          fn, (int)src->device.id, (int)dst->device.id, (int)src->device.id);
    }
    return JG_OK;
  }
  if (s_host) { /* host -> device */
    p->device = dst->device.id;
    if (span_fits) {
      p->path = PATH_SPAN_KERNEL;
      p->dev_temp = p->s_span;
    } else if (p->d_dense) {
      p->path = PATH_PACK_MEMCPY;
      p->host_temp = p->bytes;
    } else {
      p->path = PATH_PACK_KERNEL;
      p->host_temp = p->bytes;
      p->dev_temp = p->bytes;
    }
    return JG_OK;
  }
  /* device -> host */
  p->device = src->device.id;
  if (p->d_dense) {
    p->path = PATH_KERNEL_MEMCPY;
    p->dev_temp = p->bytes;
  } else if (p->s_dense) {
    p->path = PATH_MEMCPY_UNPACK;
    p->host_temp = p->bytes;
  } else {
    p->path = PATH_KERNEL_UNPACK;
    p->dev_temp = p->bytes;
    p->host_temp = p->bytes;
  }
  return JG_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* Host loops                                                                                  */
/* ------------------------------------------------------------------------------------------ */

typedef void (*inner_fn)(char *d, const char *s, jg_len n, int64_t dsb, int64_t ssb);

#define JGI_COPY_INNER(N)                                                             \
  static void inner_##N(char *d, const char *s, jg_len n, int64_t dsb, int64_t ssb) { \
    for (jg_len i = 0; i < n; ++i) memcpy(d + i * dsb, s + i * ssb, N);               \
  }
JGI_COPY_INNER(1)
JGI_COPY_INNER(2)
JGI_COPY_INNER(4)
JGI_COPY_INNER(8)
JGI_COPY_INNER(16)
#undef JGI_COPY_INNER

/* Copies the co-iterated shape `shape` (n >= 1 axes) from s to d, strides in elements of
 * `itemsize` bytes, pointers at element (0, ..., 0). Host memory on both sides. */
static void host_loop(char *d, const jg_stride *ds, const char *s, const jg_stride *ss, int n,
                      const jg_len *shape, int64_t itemsize) {
  int64_t dsb[JG_MAX_NDIM], ssb[JG_MAX_NDIM];
  for (int k = 0; k < n; ++k) {
    dsb[k] = ds[k] * itemsize;
    ssb[k] = ss[k] * itemsize;
  }
  const jg_len inner = shape[n - 1];
  const bool run = ds[n - 1] == 1 && ss[n - 1] == 1;
  inner_fn fn = NULL;
  switch (itemsize) {
    case 1:
      fn = inner_1;
      break;
    case 2:
      fn = inner_2;
      break;
    case 4:
      fn = inner_4;
      break;
    case 8:
      fn = inner_8;
      break;
    case 16:
      fn = inner_16;
      break;
    default:
      break;
  }
  jg_len idx[JG_MAX_NDIM] = {0};
  int64_t od = 0, os = 0; /* byte offsets of the current row from element 0 */
  for (;;) {
    char *dr = d + od;
    const char *sr = s + os;
    if (run) {
      memcpy(dr, sr, (size_t)(inner * itemsize));
    } else if (fn != NULL) {
      fn(dr, sr, inner, dsb[n - 1], ssb[n - 1]);
    } else {
      for (jg_len i = 0; i < inner; ++i) {
        memcpy(dr + i * dsb[n - 1], sr + i * ssb[n - 1], (size_t)itemsize);
      }
    }
    /* Odometer over the outer axes, last fastest. */
    int k = n - 2;
    for (; k >= 0; --k) {
      if (++idx[k] < shape[k]) {
        od += dsb[k];
        os += ssb[k];
        break;
      }
      idx[k] = 0;
      od -= dsb[k] * (shape[k] - 1);
      os -= ssb[k] * (shape[k] - 1);
    }
    if (k < 0) return;
  }
}

/* An overlapping copy between host-accessible views: a memmove for one contiguous run
 * (PATH_HOST_MEMMOVE), else src into the dense temporary `tmp` (p->bytes, C order over the
 * co-iterated shape) and `tmp` into dst (PATH_HOST_STAGED). */
static void host_overlap(const copy_plan *p, char *d0, const char *s0, void *tmp) {
  if (p->path == PATH_HOST_MEMMOVE) {
    memmove(d0, s0, p->bytes);
    return;
  }
  const int n = p->d.ndim;
  host_loop(tmp, p->dense, s0, p->s.strides, n, p->d.shape, p->d.itemsize);
  host_loop(d0, p->d.strides, tmp, p->dense, n, p->d.shape, p->d.itemsize);
}

/* ------------------------------------------------------------------------------------------ */
/* Device kernel descriptor                                                                    */
/* ------------------------------------------------------------------------------------------ */

#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA

/* Merges adjacent axes that are mergeable on both sides (stride[k-1] == stride[k] * shape[k]). */
static void desc_merge(jgi_copy_desc *k) {
  int m = 0;
  for (int i = 0; i < k->ndim; ++i) {
    if (m > 0) {
      int64_t pd = 0, ps = 0;
      const bool ok = !jgi_mul_overflow(k->dst_strides[i], k->shape[i], &pd) &&
                      !jgi_mul_overflow(k->src_strides[i], k->shape[i], &ps) &&
                      k->dst_strides[m - 1] == pd && k->src_strides[m - 1] == ps;
      if (ok) {
        k->shape[m - 1] *= k->shape[i];
        k->dst_strides[m - 1] = k->dst_strides[i];
        k->src_strides[m - 1] = k->src_strides[i];
        continue;
      }
    }
    k->shape[m] = k->shape[i];
    k->dst_strides[m] = k->dst_strides[i];
    k->src_strides[m] = k->src_strides[i];
    ++m;
  }
  k->ndim = m;
}

static bool divisible_bytes(int64_t stride, int64_t itemsize, int64_t w) {
  int64_t b = 0;
  if (jgi_mul_overflow(stride, itemsize, &b)) return false;
  return b % w == 0;
}

/* Builds the kernel descriptor for pointers d0, s0 (element 0 of each side): elements whose
 * address alignment is below their size are split into aligned units, and contiguous inner runs
 * are packed into elements of up to 16 bytes where sizes, strides and alignment allow. */
static jg_status desc_build(jgi_copy_desc *k, int n, const jg_len *shape, const jg_stride *ds,
                            const jg_stride *ss, int64_t itemsize, const void *d0, const void *s0,
                            jg_error *err) {
  memset(k, 0, sizeof *k);
  k->ndim = n;
  k->itemsize = itemsize;
  for (int i = 0; i < n; ++i) {
    k->shape[i] = shape[i];
    k->dst_strides[i] = ds[i];
    k->src_strides[i] = ss[i];
  }
  const uintptr_t addr = (uintptr_t)d0 | (uintptr_t)s0;
  int64_t unit = itemsize;
  while (unit > 1 && (addr & (uintptr_t)(unit - 1)) != 0) unit >>= 1;
  if (unit < itemsize) {
    const int64_t f = itemsize / unit;
    JG_RETURN_IF(k->ndim >= JG_MAX_NDIM, JG_ENOTSUP, err,
                 "copy: misaligned %lld-byte elements over %d axes", (long long)itemsize,
                 (int)k->ndim);
    for (int i = 0; i < k->ndim; ++i) {
      const bool ovf = jgi_mul_overflow(k->dst_strides[i], f, &k->dst_strides[i]) ||
                       jgi_mul_overflow(k->src_strides[i], f, &k->src_strides[i]);
      JG_RETURN_IF(ovf, JG_EOVERFLOW, err, "copy: strides overflow when splitting elements");
    }
    k->shape[k->ndim] = f;
    k->dst_strides[k->ndim] = 1;
    k->src_strides[k->ndim] = 1;
    k->ndim += 1;
    k->itemsize = unit;
    desc_merge(k);
  }
  const int last = k->ndim - 1;
  if (k->dst_strides[last] == 1 && k->src_strides[last] == 1) {
    int64_t w = 16;
    for (; w > k->itemsize; w >>= 1) {
      bool ok = (addr & (uintptr_t)(w - 1)) == 0 && divisible_bytes(k->shape[last], k->itemsize, w);
      for (int i = 0; ok && i < last; ++i) {
        ok = divisible_bytes(k->dst_strides[i], k->itemsize, w) &&
             divisible_bytes(k->src_strides[i], k->itemsize, w);
      }
      if (ok) break;
    }
    if (w > k->itemsize) {
      const int64_t f = w / k->itemsize;
      k->shape[last] /= f;
      for (int i = 0; i < last; ++i) {
        k->dst_strides[i] /= f;
        k->src_strides[i] /= f;
      }
      k->itemsize = w;
      if (k->shape[last] == 1 && k->ndim > 1) k->ndim -= 1;
      desc_merge(k);
    }
  }
  return JG_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* Execution                                                                                   */
/* ------------------------------------------------------------------------------------------ */

/* Kernel copy of the co-iterated shape between device pointers d0 and s0. */
static jg_status run_kernel(const copy_plan *p, void *d0, const jg_stride *ds, const void *s0,
                            const jg_stride *ss, cudaStream_t cs, jg_error *err) {
  jgi_copy_desc k;
  JG_RETURN_NOT_OK(desc_build(&k, p->d.ndim, p->d.shape, ds, ss, p->d.itemsize, d0, s0, err));
  return jgi_copy_strided_cuda(d0, s0, &k, (jg_stream)cs, err);
}

typedef struct staging {
  void *dev;      /* device temporary */
  bool dev_owned; /* allocated here */
  bool dev_async; /* with cudaMallocAsync (free with cudaFreeAsync) */
  void *host;     /* host temporary, from the host resource */
  size_t host_bytes;
} staging;

static jg_status staging_alloc(staging *st, const copy_plan *p, temp_mode mode, void *temp,
                               cudaStream_t cs, jg_error *err) {
  if (p->dev_temp > 0) {
    if (mode == TEMP_CALLER) {
      st->dev = temp;
    } else {
      cudaError_t e = cudaMallocAsync(&st->dev, p->dev_temp, cs);
      if (e == cudaErrorNotSupported) { /* no stream-ordered allocator on this device */
        (void)cudaGetLastError();
        e = cudaMalloc(&st->dev, p->dev_temp);
      } else {
        st->dev_async = e == cudaSuccess;
      }
      if (e != cudaSuccess) {
        st->dev = NULL;
        return jgi_cuda_error(err, e, "copy: allocating device staging memory");
      }
      st->dev_owned = true;
    }
  }
  if (p->host_temp > 0) {
    jg_memory_resource *mr = jg_memory_resource_host();
    JG_RETURN_NOT_OK(mr->allocate(mr, p->host_temp, 64, NULL, &st->host, err));
    st->host_bytes = p->host_temp;
  }
  return JG_OK;
}

/* Frees staging memory; `failed` says an error is being returned (then the stream is drained
 * before host memory that a pending transfer might read is freed). Never fails. */
static void staging_free(staging *st, cudaStream_t cs, bool failed) {
  if (st->host != NULL) {
    if (failed && cudaStreamSynchronize(cs) != cudaSuccess) (void)cudaGetLastError();
    jg_memory_resource *mr = jg_memory_resource_host();
    mr->deallocate(mr, st->host, st->host_bytes, NULL);
    st->host = NULL;
  }
  if (st->dev_owned && st->dev != NULL) {
    cudaError_t e;
    if (st->dev_async) {
      e = cudaFreeAsync(st->dev, cs);
    } else {
      e = cudaStreamSynchronize(cs);
      if (e != cudaSuccess) (void)cudaGetLastError();
      e = cudaFree(st->dev);
    }
    if (e != cudaSuccess) (void)cudaGetLastError();
    st->dev = NULL;
  }
}

/* Records one move enqueued by run_cuda (jgi_transfer.h). */
static void moved(bool dst_device, bool src_device, size_t bytes) {
  jgi_transfer_move(dst_device, src_device, (uint64_t)bytes, jgi_call_name("jg_copy"));
}

#define CU(expr, what)                      \
  do {                                      \
    cudaError_t e_ = (expr);                \
    if (e_ != cudaSuccess) {                \
      st = jgi_cuda_error(err, e_, (what)); \
      goto done;                            \
    }                                       \
  } while (0)
#define OK(expr)                \
  do {                          \
    st = (expr);                \
    if (st != JG_OK) goto done; \
  } while (0)

/* Runs a planned copy that involves CUDA. */
static jg_status run_cuda(const copy_plan *p, const jg_view *dst, const jg_view *src,
                          temp_mode mode, void *temp, jg_stream stream, bool sync, jg_error *err) {
  jg_status st = JG_OK;
  int prev = -1;
  bool pushed = false;
  staging stg;
  memset(&stg, 0, sizeof stg);
  cudaStream_t cs = stream != NULL ? (cudaStream_t)stream : cudaStreamLegacy;
  if (p->device >= 0) {
    OK(jgi_cuda_device_push(p->device, &prev, err));
    pushed = true;
  }
  OK(staging_alloc(&stg, p, mode, temp, cs, err));
  char *d0 = elem0(dst->base, &p->d);
  char *s0 = elem0(src->base, &p->s);
  const int n = p->d.ndim;
  const int64_t isz = p->d.itemsize;
  const bool d_dev = !dst->host_accessible, s_dev = !src->host_accessible;
  switch (p->path) {
    case PATH_NOOP:
      break;
    case PATH_MEMCPY:
      CU(cudaMemcpyAsync(d0, s0, p->bytes, cudaMemcpyDefault, cs), "copy: cudaMemcpyAsync");
      moved(d_dev, s_dev, p->bytes);
      break;
    case PATH_HOST_LOOP:
      CU(cudaStreamSynchronize(cs), "copy: cudaStreamSynchronize before a host loop");
      host_loop(d0, p->d.strides, s0, p->s.strides, n, p->d.shape, isz);
      break;
    case PATH_KERNEL:
      OK(run_kernel(p, d0, p->d.strides, s0, p->s.strides, cs, err));
      moved(true, true, p->bytes);
      break;
    case PATH_SPAN_KERNEL: {
      /* The span starts s_lo elements from element 0 (s_lo <= 0). */
      const char *span = s0 + p->s_lo * isz;
      CU(cudaMemcpyAsync(stg.dev, span, p->s_span, cudaMemcpyDefault, cs),
         "copy: cudaMemcpyAsync of the source span");
      moved(true, s_dev, p->s_span);
      const char *t0 = (const char *)stg.dev - p->s_lo * isz;
      OK(run_kernel(p, d0, p->d.strides, t0, p->s.strides, cs, err));
      moved(d_dev, true, p->bytes);
      break;
    }
    case PATH_PACK_MEMCPY:
    case PATH_PACK_KERNEL:
      if (src->device_accessible) {
        CU(cudaStreamSynchronize(cs), "copy: cudaStreamSynchronize before a host pack");
      }
      host_loop(stg.host, p->dense, s0, p->s.strides, n, p->d.shape, isz);
      if (p->path == PATH_PACK_MEMCPY) {
        CU(cudaMemcpyAsync(d0, stg.host, p->bytes, cudaMemcpyDefault, cs),
           "copy: cudaMemcpyAsync host to device");
        moved(d_dev, false, p->bytes);
      } else {
        CU(cudaMemcpyAsync(stg.dev, stg.host, p->bytes, cudaMemcpyDefault, cs),
           "copy: cudaMemcpyAsync host to device");
        moved(true, false, p->bytes);
        OK(run_kernel(p, d0, p->d.strides, stg.dev, p->dense, cs, err));
        moved(d_dev, true, p->bytes);
      }
      /* The host temporary is freed below: wait until the transfer has read it. */
      CU(cudaStreamSynchronize(cs), "copy: cudaStreamSynchronize after staging");
      break;
    case PATH_KERNEL_MEMCPY:
      OK(run_kernel(p, stg.dev, p->dense, s0, p->s.strides, cs, err));
      moved(true, s_dev, p->bytes);
      CU(cudaMemcpyAsync(d0, stg.dev, p->bytes, cudaMemcpyDefault, cs),
         "copy: cudaMemcpyAsync device to host");
      moved(d_dev, true, p->bytes);
      break;
    case PATH_MEMCPY_UNPACK:
    case PATH_KERNEL_UNPACK:
      if (p->path == PATH_MEMCPY_UNPACK) {
        CU(cudaMemcpyAsync(stg.host, s0, p->bytes, cudaMemcpyDefault, cs),
           "copy: cudaMemcpyAsync device to host");
        moved(false, s_dev, p->bytes);
      } else {
        OK(run_kernel(p, stg.dev, p->dense, s0, p->s.strides, cs, err));
        moved(true, s_dev, p->bytes);
        CU(cudaMemcpyAsync(stg.host, stg.dev, p->bytes, cudaMemcpyDefault, cs),
           "copy: cudaMemcpyAsync device to host");
        moved(false, true, p->bytes);
      }
      CU(cudaStreamSynchronize(cs), "copy: cudaStreamSynchronize before a host unpack");
      host_loop(d0, p->d.strides, stg.host, p->dense, n, p->d.shape, isz);
      break;
    case PATH_HOST_MEMMOVE:
    case PATH_HOST_STAGED:
      /* Overlapping host-accessible views (cudaMemcpy is undefined for overlapping ranges): host
       * code, after the work enqueued before the copy. */
      CU(cudaStreamSynchronize(cs), "copy: cudaStreamSynchronize before an overlapping copy");
      host_overlap(p, d0, s0, stg.host);
      break;
    case PATH_DEVICE_STAGED:
      /* src -> dense temporary -> dst, both on the device, ordered on the stream. */
      if (p->s_dense) {
        CU(cudaMemcpyAsync(stg.dev, s0, p->bytes, cudaMemcpyDeviceToDevice, cs),
           "copy: cudaMemcpyAsync into the staging memory of an overlapping copy");
      } else {
        OK(run_kernel(p, stg.dev, p->dense, s0, p->s.strides, cs, err));
      }
      moved(true, s_dev, p->bytes);
      if (p->d_dense) {
        CU(cudaMemcpyAsync(d0, stg.dev, p->bytes, cudaMemcpyDeviceToDevice, cs),
           "copy: cudaMemcpyAsync out of the staging memory of an overlapping copy");
      } else {
        OK(run_kernel(p, d0, p->d.strides, stg.dev, p->dense, cs, err));
      }
      moved(d_dev, true, p->bytes);
      break;
  }
done:
  staging_free(&stg, cs, st != JG_OK);
  if (st == JG_OK && sync) {
    cudaError_t e = cudaStreamSynchronize(cs);
    if (e != cudaSuccess) st = jgi_cuda_error(err, e, "copy: cudaStreamSynchronize");
  }
  if (pushed) jgi_cuda_device_pop(prev, p->device);
  return st;
}

#undef CU
#undef OK

#endif /* JG_HAVE_CUDA */

/* The host-only copy (no CUDA involved). Fails only when host staging cannot be allocated. */
static jg_status run_host(const copy_plan *p, const jg_view *dst, const jg_view *src,
                          jg_error *err) {
  char *d0 = elem0(dst->base, &p->d);
  const char *s0 = elem0(src->base, &p->s);
  switch (p->path) {
    case PATH_MEMCPY:
      memcpy(d0, s0, p->bytes);
      return JG_OK;
    case PATH_HOST_LOOP:
      host_loop(d0, p->d.strides, s0, p->s.strides, p->d.ndim, p->d.shape, p->d.itemsize);
      return JG_OK;
    case PATH_HOST_MEMMOVE:
    case PATH_HOST_STAGED: {
      jg_memory_resource *mr = jg_memory_resource_host();
      void *tmp = NULL;
      if (p->host_temp > 0) {
        JG_RETURN_NOT_OK(mr->allocate(mr, p->host_temp, 64, NULL, &tmp, err));
      }
      host_overlap(p, d0, s0, tmp);
      mr->deallocate(mr, tmp, p->host_temp, NULL);
      return JG_OK;
    }
    case PATH_NOOP:
      return JG_OK;
    default:
      return jg_error_set(err, JG_EINTERNAL, -1, "copy: path %d needs CUDA", (int)p->path);
  }
}

static jg_status copy_run(const jg_view *dst, const jg_view *src, temp_mode mode, void *temp,
                          size_t *temp_bytes, jg_stream stream, bool sync, const char *fn,
                          jg_error *err) {
  bool empty = false;
  JG_RETURN_NOT_OK(check_views(dst, src, fn, &empty, err));
  if (empty) {
    if (mode == TEMP_QUERY) *temp_bytes = 1;
    return JG_OK;
  }
  copy_plan p;
  memset(&p, 0, sizeof p);
  JG_RETURN_NOT_OK(co_iterate(&p, dst, src, err));
  JG_RETURN_NOT_OK(choose_path(&p, dst, src, fn, err));
  if (mode == TEMP_QUERY) {
    /* At least 1, as CUB does, so that the second call of the two-phase idiom never passes a
     * NULL temp (which would be another query). */
    *temp_bytes = p.dev_temp > 0 ? p.dev_temp : 1;
    return JG_OK;
  }
  if (mode == TEMP_CALLER) {
    JG_RETURN_IF(*temp_bytes < p.dev_temp, JG_EINVAL, err,
                 "%s: temp_bytes is %zu but this copy needs %zu bytes of device staging", fn,
                 *temp_bytes, p.dev_temp);
  }
  if (!p.use_cuda) return run_host(&p, dst, src, err);
#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA
  return run_cuda(&p, dst, src, mode, temp, stream, sync, err);
#else
  (void)temp;
  (void)stream;
  (void)sync;
  return jg_error_set(err, JG_EINTERNAL, -1, "%s: CUDA path chosen in a build without CUDA", fn);
#endif
}

/* ------------------------------------------------------------------------------------------ */
/* Public API                                                                                  */
/* ------------------------------------------------------------------------------------------ */

/* The public calls name their transfers (jgi_call_enter) unless an outer call already does. */
jg_status jg_copy(const jg_view *dst, const jg_view *src, jg_error *err) {
  jgi_call_enter("jg_copy");
  const jg_status st = copy_run(dst, src, TEMP_ALLOCATE, NULL, NULL, NULL, true, "jg_copy", err);
  jgi_call_leave();
  return st;
}

jg_status jg_copy_async(const jg_view *dst, const jg_view *src, jg_stream stream, jg_error *err) {
  jgi_call_enter("jg_copy_async");
  const jg_status st =
      copy_run(dst, src, TEMP_ALLOCATE, NULL, NULL, stream, false, "jg_copy_async", err);
  jgi_call_leave();
  return st;
}

jg_status jg_copy_ex(const jg_view *dst, const jg_view *src, void *temp, size_t *temp_bytes,
                     jg_stream stream, jg_error *err) {
  JG_RETURN_IF(temp_bytes == NULL, JG_EINVAL, err, "jg_copy_ex: temp_bytes is NULL");
  const temp_mode mode = temp == NULL ? TEMP_QUERY : TEMP_CALLER;
  jgi_call_enter("jg_copy_ex");
  const jg_status st = copy_run(dst, src, mode, temp, temp_bytes, stream, false, "jg_copy_ex", err);
  jgi_call_leave();
  return st;
}
