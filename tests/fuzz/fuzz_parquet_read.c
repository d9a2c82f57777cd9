/* fuzz_parquet_read.c: libFuzzer target of the Parquet reader (issue 6, "Bad input").
 *
 * Each input is taken as a whole Parquet file (jg_parquet_open_memory): its metadata is queried,
 * every column is read (jg_parquet_read, then again with NanoAOD zipping), and the file is read
 * again in batches of 7 rows. Errors are expected and fine; what must never happen is a crash,
 * a sanitizer report, a leak, a hang or an allocation past -malloc_limit_mb, or an array that
 * the reader returned as JG_OK and that jg_array_validate (full) rejects: that aborts, so that
 * libFuzzer keeps the input. Seeds: the ADL sample files and tests/fuzz/seeds (files written by
 * jagged's writer with every encoding, codec and page version). */
#include <stdint.h>
#include <stdlib.h>

#include "jagged/jagged.h"

/* Validates an array the reader returned; aborts on failure (a reader bug, not bad input). */
static void check(jg_array *a) {
  jg_error err;
  if (a != NULL && jg_array_validate(a, JG_VALIDATE_FULL, NULL, &err) != JG_OK) abort();
  jg_array_release(a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  jg_error err;
  jg_parquet_file *file = NULL;
  if (jg_parquet_open_memory(data, size, &file, &err) != JG_OK) return 0;
  char type[4096];
  size_t needed = 0;
  (void)jg_parquet_type_string(file, type, sizeof type, &needed, &err);
  for (int c = 0; c < jg_parquet_num_columns(file); ++c) {
    jg_parquet_column_info info;
    info.version = 0;
    (void)jg_parquet_column_info_get(file, c, &info, &err);
  }
  jg_parquet_read_options o;
  jg_parquet_read_options_init(&o);
  for (int nanoaod = 0; nanoaod < 2; ++nanoaod) {
    o.nanoaod = nanoaod != 0;
    jg_array *a = NULL;
    if (jg_parquet_read(file, &o, &a, &err) == JG_OK) check(a);
  }
  o.nanoaod = false;
  jg_parquet_reader *r = NULL;
  if (jg_parquet_reader_open(file, &o, 7, &r, &err) == JG_OK) {
    for (int k = 0; k < 1000; ++k) {
      jg_array *a = NULL;
      if (jg_parquet_reader_next(r, &a, &err) != JG_OK || a == NULL) break;
      check(a);
    }
    jg_parquet_reader_close(r);
  }
  jg_parquet_close(file);
  return 0;
}
