/* adl_repeat.c: the benchmark file of issue 7: a Parquet file made by repeating every event of
 * another K times, in order (the 1000-event CMS sample repeated 1000 times gives the
 * one-million-event file, on which every ADL histogram is exactly K times the reference).
 *
 *   adl_repeat IN OUT K [ROW_GROUP_ROWS]      (default 125000 rows per row group)
 *
 * Reads IN whole with jg_parquet_read (same schema: REQUIRED stays REQUIRED, lists stay lists),
 * concatenates K copies with jg_array_concatenate and writes OUT with jg_parquet_write (SNAPPY,
 * dictionaries where they pay). Memory: K times the file's decoded size. */
#include <stdio.h>
#include <stdlib.h>

#include "jagged/jagged.h"
#include "jagged/parquet.h"
#include "jagged/parquet_writer.h"

int main(int argc, char **argv) {
  if (argc < 4 || argc > 5) {
    fprintf(stderr, "usage: adl_repeat IN OUT K [ROW_GROUP_ROWS]\n");
    return 2;
  }
  const long k = strtol(argv[3], NULL, 10);
  const long long rg = argc == 5 ? strtoll(argv[4], NULL, 10) : 125000;
  if (k < 1 || k > 100000 || rg < 1) {
    fprintf(stderr, "adl_repeat: K must be in 1..100000 and ROW_GROUP_ROWS >= 1\n");
    return 2;
  }
  jg_error err;
  jg_error_clear(&err);
  jg_parquet_file *file = NULL;
  jg_array *in = NULL, *out = NULL;
  const jg_array **copies = malloc((size_t)k * sizeof *copies);
  int rc = 1;
  if (copies == NULL) {
    fprintf(stderr, "adl_repeat: out of memory\n");
    return 1;
  }
  if (jg_parquet_open(argv[1], &file, &err) == JG_OK &&
      jg_parquet_read(file, NULL, &in, &err) == JG_OK) {
    for (long i = 0; i < k; i++) copies[i] = in;
    jg_parquet_write_options o;
    jg_parquet_write_options_init(&o);
    o.row_group_rows = rg;
    if (jg_array_concatenate((int)k, copies, 0, NULL, &out, &err) == JG_OK &&
        jg_parquet_write(out, argv[2], &o, &err) == JG_OK) {
      rc = 0;
    }
  }
  if (rc != 0) fprintf(stderr, "adl_repeat: %s\n", err.message);
  jg_array_release(out);
  jg_array_release(in);
  jg_parquet_close(file);
  free(copies);
  return rc;
}
