/* types.c: dtype sizes and names. */
#include "jagged/types.h"

int64_t jg_dtype_itemsize(jg_dtype dtype) {
  switch (dtype) {
    case JG_DTYPE_BOOL:
    case JG_DTYPE_INT8:
    case JG_DTYPE_UINT8:
      return 1;
    case JG_DTYPE_INT16:
    case JG_DTYPE_UINT16:
    case JG_DTYPE_FLOAT16:
    case JG_DTYPE_BFLOAT16:
      return 2;
    case JG_DTYPE_INT32:
    case JG_DTYPE_UINT32:
    case JG_DTYPE_FLOAT32:
      return 4;
    case JG_DTYPE_INT64:
    case JG_DTYPE_UINT64:
    case JG_DTYPE_FLOAT64:
    case JG_DTYPE_COMPLEX64:
      return 8;
    case JG_DTYPE_COMPLEX128:
      return 16;
    case JG_DTYPE_INVALID:
    case JG_DTYPE_COUNT_:
      break;
  }
  return 0;
}

const char *jg_dtype_name(jg_dtype dtype) {
  switch (dtype) {
    case JG_DTYPE_BOOL: return "bool";
    case JG_DTYPE_INT8: return "int8";
    case JG_DTYPE_INT16: return "int16";
    case JG_DTYPE_INT32: return "int32";
    case JG_DTYPE_INT64: return "int64";
    case JG_DTYPE_UINT8: return "uint8";
    case JG_DTYPE_UINT16: return "uint16";
    case JG_DTYPE_UINT32: return "uint32";
    case JG_DTYPE_UINT64: return "uint64";
    case JG_DTYPE_FLOAT16: return "float16";
    case JG_DTYPE_FLOAT32: return "float32";
    case JG_DTYPE_FLOAT64: return "float64";
    case JG_DTYPE_COMPLEX64: return "complex64";
    case JG_DTYPE_COMPLEX128: return "complex128";
    case JG_DTYPE_BFLOAT16: return "bfloat16";
    case JG_DTYPE_INVALID:
    case JG_DTYPE_COUNT_:
      break;
  }
  return "invalid";
}
