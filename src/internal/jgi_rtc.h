/* jgi_rtc.h: internals of run-time compilation (include/jagged/rtc.h): the cache key, the on-disk
 * cache entries (src/core/rtc_cache.c), and the compile entry point with in-memory headers and
 * extra options that jg_catalog_compile_all and the catalog's registered kernels use
 * (src/core/rtc.c). Only meaningful in a CUDA build; the declarations compile everywhere. */
#ifndef JAGGED_JGI_RTC_H
#define JAGGED_JGI_RTC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "internal/jgi_check.h"
#include "jagged/rtc.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Version of the cache entry format and of what the key covers; bump on any change to either. */
#define JGI_RTC_CACHE_FORMAT 1u

/** A 128-bit cache key (XXH3-128). */
typedef struct jgi_rtc_key {
  uint64_t high;
  uint64_t low;
} jgi_rtc_key;

/** Everything the key covers besides jagged's version and the format version. */
typedef struct jgi_rtc_key_input {
  const char *source;              /**< NUL-terminated program text */
  const char *source_name;         /**< the name given to NVRTC (its folder is searched) */
  const char *const *include_dirs; /**< searched after the including file's folder */
  size_t n_include_dirs;
  size_t n_headers; /**< in-memory headers given to nvrtcCreateProgram */
  const char *const *header_sources;
  const char *const *header_names;
  const char *const *options; /**< the full NVRTC option list, in order */
  size_t n_options;
  const char *const *names; /**< name expressions, in order */
  size_t n_names;
  int arch;
  int nvrtc_major, nvrtc_minor;
} jgi_rtc_key_input;

/** Computes the key of `in`: XXH3-128 over length-prefixed fields (so that no two inputs hash the
 *  same bytes): the format version, JG_VERSION_STRING, the NVRTC version, the arch, the source
 *  and its name, every in-memory header (name, content), every option, every name expression,
 *  then every include the source reaches, depth first in order of appearance, each once: its
 *  spelling plus the content it resolves to, or a "missing" marker. Quoted includes resolve as
 *  NVRTC does (an in-memory header of that name, then the including file's folder, then the
 *  include dirs); angle-bracket includes only to an in-memory header or a file in an include
 *  dir (others are NVRTC's built-in or system headers, covered by its version). Never fails:
 *  unreadable files count as missing. */
JGI_HIDDEN jgi_rtc_key jgi_rtc_key_compute(const jgi_rtc_key_input *in);

/** Writes the 32 lower-case hex digits of `key` (high then low) and a NUL into `hex`. */
JGI_HIDDEN void jgi_rtc_key_hex(const jgi_rtc_key *key, char hex[33]);

/** A compiled binary: the CUBIN plus the lowered name of every requested name expression. All
 *  pointers are malloc'd and owned (free with jgi_rtc_binary_free). */
typedef struct jgi_rtc_binary {
  void *cubin;
  size_t cubin_size;
  size_t n_names;
  char **names;   /**< n_names name expressions */
  char **lowered; /**< n_names lowered names, parallel to names */
} jgi_rtc_binary;

/** Frees what `b` owns and zeroes it; NULL allowed. */
JGI_HIDDEN void jgi_rtc_binary_free(jgi_rtc_binary *b);

/** The cache directory for a compile with `opt` (may be NULL): opt->cache_dir, else JG_CACHE_DIR
 *  (set but empty: disabled), else $XDG_CACHE_HOME/jagged/kernels (when absolute), else
 *  $HOME/.cache/jagged/kernels. Returns false, with buf[0] = '\0', when caching is off
 *  (opt->cache = JG_RTC_CACHE_OFF, an empty opt->cache_dir, JG_CACHE_DIR="", no usable
 *  variable, or a path that does not fit in `size` bytes). Reads the environment at every call. */
JGI_HIDDEN bool jgi_rtc_cache_dir(const jg_rtc_options *opt, char *buf, size_t size);

/** Outcome of a cache lookup. */
typedef enum jgi_rtc_lookup {
  JGI_RTC_MISS = 0,   /**< no entry (or it could not be opened) */
  JGI_RTC_HIT = 1,    /**< *out filled */
  JGI_RTC_CORRUPT = 2 /**< an entry exists but fails a check (short, torn, wrong key/names) */
} jgi_rtc_lookup;

/** Looks up `key` under `dir` (<dir>/<2 hex>/<32 hex>.jgrtc). A hit also requires the entry to
 *  hold the same key, arch and name expressions, in order. Out of memory counts as a miss. */
JGI_HIDDEN jgi_rtc_lookup jgi_rtc_cache_read(const char *dir, const jgi_rtc_key *key, int arch,
                                             const char *const *names, size_t n_names,
                                             jgi_rtc_binary *out);

/** Stores `bin` under `dir` for `key`, creating the folders as needed: writes a temporary file in
 *  the shard folder, fsyncs it, then renames it over the entry (atomic; concurrent writers each
 *  leave a complete entry). Returns false on any failure (nothing is left behind). */
JGI_HIDDEN bool jgi_rtc_cache_write(const char *dir, const jgi_rtc_key *key, int arch,
                                    const jgi_rtc_binary *bin);

/** jg_rtc_compile with `n_headers` in-memory headers (content `header_sources[i]`, included as
 *  `header_names[i]`, both NUL-terminated and also covered by the cache key) and
 *  `n_extra_options` options appended after opt->options (e.g. a registered kernel's
 *  cuda_options). Same errors as jg_rtc_compile, plus JG_EINVAL for NULL header or option
 *  strings. Thread-safe. */
JGI_HIDDEN jg_status jgi_rtc_compile_ex(const char *source, const char *source_name,
                                        const char *const *names, size_t n_names,
                                        const jg_rtc_options *opt, const char *const *extra_options,
                                        size_t n_extra_options, size_t n_headers,
                                        const char *const *header_sources,
                                        const char *const *header_names, jg_rtc_program **out,
                                        jg_error *err);

#ifdef __cplusplus
}
#endif

#endif /* JAGGED_JGI_RTC_H */
