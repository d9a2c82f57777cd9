/* codecs.c: Parquet's page codecs (parquet-format Compression.md) through Debian's libraries:
 * snappy (snappy-c.h), zlib, zstd, lz4 (block and frame formats) and brotli. Each library is
 * used only when CMake found it (JG_HAVE_SNAPPY, JG_HAVE_ZLIB, JG_HAVE_ZSTD, JG_HAVE_LZ4,
 * JG_HAVE_BROTLI); without it the codec is JG_ENOTSUP, naming the Debian package. */
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "internal/jgi_parquet.h"

#if JG_HAVE_SNAPPY
#include <snappy-c.h>
#endif
#if JG_HAVE_ZLIB
#include <zlib.h>
#endif
#if JG_HAVE_ZSTD
#include <zstd.h>
#include <zstd_errors.h>
#endif
#if JG_HAVE_LZ4
#include <lz4.h>
#include <lz4frame.h>
#endif
#if JG_HAVE_BROTLI
#include <brotli/decode.h>
#include <brotli/encode.h>
#endif

bool jgi_pq_codec_available(int codec) {
  switch (codec) {
    case JGI_PQ_UNCOMPRESSED:
      return true;
#if JG_HAVE_SNAPPY
    case JGI_PQ_SNAPPY:
      return true;
#endif
#if JG_HAVE_ZLIB
    case JGI_PQ_GZIP:
      return true;
#endif
#if JG_HAVE_ZSTD
    case JGI_PQ_ZSTD:
      return true;
#endif
#if JG_HAVE_LZ4
    case JGI_PQ_LZ4:
    case JGI_PQ_LZ4_RAW:
      return true;
#endif
#if JG_HAVE_BROTLI
    case JGI_PQ_BROTLI:
      return true;
#endif
    default:
      return false;
  }
}

/* JG_ENOTSUP for a codec this build cannot handle. */
static jg_status not_built(int codec, jg_error *err) {
  const char *pkg = NULL;
  switch (codec) {
    case JGI_PQ_SNAPPY:
      pkg = "libsnappy-dev";
      break;
    case JGI_PQ_GZIP:
      pkg = "zlib1g-dev";
      break;
    case JGI_PQ_ZSTD:
      pkg = "libzstd-dev";
      break;
    case JGI_PQ_LZ4:
    case JGI_PQ_LZ4_RAW:
      pkg = "liblz4-dev";
      break;
    case JGI_PQ_BROTLI:
      pkg = "libbrotli-dev";
      break;
    case JGI_PQ_LZO:
      return jg_error_set(err, JG_ENOTSUP, -1,
                          "codec LZO is not supported by jagged (no LZO library is used)");
    default:
      return jg_error_set(err, JG_ENOTSUP, -1, "unknown codec %d", codec);
  }
  return jg_error_set(err, JG_ENOTSUP, -1,
                      "codec %s is not built into this jagged: install %s (Debian) and rebuild",
                      jgi_pq_codec_name(codec), pkg);
}

#if JG_HAVE_SNAPPY || JG_HAVE_ZLIB || JG_HAVE_ZSTD || JG_HAVE_BROTLI
static jg_status bad_data(int codec, size_t src_size, jg_error *err) {
  return jg_error_set(err, JG_ECORRUPT, -1, "%s: %zu bytes of compressed data do not decode",
                      jgi_pq_codec_name(codec), src_size);
}
#endif

static jg_status wrong_size(int codec, size_t got, size_t want, jg_error *err) {
  return jg_error_set(err, JG_ECORRUPT, -1,
                      "%s: the data decodes to %zu bytes, the page header says %zu",
                      jgi_pq_codec_name(codec), got, want);
}

/* ---- Decompression ------------------------------------------------------------------------- */

#if JG_HAVE_ZLIB
/* gzip or zlib streams (windowBits 15 + 32 detects the header), gzip members back to back. */
static jg_status gzip_decompress(const uint8_t *src, size_t n, uint8_t *dst, size_t dst_size,
                                 jg_error *err) {
  z_stream z;
  memset(&z, 0, sizeof z);
  JG_RETURN_IF(inflateInit2(&z, 15 + 32) != Z_OK, JG_ENOMEM, err, "GZIP: inflateInit2 failed");
  size_t in_left = n, out_left = dst_size;
  z.next_in = (Bytef *)(uintptr_t)src;
  z.next_out = dst;
  jg_status st = JG_OK;
  for (;;) {
    /* zlib counts in uInt: feed at most UINT_MAX bytes at a time. */
    const uInt in_chunk = in_left > UINT_MAX ? UINT_MAX : (uInt)in_left;
    const uInt out_chunk = out_left > UINT_MAX ? UINT_MAX : (uInt)out_left;
    z.avail_in = in_chunk;
    z.avail_out = out_chunk;
    const int rc = inflate(&z, Z_NO_FLUSH);
    in_left -= in_chunk - z.avail_in;
    out_left -= out_chunk - z.avail_out;
    if (rc == Z_STREAM_END) {
      if (in_left == 0) break;
      /* Another gzip member follows. */
      if (inflateReset(&z) != Z_OK) {
        st = bad_data(JGI_PQ_GZIP, n, err);
        break;
      }
      continue;
    }
    if (rc == Z_OK) continue;
    if (rc == Z_BUF_ERROR && out_left == 0 && in_left > 0) {
      st =
          jg_error_set(err, JG_ECORRUPT, -1,
                       "GZIP: the data decodes to more than the page header's %zu bytes", dst_size);
    } else if (rc == Z_BUF_ERROR && in_left == 0) {
      st = jg_error_set(err, JG_ECORRUPT, -1,
                        "GZIP: the stream is truncated (%zu bytes, %zu of %zu decoded)", n,
                        dst_size - out_left, dst_size);
    } else if (rc == Z_MEM_ERROR) {
      st = jg_error_set(err, JG_ENOMEM, -1, "GZIP: out of memory");
    } else {
      st =
          jg_error_set(err, JG_ECORRUPT, -1, "GZIP: %zu bytes of compressed data do not decode%s%s",
                       n, z.msg != NULL ? ": " : "", z.msg != NULL ? z.msg : "");
    }
    break;
  }
  inflateEnd(&z);
  JG_RETURN_NOT_OK(st);
  if (out_left != 0) return wrong_size(JGI_PQ_GZIP, dst_size - out_left, dst_size, err);
  return JG_OK;
}
#endif

#if JG_HAVE_LZ4
/* One raw LZ4 block of exactly dst_size bytes. */
static bool lz4_block(const uint8_t *src, size_t n, uint8_t *dst, size_t dst_size) {
  if (n > INT_MAX || dst_size > INT_MAX) return false;
  const int got = LZ4_decompress_safe((const char *)src, (char *)dst, (int)n, (int)dst_size);
  return got >= 0 && (size_t)got == dst_size;
}

static uint32_t load_be32(const uint8_t *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

/* Hadoop's framing: blocks of [4-byte big-endian decompressed size][4-byte big-endian compressed
 * size][raw LZ4 block], filling dst exactly and using all of src. */
static bool lz4_hadoop(const uint8_t *src, size_t n, uint8_t *dst, size_t dst_size) {
  size_t in = 0, out = 0;
  if (n < 8) return false;
  while (n - in >= 8) {
    const size_t usize = load_be32(src + in), csize = load_be32(src + in + 4);
    in += 8;
    if (csize > n - in || usize > dst_size - out) return false;
    if (!lz4_block(src + in, csize, dst + out, usize)) return false;
    in += csize;
    out += usize;
  }
  return in == n && out == dst_size;
}

/* The LZ4 frame format (magic 0x184D2204), one or more frames, exactly dst_size bytes. */
static jg_status lz4_frame(const uint8_t *src, size_t n, uint8_t *dst, size_t dst_size, bool *ok,
                           jg_error *err) {
  *ok = false;
  if (n < 4 || (src[0] | src[1] << 8 | src[2] << 16 | (uint32_t)src[3] << 24) != 0x184D2204u) {
    return JG_OK;
  }
  LZ4F_dctx *dctx = NULL;
  JG_RETURN_IF(LZ4F_isError(LZ4F_createDecompressionContext(&dctx, LZ4F_VERSION)), JG_ENOMEM, err,
               "LZ4: cannot create a frame decompression context");
  size_t in = 0, out = 0, hint = 1;
  while (in < n) {
    size_t in_chunk = n - in, out_chunk = dst_size - out;
    hint = LZ4F_decompress(dctx, dst + out, &out_chunk, src + in, &in_chunk, NULL);
    if (LZ4F_isError(hint)) break;
    in += in_chunk;
    out += out_chunk;
    if (in_chunk == 0 && out_chunk == 0) break; /* no progress: dst is full */
  }
  LZ4F_freeDecompressionContext(dctx);
  *ok = !LZ4F_isError(hint) && hint == 0 && in == n && out == dst_size;
  return JG_OK;
}
#endif

jg_status jgi_pq_decompress(int codec, const uint8_t *src, size_t src_size, uint8_t *dst,
                            size_t dst_size, jg_error *err) {
  uint8_t none = 0;
  if (dst == NULL) dst = &none; /* dst_size is 0: the libraries get a real pointer */
  /* Every codec's stream has at least a header or a length: none is corrupt (zstd, for one,
   * would decode zero frames to zero bytes). */
  JG_RETURN_IF(src_size == 0 && codec != JGI_PQ_UNCOMPRESSED && jgi_pq_codec_available(codec),
               JG_ECORRUPT, err, "%s: no compressed data (0 bytes) for %zu bytes",
               jgi_pq_codec_name(codec), dst_size);
  switch (codec) {
    case JGI_PQ_UNCOMPRESSED:
      if (src_size != dst_size) return wrong_size(codec, src_size, dst_size, err);
      if (dst_size > 0) memcpy(dst, src, dst_size);
      return JG_OK;
#if JG_HAVE_SNAPPY
    case JGI_PQ_SNAPPY: {
      size_t len = 0;
      if (snappy_uncompressed_length((const char *)src, src_size, &len) != SNAPPY_OK) {
        return bad_data(codec, src_size, err);
      }
      if (len != dst_size) return wrong_size(codec, len, dst_size, err);
      if (snappy_uncompress((const char *)src, src_size, (char *)dst, &len) != SNAPPY_OK) {
        return bad_data(codec, src_size, err);
      }
      if (len != dst_size) return wrong_size(codec, len, dst_size, err);
      return JG_OK;
    }
#endif
#if JG_HAVE_ZLIB
    case JGI_PQ_GZIP:
      return gzip_decompress(src, src_size, dst, dst_size, err);
#endif
#if JG_HAVE_ZSTD
    case JGI_PQ_ZSTD: {
      /* The frame's content size, when it records one, must agree before anything is decoded. */
      if (src_size >= 4) {
        const unsigned long long fcs = ZSTD_getFrameContentSize(src, src_size);
        if (fcs == ZSTD_CONTENTSIZE_ERROR) return bad_data(codec, src_size, err);
        if (fcs != ZSTD_CONTENTSIZE_UNKNOWN && fcs > dst_size) {
          return wrong_size(codec, (size_t)fcs, dst_size, err);
        }
      }
      const size_t got = ZSTD_decompress(dst, dst_size, src, src_size);
      if (ZSTD_isError(got)) {
        if (ZSTD_getErrorCode(got) == ZSTD_error_memory_allocation) {
          return jg_error_set(err, JG_ENOMEM, -1, "ZSTD: out of memory");
        }
        return jg_error_set(err, JG_ECORRUPT, -1,
                            "ZSTD: %zu bytes of compressed data do not "
                            "decode into %zu bytes: %s",
                            src_size, dst_size, ZSTD_getErrorName(got));
      }
      if (got != dst_size) return wrong_size(codec, got, dst_size, err);
      return JG_OK;
    }
#endif
#if JG_HAVE_LZ4
    case JGI_PQ_LZ4_RAW:
      if (!lz4_block(src, src_size, dst, dst_size)) {
        return jg_error_set(err, JG_ECORRUPT, -1,
                            "LZ4_RAW: %zu bytes do not decode to the page header's %zu bytes",
                            src_size, dst_size);
      }
      return JG_OK;
    case JGI_PQ_LZ4: {
      /* Hadoop's framing first (what the spec's LZ4 means), then what other writers put: one
       * raw block, or the frame format. */
      if (lz4_hadoop(src, src_size, dst, dst_size)) return JG_OK;
      if (lz4_block(src, src_size, dst, dst_size)) return JG_OK;
      bool ok;
      JG_RETURN_NOT_OK(lz4_frame(src, src_size, dst, dst_size, &ok, err));
      if (ok) return JG_OK;
      return jg_error_set(err, JG_ECORRUPT, -1,
                          "LZ4: %zu bytes decode to the page header's %zu bytes neither as "
                          "Hadoop-framed blocks, nor as one raw block, nor as an LZ4 frame",
                          src_size, dst_size);
    }
#endif
#if JG_HAVE_BROTLI
    case JGI_PQ_BROTLI: {
      size_t len = dst_size;
      const BrotliDecoderResult rc = BrotliDecoderDecompress(src_size, src, &len, dst);
      if (rc == BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT) {
        return jg_error_set(err, JG_ECORRUPT, -1,
                            "BROTLI: the data decodes to more than the page header's %zu bytes",
                            dst_size);
      }
      if (rc != BROTLI_DECODER_RESULT_SUCCESS) return bad_data(codec, src_size, err);
      if (len != dst_size) return wrong_size(codec, len, dst_size, err);
      return JG_OK;
    }
#endif
    default:
      return not_built(codec, err);
  }
}

/* ---- Compression --------------------------------------------------------------------------- */

jg_status jgi_pq_compress(int codec, int level, const uint8_t *src, size_t n, jgi_pq_buf *out,
                          jg_error *err) {
  static const uint8_t none = 0;
  if (src == NULL) src = &none; /* n is 0: the libraries get a real pointer */
  (void)level;                  /* unused when no leveled codec is built in */
  switch (codec) {
    case JGI_PQ_UNCOMPRESSED:
      return jgi_pq_buf_append(out, src, n, err);
#if JG_HAVE_SNAPPY
    case JGI_PQ_SNAPPY: {
      size_t len = snappy_max_compressed_length(n);
      JG_RETURN_NOT_OK(jgi_pq_buf_reserve(out, len, err));
      JG_RETURN_IF(
          snappy_compress((const char *)src, n, (char *)out->data + out->size, &len) != SNAPPY_OK,
          JG_EINTERNAL, err, "SNAPPY: compressing %zu bytes failed", n);
      out->size += len;
      return JG_OK;
    }
#endif
#if JG_HAVE_ZLIB
    case JGI_PQ_GZIP: {
      z_stream z;
      memset(&z, 0, sizeof z);
      /* windowBits 15 + 16: a gzip header and trailer. */
      JG_RETURN_IF(deflateInit2(&z, level == 0 ? Z_DEFAULT_COMPRESSION : level, Z_DEFLATED, 15 + 16,
                                8, Z_DEFAULT_STRATEGY) != Z_OK,
                   JG_EINVAL, err, "GZIP: deflateInit2 failed (level %d)", level);
      size_t in_left = n;
      z.next_in = (Bytef *)(uintptr_t)src;
      jg_status st = JG_OK;
      for (;;) {
        const size_t want =
            in_left > 0 ? deflateBound(&z, in_left > UINT_MAX ? UINT_MAX : (uLong)in_left) : 64;
        st = jgi_pq_buf_reserve(out, want, err);
        if (st != JG_OK) break;
        const size_t room = out->cap - out->size;
        const uInt in_chunk = in_left > UINT_MAX ? UINT_MAX : (uInt)in_left;
        const uInt out_chunk = room > UINT_MAX ? UINT_MAX : (uInt)room;
        z.avail_in = in_chunk;
        z.next_out = out->data + out->size;
        z.avail_out = out_chunk;
        const int rc = deflate(&z, in_chunk == in_left ? Z_FINISH : Z_NO_FLUSH);
        in_left -= in_chunk - z.avail_in;
        out->size += out_chunk - z.avail_out;
        if (rc == Z_STREAM_END) break;
        if (rc != Z_OK && rc != Z_BUF_ERROR) {
          st = jg_error_set(err, JG_EINTERNAL, -1, "GZIP: deflate failed (%d)", rc);
          break;
        }
      }
      deflateEnd(&z);
      return st;
    }
#endif
#if JG_HAVE_ZSTD
    case JGI_PQ_ZSTD: {
      const size_t bound = ZSTD_compressBound(n);
      JG_RETURN_IF(ZSTD_isError(bound), JG_EOVERFLOW, err, "ZSTD: %zu bytes are too many", n);
      JG_RETURN_NOT_OK(jgi_pq_buf_reserve(out, bound, err));
      const size_t len = ZSTD_compress(out->data + out->size, bound, src, n, level);
      JG_RETURN_IF(ZSTD_isError(len), JG_EINTERNAL, err, "ZSTD: compressing %zu bytes failed: %s",
                   n, ZSTD_getErrorName(len));
      out->size += len;
      return JG_OK;
    }
#endif
#if JG_HAVE_LZ4
    case JGI_PQ_LZ4_RAW: {
      JG_RETURN_IF(n > LZ4_MAX_INPUT_SIZE, JG_EOVERFLOW, err,
                   "LZ4_RAW: %zu bytes are more than one LZ4 block holds", n);
      const int bound = LZ4_compressBound((int)n);
      JG_RETURN_NOT_OK(jgi_pq_buf_reserve(out, (size_t)bound, err));
      const int len =
          LZ4_compress_default((const char *)src, (char *)out->data + out->size, (int)n, bound);
      JG_RETURN_IF(len <= 0 && n > 0, JG_EINTERNAL, err, "LZ4_RAW: compressing %zu bytes failed",
                   n);
      out->size += (size_t)(len > 0 ? len : 0);
      return JG_OK;
    }
    case JGI_PQ_LZ4:
      return jg_error_set(err, JG_ENOTSUP, -1,
                          "codec LZ4 (Hadoop framing, deprecated) is read but not written: use "
                          "LZ4_RAW");
#endif
#if JG_HAVE_BROTLI
    case JGI_PQ_BROTLI: {
      size_t len = BrotliEncoderMaxCompressedSize(n);
      JG_RETURN_IF(len == 0, JG_EOVERFLOW, err, "BROTLI: %zu bytes are too many", n);
      JG_RETURN_NOT_OK(jgi_pq_buf_reserve(out, len, err));
      const int quality = level == 0 ? BROTLI_DEFAULT_QUALITY : level;
      JG_RETURN_IF(!BrotliEncoderCompress(quality, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_GENERIC, n,
                                          src, &len, out->data + out->size),
                   JG_EINTERNAL, err, "BROTLI: compressing %zu bytes failed (quality %d)", n,
                   quality);
      out->size += len;
      return JG_OK;
    }
#endif
    default:
      return not_built(codec, err);
  }
}
