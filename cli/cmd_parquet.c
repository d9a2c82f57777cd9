/* cmd_parquet.c: `jagged parquet FILE`: a Parquet file's metadata and, on request, its first
 * rows, through include/jagged/parquet.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "jagged/jagged.h"
#include "jagged/parquet.h"

static void parquet_usage(FILE *out) {
  fprintf(out,
          "usage: jagged parquet FILE [--columns NAME,NAME...] [--head N] [--flat]\n"
          "\n"
          "Prints what the footer of the Parquet file FILE says: rows, row groups, the writer\n"
          "(created_by), the jagged type of the file, and one line per leaf column: its path,\n"
          "physical type, encodings, codec, compressed and uncompressed bytes.\n"
          "\n"
          "  --columns LIST  read only these fields (top-level names or dotted prefixes)\n"
          "  --head N        also print the first N rows\n"
          "  --flat          print rows as stored: without it, NanoAOD columns X_a, X_b with a\n"
          "                  counter nX are zipped into one list of records X\n");
}

/* Splits "a,b,c" in place into names; returns how many (at most cap). */
static int split_columns(char *list, const char **names, int cap) {
  int n = 0;
  for (char *p = list; p != NULL && n < cap;) {
    char *comma = strchr(p, ',');
    if (comma != NULL) *comma = '\0';
    if (*p != '\0') names[n++] = p;
    p = comma != NULL ? comma + 1 : NULL;
  }
  return n;
}

static int fail(const char *what, const jg_error *err) {
  fprintf(stderr, "jagged parquet: %s%s%s\n", what, *what ? ": " : "", err->message);
  return 1;
}

/* Prints rows [0, n) of the file, batch by batch. */
static int print_head(jg_parquet_file *f, const jg_parquet_read_options *o, int64_t n) {
  jg_error err;
  jg_error_clear(&err);
  jg_parquet_reader *r = NULL;
  if (jg_parquet_reader_open(f, o, n, &r, &err) != JG_OK) return fail("", &err);
  int64_t row = 0;
  int rc = 0;
  char *buf = malloc(1 << 16);
  while (rc == 0 && row < n && buf != NULL) {
    jg_array *b = NULL;
    if (jg_parquet_reader_next(r, &b, &err) != JG_OK) {
      rc = fail("", &err);
      break;
    }
    if (b == NULL) break;
    for (jg_len i = 0; i < jg_array_length(b) && row < n; i++, row++) {
      jg_array *one = NULL;
      jg_status st = jg_array_slice(b, i, i + 1, &one, &err);
      if (st == JG_OK) st = jg_array_to_string(one, 200, buf, 1 << 16, NULL, &err);
      jg_array_release(one);
      if (st != JG_OK) {
        rc = fail("", &err);
        break;
      }
      /* "[{...}]": one row without the list's brackets. */
      size_t len = strlen(buf);
      if (len >= 2 && buf[0] == '[' && buf[len - 1] == ']') {
        buf[len - 1] = '\0';
        printf("%lld: %s\n", (long long)row, buf + 1);
      } else {
        printf("%lld: %s\n", (long long)row, buf);
      }
    }
    jg_array_release(b);
  }
  free(buf);
  jg_parquet_reader_close(r);
  return rc;
}

int jg_cmd_parquet(int argc, char **argv) {
  const char *path = NULL;
  char *columns = NULL;
  long long head = -1;
  bool flat = false;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      parquet_usage(stdout);
      return 0;
    } else if (strcmp(a, "--columns") == 0 && i + 1 < argc) {
      columns = argv[++i];
    } else if (strcmp(a, "--head") == 0 && i + 1 < argc) {
      char *end = NULL;
      head = strtoll(argv[++i], &end, 10);
      if (end == argv[i] || *end != '\0' || head < 0) {
        fprintf(stderr, "jagged parquet: --head takes a count of rows, not '%s'\n", argv[i]);
        return 2;
      }
    } else if (strcmp(a, "--flat") == 0) {
      flat = true;
    } else if (a[0] == '-' && a[1] != '\0') {
      fprintf(stderr, "jagged parquet: unknown option '%s'\n", a);
      parquet_usage(stderr);
      return 2;
    } else if (path == NULL) {
      path = a;
    } else {
      fprintf(stderr, "jagged parquet: unexpected argument '%s' (one file at a time)\n", a);
      return 2;
    }
  }
  if (path == NULL) {
    fprintf(stderr, "jagged parquet: no file given\n");
    parquet_usage(stderr);
    return 2;
  }
  jg_error err;
  jg_error_clear(&err);
  jg_parquet_file *f = NULL;
  if (jg_parquet_open(path, &f, &err) != JG_OK) return fail("", &err);
  printf("file: %s\n", path);
  printf("rows: %lld\n", (long long)jg_parquet_num_rows(f));
  int ng = jg_parquet_num_row_groups(f);
  printf("row groups: %d\n", ng);
  printf("created by: %s\n", jg_parquet_created_by(f));
  size_t need = 0;
  char *type = NULL;
  int rc = 0;
  if (jg_parquet_type_string(f, NULL, 0, &need, &err) == JG_OK &&
      (type = malloc(need + 1)) != NULL &&
      jg_parquet_type_string(f, type, need + 1, NULL, &err) == JG_OK) {
    printf("type: %s\n", type);
  } else {
    rc = fail("type", &err);
  }
  free(type);
  int nc = jg_parquet_num_columns(f);
  printf("columns: %d\n", nc);
  printf("  %-36s %-20s %-12s %-28s %12s %12s\n", "path", "physical type", "codec", "encodings",
         "compressed", "uncompressed");
  for (int k = 0; k < nc && rc == 0; k++) {
    jg_parquet_column_info info = {0};
    if (jg_parquet_column_info_get(f, k, &info, &err) != JG_OK) {
      rc = fail("column", &err);
      break;
    }
    printf("  %-36s %-20s %-12s %-28s %12lld %12lld\n", info.path, info.physical_type,
           info.codec, info.encodings, (long long)info.compressed_bytes,
           (long long)info.uncompressed_bytes);
  }
  if (rc == 0 && head >= 0) {
    jg_parquet_read_options o;
    jg_parquet_read_options_init(&o);
    o.nanoaod = !flat;
    const char *names[256];
    if (columns != NULL) {
      o.ncolumns = split_columns(columns, names, 256);
      o.columns = names;
    }
    rc = print_head(f, &o, head > 0 ? head : 0);
  }
  jg_parquet_close(f);
  return rc;
}
