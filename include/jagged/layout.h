/* layout.h: strided layouts (shape, strides in elements, itemsize, slice offset).
 *
 * The semantics are exactly those of NVIDIA cuda.core's StridedLayout (NVIDIA cuda-python,
 * cuda_core/cuda/core/_layout.pyx), written in C: every operation writes a new layout to `out`
 * and may run in place (`out == in` is allowed). Strides are always explicit (an implicit C-order
 * layout is materialised at construction), so "NULL strides" and explicit C strides are the same
 * layout. All arithmetic is overflow-checked in int64: an operation that would overflow returns
 * JG_EOVERFLOW. A failed operation never changes `out`.
 *
 * Layout arguments must be valid, i.e. satisfy the invariants documented on jg_layout. Layouts
 * built by these functions always are; a hand-filled or edited one is checked on entry by every
 * function that takes a layout (and by every function that takes a view): JG_EINVAL for a NULL
 * layout, ndim outside [0, JG_MAX_NDIM], itemsize <= 0 or a negative extent ("extents must be
 * non-negative", index = axis), JG_EOVERFLOW when its volume or an element offset (for a volume
 * > 0) overflows int64. Functions that cannot fail return the value documented for NULL when
 * given an invalid layout. The strides of a zero-volume layout are never looked at.
 * Errors put the offending axis or argument position in jg_error.index (-1 when none applies).
 * Every function is pure host code: no allocation, no device access, thread-safe on distinct
 * outputs, O(ndim) work (O(ndim^2) where the stride order is needed).
 *
 * Deliberate differences from cuda.core, each noted where it applies: zero-volume layouts always
 * have zero strides; reshape also succeeds in the NumPy cases where only extent-1 axes block
 * cuda.core; flatten rejects start > end; repack requires itemsizes that divide each other;
 * broadcast_to zeroes the strides of a zero-volume result.
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
 *  JG_MAX_NDIM, shape[k] >= 0, itemsize > 0, volume fits in int64, the smallest and largest
 *  element offsets (slice_offset included) fit in int64, and a layout of volume 0 has all
 *  strides 0. Entries past ndim are zero. Every function below preserves these invariants and
 *  checks all but the last two on entry (a hand-filled layout of volume 0 with non-zero strides
 *  is accepted; results built from it get zero strides). */
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
 *  `strides` in elements (ndim entries, any sign, or NULL for C order), `itemsize` bytes per
 *  element and slice offset 0. `shape` may be NULL when ndim is 0. If the volume is 0 all
 *  strides become 0 (cuda.core keeps explicit strides there; CuPy >= 11 and dense() zero them).
 *  Errors: JG_EINVAL (NULL out; ndim < 0 or > JG_MAX_NDIM; NULL shape with ndim > 0; a negative
 *  extent, "extents must be non-negative": index = axis; itemsize <= 0), JG_EOVERFLOW (the volume,
 *  or the offset of some element, overflows int64; a zero-volume shape never overflows). */
JG_API jg_status jg_layout_init(jg_layout *out, int ndim, const jg_len *shape,
                                const jg_stride *strides, int64_t itemsize, jg_error *err);

/** As jg_layout_init, but `byte_strides` are in bytes and each must be an exact multiple of
 *  `itemsize` (NumPy and CUDA Array Interface strides; cuda.core's divide_strides=True). NULL
 *  means C order. Divisibility is checked even when the volume is 0 (reject at construction, as
 *  NVIDIA cuda-python issue #1429 concluded). Errors: as jg_layout_init, and JG_EINVAL "strides must be divisible by
 *  itemsize" naming the axis (index = axis). */
JG_API jg_status jg_layout_init_byte_strides(jg_layout *out, int ndim, const jg_len *shape,
                                             const int64_t *byte_strides, int64_t itemsize,
                                             jg_error *err);

/** A dense layout: the elements map one-to-one onto element offsets [0, volume). `order` is C,
 *  F, or PERM with `perm` (ndim axes, largest stride first; the last axis listed gets stride 1;
 *  negative axes count from the end, as in cuda.core). For shape (5, 3, 7): C gives strides
 *  (21, 7, 1), F gives (1, 5, 15), perm (2, 0, 1) gives (3, 1, 15). `perm` is ignored unless
 *  order is PERM. Volume 0 gives all strides 0. Slice offset 0.
 *  Errors: as jg_layout_init; JG_EINVAL for order K or another value that is not C, F or PERM,
 *  a NULL perm with ndim > 0, or a perm entry out of range or repeated (index = position). */
JG_API jg_status jg_layout_dense(jg_layout *out, int ndim, const jg_len *shape,
                                 int64_t itemsize, jg_order order, const int *perm,
                                 jg_error *err);

/** A dense layout with the shape and itemsize of `in` and slice offset 0, in `order`: K keeps
 *  in's stride order (jg_layout_stride_order), C, F, or PERM with `perm` (as jg_layout_dense).
 *  As in cuda.core, `in` itself is returned unchanged (strides of extent-1 axes included) when
 *  order is K and `in` is dense, or order is C (F) and `in` is dense and C- (F-) contiguous; PERM
 *  always recomputes the strides. This is NumPy's copy(order=...) layout.
 *  Errors: JG_EINVAL (NULL or invalid argument, bad order or perm; index = perm position). */
JG_API jg_status jg_layout_dense_like(jg_layout *out, const jg_layout *in, jg_order order,
                                      const int *perm, jg_error *err);

/** jg_layout_dense_like(out, in, JG_ORDER_K, NULL, err): the dense layout to copy `in` into. */
JG_API jg_status jg_layout_to_dense(jg_layout *out, const jg_layout *in, jg_error *err);

/** Number of elements: the product of the shape, 1 for 0-d; -1 for NULL or an invalid layout
 *  (negative extent, overflowing volume or offsets, bad ndim or itemsize). */
JG_API jg_len jg_layout_volume(const jg_layout *l);

/** Strides in bytes (strides times itemsize) into `byte_strides` (ndim entries; may be NULL for
 *  ndim 0). Errors: JG_EINVAL (NULL), JG_EOVERFLOW (index = axis; byte_strides untouched). */
JG_API jg_status jg_layout_strides_in_bytes(const jg_layout *l, int64_t *byte_strides,
                                            jg_error *err);

/** The stride order into `perm` (ndim entries): axes sorted by |stride| descending, ties broken
 *  by larger extent first, then lower axis first (cuda.core's _order_from_strides). C-dense
 *  gives (0, ..., n-1); F-dense gives (n-1, ..., 0). Does nothing if either pointer is NULL or
 *  the layout is invalid. */
JG_API void jg_layout_stride_order(const jg_layout *l, int *perm);

/** Smallest and largest element offset any element maps to, from the base pointer (slice_offset
 *  included): slice_offset plus the sum of stride * (extent - 1) over the axes with stride <= 0
 *  (resp. > 0). Volume 0, a NULL layout or an invalid one give (0, -1). Either output pointer may
 *  be NULL. Never overflows (validity includes offsets that fit in int64). */
JG_API void jg_layout_offset_bounds(const jg_layout *l, jg_offset *min_offset,
                                    jg_offset *max_offset);

/** C-contiguous: volume 0, or every axis of extent != 1, walked right to left, has stride equal
 *  to the product of the extents to its right (extent-1 axes are skipped, as NumPy's relaxed
 *  strides flags). Ignores slice_offset. False for NULL. */
JG_API bool jg_layout_is_contiguous_c(const jg_layout *l);
/** F-contiguous: the mirror image of jg_layout_is_contiguous_c, walked left to right. */
JG_API bool jg_layout_is_contiguous_f(const jg_layout *l);
/** Contiguous in some axis order: volume 0, or C-contiguous after permuting by the stride order.
 *  Negative strides are never contiguous (unless the axis has extent 1). False for NULL. */
JG_API bool jg_layout_is_contiguous_any(const jg_layout *l);
/** Dense: contiguous in some order and slice_offset 0 (elements fill [0, volume)). False for
 *  NULL. */
JG_API bool jg_layout_is_dense(const jg_layout *l);
/** Unique: no two indices share an offset. A cheap sufficient test (cuda.core's): visiting the
 *  axes of extent != 1 from the smallest |stride| up, each |stride| must exceed the largest
 *  offset reachable through the axes before it. May say false for exotic unique layouts; always
 *  false for a broadcast (stride 0 on extent > 1); true for anything obtained from a dense
 *  layout by permute, slice, flatten, squeeze, unsqueeze, reshape or repack. Volume 0 is unique.
 *  False for NULL. */
JG_API bool jg_layout_is_unique(const jg_layout *l);

/** Bytes a buffer needs, from the base pointer, to hold every element: (max_offset + 1) *
 *  itemsize, or 0 for volume 0 (so it includes the slice_offset prefix). Errors: JG_EINVAL (NULL
 *  argument; min_offset < 0: "the size of a layout that maps elements to negative offsets is
 *  ambiguous"), JG_EOVERFLOW (the byte count overflows int64 or size_t). */
JG_API jg_status jg_layout_required_size(const jg_layout *l, size_t *bytes, jg_error *err);

/** Reshapes without copying (NumPy reshape(copy=False) rules): `shape` has `ndim` entries
 *  (NULL allowed for ndim 0), at most one of them -1 (inferred from the volume). The element
 *  order in C index order is kept; slice_offset and itemsize are kept. Zero-volume layouts
 *  reshape freely and get zero strides: (0,) to (1, -1) gives (1, 0). Algorithm (cuda.core):
 *  merge in's axes in C index order (jg_layout_flatten), then split the merged axes into the new
 *  extents from the right; if that fails, retry with in's extent-1 axes removed first (NumPy
 *  does; cuda.core does not, so e.g. shape (3, 1, 4) strides (4, 1, 1) to (12,) succeeds here
 *  only). Results where cuda.core succeeds are identical to cuda.core's. Examples: (12, 4)
 *  sliced [:, :-1] reshapes to (6, 2, 3) but not to (6, 6); (10, 10, 10) sliced [::-1, ::-1, :]
 *  reshapes to (100, 10) but not to (10, 100).
 *  Errors: JG_EINVAL (NULL argument; ndim out of range; an extent < -1 or a second -1: index =
 *  position; a -1 beside a zero sub-volume: "ambiguous", index = its position), JG_ESHAPE (the
 *  volumes differ or the volume is not divisible by the sub-volume; "layout strides are
 *  incompatible with the new shape" when a copy would be needed), JG_EOVERFLOW. */
JG_API jg_status jg_layout_reshape(jg_layout *out, const jg_layout *in, int ndim,
                                   const jg_len *shape, jg_error *err);

/** Permutes axes: out axis k is in axis axes[k] (in->ndim entries, NULL allowed for 0-d;
 *  negative axes count from the end). slice_offset is kept. Errors: JG_EINVAL (NULL argument;
 *  out of range or repeated axis; index = position). */
JG_API jg_status jg_layout_permute(jg_layout *out, const jg_layout *in, const int *axes,
                                   jg_error *err);

/** Bit i (1 <= i < ndim) is set when axis i can merge into axis i-1: strides[i-1] == strides[i] *
 *  shape[i] (a product that overflows never matches). Bit 0 and bits >= ndim are 0; 0 for NULL.
 *  AND the masks of two layouts of equal shape to flatten them alike (jg_layout_flatten), as a
 *  copy kernel does to co-iterate source and destination. */
JG_API uint64_t jg_layout_flatten_mask(const jg_layout *l);

/** Merges mergeable runs of adjacent axes in [start_axis, end_axis] (negative axes count from the
 *  end; 0 and -1 for all, valid for 0-d too), restricted to the bits of `mask` (bit i lets axis
 *  i merge into axis i-1; pass UINT64_MAX for no restriction). Merged axes get the product of
 *  the extents and the stride of the last (fastest) one; slice_offset is kept. A 0-d layout
 *  flattens to shape (1,), strides (1,). Example: shape (5, 1, 2, 4, 3) sliced [..., ::-2]
 *  flattens to shape (40, 2), strides (3, -2); with axes [0, 2] to (10, 4, 2), (12, 3, -2).
 *  Only axes inside the range merge with each other (cuda.core's range mask also lets axis
 *  start_axis merge into start_axis - 1; we follow its docstring, not that off-by-one).
 *  Errors: JG_EINVAL (NULL argument; an axis out of range, index = that axis; start > end after
 *  normalising, where cuda.core would silently merge nothing), JG_EOVERFLOW (a merged extent
 *  overflows int64: only a zero-volume layout whose 0 extent the range or mask keeps apart). */
JG_API jg_status jg_layout_flatten(jg_layout *out, const jg_layout *in, int start_axis,
                                   int end_axis, uint64_t mask, jg_error *err);

/** Drops every extent-1 axis (all-ones shapes become 0-d); if any extent is 0 the result is
 *  shape (0,), strides (0,). slice_offset is kept. Never fails for a valid layout; returns
 *  JG_EINVAL for a NULL `out` and the entry check's errors (top of this file) for an invalid
 *  `in`. */
JG_API jg_status jg_layout_squeeze(jg_layout *out, const jg_layout *in, jg_error *err);

/** Inserts extent-1 axes at `naxes` positions `axes`, counted in the OUTPUT rank in->ndim + naxes
 *  (negative from its end, any order), as NumPy's expand_dims; an inserted axis gets stride
 *  extent * stride of the next original axis after it (the last axis's stride at the end, 1 for
 *  0-d), which keeps it mergeable by jg_layout_flatten. This equals NumPy's strides except where
 *  NumPy drops extent-1 axes of a non-contiguous array first. naxes 0 copies `in`.
 *  Errors: JG_EINVAL (NULL argument, naxes < 0, output rank > JG_MAX_NDIM, an axis out of range
 *  or repeated: index = position), JG_EOVERFLOW (an inserted stride overflows). */
JG_API jg_status jg_layout_unsqueeze(jg_layout *out, const jg_layout *in, int naxes,
                                     const int *axes, jg_error *err);

/** Broadcasts to `shape` (`ndim` >= in->ndim entries, at most JG_MAX_NDIM; right-aligned; each
 *  old extent must be 1 or equal the new one). New and stretched axes get stride 0, the others
 *  keep theirs; slice_offset is kept (np.broadcast_to). The result is unique only if nothing was
 *  stretched. A zero-volume result gets all strides 0 (cuda.core keeps the unchanged ones).
 *  Errors: JG_EINVAL (NULL argument; fewer axes; ndim > JG_MAX_NDIM; a negative extent: index =
 *  axis), JG_ESHAPE (incompatible extent; index = axis of `shape`), JG_EOVERFLOW (volume). */
JG_API jg_status jg_layout_broadcast_to(jg_layout *out, const jg_layout *in, int ndim,
                                        const jg_len *shape, jg_error *err);

/** Views the same bytes with `new_itemsize` along `axis` (negative counts from the end), keeping
 *  volume * itemsize (ndarray.view(dtype) on the stride-1 axis): float32 (5, 6) repacked to 8
 *  bytes is (5, 3); repacked to 2 bytes it is (5, 12). new_itemsize == itemsize copies `in`
 *  without any check. Otherwise the axis must have extent > 0 and stride 1, and one itemsize
 *  must be a multiple of the other (cuda.core floors the ratio instead). Packing by k =
 *  new_itemsize / itemsize divides the extent at `axis`, every other stride and slice_offset by
 *  k, which must all be divisible, and needs `data_ptr` (the base address, or 0 to skip the
 *  check) aligned to new_itemsize; with keep_dim false an axis that ends with extent 1 is
 *  dropped. Unpacking by k = itemsize / new_itemsize multiplies the extent at `axis`, every
 *  other stride and slice_offset by k (data_ptr and keep_dim unused).
 *  Errors: JG_EINVAL naming the failed condition (NULL argument; new_itemsize <= 0; axis out of
 *  range, index = axis; itemsizes not multiples; unaligned data_ptr; zero extent or stride != 1
 *  on the axis, index = axis; extent, slice offset or another stride not divisible by k, index =
 *  that axis or -1), JG_EOVERFLOW (unpacking). */
JG_API jg_status jg_layout_repack(jg_layout *out, const jg_layout *in, int64_t new_itemsize,
                                  uintptr_t data_ptr, int axis, bool keep_dim, jg_error *err);

/** The largest itemsize, at most `max_itemsize`, that jg_layout_repack can pack `l` into along
 *  `axis` (negative counts from the end), written to `*itemsize`: the gcd of max_itemsize,
 *  data_ptr (0: no pointer check), |slice_offset|*itemsize, extent*itemsize and every other
 *  |stride|*itemsize; `l->itemsize` if the stride on `axis` is not 1 or its extent is 0, or if
 *  that gcd is not a multiple of l->itemsize (possible only when data_ptr or max_itemsize is
 *  not, where cuda.core would return a size repack cannot use). Example: float32 (12,) dense
 *  with max_itemsize 16 gives 16; int16 (16, 5, 4, 6) along axis -1 gives 4.
 *  Errors: JG_EINVAL (NULL argument; max_itemsize <= 0 or < l->itemsize; axis out of range
 *  (always for 0-d), index = axis), JG_EOVERFLOW (a product with the itemsize overflows). */
JG_API jg_status jg_layout_max_compatible_itemsize(const jg_layout *l, int64_t max_itemsize,
                                                   uintptr_t data_ptr, int axis,
                                                   int64_t *itemsize, jg_error *err);

/** "No value" for a jg_slice bound, as None in Python. INT64_MIN therefore cannot be passed as a
 *  real bound or step (as an integer index it is out of range). */
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
 *  kept whole; `slices` may be NULL when n is 0). Bounds are clipped as CPython's
 *  PySlice_Unpack + PySlice_AdjustIndices do, negative steps included; new stride = stride *
 *  step, except that a new extent of 1 whose stride * step overflows int64 keeps the original
 *  stride (that axis is never stepped along; NumPy and cuda.core, with unbounded integers, keep
 *  the product, so (5,) strides (2,) sliced [::INT64_MAX] is (1,) strides (2,) here and not an
 *  error); slice_offset grows by start * stride when the new extent is > 0, and by index * stride
 *  for integer indices (which remove their axis; negative indices count from the end). If any
 *  resulting extent is 0 all strides become 0. Example: (5,) sliced [::-1] has strides (-1,) and
 *  slice_offset 4, min offset 0.
 *  Errors: JG_EINVAL (NULL argument; n < 0; more slices than axes, index = ndim; step 0, index =
 *  slice position), JG_EINDEX (integer index out of range; index = slice position),
 *  JG_EOVERFLOW (stride * step overflows for a new extent > 1, or the slice offset overflows;
 *  index = slice position). */
JG_API jg_status jg_layout_slice(jg_layout *out, const jg_layout *in, int n,
                                 const jg_slice *slices, jg_error *err);

/** Equal layouts: same itemsize, slice_offset, ndim, shape and strides (the first ndim entries).
 *  False if either is NULL or invalid. */
JG_API bool jg_layout_equal(const jg_layout *a, const jg_layout *b);

#ifdef __cplusplus
}
#endif

#endif /* JAGGED_LAYOUT_H */
