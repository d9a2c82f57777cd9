/* test_dlpack.c: DLPack 1.x import and export (include/jagged/dlpack.h), host memory and fake
 * device pointers (never dereferenced). Expected values are worked out by hand from the DLPack
 * spec: element (i0, ..., in-1) at data + byte_offset + itemsize * sum(ik * strides[k]). */
#include "jg_test.h"

/* ------------------------------------------------------------------------------------------ */
/* Helpers                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/* Counting deleters for hand-made tensors. */
static int g_versioned_deletes;
static int g_legacy_deletes;
static DLManagedTensorVersioned *g_last_versioned;
static DLManagedTensor *g_last_legacy;

static void count_versioned(DLManagedTensorVersioned *self) {
  ++g_versioned_deletes;
  g_last_versioned = self;
}

static void count_legacy(DLManagedTensor *self) {
  ++g_legacy_deletes;
  g_last_legacy = self;
}

/* Counting release for keep-alive buffers. */
static int g_keep_releases;
static void count_release(void *owner, void *data, size_t bytes) {
  (void)owner;
  (void)data;
  (void)bytes;
  ++g_keep_releases;
}

static int reset_counters(void **state) {
  (void)state;
  g_versioned_deletes = 0;
  g_legacy_deletes = 0;
  g_keep_releases = 0;
  g_last_versioned = NULL;
  g_last_legacy = NULL;
  return 0;
}

/* A view by hand (independent of view.c): `base` on `device`, layout from shape/strides, then
 * slice_offset set directly. */
static jg_view make_view(void *base, jg_device device, jg_dtype dtype, int ndim,
                         const jg_len *shape, const jg_stride *strides, jg_offset slice_offset) {
  jg_view v;
  memset(&v, 0, sizeof(v));
  v.base = base;
  v.device = device;
  v.host_accessible = device.type != JG_DEVICE_CUDA;
  v.device_accessible = device.type != JG_DEVICE_CPU;
  v.dtype = dtype;
  assert_int_equal(jg_layout_init(&v.layout, ndim, shape, strides, jg_dtype_itemsize(dtype), NULL),
                   JG_OK);
  v.layout.slice_offset = slice_offset;
  return v;
}

static jg_view host_view(void *base, jg_dtype dtype, int ndim, const jg_len *shape,
                         const jg_stride *strides, jg_offset slice_offset) {
  const jg_device host = JG_DEVICE_HOST_INIT;
  return make_view(base, host, dtype, ndim, shape, strides, slice_offset);
}

/* Address of element `idx` of a view, by the documented formula. */
static char *elem(const jg_view *v, const jg_len *idx) {
  int64_t off = v->layout.slice_offset;
  for (int k = 0; k < v->layout.ndim; ++k) off += idx[k] * v->layout.strides[k];
  return (char *)v->base + off * v->layout.itemsize;
}

/* A versioned tensor on the stack, counting deleter, 1-D float32 on the CPU by default. */
static DLManagedTensorVersioned versioned_tensor(void *data, int32_t ndim, int64_t *shape,
                                                 int64_t *strides) {
  DLManagedTensorVersioned t;
  memset(&t, 0, sizeof(t));
  t.version.major = 1;
  t.version.minor = 0;
  t.deleter = count_versioned;
  t.dl_tensor.data = data;
  t.dl_tensor.device.device_type = kDLCPU;
  t.dl_tensor.device.device_id = 0;
  t.dl_tensor.ndim = ndim;
  t.dl_tensor.dtype.code = kDLFloat;
  t.dl_tensor.dtype.bits = 32;
  t.dl_tensor.dtype.lanes = 1;
  t.dl_tensor.shape = shape;
  t.dl_tensor.strides = strides;
  return t;
}

/* DLPack types of every jagged dtype, by hand from the spec. */
typedef struct dtype_case {
  jg_dtype dtype;
  uint8_t code;
  uint8_t bits;
} dtype_case;

static const dtype_case k_dtypes[] = {
    {JG_DTYPE_BOOL, kDLBool, 8},          {JG_DTYPE_INT8, kDLInt, 8},
    {JG_DTYPE_INT16, kDLInt, 16},         {JG_DTYPE_INT32, kDLInt, 32},
    {JG_DTYPE_INT64, kDLInt, 64},         {JG_DTYPE_UINT8, kDLUInt, 8},
    {JG_DTYPE_UINT16, kDLUInt, 16},       {JG_DTYPE_UINT32, kDLUInt, 32},
    {JG_DTYPE_UINT64, kDLUInt, 64},       {JG_DTYPE_FLOAT16, kDLFloat, 16},
    {JG_DTYPE_FLOAT32, kDLFloat, 32},     {JG_DTYPE_FLOAT64, kDLFloat, 64},
    {JG_DTYPE_COMPLEX64, kDLComplex, 64}, {JG_DTYPE_COMPLEX128, kDLComplex, 128},
    {JG_DTYPE_BFLOAT16, kDLBfloat, 16},
};
#define N_DTYPES (sizeof(k_dtypes) / sizeof(k_dtypes[0]))

/* ------------------------------------------------------------------------------------------ */
/* ABI                                                                                         */
/* ------------------------------------------------------------------------------------------ */

static void test_abi_layout(void **state) {
  (void)state;
  /* Sizes and offsets of the DLPack 1.x ABI on LP64 (worked out from the field list). */
  assert_int_equal(DLPACK_MAJOR_VERSION, 1);
  assert_int_equal(DLPACK_MINOR_VERSION, 1);
  assert_int_equal(sizeof(DLDevice), 8);
  assert_int_equal(sizeof(DLDataType), 4);
  assert_int_equal(sizeof(DLPackVersion), 8);
  assert_int_equal(offsetof(DLTensor, data), 0);
  assert_int_equal(offsetof(DLTensor, device), sizeof(void *));
  assert_int_equal(offsetof(DLTensor, ndim), sizeof(void *) + 8);
  assert_int_equal(offsetof(DLTensor, dtype), sizeof(void *) + 12);
  assert_int_equal(offsetof(DLTensor, shape), sizeof(void *) + 16);
  if (sizeof(void *) == 8) {
    assert_int_equal(sizeof(DLTensor), 48);
    assert_int_equal(offsetof(DLTensor, byte_offset), 40);
    assert_int_equal(offsetof(DLManagedTensorVersioned, manager_ctx), 8);
    assert_int_equal(offsetof(DLManagedTensorVersioned, deleter), 16);
    assert_int_equal(offsetof(DLManagedTensorVersioned, flags), 24);
    assert_int_equal(offsetof(DLManagedTensorVersioned, dl_tensor), 32);
    assert_int_equal(offsetof(DLManagedTensor, manager_ctx), 48);
    assert_int_equal(offsetof(DLManagedTensor, deleter), 56);
  }
  assert_int_equal(DLPACK_FLAG_BITMASK_READ_ONLY, 1);
  assert_int_equal(DLPACK_FLAG_BITMASK_IS_COPIED, 2);
  assert_int_equal(DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED, 4);
  assert_int_equal(kDLCPU, 1);
  assert_int_equal(kDLCUDA, 2);
  assert_int_equal(kDLCUDAHost, 3);
  assert_int_equal(kDLROCM, 10);
  assert_int_equal(kDLCUDAManaged, 13);
  assert_int_equal(kDLOneAPI, 14);
  assert_int_equal(kDLBool, 6);
  assert_int_equal(kDLFloat4_e2m1fn, 17);
  /* jagged's device numbers are DLPack's. */
  assert_int_equal(JG_DEVICE_CPU, kDLCPU);
  assert_int_equal(JG_DEVICE_CUDA, kDLCUDA);
  assert_int_equal(JG_DEVICE_CUDA_HOST, kDLCUDAHost);
  assert_int_equal(JG_DEVICE_CUDA_MANAGED, kDLCUDAManaged);
}

/* ------------------------------------------------------------------------------------------ */
/* dtypes                                                                                      */
/* ------------------------------------------------------------------------------------------ */

static void test_dtype_mapping(void **state) {
  (void)state;
  for (size_t i = 0; i < N_DTYPES; ++i) {
    DLDataType dt;
    JGT_OK(jg_dtype_to_dlpack(k_dtypes[i].dtype, &dt, NULL));
    assert_int_equal(dt.code, k_dtypes[i].code);
    assert_int_equal(dt.bits, k_dtypes[i].bits);
    assert_int_equal(dt.lanes, 1);
    jg_dtype back = JG_DTYPE_INVALID;
    JGT_OK(jg_dtype_from_dlpack(dt, &back, NULL));
    assert_int_equal(back, k_dtypes[i].dtype);
  }
  jg_error err;
  DLDataType dt;
  JGT_STATUS(JG_EDTYPE, jg_dtype_to_dlpack(JG_DTYPE_INVALID, &dt, &err));
  JGT_STATUS(JG_EDTYPE, jg_dtype_to_dlpack((jg_dtype)99, &dt, &err));
  JGT_STATUS(JG_EINVAL, jg_dtype_to_dlpack(JG_DTYPE_INT8, NULL, &err));
  jg_dtype d;
  JGT_STATUS(JG_EINVAL, jg_dtype_from_dlpack(dt, NULL, &err));

  const struct {
    uint8_t code, bits;
    uint16_t lanes;
    const char *why;
  } bad[] = {
      {kDLFloat, 32, 4, "lanes"}, /* float32x4 vector */
      {kDLUInt, 1, 8, "lanes"},   /* whole bytes, but 8 lanes */
      {kDLInt, 12, 1, "whole number of bytes"},
      {kDLBool, 1, 1, "whole number of bytes"},
      {kDLFloat, 0, 1, "whole number of bytes"},
      {kDLFloat, 128, 1, "width"},
      {kDLInt, 128, 1, "width"},
      {kDLComplex, 32, 1, "width"},
      {kDLBfloat, 32, 1, "width"},
      {kDLBool, 16, 1, "width"},
      {kDLOpaqueHandle, 64, 1, "type code"},
      {kDLFloat8_e4m3fn, 8, 1, "type code"},
      {kDLFloat8_e5m2, 8, 1, "type code"},
      {kDLFloat4_e2m1fn, 8, 1, "type code"},
      {200, 32, 1, "type code"},
  };
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); ++i) {
    DLDataType b = {bad[i].code, bad[i].bits, bad[i].lanes};
    d = JG_DTYPE_INT64;
    JGT_STATUS(JG_EDTYPE, jg_dtype_from_dlpack(b, &d, &err));
    JGT_CONTAINS(err.message, bad[i].why);
    assert_int_equal(d, JG_DTYPE_INT64); /* untouched */
  }
  DLDataType fp8 = {kDLFloat8_e4m3fn, 8, 1};
  JGT_STATUS(JG_EDTYPE, jg_dtype_from_dlpack(fp8, &d, &err));
  JGT_CONTAINS(err.message, "kDLFloat8_e4m3fn");
}

/* ------------------------------------------------------------------------------------------ */
/* Round trips                                                                                 */
/* ------------------------------------------------------------------------------------------ */

/* Export a 2x3 C-order view of every dtype, versioned and legacy, and import it back. */
static void test_roundtrip_every_dtype(void **state) {
  (void)state;
  for (int legacy = 0; legacy <= 1; ++legacy) {
    for (size_t i = 0; i < N_DTYPES; ++i) {
      reset_counters(NULL);
      const jg_dtype dtype = k_dtypes[i].dtype;
      const int64_t itemsize = jg_dtype_itemsize(dtype);
      unsigned char mem[6 * 16];
      for (size_t b = 0; b < sizeof(mem); ++b) mem[b] = (unsigned char)(b * 7 + i);
      jg_buffer *keep = NULL;
      JGT_OK(
          jg_buffer_wrap_external(mem, (size_t)(6 * itemsize), NULL, count_release, &keep, NULL));
      const jg_len shape[2] = {2, 3};
      jg_view v = host_view(mem, dtype, 2, shape, NULL, 0);

      DLManagedTensorVersioned *tv = NULL;
      DLManagedTensor *tl = NULL;
      DLTensor *dl;
      if (legacy) {
        JGT_OK(jg_dlpack_export_legacy(&v, keep, &tl, NULL));
        assert_non_null(tl);
        assert_non_null(tl->deleter);
        dl = &tl->dl_tensor;
      } else {
        JGT_OK(jg_dlpack_export_versioned(&v, keep, &tv, NULL));
        assert_non_null(tv);
        assert_int_equal(tv->version.major, 1);
        assert_int_equal(tv->version.minor, 1);
        assert_int_equal(tv->flags, 0);
        assert_non_null(tv->deleter);
        dl = &tv->dl_tensor;
      }
      assert_ptr_equal(dl->data, mem);
      assert_int_equal(dl->byte_offset, 0);
      assert_int_equal(dl->device.device_type, kDLCPU);
      assert_int_equal(dl->device.device_id, 0);
      assert_int_equal(dl->ndim, 2);
      assert_int_equal(dl->dtype.code, k_dtypes[i].code);
      assert_int_equal(dl->dtype.bits, k_dtypes[i].bits);
      assert_int_equal(dl->dtype.lanes, 1);
      assert_non_null(dl->shape);
      assert_non_null(dl->strides);
      assert_int_equal(dl->shape[0], 2);
      assert_int_equal(dl->shape[1], 3);
      assert_int_equal(dl->strides[0], 3);
      assert_int_equal(dl->strides[1], 1);

      /* The caller's own reference goes; the export still holds one. */
      jg_buffer_release(keep);
      assert_int_equal(g_keep_releases, 0);

      jg_buffer *buf = NULL;
      jg_view w;
      if (legacy) {
        JGT_OK(jg_dlpack_import_legacy(tl, &buf, &w, NULL));
      } else {
        JGT_OK(jg_dlpack_import_versioned(tv, &buf, &w, NULL));
      }
      assert_non_null(buf);
      assert_ptr_equal(w.buffer, buf);
      assert_ptr_equal(w.base, mem);
      assert_ptr_equal(jg_buffer_data(buf), mem);
      assert_int_equal(jg_buffer_size(buf), 6 * itemsize);
      assert_int_equal(jg_buffer_get_mode(buf), JG_BUFFER_EXTERNAL);
      assert_int_equal(w.dtype, dtype);
      assert_int_equal(w.layout.itemsize, itemsize);
      assert_int_equal(w.layout.ndim, 2);
      assert_int_equal(w.layout.shape[0], 2);
      assert_int_equal(w.layout.shape[1], 3);
      assert_int_equal(w.layout.strides[0], 3);
      assert_int_equal(w.layout.strides[1], 1);
      assert_int_equal(w.layout.slice_offset, 0);
      assert_int_equal(w.device.type, JG_DEVICE_CPU);
      assert_int_equal(w.device.id, 0);
      assert_true(w.host_accessible);
      assert_false(w.device_accessible);
      assert_false(w.readonly);
      /* Element (1, 2) is the sixth: bytes 5 * itemsize onwards. */
      const jg_len idx[2] = {1, 2};
      assert_ptr_equal(elem(&w, idx), (char *)mem + 5 * itemsize);

      /* Releasing the imported buffer calls our deleter, which releases keep_alive. */
      jg_buffer_release(buf);
      assert_int_equal(g_keep_releases, 1);
    }
  }
}

static void test_export_transposed_and_sliced(void **state) {
  (void)state;
  float data[16];
  for (int i = 0; i < 16; ++i) data[i] = (float)i;

  /* F-order (3, 2): strides (1, 3). */
  const jg_len shape[2] = {3, 2};
  const jg_stride fstrides[2] = {1, 3};
  jg_view v = host_view(data, JG_DTYPE_FLOAT32, 2, shape, fstrides, 0);
  DLManagedTensorVersioned *t = NULL;
  JGT_OK(jg_dlpack_export_versioned(&v, NULL, &t, NULL));
  assert_int_equal(t->dl_tensor.strides[0], 1);
  assert_int_equal(t->dl_tensor.strides[1], 3);
  t->deleter(t);

  /* data[8:]: slice_offset 8, exported with the offset baked into data. */
  const jg_len n8[1] = {8};
  v = host_view(data, JG_DTYPE_FLOAT32, 1, n8, NULL, 8);
  JGT_OK(jg_dlpack_export_versioned(&v, NULL, &t, NULL));
  assert_ptr_equal(t->dl_tensor.data, &data[8]);
  assert_int_equal(t->dl_tensor.byte_offset, 0);
  jg_buffer *buf = NULL;
  jg_view w;
  JGT_OK(jg_dlpack_import_versioned(t, &buf, &w, NULL));
  const jg_len i0[1] = {0};
  const jg_len i7[1] = {7};
  assert_true(*(float *)elem(&w, i0) == 8.0f);
  assert_true(*(float *)elem(&w, i7) == 15.0f);
  assert_ptr_equal(w.base, &data[8]);
  assert_int_equal(jg_buffer_size(buf), 32);
  jg_buffer_release(buf);

  /* data[15:7:-2] = 15, 13, 11, 9: stride -2, slice_offset 15. */
  const jg_len n4[1] = {4};
  const jg_stride m2[1] = {-2};
  v = host_view(data, JG_DTYPE_FLOAT32, 1, n4, m2, 15);
  JGT_OK(jg_dlpack_export_versioned(&v, NULL, &t, NULL));
  assert_ptr_equal(t->dl_tensor.data, &data[15]);
  assert_int_equal(t->dl_tensor.strides[0], -2);
  JGT_OK(jg_dlpack_import_versioned(t, &buf, &w, NULL));
  assert_ptr_equal(w.base, &data[9]);         /* lowest element */
  assert_int_equal(w.layout.slice_offset, 6); /* 9 + 6 = 15 */
  assert_int_equal(w.layout.strides[0], -2);
  assert_int_equal(jg_buffer_size(buf), 7 * 4); /* data[9] .. data[15] */
  for (jg_len k = 0; k < 4; ++k) {
    const jg_len idx[1] = {k};
    assert_true(*(float *)elem(&w, idx) == (float)(15 - 2 * k));
  }
  jg_buffer_release(buf);
}

/* A producer that exports src[8:] as data = base, byte_offset = 8 * itemsize (cuda-python
 * issue #2592) must give element 0 == src[8]. */
static void test_import_byte_offset(void **state) {
  (void)state;
  reset_counters(NULL);
  float data[16];
  for (int i = 0; i < 16; ++i) data[i] = (float)i;
  int64_t shape[1] = {8};
  int64_t strides[1] = {1};
  DLManagedTensorVersioned t = versioned_tensor(data, 1, shape, strides);
  t.dl_tensor.byte_offset = 8 * sizeof(float);
  jg_buffer *buf = NULL;
  jg_view w;
  JGT_OK(jg_dlpack_import_versioned(&t, &buf, &w, NULL));
  assert_ptr_equal(w.base, &data[8]);
  assert_ptr_equal(jg_buffer_data(buf), &data[8]);
  assert_int_equal(jg_buffer_size(buf), 8 * sizeof(float));
  for (jg_len k = 0; k < 8; ++k) {
    const jg_len idx[1] = {k};
    assert_true(*(float *)elem(&w, idx) == (float)(8 + k));
  }
  /* Re-export keeps the offset (baked into data). */
  DLManagedTensorVersioned *again = NULL;
  JGT_OK(jg_dlpack_export_versioned(&w, buf, &again, NULL));
  assert_ptr_equal(again->dl_tensor.data, &data[8]);
  assert_int_equal(again->dl_tensor.byte_offset, 0);
  jg_buffer_release(buf);
  assert_int_equal(g_versioned_deletes, 0); /* the re-export still holds the buffer */
  again->deleter(again);
  assert_int_equal(g_versioned_deletes, 1);
  assert_ptr_equal(g_last_versioned, &t);

  /* byte_offset together with negative strides: data = base, byte_offset to element 11,
   * stride -1 over 12 elements. */
  int32_t a[12];
  for (int i = 0; i < 12; ++i) a[i] = i;
  int64_t s12[1] = {12};
  int64_t m1[1] = {-1};
  DLTensor bt;
  memset(&bt, 0, sizeof(bt));
  bt.data = a;
  bt.device.device_type = kDLCPU;
  bt.ndim = 1;
  bt.dtype.code = kDLInt;
  bt.dtype.bits = 32;
  bt.dtype.lanes = 1;
  bt.shape = s12;
  bt.strides = m1;
  bt.byte_offset = 11 * sizeof(int32_t);
  JGT_OK(jg_view_from_dltensor(&bt, &w, NULL));
  assert_ptr_equal(w.base, &a[0]);
  assert_int_equal(w.layout.slice_offset, 11);
  for (jg_len k = 0; k < 12; ++k) {
    const jg_len idx[1] = {k};
    assert_int_equal(*(int32_t *)elem(&w, idx), 11 - k);
  }
}

/* int32 a = arange(12).reshape(3, 4); views with reversed axes, NumPy semantics. */
static void test_negative_strides(void **state) {
  (void)state;
  reset_counters(NULL);
  int32_t a[12];
  for (int i = 0; i < 12; ++i) a[i] = i;
  const jg_len shape[2] = {3, 4};

  /* a[:, ::-1]: strides (4, -1), element (0, 0) is a[3]. */
  const jg_stride s1[2] = {4, -1};
  jg_view v = host_view(a, JG_DTYPE_INT32, 2, shape, s1, 3);
  DLManagedTensorVersioned *t = NULL;
  JGT_OK(jg_dlpack_export_versioned(&v, NULL, &t, NULL));
  assert_ptr_equal(t->dl_tensor.data, &a[3]);
  assert_int_equal(t->dl_tensor.byte_offset, 0);
  assert_int_equal(t->dl_tensor.strides[0], 4);
  assert_int_equal(t->dl_tensor.strides[1], -1);
  jg_buffer *buf = NULL;
  jg_view w;
  JGT_OK(jg_dlpack_import_versioned(t, &buf, &w, NULL));
  assert_ptr_equal(w.base, &a[0]);
  assert_int_equal(w.layout.slice_offset, 3);
  assert_int_equal(jg_buffer_size(buf), 48);
  /* The view fits its buffer exactly, as jg_view_from_buffer requires. */
  size_t required = 0;
  JGT_OK(jg_layout_required_size(&w.layout, &required, NULL));
  assert_int_equal(required, 48);
  jg_offset lo = -1, hi = -1;
  jg_layout_offset_bounds(&w.layout, &lo, &hi);
  assert_int_equal(lo, 0);
  assert_int_equal(hi, 11);
  for (jg_len i = 0; i < 3; ++i) {
    for (jg_len j = 0; j < 4; ++j) {
      const jg_len idx[2] = {i, j};
      assert_int_equal(*(int32_t *)elem(&w, idx), 4 * i + 3 - j);
    }
  }
  jg_buffer_release(buf);

  /* a[::-1, ::-1]: strides (-4, -1), element (0, 0) is a[11]. */
  const jg_stride s2[2] = {-4, -1};
  v = host_view(a, JG_DTYPE_INT32, 2, shape, s2, 11);
  DLManagedTensor *tl = NULL;
  JGT_OK(jg_dlpack_export_legacy(&v, NULL, &tl, NULL));
  assert_ptr_equal(tl->dl_tensor.data, &a[11]);
  assert_int_equal(tl->dl_tensor.strides[0], -4);
  assert_int_equal(tl->dl_tensor.strides[1], -1);
  JGT_OK(jg_dlpack_import_legacy(tl, &buf, &w, NULL));
  assert_ptr_equal(w.base, &a[0]);
  assert_int_equal(w.layout.slice_offset, 11);
  for (jg_len i = 0; i < 3; ++i) {
    for (jg_len j = 0; j < 4; ++j) {
      const jg_len idx[2] = {i, j};
      assert_int_equal(*(int32_t *)elem(&w, idx), 11 - 4 * i - j);
    }
  }
  jg_buffer_release(buf);

  /* Zero stride (broadcast row): strides (0, 1) over a[4:8]. */
  const jg_stride s3[2] = {0, 1};
  v = host_view(a, JG_DTYPE_INT32, 2, shape, s3, 4);
  JGT_OK(jg_dlpack_export_versioned(&v, NULL, &t, NULL));
  assert_int_equal(t->dl_tensor.strides[0], 0);
  JGT_OK(jg_dlpack_import_versioned(t, &buf, &w, NULL));
  assert_int_equal(jg_buffer_size(buf), 16);
  const jg_len idx21[2] = {2, 1};
  assert_int_equal(*(int32_t *)elem(&w, idx21), 5);
  jg_buffer_release(buf);
}

static void test_null_strides_import(void **state) {
  (void)state;
  reset_counters(NULL);
  double d[6] = {0, 1, 2, 3, 4, 5};
  int64_t shape[2] = {2, 3};
  DLManagedTensorVersioned t = versioned_tensor(d, 2, shape, NULL);
  t.dl_tensor.dtype.bits = 64;
  jg_buffer *buf = NULL;
  jg_view w;
  JGT_OK(jg_dlpack_import_versioned(&t, &buf, &w, NULL));
  assert_int_equal(w.dtype, JG_DTYPE_FLOAT64);
  assert_int_equal(w.layout.strides[0], 3);
  assert_int_equal(w.layout.strides[1], 1);
  const jg_len idx[2] = {1, 0};
  assert_true(*(double *)elem(&w, idx) == 3.0);
  assert_int_equal(jg_buffer_size(buf), 48);
  /* Re-export writes explicit strides. */
  DLManagedTensorVersioned *e = NULL;
  JGT_OK(jg_dlpack_export_versioned(&w, NULL, &e, NULL));
  assert_non_null(e->dl_tensor.strides);
  assert_int_equal(e->dl_tensor.strides[0], 3);
  assert_int_equal(e->dl_tensor.strides[1], 1);
  e->deleter(e);
  jg_buffer_release(buf);
  assert_int_equal(g_versioned_deletes, 1);
}

static void test_zero_dim(void **state) {
  (void)state;
  reset_counters(NULL);
  double x = 2.5;
  jg_view v = host_view(&x, JG_DTYPE_FLOAT64, 0, NULL, NULL, 0);
  DLManagedTensorVersioned *t = NULL;
  JGT_OK(jg_dlpack_export_versioned(&v, NULL, &t, NULL));
  assert_int_equal(t->dl_tensor.ndim, 0);
  assert_null(t->dl_tensor.shape);
  assert_null(t->dl_tensor.strides);
  assert_ptr_equal(t->dl_tensor.data, &x);
  jg_buffer *buf = NULL;
  jg_view w;
  JGT_OK(jg_dlpack_import_versioned(t, &buf, &w, NULL));
  assert_int_equal(w.layout.ndim, 0);
  assert_int_equal(jg_layout_volume(&w.layout), 1);
  assert_ptr_equal(w.base, &x);
  assert_int_equal(w.layout.slice_offset, 0);
  assert_int_equal(jg_buffer_size(buf), 8);
  assert_true(*(double *)w.base == 2.5);
  jg_buffer_release(buf);

  /* A hand-made 0-d tensor with shape and strides NULL. */
  DLManagedTensorVersioned h = versioned_tensor(&x, 0, NULL, NULL);
  h.dl_tensor.dtype.bits = 64;
  JGT_OK(jg_dlpack_import_versioned(&h, &buf, &w, NULL));
  assert_int_equal(w.layout.ndim, 0);
  jg_buffer_release(buf);
  assert_int_equal(g_versioned_deletes, 1);
}

static void test_empty(void **state) {
  (void)state;
  reset_counters(NULL);
  float mem[4];
  const jg_len shape[3] = {2, 0, 3};
  jg_view v = host_view(mem, JG_DTYPE_FLOAT32, 3, shape, NULL, 0);
  assert_int_equal(v.layout.strides[0], 0); /* layout convention for volume 0 */
  DLManagedTensorVersioned *t = NULL;
  JGT_OK(jg_dlpack_export_versioned(&v, NULL, &t, NULL));
  assert_null(t->dl_tensor.data);
  assert_int_equal(t->dl_tensor.ndim, 3);
  assert_int_equal(t->dl_tensor.shape[0], 2);
  assert_int_equal(t->dl_tensor.shape[1], 0);
  assert_int_equal(t->dl_tensor.shape[2], 3);
  assert_non_null(t->dl_tensor.strides);
  jg_buffer *buf = NULL;
  jg_view w;
  JGT_OK(jg_dlpack_import_versioned(t, &buf, &w, NULL));
  assert_null(w.base);
  assert_null(jg_buffer_data(buf));
  assert_int_equal(jg_buffer_size(buf), 0);
  assert_int_equal(jg_layout_volume(&w.layout), 0);
  assert_int_equal(w.layout.shape[1], 0);
  jg_buffer_release(buf);

  /* A view of volume 0 with a NULL base exports too. */
  v = host_view(NULL, JG_DTYPE_FLOAT32, 3, shape, NULL, 0);
  JGT_OK(jg_dlpack_export_versioned(&v, NULL, &t, NULL));
  assert_null(t->dl_tensor.data);
  t->deleter(t);

  /* Hand-made: data NULL, strides (1), shape (0): accepted (cccl issue #11605). */
  int64_t zero[1] = {0};
  int64_t one[1] = {1};
  DLManagedTensorVersioned h = versioned_tensor(NULL, 1, zero, one);
  JGT_OK(jg_dlpack_import_versioned(&h, &buf, &w, NULL));
  assert_null(w.base);
  assert_int_equal(w.layout.strides[0], 0);
  jg_buffer_release(buf);
  assert_int_equal(g_versioned_deletes, 1);

  /* Data not NULL, volume 0, with a byte_offset: base = data + byte_offset. */
  h = versioned_tensor(mem, 1, zero, one);
  h.dl_tensor.byte_offset = 8;
  JGT_OK(jg_dlpack_import_versioned(&h, &buf, &w, NULL));
  assert_ptr_equal(w.base, (char *)mem + 8);
  assert_int_equal(jg_buffer_size(buf), 0);
  jg_buffer_release(buf);
  assert_int_equal(g_versioned_deletes, 2);
}

static void test_readonly_and_flags(void **state) {
  (void)state;
  reset_counters(NULL);
  int16_t s[4] = {1, 2, 3, 4};
  const jg_len n[1] = {4};
  jg_view v = host_view(s, JG_DTYPE_INT16, 1, n, NULL, 0);
  v.readonly = true;
  DLManagedTensorVersioned *t = NULL;
  JGT_OK(jg_dlpack_export_versioned(&v, NULL, &t, NULL));
  assert_int_equal(t->flags, DLPACK_FLAG_BITMASK_READ_ONLY);
  jg_buffer *buf = NULL;
  jg_view w;
  jg_dlpack_info info;
  memset(&info, 0, sizeof(info));
  JGT_OK(jg_dlpack_import_versioned_ex(t, &buf, &w, &info, NULL));
  assert_true(w.readonly);
  assert_true(info.versioned);
  assert_int_equal(info.flags, DLPACK_FLAG_BITMASK_READ_ONLY);
  assert_int_equal(info.version.major, 1);
  assert_int_equal(info.version.minor, 1);
  assert_int_equal(info.device.device_type, kDLCPU);
  jg_buffer_release(buf);

  /* Legacy cannot say read-only: refused, nothing retained. */
  jg_buffer *keep = NULL;
  JGT_OK(jg_buffer_wrap_external(s, sizeof(s), NULL, count_release, &keep, NULL));
  DLManagedTensor *tl = (DLManagedTensor *)&v; /* poison: must become NULL */
  jg_error err;
  JGT_STATUS(JG_EREADONLY, jg_dlpack_export_legacy(&v, keep, &tl, &err));
  assert_null(tl);
  JGT_CONTAINS(err.message, "read-only");
  jg_buffer_release(keep);
  assert_int_equal(g_keep_releases, 1); /* not retained by the failed export */

  /* A producer's READ_ONLY | IS_COPIED, with a newer minor version (accepted). */
  int64_t shape[1] = {4};
  DLManagedTensorVersioned h = versioned_tensor(s, 1, shape, NULL);
  h.dl_tensor.dtype.code = kDLInt;
  h.dl_tensor.dtype.bits = 16;
  h.version.minor = 7;
  h.flags = DLPACK_FLAG_BITMASK_READ_ONLY | DLPACK_FLAG_BITMASK_IS_COPIED | (UINT64_C(1) << 40);
  JGT_OK(jg_dlpack_import_versioned_ex(&h, &buf, &w, &info, NULL));
  assert_true(w.readonly);
  assert_int_equal(info.flags, h.flags);
  assert_true((info.flags & DLPACK_FLAG_BITMASK_IS_COPIED) != 0);
  assert_int_equal(info.version.minor, 7);
  jg_buffer_release(buf);

  /* IS_COPIED alone is writable. */
  h.flags = DLPACK_FLAG_BITMASK_IS_COPIED;
  JGT_OK(jg_dlpack_import_versioned(&h, &buf, &w, NULL));
  assert_false(w.readonly);
  jg_buffer_release(buf);

  /* Legacy imports are never read-only. */
  DLManagedTensor l;
  memset(&l, 0, sizeof(l));
  l.dl_tensor = h.dl_tensor;
  l.deleter = count_legacy;
  JGT_OK(jg_dlpack_import_legacy(&l, &buf, &w, NULL));
  assert_false(w.readonly);
  jg_buffer_release(buf);
  assert_int_equal(g_legacy_deletes, 1);
  assert_ptr_equal(g_last_legacy, &l);
  assert_int_equal(g_versioned_deletes, 2);
}

static void test_deleter_exactly_once(void **state) {
  (void)state;
  reset_counters(NULL);
  float data[3] = {1, 2, 3};
  int64_t shape[1] = {3};
  DLManagedTensorVersioned t = versioned_tensor(data, 1, shape, NULL);
  jg_buffer *buf = NULL;
  jg_view w;
  JGT_OK(jg_dlpack_import_versioned(&t, &buf, &w, NULL));
  assert_int_equal(g_versioned_deletes, 0);
  jg_buffer *second = jg_buffer_retain(buf);
  assert_ptr_equal(second, buf);
  jg_buffer_release(buf);
  assert_int_equal(g_versioned_deletes, 0);
  jg_buffer_release(second);
  assert_int_equal(g_versioned_deletes, 1);
  assert_ptr_equal(g_last_versioned, &t);

  /* A NULL deleter is allowed ("nothing to free"). */
  t.deleter = NULL;
  JGT_OK(jg_dlpack_import_versioned(&t, &buf, &w, NULL));
  jg_buffer_release(buf);
  assert_int_equal(g_versioned_deletes, 1);

  /* Exports: the deleter releases keep_alive exactly once. */
  jg_buffer *keep = NULL;
  JGT_OK(jg_buffer_wrap_external(data, sizeof(data), NULL, count_release, &keep, NULL));
  const jg_len n[1] = {3};
  jg_view v = host_view(data, JG_DTYPE_FLOAT32, 1, n, NULL, 0);
  DLManagedTensorVersioned *e1 = NULL;
  DLManagedTensor *e2 = NULL;
  JGT_OK(jg_dlpack_export_versioned(&v, keep, &e1, NULL));
  JGT_OK(jg_dlpack_export_legacy(&v, keep, &e2, NULL));
  jg_buffer_release(keep);
  assert_int_equal(g_keep_releases, 0);
  e1->deleter(e1);
  assert_int_equal(g_keep_releases, 0);
  e2->deleter(e2);
  assert_int_equal(g_keep_releases, 1);
}

/* Every import error: status, message, no ownership (deleter not called, *buffer NULL, view
 * untouched). */
#define NO_INDEX (-2)
static void expect_import_error_at(DLManagedTensorVersioned *t, jg_status status, const char *text,
                                   int64_t index) {
  const int before = g_versioned_deletes;
  jg_buffer *buf = (jg_buffer *)t; /* poison */
  jg_view w;
  memset(&w, 0xAB, sizeof(w));
  jg_view poison;
  memset(&poison, 0xAB, sizeof(poison));
  jg_error err;
  jg_error_clear(&err);
  JGT_STATUS(status, jg_dlpack_import_versioned(t, &buf, &w, &err));
  assert_int_equal(err.status, status);
  JGT_CONTAINS(err.message, text);
  if (index != NO_INDEX) assert_int_equal(err.index, index);
  assert_null(buf);
  assert_memory_equal(&w, &poison, sizeof(w));
  assert_int_equal(g_versioned_deletes, before);

  /* The same tensor through the legacy entry point (no version) gives the same error, except
   * for version errors which legacy tensors cannot have. */
  if (t->version.major == 1) {
    DLManagedTensor l;
    memset(&l, 0, sizeof(l));
    l.dl_tensor = t->dl_tensor;
    l.deleter = count_legacy;
    buf = (jg_buffer *)t;
    JGT_STATUS(status, jg_dlpack_import_legacy(&l, &buf, &w, &err));
    JGT_CONTAINS(err.message, text);
    assert_null(buf);
    assert_int_equal(g_legacy_deletes, 0);
    /* And as a borrowed DLTensor. */
    JGT_STATUS(status, jg_view_from_dltensor(&t->dl_tensor, &w, &err));
    JGT_CONTAINS(err.message, text);
    assert_memory_equal(&w, &poison, sizeof(w));
  }
}

static void expect_import_error(DLManagedTensorVersioned *t, jg_status status, const char *text) {
  expect_import_error_at(t, status, text, NO_INDEX);
}

static void test_import_errors(void **state) {
  (void)state;
  reset_counters(NULL);
  float data[8] = {0};
  int64_t shape2[2] = {2, 3};
  int64_t strides2[2] = {3, 1};
  DLManagedTensorVersioned t;

  t = versioned_tensor(data, 2, shape2, strides2);
  t.version.major = 2;
  expect_import_error(&t, JG_ENOTSUP, "version 2.0");
  t.version.major = 0;
  t.version.minor = 8;
  expect_import_error(&t, JG_ENOTSUP, "version 0.8");

  t = versioned_tensor(data, 2, shape2, strides2);
  t.dl_tensor.device.device_type = kDLROCM;
  expect_import_error(&t, JG_ENOTSUP, "kDLROCM (10)");
  t.dl_tensor.device.device_type = kDLOpenCL;
  expect_import_error(&t, JG_ENOTSUP, "kDLOpenCL (4)");
  t.dl_tensor.device.device_type = kDLMetal;
  expect_import_error(&t, JG_ENOTSUP, "kDLMetal (8)");
  t.dl_tensor.device.device_type = (DLDeviceType)99;
  expect_import_error(&t, JG_ENOTSUP, "(99)");
  t.dl_tensor.device.device_type = kDLCUDA;
  t.dl_tensor.device.device_id = -1;
  expect_import_error(&t, JG_EINVAL, "negative device_id");

  t = versioned_tensor(data, 2, shape2, strides2);
  t.dl_tensor.dtype.lanes = 4;
  expect_import_error(&t, JG_EDTYPE, "lanes");
  t.dl_tensor.dtype.lanes = 1;
  t.dl_tensor.dtype.code = kDLFloat8_e4m3fn;
  t.dl_tensor.dtype.bits = 8;
  expect_import_error(&t, JG_EDTYPE, "kDLFloat8_e4m3fn");
  t.dl_tensor.dtype.code = kDLInt;
  t.dl_tensor.dtype.bits = 4;
  expect_import_error(&t, JG_EDTYPE, "whole number of bytes");

  t = versioned_tensor(data, 2, NULL, strides2);
  expect_import_error(&t, JG_EINVAL, "shape is NULL");
  t = versioned_tensor(data, -1, shape2, strides2);
  expect_import_error(&t, JG_EINVAL, "negative");
  t = versioned_tensor(data, JG_MAX_NDIM + 1, shape2, strides2);
  expect_import_error(&t, JG_ENOTSUP, "65");

  int64_t negshape[2] = {2, -3};
  t = versioned_tensor(data, 2, negshape, strides2);
  expect_import_error_at(&t, JG_EINVAL, "", 1); /* index = the axis */

  t = versioned_tensor(NULL, 2, shape2, strides2);
  expect_import_error(&t, JG_EINVAL, "NULL but the tensor has 6 elements");

  /* Overflow: the volume, the span, data + byte_offset. */
  int64_t huge[2] = {INT64_MAX / 2, 4};
  t = versioned_tensor(data, 2, huge, NULL);
  expect_import_error(&t, JG_EOVERFLOW, "");
  int64_t three[1] = {3};
  int64_t bigstride[1] = {INT64_MAX / 2};
  t = versioned_tensor(data, 1, three, bigstride);
  expect_import_error(&t, JG_EOVERFLOW, "");
  t = versioned_tensor(data, 1, three, NULL);
  t.dl_tensor.byte_offset = UINT64_MAX;
  expect_import_error(&t, JG_EOVERFLOW, "byte_offset");

  /* Negative strides reaching below address 0 (fake pointer, never dereferenced). */
  int64_t ten[1] = {10};
  int64_t minus1[1] = {-1};
  t = versioned_tensor((void *)(uintptr_t)16, 1, ten, minus1);
  expect_import_error(&t, JG_EINVAL, "below address 0");

  /* NULL arguments. */
  jg_buffer *buf = NULL;
  jg_view w;
  jg_error err;
  t = versioned_tensor(data, 2, shape2, strides2);
  JGT_STATUS(JG_EINVAL, jg_dlpack_import_versioned(NULL, &buf, &w, &err));
  JGT_STATUS(JG_EINVAL, jg_dlpack_import_versioned(&t, NULL, &w, &err));
  JGT_CONTAINS(err.message, "buffer");
  JGT_STATUS(JG_EINVAL, jg_dlpack_import_versioned(&t, &buf, NULL, &err));
  JGT_CONTAINS(err.message, "view");
  JGT_STATUS(JG_EINVAL, jg_dlpack_import_legacy(NULL, &buf, &w, &err));
  JGT_STATUS(JG_EINVAL, jg_view_from_dltensor(NULL, &w, &err));
  JGT_STATUS(JG_EINVAL, jg_view_from_dltensor(&t.dl_tensor, NULL, &err));
  assert_int_equal(g_versioned_deletes, 0);
  assert_int_equal(g_legacy_deletes, 0);

  /* The caller still owns a tensor whose import failed: its deleter works. */
  t.version.major = 3;
  JGT_STATUS(JG_ENOTSUP, jg_dlpack_import_versioned(&t, &buf, &w, &err));
  t.deleter(&t);
  assert_int_equal(g_versioned_deletes, 1);
}

/* Device types, read from the tensor and never queried (fake device pointers). */
static void test_devices(void **state) {
  (void)state;
  reset_counters(NULL);
  void *fake = (void *)(uintptr_t)0x7f0000100000ULL;
  int64_t shape[1] = {4};
  const struct {
    int32_t dl_type, dl_id;
    jg_device_type type;
    int32_t id;
    bool host, device;
  } cases[] = {
      {kDLCPU, 0, JG_DEVICE_CPU, 0, true, false},
      {kDLCPU, 5, JG_DEVICE_CPU, 0, true, false},
      {kDLCUDA, 1, JG_DEVICE_CUDA, 1, false, true},
      {kDLCUDAHost, 0, JG_DEVICE_CUDA_HOST, 0, true, true},
      {kDLCUDAManaged, 2, JG_DEVICE_CUDA_MANAGED, 2, true, true},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    DLManagedTensorVersioned t = versioned_tensor(fake, 1, shape, NULL);
    t.dl_tensor.device.device_type = (DLDeviceType)cases[i].dl_type;
    t.dl_tensor.device.device_id = cases[i].dl_id;
    jg_buffer *buf = NULL;
    jg_view w;
    jg_dlpack_info info;
    JGT_OK(jg_dlpack_import_versioned_ex(&t, &buf, &w, &info, NULL));
    assert_int_equal(w.device.type, cases[i].type);
    assert_int_equal(w.device.id, cases[i].id);
    assert_int_equal(w.host_accessible, cases[i].host);
    assert_int_equal(w.device_accessible, cases[i].device);
    assert_int_equal(info.device.device_type, cases[i].dl_type);
    assert_int_equal(info.device.device_id, cases[i].dl_id);
    jg_buffer_release(buf);
  }
  assert_int_equal(g_versioned_deletes, 5);

  /* Export: CUDA keeps its ordinal; pinned, managed and CPU use 0. */
  const struct {
    jg_device device;
    int32_t dl_type, dl_id;
  } ex[] = {
      {{JG_DEVICE_CUDA, 1}, kDLCUDA, 1},
      {{JG_DEVICE_CUDA, 0}, kDLCUDA, 0},
      {{JG_DEVICE_CUDA_HOST, 1}, kDLCUDAHost, 0},
      {{JG_DEVICE_CUDA_MANAGED, 1}, kDLCUDAManaged, 0},
      {{JG_DEVICE_CPU, 0}, kDLCPU, 0},
  };
  const jg_len n[1] = {4};
  for (size_t i = 0; i < sizeof(ex) / sizeof(ex[0]); ++i) {
    jg_view v = make_view(fake, ex[i].device, JG_DTYPE_FLOAT32, 1, n, NULL, 0);
    DLManagedTensorVersioned *t = NULL;
    JGT_OK(jg_dlpack_export_versioned(&v, NULL, &t, NULL));
    assert_int_equal(t->dl_tensor.device.device_type, ex[i].dl_type);
    assert_int_equal(t->dl_tensor.device.device_id, ex[i].dl_id);
    assert_ptr_equal(t->dl_tensor.data, fake);
    t->deleter(t);
  }
}

static void test_export_errors(void **state) {
  (void)state;
  float data[4];
  const jg_len n[1] = {4};
  jg_view v = host_view(data, JG_DTYPE_FLOAT32, 1, n, NULL, 0);
  DLManagedTensorVersioned *t = (DLManagedTensorVersioned *)data;
  DLManagedTensor *tl = (DLManagedTensor *)data;
  jg_error err;
  JGT_STATUS(JG_EINVAL, jg_dlpack_export_versioned(NULL, NULL, &t, &err));
  assert_null(t);
  JGT_STATUS(JG_EINVAL, jg_dlpack_export_versioned(&v, NULL, NULL, &err));
  JGT_STATUS(JG_EINVAL, jg_dlpack_export_legacy(NULL, NULL, &tl, &err));
  assert_null(tl);

  jg_view bad = v;
  bad.dtype = JG_DTYPE_INVALID;
  JGT_STATUS(JG_EDTYPE, jg_dlpack_export_versioned(&bad, NULL, &t, &err));
  bad = v;
  bad.dtype = JG_DTYPE_FLOAT64; /* itemsize 4 in the layout */
  JGT_STATUS(JG_EDTYPE, jg_dlpack_export_versioned(&bad, NULL, &t, &err));
  JGT_CONTAINS(err.message, "itemsize");
  bad = v;
  bad.device.type = (jg_device_type)4;
  JGT_STATUS(JG_ENOTSUP, jg_dlpack_export_versioned(&bad, NULL, &t, &err));
  JGT_STATUS(JG_ENOTSUP, jg_dlpack_export_legacy(&bad, NULL, &tl, &err));
  bad = v;
  bad.base = NULL;
  JGT_STATUS(JG_EINVAL, jg_dlpack_export_versioned(&bad, NULL, &t, &err));
  JGT_CONTAINS(err.message, "NULL");
  bad = v;
  bad.layout.ndim = JG_MAX_NDIM + 1;
  JGT_STATUS(JG_EINVAL, jg_dlpack_export_versioned(&bad, NULL, &t, &err));
  /* Hand-made layouts: a negative extent would be exported as a negative DLPack shape. */
  bad = v;
  bad.layout.shape[0] = -bad.layout.shape[0];
  t = (DLManagedTensorVersioned *)&err;
  JGT_STATUS(JG_EINVAL, jg_dlpack_export_versioned(&bad, NULL, &t, &err));
  assert_null(t);
  assert_int_equal(err.index, 0);
  JGT_CONTAINS(err.message, "extents must be non-negative");
  JGT_STATUS(JG_EINVAL, jg_dlpack_export_legacy(&bad, NULL, &tl, &err));
  assert_null(tl);
  bad.layout.shape[0] = INT64_MIN;
  JGT_STATUS(JG_EINVAL, jg_dlpack_export_versioned(&bad, NULL, &t, &err));
  /* Element offsets past INT64_MAX; then element offsets up to 3 * 2^61 (stride 2^61), which
   * fit, of 4-byte elements, whose byte offsets do not. */
  bad = v;
  bad.layout.slice_offset = INT64_MAX;
  JGT_STATUS(JG_EOVERFLOW, jg_dlpack_export_versioned(&bad, NULL, &t, &err));
  bad = v;
  bad.layout.strides[0] = INT64_C(1) << 61;
  JGT_STATUS(JG_EOVERFLOW, jg_dlpack_export_versioned(&bad, NULL, &t, &err));
  assert_null(t);
  bad = v;
  bad.layout.slice_offset = -1000; /* element (0) below address 0 */
  bad.base = (void *)(uintptr_t)64;
  JGT_STATUS(JG_EOVERFLOW, jg_dlpack_export_versioned(&bad, NULL, &t, &err));
  assert_null(t);

  /* A failed export retains nothing. */
  reset_counters(NULL);
  jg_buffer *keep = NULL;
  JGT_OK(jg_buffer_wrap_external(data, sizeof(data), NULL, count_release, &keep, NULL));
  bad = v;
  bad.dtype = JG_DTYPE_INVALID;
  JGT_STATUS(JG_EDTYPE, jg_dlpack_export_versioned(&bad, keep, &t, &err));
  jg_buffer_release(keep);
  assert_int_equal(g_keep_releases, 1);
}

/* 64 axes of extent 1 or 2 survive the round trip. */
static void test_max_ndim(void **state) {
  (void)state;
  reset_counters(NULL);
  jg_len shape[JG_MAX_NDIM];
  for (int k = 0; k < JG_MAX_NDIM; ++k) shape[k] = (k % 16 == 0) ? 2 : 1;
  uint8_t mem[16];
  for (int i = 0; i < 16; ++i) mem[i] = (uint8_t)i;
  jg_view v = host_view(mem, JG_DTYPE_UINT8, JG_MAX_NDIM, shape, NULL, 0);
  DLManagedTensorVersioned *t = NULL;
  JGT_OK(jg_dlpack_export_versioned(&v, NULL, &t, NULL));
  assert_int_equal(t->dl_tensor.ndim, JG_MAX_NDIM);
  jg_buffer *buf = NULL;
  jg_view w;
  JGT_OK(jg_dlpack_import_versioned(t, &buf, &w, NULL));
  assert_int_equal(w.layout.ndim, JG_MAX_NDIM);
  assert_true(jg_layout_equal(&w.layout, &v.layout));
  assert_int_equal(jg_buffer_size(buf), 16);
  jg_buffer_release(buf);
}

/* The borrowed path owns nothing. */
static void test_view_from_dltensor(void **state) {
  (void)state;
  uint16_t u[6] = {10, 11, 12, 13, 14, 15};
  int64_t shape[2] = {3, 2};
  int64_t strides[2] = {1, 3}; /* F order */
  DLTensor t;
  memset(&t, 0, sizeof(t));
  t.data = u;
  t.device.device_type = kDLCPU;
  t.ndim = 2;
  t.dtype.code = kDLUInt;
  t.dtype.bits = 16;
  t.dtype.lanes = 1;
  t.shape = shape;
  t.strides = strides;
  jg_view w;
  JGT_OK(jg_view_from_dltensor(&t, &w, NULL));
  assert_null(w.buffer);
  assert_int_equal(w.dtype, JG_DTYPE_UINT16);
  assert_false(w.readonly);
  const jg_len idx[2] = {2, 1};
  assert_int_equal(*(uint16_t *)elem(&w, idx), 15); /* 2 * 1 + 1 * 3 = 5 */
  const jg_len idx2[2] = {1, 0};
  assert_int_equal(*(uint16_t *)elem(&w, idx2), 11);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_abi_layout),
      cmocka_unit_test(test_dtype_mapping),
      cmocka_unit_test_setup(test_roundtrip_every_dtype, reset_counters),
      cmocka_unit_test_setup(test_export_transposed_and_sliced, reset_counters),
      cmocka_unit_test_setup(test_import_byte_offset, reset_counters),
      cmocka_unit_test_setup(test_negative_strides, reset_counters),
      cmocka_unit_test_setup(test_null_strides_import, reset_counters),
      cmocka_unit_test_setup(test_zero_dim, reset_counters),
      cmocka_unit_test_setup(test_empty, reset_counters),
      cmocka_unit_test_setup(test_readonly_and_flags, reset_counters),
      cmocka_unit_test_setup(test_deleter_exactly_once, reset_counters),
      cmocka_unit_test_setup(test_import_errors, reset_counters),
      cmocka_unit_test_setup(test_devices, reset_counters),
      cmocka_unit_test_setup(test_export_errors, reset_counters),
      cmocka_unit_test_setup(test_max_ndim, reset_counters),
      cmocka_unit_test(test_view_from_dltensor),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
