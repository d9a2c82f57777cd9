/* layout.h: strided layouts (shape, strides in elements, itemsize, slice offset).
 *
 * The semantics are exactly those of NVIDIA cuda.core's StridedLayout (NVIDIA/cuda-python,
 * cuda_core/cuda/core/_layout.pyx; summarised in ../shared/notes/memory.md section 1), written in
 * C: every operation writes a new layout to `out` and may run in place (`out == in` is allowed).
 * Strides are always explicit (an implicit C-order layout is materialised at construction), so
 * "NULL strides" and explicit C strides are the same layout. All arithmetic is overflow-checked
 * in int64: an operation that would overflow returns JG_EOVERFLOW and leaves `out` unchanged.
 *
 * Element (i0, ..., in-1) lives at ELEMENT offset slice_offset + sum(ik * strides[k]) from the
 * base pointer, i.e. at byte offset itemsize times that. A layout does not know the base pointer.
 */
#ifndef JAGGED_LAYOUT_H
#define JAGGED_LAYOUT_H

#include "jagged/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Most axes a layout may have (cuda.core STRIDED_LAYOUT_MAX_NDIM). */
#define JG_MAX_NDIM 64

/** A strided layout. A plain value type (about 1 KiB); copy it by assignment. Build it with the
 *  jg_layout_init* functions rather than by hand so that the invariants hold: 0 <= ndim <=
 *  JG_MAX_NDIM, shape[k] >= 0, itemsize > 0, volume fits in int64, and a layout of volume 0 has
 *  all strides 0. Entries past ndim are zero. */
typedef struct jg_layout {
  int32_t ndim;
  int64_t itemsize;              /**< bytes per element, > 0 */
  jg_offset slice_offset;        /**< elements from the base pointer to element (0, ..., 0) */
  jg_len shape[JG_MAX_NDIM];
  jg_stride strides[JG_MAX_NDIM];/**< in elements */
} jg_layout;

/** Orders for dense layouts. */
typedef enum jg_order {
  JG_ORDER_C = 1,    /**< last axis fastest (row-major) */
  JG_ORDER_F = 2,    /**< first axis fastest (column-major) */
  JG_ORDER_K = 3,    /**< keep the stride order of a given layout (dense_like, to_dense) */
  JG_ORDER_PERM = 4  /**< an explicit permutation: axes from largest stride to smallest */
} jg_order;

/** Builds a layout of `ndim` axes with extents `shape` (ndim entries, each >= 0) and strides
 *  `strides` in elements (ndim entries, or NULL for C order), `itemsize` bytes per element and
 *  slice offset 0. `shape` may be NULL when ndim is 0. If the volume is 0 all strides become 0.
 *  Errors: JG_EINVAL (NULL out; ndim < 0 or > JG_MAX_NDIM; a negative extent: index = axis;
 *  itemsize <= 0), JG_EOVERFLOW (volume or a stride product overflows int64). */
JG_API jg_status jg_layout_init(jg_layout *out, int ndim, const jg_len *shape,
                                const jg_stride *strides, int64_t itemsize, jg_error *err);

/** As jg_layout_init, but `byte_strides` are in bytes and each must be an exact multiple of
 *  `itemsize` (NumPy and CUDA Array Interface strides). NULL means C order.
 *  Errors: as jg_layout_init, and JG_EINVAL "strides must be divisible by itemsize" naming the
 *  axis (index = axis). */
JG_API jg_status jg_layout_init_byte_strides(jg_layout *out, int ndim, const jg_len *shape,
                                             const int64_t *byte_strides, int64_t itemsize,
                                             jg_error *err);

/** A dense layout: the elements map one-to-one onto element offsets [0, volume). `order` is C,
 *  F, or PERM with `perm` (ndim axes, largest stride first; the last axis listed gets stride 1).
 *  For shape (5, 3, 7): C gives strides (21, 7, 1), F gives (1, 5, 15), perm (2, 0, 1) gives
 *  (3, 1, 15). `perm` is ignored unless order is PERM. Volume 0 gives all strides 0.
 *  Errors: as jg_layout_init; JG_EINVAL for a bad order or a perm that is not a permutation. */
JG_API jg_status jg_layout_dense(jg_layout *out, int ndim, const jg_len *shape,
                                 int64_t itemsize, jg_order order, const int *perm,
                                 jg_error *err);

/** A dense layout with the shape and itemsize of `in` and slice offset 0, in `order` (K keeps
 *  in's stride order; C, F, or PERM with `perm`). If `in` is already dense in that order the
 *  result equals `in`. Errors: JG_EINVAL (bad order or perm), JG_EOVERFLOW. */
JG_API jg_status jg_layout_dense_like(jg_layout *out, const jg_layout *in, jg_order order,
                                      const int *perm, jg_error *err);

/** jg_layout_dense_like(out, in, JG_ORDER_K, NULL, err): the dense layout to copy `in` into. */
JG_API jg_status jg_layout_to_dense(jg_layout *out, const jg_layout *in, jg_error *err);

/** Number of elements: the product of the shape, 1 for 0-d. */
JG_API jg_len jg_layout_volume(const jg_layout *l);

/** Strides in bytes (strides times itemsize) into `byte_strides` (ndim entries).
 *  Errors: JG_EINVAL (NULL), JG_EOVERFLOW. */
JG_API jg_status jg_layout_strides_in_bytes(const jg_layout *l, int64_t *byte_strides,
                                            jg_error *err);

/** The stride order into `perm` (ndim entries): axes sorted by |stride| descending, ties broken
 *  by larger extent first, then lower axis first. C-dense gives (0, ..., n-1); F-dense gives
 *  (n-1, ..., 0). */
JG_API void jg_layout_stride_order(const jg_layout *l, int *perm);

/** Smallest and largest element offset any element maps to, from the base pointer (slice_offset
 *  included). Volume 0 gives (0, -1). Either pointer may be NULL. */
JG_API void jg_layout_offset_bounds(const jg_layout *l, jg_offset *min_offset,
                                    jg_offset *max_offset);

/** C-contiguous: volume 0, or every axis of extent != 1, walked right to left, has stride equal
 *  to the product of the extents to its right (extent-1 axes are skipped). Ignores slice_offset. */
JG_API bool jg_layout_is_contiguous_c(const jg_layout *l);
/** F-contiguous: the mirror image of jg_layout_is_contiguous_c, walked left to right. */
JG_API bool jg_layout_is_contiguous_f(const jg_layout *l);
/** Contiguous in some axis order: C-contiguous after permuting by the stride order. Negative
 *  strides are never contiguous (unless the axis has extent 1). */
JG_API bool jg_layout_is_contiguous_any(const jg_layout *l);
/** Dense: contiguous in some order and slice_offset 0 (elements fill [0, volume)). */
JG_API bool jg_layout_is_dense(const jg_layout *l);
/** Unique: no two indices share an offset. A cheap sufficient test (cuda.core's): may say false
 *  for exotic unique layouts; always false for a broadcast (stride 0 on extent > 1). Volume 0 is
 *  unique. */
JG_API bool jg_layout_is_unique(const jg_layout *l);

/** Bytes a buffer needs, from the base pointer, to hold every element: (max_offset + 1) *
 *  itemsize, or 0 for volume 0. Errors: JG_EINVAL if min_offset < 0 ("layout maps elements to
 *  negative offsets"), JG_EOVERFLOW. */
JG_API jg_status jg_layout_required_size(const jg_layout *l, size_t *bytes, jg_error *err);

/** Reshapes without copying (NumPy reshape(copy=False) rules): `shape` has `ndim` entries, at
 *  most one of them -1 (inferred). Zero-volume layouts reshape freely and get zero strides.
 *  Errors: JG_EINVAL (more than one -1, an extent < -1, a -1 beside a zero sub-volume:
 *  "ambiguous"), JG_ESHAPE (volumes differ; "layout strides are incompatible with the new shape"
 *  when a copy would be needed), JG_EOVERFLOW. */
JG_API jg_status jg_layout_reshape(jg_layout *out, const jg_layout *in, int ndim,
                                   const jg_len *shape, jg_error *err);

/** Permutes axes: out axis k is in axis axes[k] (ndim entries; negative axes count from the end).
 *  slice_offset is kept. Errors: JG_EINVAL (out of range or repeated axis; index = position). */
JG_API jg_status jg_layout_permute(jg_layout *out, const jg_layout *in, const int *axes,
                                   jg_error *err);

/** Bit i (i >= 1) is set when axis i can merge into axis i-1: strides[i-1] == strides[i] *
 *  shape[i]. AND the masks of two layouts to flatten them alike (jg_layout_flatten). */
JG_API uint64_t jg_layout_flatten_mask(const jg_layout *l);

/** Merges mergeable runs of adjacent axes in [start_axis, end_axis] (negative axes count from the
 *  end; 0 and -1 for all), restricted to the bits of `mask` (pass UINT64_MAX for no
 *  restriction). A 0-d layout flattens to shape (1,), strides (1,). Example: shape (5, 1, 2, 4, 3)
 *  sliced [..., ::-2] flattens to shape (40, 2), strides (3, -2).
 *  Errors: JG_EINVAL (axes out of range or start > end). */
JG_API jg_status jg_layout_flatten(jg_layout *out, const jg_layout *in, int start_axis,
                                   int end_axis, uint64_t mask, jg_error *err);

/** Drops every extent-1 axis; if any extent is 0 the result is shape (0,), strides (0,).
 *  Never fails for a valid layout; returns JG_EINVAL only for NULL arguments. */
JG_API jg_status jg_layout_squeeze(jg_layout *out, const jg_layout *in, jg_error *err);

/** Inserts extent-1 axes at `naxes` positions `axes`, counted in the OUTPUT rank (negative from
 *  its end), as NumPy's expand_dims; an inserted axis gets stride extent * stride of the axis
 *  after it (the last axis's stride at the end, 1 for 0-d). Errors: JG_EINVAL (out of range or
 *  repeated axis; output rank > JG_MAX_NDIM). */
JG_API jg_status jg_layout_unsqueeze(jg_layout *out, const jg_layout *in, int naxes,
                                     const int *axes, jg_error *err);

/** Broadcasts to `shape` (`ndim` >= in->ndim entries; right-aligned; each old extent must be 1 or
 *  equal the new one). New and stretched axes get stride 0.
 *  Errors: JG_EINVAL (fewer axes), JG_ESHAPE (incompatible extent; index = axis of `shape`). */
JG_API jg_status jg_layout_broadcast_to(jg_layout *out, const jg_layout *in, int ndim,
                                        const jg_len *shape, jg_error *err);

/** Views the same bytes with `new_itemsize` along `axis` (which must have stride 1 and extent
 *  > 0), keeping volume * itemsize: float32 (5, 6) repacked to 8 bytes is (5, 3). Packing by k
 *  needs the extent at `axis`, every other stride and slice_offset divisible by k, and `data_ptr`
 *  (the base address, or 0 to skip the check) aligned to new_itemsize. With keep_dim false an axis
 *  that ends with extent 1 is dropped. Errors: JG_EINVAL naming the failed condition. */
JG_API jg_status jg_layout_repack(jg_layout *out, const jg_layout *in, int64_t new_itemsize,
                                  uintptr_t data_ptr, int axis, bool keep_dim, jg_error *err);

/** The largest itemsize (dividing `max_itemsize`) that jg_layout_repack could pack `l` into along
 *  `axis`: the gcd of max_itemsize, data_ptr, slice_offset*itemsize, extent*itemsize and every
 *  other |stride|*itemsize; `l->itemsize` if the stride on `axis` is not 1. */
JG_API int64_t jg_layout_max_compatible_itemsize(const jg_layout *l, int64_t max_itemsize,
                                                 uintptr_t data_ptr, int axis);

/** "No value" for a jg_slice bound, as None in Python. */
#define JG_SLICE_NONE INT64_MIN

/** One index or slice along an axis, with Python semantics. */
typedef struct jg_slice {
  bool is_index;   /**< true: an integer index (removes the axis); false: start:stop:step */
  int64_t start;   /**< the index, or the slice start; JG_SLICE_NONE for None */
  int64_t stop;    /**< JG_SLICE_NONE for None */
  int64_t step;    /**< JG_SLICE_NONE for None (1); 0 is an error */
} jg_slice;

/** A jg_slice for integer index `i` (negative counts from the end). */
#define JG_INDEX(i) ((jg_slice){true, (i), JG_SLICE_NONE, JG_SLICE_NONE})
/** A jg_slice start:stop:step; use JG_SLICE_NONE for an omitted bound. */
#define JG_SLICE(start, stop, step) ((jg_slice){false, (start), (stop), (step)})
/** The whole axis, ':'. */
#define JG_SLICE_ALL JG_SLICE(JG_SLICE_NONE, JG_SLICE_NONE, JG_SLICE_NONE)

/** Applies `n` <= ndim slices to the leading axes (like layout[s0, s1, ...]; remaining axes are
 *  kept whole). Bounds are clipped as CPython's PySlice_AdjustIndices does, negative steps
 *  included; new stride = stride * step; slice_offset grows by start * stride (and by index *
 *  stride for integer indices). If any resulting extent is 0 all strides become 0.
 *  Errors: JG_EINVAL (more slices than axes, step 0; index = slice position), JG_EINDEX (integer
 *  index out of range; index = slice position), JG_EOVERFLOW. */
JG_API jg_status jg_layout_slice(jg_layout *out, const jg_layout *in, int n,
                                 const jg_slice *slices, jg_error *err);

/** Equal layouts: same itemsize, slice_offset, ndim, shape and strides. */
JG_API bool jg_layout_equal(const jg_layout *a, const jg_layout *b);

#ifdef __cplusplus
}
#endif

#endif /* JAGGED_LAYOUT_H */
