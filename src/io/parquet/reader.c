/* reader.c: the public calls of include/jagged/parquet.h: opening (footer, schema), metadata
 * queries, projection, reading row groups (columns decoded in parallel, each top-level field
 * built as soon as its columns are done and, on request, copied to a GPU while the next one
 * decodes), the NanoAOD zip, and the batch reader.
 *
 * Spec: parquet-format's file layout: "PAR1", the column chunks, the footer (FileMetaData in
 * the Thrift compact protocol), its length as a 4-byte little-endian integer, "PAR1". */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal/jgi_array.h"
#include "internal/jgi_file.h"
#include "io/parquet/pq_reader.h"
#include "jagged/device.h"
#include "jagged/parquet.h"

struct jg_parquet_file {
  char *name;
  const uint8_t *data; /* the whole file */
  size_t size;
  size_t data_end;     /* where the footer starts: column chunks lie in [4, data_end) */
  void *map;           /* mmap'ed region, or NULL */
  size_t map_len;
  uint8_t *owned;      /* bytes read into memory, or NULL */
  jgi_pq_file_meta meta;
  jgi_pq_schema schema;
  char **encodings;    /* per leaf: "PLAIN,RLE" */
  jg_parquet_column_info *info; /* per leaf */
};

/* ---- opening ---------------------------------------------------------------------------------- */

void jg_parquet_close(jg_parquet_file *f) {
  if (f == NULL) return;
  if (f->map != NULL) munmap(f->map, f->map_len);
  free(f->owned);
  if (f->encodings != NULL)
    for (int k = 0; k < f->schema.nleaves; k++) free(f->encodings[k]);
  free(f->encodings);
  free(f->info);
  jgi_pq_schema_reset(&f->schema);
  jgi_pq_meta_reset(&f->meta);
  free(f->name);
  free(f);
}

static uint32_t u32le(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The encodings of leaf k over the row groups, in first-seen order. */
static char *encodings_string(const jgi_pq_file_meta *m, int k) {
  bool seen[64] = {false};
  size_t len = 1;
  char *s = calloc(1, 1);
  for (int g = 0; s != NULL && g < m->nrow_groups; g++) {
    const jgi_pq_column_chunk *cc = &m->row_groups[g].columns[k];
    if (!cc->has_meta) continue;
    for (int e = 0; e < cc->meta.nencodings; e++) {
      int enc = cc->meta.encodings[e];
      if (enc >= 0 && enc < 64) {
        if (seen[enc]) continue;
        seen[enc] = true;
      }
      const char *name = jgi_pq_encoding_name(enc);
      char num[32];
      if (strcmp(name, "unknown") == 0) {
        snprintf(num, sizeof num, "%d", enc);
        name = num;
      }
      size_t add = strlen(name) + (len > 1);
      char *t = realloc(s, len + add);
      if (t == NULL) {
        free(s);
        return NULL;
      }
      s = t;
      if (len > 1) strcat(s, ",");
      strcat(s, name);
      len += add;
    }
  }
  return s;
}

/* Checks the row groups against the schema and fills the per-leaf info. */
static jg_status file_check(jg_parquet_file *f, jg_error *err) {
  const jgi_pq_file_meta *m = &f->meta;
  const jgi_pq_schema *s = &f->schema;
  int64_t total = 0;
  for (int g = 0; g < m->nrow_groups; g++) {
    const jgi_pq_row_group *rg = &m->row_groups[g];
    JG_RETURN_IF(rg->num_rows < 0 || jgi_add_overflow(total, rg->num_rows, &total), JG_ECORRUPT,
                 err, "row group %d has %lld rows", g, (long long)rg->num_rows);
    JG_RETURN_IF(rg->ncolumns != s->nleaves, JG_ECORRUPT, err,
                 "row group %d has %d column chunks, the schema %d leaf columns", g,
                 rg->ncolumns, s->nleaves);
    for (int k = 0; k < rg->ncolumns; k++) {
      const jgi_pq_column_chunk *cc = &rg->columns[k];
      if (!cc->has_meta) continue;
      /* path_in_schema must name the leaf. */
      const char *p = s->leaves[k].path;
      bool same = true;
      for (int e = 0; same && e < cc->meta.npath; e++) {
        const char *name = cc->meta.path[e];
        size_t n = name ? strlen(name) : 0;
        same = name != NULL && strncmp(p, name, n) == 0 &&
               (p[n] == '.' || (p[n] == '\0' && e == cc->meta.npath - 1));
        if (same) p += n + (p[n] == '.'); /* past the matched name only */
      }
      same = same && *p == '\0' && cc->meta.npath > 0;
      JG_RETURN_IF(!same, JG_ECORRUPT, err,
                   "row group %d, column chunk %d: path_in_schema does not name column %s", g, k,
                   s->leaves[k].path);
    }
  }
  JG_RETURN_IF(total != m->num_rows, JG_ECORRUPT, err,
               "the row groups hold %lld rows, the footer says %lld", (long long)total,
               (long long)m->num_rows);
  f->encodings = calloc((size_t)s->nleaves + 1, sizeof(char *));
  f->info = calloc((size_t)s->nleaves + 1, sizeof(jg_parquet_column_info));
  JG_RETURN_IF(f->encodings == NULL || f->info == NULL, JG_ENOMEM, err, "out of memory");
  for (int k = 0; k < s->nleaves; k++) {
    const jgi_pq_leaf *l = &s->leaves[k];
    f->encodings[k] = encodings_string(m, k);
    JG_RETURN_IF(f->encodings[k] == NULL, JG_ENOMEM, err, "out of memory");
    jg_parquet_column_info *info = &f->info[k];
    info->version = sizeof *info;
    info->path = l->path;
    info->field_path = l->field_path;
    info->physical_type = jgi_pq_type_name(l->physical);
    info->codec = m->nrow_groups > 0 && m->row_groups[0].columns[k].has_meta
                      ? jgi_pq_codec_name(m->row_groups[0].columns[k].meta.codec)
                      : "";
    info->encodings = f->encodings[k];
    for (int g = 0; g < m->nrow_groups; g++) {
      const jgi_pq_column_chunk *cc = &m->row_groups[g].columns[k];
      if (!cc->has_meta) continue;
      info->compressed_bytes += cc->meta.total_compressed_size;
      info->uncompressed_bytes += cc->meta.total_uncompressed_size;
      info->num_values += cc->meta.num_values;
    }
    info->max_definition_level = l->max_def;
    info->max_repetition_level = l->max_rep;
    info->dtype = l->dtype;
  }
  return JG_OK;
}

/* Parses what f->data holds; f->name set. */
static jg_status file_init(jg_parquet_file *f, jg_error *err) {
  const uint8_t *d = f->data;
  size_t n = f->size;
  JG_RETURN_IF(n < 12, JG_ECORRUPT, err,
               "not a Parquet file: %zu bytes, fewer than the 12 of its magic numbers and "
               "footer length",
               n);
  JG_RETURN_IF(memcmp(d, "PAR1", 4) != 0, JG_ECORRUPT, err,
               "not a Parquet file: no \"PAR1\" magic at the start");
  JG_RETURN_IF(memcmp(d + n - 4, "PARE", 4) == 0, JG_ENOTSUP, err,
               "the footer is encrypted (magic \"PARE\"): encrypted files are not supported");
  JG_RETURN_IF(memcmp(d + n - 4, "PAR1", 4) != 0, JG_ECORRUPT, err,
               "not a Parquet file, or truncated: no \"PAR1\" magic at the end");
  uint32_t flen = u32le(d + n - 8);
  JG_RETURN_IF((uint64_t)flen > n - 12, JG_ECORRUPT, err,
               "footer length %u is more than the %zu bytes before it (truncated file?)", flen,
               n - 12);
  f->data_end = n - 8 - flen;
  jg_status st = jgi_pq_meta_parse(d + f->data_end, flen, &f->meta, err);
  if (st == JG_OK) st = jgi_pq_schema_build(&f->meta, &f->schema, err);
  if (st == JG_OK) st = file_check(f, err);
  return jgi_pq_as_corrupt(st, NULL, err);
}

static jg_status file_new(const char *name, jg_parquet_file **out, jg_error *err) {
  jg_parquet_file *f = calloc(1, sizeof *f);
  char *nm = strdup(name);
  if (f == NULL || nm == NULL) {
    free(f);
    free(nm);
    return jg_error_set(err, JG_ENOMEM, -1, "out of memory");
  }
  f->name = nm;
  *out = f;
  return JG_OK;
}

jg_status jg_parquet_open(const char *path, jg_parquet_file **out, jg_error *err) {
  static const char fn[] = "jg_parquet_open";
  JG_RETURN_IF(out == NULL || path == NULL, JG_EINVAL, err, "%s: NULL %s", fn,
               out == NULL ? "out" : "path");
  *out = NULL;
  /* O_NONBLOCK: opening a FIFO (or a device that would wait) returns at once, and the check
   * below refuses it; a regular file ignores the flag. */
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  JG_RETURN_IF(fd < 0, JG_EIO, err, "%s: cannot open '%s': %s", fn, path, strerror(errno));
  struct stat sb;
  if (fstat(fd, &sb) != 0) {
    const int e = errno;
    close(fd);
    return jg_error_set(err, JG_EIO, -1, "%s: cannot stat '%s': %s", fn, path, strerror(e));
  }
  if (!S_ISREG(sb.st_mode)) {
    close(fd);
    return jg_error_set(err, JG_EIO, -1, "%s: '%s' is not a regular file (%s)", fn, path,
                        jgi_file_kind((unsigned)sb.st_mode));
  }
  jg_parquet_file *f = NULL;
  jg_status st = file_new(path, &f, err);
  if (st != JG_OK) {
    close(fd);
    return st;
  }
  size_t size = (size_t)sb.st_size;
  if (size > 0) {
    void *map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (map != MAP_FAILED) {
      f->map = map;
      f->map_len = size;
      f->data = map;
    } else {
      f->owned = malloc(size);
      size_t got = 0;
      while (f->owned != NULL && got < size) {
        ssize_t r = pread(fd, f->owned + got, size - got, (off_t)got);
        if (r <= 0) {
          if (r < 0 && errno == EINTR) continue;
          break;
        }
        got += (size_t)r;
      }
      if (f->owned == NULL || got < size) {
        st = f->owned == NULL
                 ? jg_error_set(err, JG_ENOMEM, -1, "%s: '%s': out of memory for %zu bytes", fn,
                                path, size)
                 : jg_error_set(err, JG_EIO, -1, "%s: cannot read '%s': %s", fn, path,
                                strerror(errno));
        close(fd);
        jg_parquet_close(f);
        return st;
      }
      f->data = f->owned;
    }
  }
  close(fd);
  f->size = size;
  st = file_init(f, err);
  if (st != JG_OK) {
    char where[300];
    snprintf(where, sizeof where, "%s: '%s'", fn, path);
    jgi_error_prefix(st, where, err);
    jg_parquet_close(f);
    return st;
  }
  *out = f;
  return JG_OK;
}

jg_status jg_parquet_open_memory(const void *data, size_t size, jg_parquet_file **out,
                                 jg_error *err) {
  static const char fn[] = "jg_parquet_open_memory";
  JG_RETURN_IF(out == NULL, JG_EINVAL, err, "%s: NULL out", fn);
  *out = NULL;
  JG_RETURN_IF(data == NULL && size > 0, JG_EINVAL, err, "%s: NULL data with %zu bytes", fn,
               size);
  jg_parquet_file *f = NULL;
  JG_RETURN_NOT_OK(file_new("<memory>", &f, err));
  f->data = data;
  f->size = size;
  jg_status st = file_init(f, err);
  if (st != JG_OK) {
    jgi_error_prefix(st, "jg_parquet_open_memory: <memory>", err);
    jg_parquet_close(f);
    return st;
  }
  *out = f;
  return JG_OK;
}

/* ---- metadata -------------------------------------------------------------------------------- */

int64_t jg_parquet_num_rows(const jg_parquet_file *f) { return f ? f->meta.num_rows : 0; }

int jg_parquet_num_row_groups(const jg_parquet_file *f) { return f ? f->meta.nrow_groups : 0; }

int64_t jg_parquet_row_group_num_rows(const jg_parquet_file *f, int g) {
  if (f == NULL || g < 0 || g >= f->meta.nrow_groups) return -1;
  return f->meta.row_groups[g].num_rows;
}

int jg_parquet_num_columns(const jg_parquet_file *f) { return f ? f->schema.nleaves : 0; }

const char *jg_parquet_created_by(const jg_parquet_file *f) {
  if (f == NULL) return NULL;
  return f->meta.created_by ? f->meta.created_by : "";
}

jg_status jg_parquet_column_info_get(const jg_parquet_file *f, int column,
                                     jg_parquet_column_info *info, jg_error *err) {
  static const char fn[] = "jg_parquet_column_info_get";
  JG_RETURN_IF(f == NULL || info == NULL, JG_EINVAL, err, "%s: NULL %s", fn,
               f == NULL ? "file" : "info");
  JG_RETURN_IF(info->version != 0 && info->version != sizeof *info, JG_EINVAL, err,
               "%s: info->version is %u, expected 0 or %zu", fn, (unsigned)info->version,
               sizeof *info);
  JG_RETURN_IF_AT(column < 0 || column >= f->schema.nleaves, JG_EINDEX, err, column,
                  "%s: column %d of %d", fn, column, f->schema.nleaves);
  *info = f->info[column];
  return JG_OK;
}

/* ---- options and projection -------------------------------------------------------------------- */

void jg_parquet_read_options_init(jg_parquet_read_options *o) {
  if (o == NULL) return;
  memset(o, 0, sizeof *o);
  o->version = sizeof *o;
  o->row_group_end = -1;
  o->nthreads = 1;
  o->device_id = -1;
}

/* Resolved options: row group range, leaves selected, threads, memory. */
typedef struct plan {
  int rg_begin, rg_end;
  bool *selected; /* per leaf */
  int nthreads;
  jg_memory_resource *mr;
  int device_id;
  jg_stream stream;
  bool nanoaod;
} plan;

static void plan_reset(plan *p) {
  free(p->selected);
  memset(p, 0, sizeof *p);
}

/* Whether `path` is `q` or starts with `q` followed by a dot. */
static bool prefix_match(const char *path, const char *q) {
  size_t n = strlen(q);
  return strncmp(path, q, n) == 0 && (path[n] == '\0' || path[n] == '.');
}

static jg_status plan_make(const jg_parquet_file *f, const jg_parquet_read_options *o,
                           const char *fn, plan *p, jg_error *err) {
  jg_parquet_read_options def;
  if (o == NULL) {
    jg_parquet_read_options_init(&def);
    o = &def;
  }
  memset(p, 0, sizeof *p);
  JG_RETURN_IF(o->version != sizeof *o, JG_EINVAL, err,
               "%s: options->version is %u, expected %zu (call jg_parquet_read_options_init)",
               fn, (unsigned)o->version, sizeof *o);
  for (size_t k = 0; k < sizeof o->reserved; k++)
    JG_RETURN_IF(o->reserved[k] != 0, JG_EINVAL, err, "%s: options->reserved is not zero", fn);
  int ng = f->meta.nrow_groups;
  int end = o->row_group_end < 0 ? ng : o->row_group_end;
  JG_RETURN_IF(o->row_group_begin < 0 || o->row_group_begin > end || end > ng ||
                   o->row_group_end < -1,
               JG_EINVAL, err, "%s: row groups [%d, %d) are not within the file's %d", fn,
               o->row_group_begin, o->row_group_end, ng);
  JG_RETURN_IF(o->nthreads < 0, JG_EINVAL, err, "%s: nthreads %d", fn, o->nthreads);
  JG_RETURN_IF(o->ncolumns < 0 || (o->ncolumns > 0 && o->columns == NULL), JG_EINVAL, err,
               "%s: %d columns at %p", fn, o->ncolumns, (const void *)o->columns);
  JG_RETURN_IF(o->device_id < -1, JG_EINVAL, err, "%s: device_id %d", fn, o->device_id);
  JG_RETURN_IF(o->memory != NULL && !o->memory->host_accessible, JG_EINVAL, err,
               "%s: options->memory is not host-accessible; the reader writes its output from "
               "the host (use pinned memory, and device_id for the GPU)",
               fn);
  p->rg_begin = o->row_group_begin;
  p->rg_end = end;
  int nthreads = o->nthreads;
  if (nthreads == 0) {
    long nc = sysconf(_SC_NPROCESSORS_ONLN);
    nthreads = nc > 0 ? (int)(nc > 256 ? 256 : nc) : 1;
  }
  p->nthreads = nthreads > 256 ? 256 : nthreads;
  p->mr = o->memory;
  p->device_id = o->device_id;
  p->stream = o->stream;
  p->nanoaod = o->nanoaod;
  int nl = f->schema.nleaves;
  p->selected = calloc((size_t)nl + 1, sizeof(bool));
  JG_RETURN_IF(p->selected == NULL, JG_ENOMEM, err, "%s: out of memory", fn);
  if (o->columns == NULL || o->ncolumns == 0) {
    for (int k = 0; k < nl; k++) p->selected[k] = true;
    return JG_OK;
  }
  for (int c = 0; c < o->ncolumns; c++) {
    const char *q = o->columns[c];
    if (q == NULL) {
      plan_reset(p);
      return jg_error_set(err, JG_EINVAL, c, "%s: column name %d is NULL", fn, c);
    }
    bool found = false;
    for (int k = 0; k < nl; k++) {
      const jgi_pq_leaf *l = &f->schema.leaves[k];
      if (prefix_match(l->path, q) || prefix_match(l->field_path, q)) {
        p->selected[k] = true;
        found = true;
      }
    }
    if (!found && p->nanoaod && q[0] != '\0') {
      /* NanoAOD group X: its counter nX and its X_* columns. */
      size_t n = strlen(q);
      bool counter = false;
      for (int k = 0; k < nl; k++) {
        const char *name = f->schema.root->children[f->schema.leaves[k].top]->name;
        if (name[0] == 'n' && strcmp(name + 1, q) == 0) counter = true;
      }
      for (int k = 0; counter && k < nl; k++) {
        const char *name = f->schema.root->children[f->schema.leaves[k].top]->name;
        if ((name[0] == 'n' && strcmp(name + 1, q) == 0) ||
            (strncmp(name, q, n) == 0 && name[n] == '_' && name[n + 1] != '\0')) {
          p->selected[k] = true;
          found = true;
        }
      }
    }
    if (!found) {
      plan_reset(p);
      return jg_error_set(err, JG_ENOTFOUND, c, "%s: %s: no column named '%s'", fn, f->name, q);
    }
  }
  return JG_OK;
}

/* ---- reading row groups ------------------------------------------------------------------------ */

typedef struct read_job {
  const jg_parquet_file *f;
  const plan *p;
  int64_t nrows;
  int *leaves; /* selected leaves, in order */
  int nleaves;
  jgi_pq_assembled *assembled; /* per leaf of the schema */
  jg_status *status;           /* per job entry */
  jg_error *errors;            /* per job entry */
  bool *done;                  /* per job entry */
  bool *abandoned;             /* per job entry: skipped after another entry's error */
  atomic_int next;
  atomic_bool abort;
  pthread_mutex_t mu;
  pthread_cond_t cv;
} read_job;

/* Decodes every selected row group's chunk of job entry i and assembles it, with the buffers
 * of this thread's *cd (what the assembly leaves there is kept for the next entry). */
static void decode_entry(read_job *j, int i, jgi_pq_column_data *scratch) {
  const jg_parquet_file *f = j->f;
  int k = j->leaves[i];
  const jgi_pq_leaf *l = &f->schema.leaves[k];
  jg_error *err = &j->errors[i];
  jg_status st = JG_OK;
  jgi_pq_column_data cd = *scratch;
  jgi_pq_column_data_clear(&cd);
  bool abandoned = atomic_load(&j->abort);
  if (abandoned) st = jg_error_set(err, JG_EINTERNAL, -1, "abandoned after another error");
  if (st == JG_OK)
    st = jgi_pq_column_reserve(&f->meta, l, k, j->p->rg_begin, j->p->rg_end, &cd, err);
  for (int g = j->p->rg_begin; st == JG_OK && g < j->p->rg_end; g++)
    st = jgi_pq_column_read(f->data, f->data_end, &f->meta, l, k, g, f->name, &cd, err);
  if (st == JG_OK) {
    jgi_pq_where w = {f->name, l->path, -1, -1};
    st = jgi_pq_assemble(l, &cd, j->nrows, j->p->mr, &w, &j->assembled[k], err);
  }
  st = jgi_pq_as_corrupt(st, NULL, err); /* the messages name the file and column */
  *scratch = cd;
  if (st != JG_OK) atomic_store(&j->abort, true);
  pthread_mutex_lock(&j->mu);
  j->status[i] = st;
  j->abandoned[i] = abandoned;
  j->done[i] = true;
  pthread_cond_broadcast(&j->cv);
  pthread_mutex_unlock(&j->mu);
}

static void *worker(void *arg) {
  read_job *j = arg;
  jgi_pq_column_data scratch;
  memset(&scratch, 0, sizeof scratch);
  for (;;) {
    int i = atomic_fetch_add(&j->next, 1);
    if (i >= j->nleaves) break;
    decode_entry(j, i, &scratch);
  }
  jgi_pq_column_data_reset(&scratch);
  return NULL;
}

/* Waits until job entries [a, b) are decoded, decoding pending ones on this thread. */
static void wait_entries(read_job *j, int a, int b, jgi_pq_column_data *scratch) {
  for (;;) {
    pthread_mutex_lock(&j->mu);
    bool all = true;
    for (int i = a; i < b; i++) all = all && j->done[i];
    pthread_mutex_unlock(&j->mu);
    if (all) return;
    int i = atomic_fetch_add(&j->next, 1);
    if (i < j->nleaves) {
      decode_entry(j, i, scratch);
      continue;
    }
    pthread_mutex_lock(&j->mu);
    for (;;) {
      all = true;
      for (int e = a; e < b; e++) all = all && j->done[e];
      if (all) break;
      pthread_cond_wait(&j->cv, &j->mu);
    }
    pthread_mutex_unlock(&j->mu);
    return;
  }
}

/* NanoAOD: zips the X_* list fields with a counter nX into one field X (see parquet.h). fields
 * and names (nf entries) are replaced in place; *nf may shrink. */
static jg_status nanoaod_zip(const char *file, jg_array **fields, const char **names, int *nf,
                             jg_error *err) {
  int n = *nf;
  bool *used = calloc((size_t)n + 1, sizeof(bool));
  jg_array **members = calloc((size_t)n + 1, sizeof(jg_array *));
  const char **suffixes = calloc((size_t)n + 1, sizeof(char *));
  int *member_at = calloc((size_t)n + 1, sizeof(int));
  jg_status st = used && members && suffixes && member_at
                     ? JG_OK
                     : jg_error_set(err, JG_ENOMEM, -1, "out of memory");
  for (int c = 0; st == JG_OK && c < n; c++) {
    const char *cn = names[c];
    jg_array *counter = fields[c];
    if (cn[0] != 'n' || cn[1] == '\0' || used[c] || jg_array_kind(counter) != JG_NODE_NUMERIC)
      continue;
    jg_view cv;
    if (jg_array_buffer(counter, 0, &cv, NULL) != JG_OK || cv.layout.ndim != 1) continue;
    if (cv.dtype == JG_DTYPE_BOOL || cv.dtype >= JG_DTYPE_FLOAT16) continue;
    const char *x = cn + 1;
    size_t xn = strlen(x);
    bool clash = false;
    int m = 0;
    for (int u = 0; u < n; u++) {
      if (strcmp(names[u], x) == 0) clash = true;
      if (used[u] || jg_array_kind(fields[u]) != JG_NODE_LIST_OFFSET) continue;
      if (strncmp(names[u], x, xn) != 0 || names[u][xn] != '_' || names[u][xn + 1] == '\0')
        continue;
      members[m] = fields[u];
      suffixes[m] = names[u] + xn + 1;
      member_at[m] = u;
      m++;
    }
    if (m == 0 || clash) continue;
    /* Every member's counts equal the counter's. */
    jg_len rows = jg_array_length(counter);
    for (int q = 0; st == JG_OK && q < m; q++) {
      jg_view ov;
      st = jg_array_buffer(members[q], 0, &ov, err);
      if (st != JG_OK) break;
      if (jg_array_length(members[q]) != rows) {
        st = jg_error_set(err, JG_ESHAPE, -1, "%s: column %s has %lld rows, %s has %lld", file,
                          names[member_at[q]], (long long)jg_array_length(members[q]), cn,
                          (long long)rows);
        break;
      }
      /* In chunks (jgi_view_read_index); the first chunk with a mismatch is searched again
       * entry by entry for the message. */
      enum { CHUNK = 1024 };
      int64_t o[CHUNK + 1], counts[CHUNK];
      jg_len bad_from = rows;
      for (jg_len r0 = 0; r0 < rows && bad_from == rows; r0 += CHUNK) {
        const jg_len nr = rows - r0 < CHUNK ? rows - r0 : CHUNK;
        jgi_view_read_index(&ov, r0, nr + 1, o);
        jgi_view_read_index(&cv, r0, nr, counts);
        int64_t off = 0;
        for (jg_len j = 0; j < nr; j++) off |= (o[j + 1] - o[j]) ^ counts[j];
        if (off != 0) bad_from = r0;
      }
      for (jg_len r = bad_from; r < rows; r++) {
        int64_t cnt = jgi_view_get_index(&ov, r + 1) - jgi_view_get_index(&ov, r);
        int64_t want = jgi_view_get_index(&cv, r);
        if (cnt != want) {
          st = jg_error_set(err, JG_ESHAPE, r,
                            "%s: column %s has %lld entries in row %lld, its counter %s says "
                            "%lld",
                            file, names[member_at[q]], (long long)cnt, (long long)r, cn,
                            (long long)want);
          break;
        }
      }
    }
    if (st != JG_OK) break;
    jg_array *z = NULL;
    st = jg_array_zip(m, members, suffixes, 2, &z, err);
    if (st != JG_OK) break;
    /* X takes the place of its first member; the other members go. */
    int first = member_at[0];
    jg_array_release(fields[first]);
    fields[first] = z;
    names[first] = x;
    used[first] = true;
    for (int q = 1; q < m; q++) {
      jg_array_release(fields[member_at[q]]);
      fields[member_at[q]] = NULL;
    }
  }
  if (st == JG_OK) {
    int w = 0;
    for (int c = 0; c < n; c++) {
      if (fields[c] == NULL) continue;
      fields[w] = fields[c];
      names[w] = names[c];
      if (w != c) fields[c] = NULL;
      w++;
    }
    *nf = w;
  }
  free(used);
  free(members);
  free(suffixes);
  free(member_at);
  return st;
}

/* Reads row groups [p->rg_begin, p->rg_end) of the selected leaves into a record array. */
static jg_status read_rows(const jg_parquet_file *f, const plan *p, const char *fn,
                           jg_array **out, jg_error *err) {
  const jgi_pq_schema *s = &f->schema;
  const jgi_pq_field *root = s->root;
  int64_t nrows = 0;
  for (int g = p->rg_begin; g < p->rg_end; g++) nrows += f->meta.row_groups[g].num_rows;

  read_job j;
  memset(&j, 0, sizeof j);
  j.f = f;
  j.p = p;
  j.nrows = nrows;
  int nl = s->nleaves, nt = root->nchildren;
  j.leaves = calloc((size_t)nl + 1, sizeof(int));
  j.assembled = calloc((size_t)nl + 1, sizeof(jgi_pq_assembled));
  j.status = calloc((size_t)nl + 1, sizeof(jg_status));
  j.errors = calloc((size_t)nl + 1, sizeof(jg_error));
  j.done = calloc((size_t)nl + 1, sizeof(bool));
  j.abandoned = calloc((size_t)nl + 1, sizeof(bool));
  jg_array **fields = calloc((size_t)nt + 1, sizeof(jg_array *));
  jg_array **host_fields = calloc((size_t)nt + 1, sizeof(jg_array *));
  const char **names = calloc((size_t)nt + 1, sizeof(char *));
  int *entry_of_leaf = calloc((size_t)nl + 1, sizeof(int));
  jg_status st = JG_OK;
  if (!j.leaves || !j.assembled || !j.status || !j.errors || !j.done || !j.abandoned || !fields ||
      !host_fields || !names || !entry_of_leaf) {
    st = jg_error_set(err, JG_ENOMEM, -1, "%s: out of memory", fn);
  }
  for (int k = 0; st == JG_OK && k < nl; k++) {
    entry_of_leaf[k] = j.nleaves;
    if (p->selected[k]) j.leaves[j.nleaves++] = k;
  }
  atomic_init(&j.next, 0);
  atomic_init(&j.abort, false);
  pthread_mutex_init(&j.mu, NULL);
  pthread_cond_init(&j.cv, NULL);

  bool to_device = p->device_id >= 0;
  bool copy_now = to_device && !p->nanoaod; /* nanoaod zips on the host first */
  jgi_pq_column_data scratch; /* this thread's decoding buffers */
  memset(&scratch, 0, sizeof scratch);
  pthread_t threads[256];
  int nthreads = 0;
  if (st == JG_OK) {
    int want = p->nthreads < j.nleaves ? p->nthreads : j.nleaves;
    for (int t = 1; t < want; t++) {
      if (pthread_create(&threads[nthreads], NULL, worker, &j) != 0) break;
      nthreads++;
    }
  }
  int nf = 0;
  bool from_abandoned = false;
  for (int t = 0; st == JG_OK && t < nt; t++) {
    const jgi_pq_field *top = root->children[t];
    int a = entry_of_leaf[top->first_leaf];
    int b = a;
    while (b < j.nleaves && j.leaves[b] < top->first_leaf + top->nleaves) b++;
    if (a == b) continue; /* nothing of this field selected */
    wait_entries(&j, a, b, &scratch);
    for (int i = a; st == JG_OK && i < b; i++) {
      if (j.status[i] != JG_OK) {
        st = j.status[i];
        from_abandoned = j.abandoned[i];
        if (err != NULL) *err = j.errors[i];
      }
    }
    if (st != JG_OK) break;
    jg_array *arr = NULL;
    st = jgi_pq_build_array(top, s, j.assembled, p->selected, nrows, f->name, &arr, err);
    /* The leaves' buffers now belong to the array. */
    for (int i = a; i < b; i++) jgi_pq_assembled_reset(&j.assembled[j.leaves[i]]);
    if (st != JG_OK) break;
    names[nf] = top->name;
    if (copy_now) {
      host_fields[nf] = arr;
      st = jg_array_to_device(arr, p->device_id, p->stream, &fields[nf], err);
    } else {
      fields[nf] = arr;
    }
    nf++;
  }
  if (st != JG_OK) atomic_store(&j.abort, true);
  for (int t = 0; t < nthreads; t++) pthread_join(threads[t], NULL);
  jgi_pq_column_data_reset(&scratch);
  if (st != JG_OK && from_abandoned) {
    /* Report the first column that really failed, not one abandoned because of it. */
    for (int i = 0; i < j.nleaves; i++) {
      if (j.done[i] && j.status[i] != JG_OK && !j.abandoned[i]) {
        st = j.status[i];
        if (err != NULL) *err = j.errors[i];
        break;
      }
    }
  }
  for (int k = 0; j.assembled && k < nl; k++) jgi_pq_assembled_reset(&j.assembled[k]);
  pthread_mutex_destroy(&j.mu);
  pthread_cond_destroy(&j.cv);

  if (st == JG_OK && p->nanoaod) st = nanoaod_zip(f->name, fields, names, &nf, err);
  if (st == JG_OK && to_device && !copy_now) {
    for (int t = 0; st == JG_OK && t < nf; t++) {
      host_fields[t] = fields[t];
      fields[t] = NULL;
      st = jg_array_to_device(host_fields[t], p->device_id, p->stream, &fields[t], err);
    }
  }
  if (to_device && host_fields != NULL) {
    /* The copies read pinned host memory asynchronously: wait before it goes. */
    jg_error e2;
    jg_status sst = jg_stream_synchronize(p->stream, &e2);
    if (st == JG_OK && sst != JG_OK) {
      st = sst;
      if (err) *err = e2;
    }
    for (int t = 0; t < nt; t++) jg_array_release(host_fields[t]);
  }
  if (st == JG_OK) {
    st = jg_array_record(nf, fields, names, nrows, out, err);
    st = jgi_pq_as_corrupt(st, f->name, err);
  }
  for (int t = 0; fields && t < nt; t++) jg_array_release(fields[t]);
  free(fields);
  free(host_fields);
  free(names);
  free(entry_of_leaf);
  free(j.leaves);
  free(j.assembled);
  free(j.status);
  free(j.errors);
  free(j.done);
  free(j.abandoned);
  return st;
}

/* Memory and device checks of a plan (done once per read or reader). */
static jg_status plan_device(plan *p, const char *fn, jg_error *err) {
  if (p->device_id < 0) return JG_OK;
  int count = 0;
  jg_status st = jg_device_count(&count, err);
  JG_RETURN_IF(st != JG_OK || count == 0, JG_ENODEV, err,
               "%s: device_id %d asked for, but no CUDA device is usable (%s)", fn, p->device_id,
               jg_cuda_unavailable_reason());
  JG_RETURN_IF_AT(p->device_id >= count, JG_EINDEX, err, p->device_id,
                  "%s: device_id %d, but there are %d CUDA devices", fn, p->device_id, count);
  if (p->mr == NULL) JG_RETURN_NOT_OK(jg_memory_resource_pinned(&p->mr, err));
  return JG_OK;
}

jg_status jg_parquet_read(jg_parquet_file *f, const jg_parquet_read_options *o, jg_array **out,
                          jg_error *err) {
  static const char fn[] = "jg_parquet_read";
  JG_RETURN_IF(f == NULL || out == NULL, JG_EINVAL, err, "%s: NULL %s", fn,
               f == NULL ? "file" : "out");
  *out = NULL;
  plan p;
  JG_RETURN_NOT_OK(plan_make(f, o, fn, &p, err));
  jg_status st = plan_device(&p, fn, err);
  if (st == JG_OK) st = read_rows(f, &p, fn, out, err);
  plan_reset(&p);
  return jgi_error_prefix_once(st, fn, err);
}

/* ---- type string ------------------------------------------------------------------------------ */

jg_status jg_parquet_type_string(const jg_parquet_file *f, char *buf, size_t size,
                                 size_t *needed, jg_error *err) {
  static const char fn[] = "jg_parquet_type_string";
  if (needed) *needed = 0;
  JG_RETURN_IF(f == NULL || (buf == NULL && size > 0), JG_EINVAL, err, "%s: NULL %s", fn,
               f == NULL ? "file" : "buf");
  if (size > 0) buf[0] = '\0';
  const jgi_pq_schema *s = &f->schema;
  int nl = s->nleaves;
  jgi_pq_assembled *as = calloc((size_t)nl + 1, sizeof *as);
  bool *sel = calloc((size_t)nl + 1, sizeof(bool));
  jg_status st = as && sel ? JG_OK : jg_error_set(err, JG_ENOMEM, -1, "%s: out of memory", fn);
  for (int k = 0; st == JG_OK && k < nl; k++) {
    sel[k] = true;
    st = jgi_pq_assemble_empty(&s->leaves[k], &as[k], err);
  }
  jg_array *a = NULL;
  if (st == JG_OK) st = jgi_pq_build_array(s->root, s, as, sel, 0, f->name, &a, err);
  for (int k = 0; as && k < nl; k++) jgi_pq_assembled_reset(&as[k]);
  free(as);
  free(sel);
  char *t = NULL;
  size_t tn = 0;
  if (st == JG_OK) st = jg_array_type_string(a, NULL, 0, &tn, err);
  if (st == JG_OK) {
    t = malloc(tn + 1);
    st = t ? jg_array_type_string(a, t, tn + 1, NULL, err)
           : jg_error_set(err, JG_ENOMEM, -1, "%s: out of memory", fn);
  }
  jg_array_release(a);
  if (st == JG_OK) {
    /* "0 * T" -> "<rows> * T" */
    const char *rest = strncmp(t, "0 * ", 4) == 0 ? t + 4 : t;
    int n = snprintf(buf, size, "%lld * %s", (long long)f->meta.num_rows, rest);
    if (needed) *needed = n > 0 ? (size_t)n : 0;
  }
  free(t);
  return jgi_error_prefix_once(st, fn, err);
}

/* ---- the batch reader -------------------------------------------------------------------------- */

struct jg_parquet_reader {
  jg_parquet_file *f;
  plan p;
  int64_t batch_rows;
  int end;          /* one past the last row group */
  int next;         /* next row group to read */
  jg_array *group;  /* the row group being handed out */
  int64_t pos;      /* next row of it */
};

jg_status jg_parquet_reader_open(jg_parquet_file *f, const jg_parquet_read_options *o,
                                 int64_t batch_rows, jg_parquet_reader **out, jg_error *err) {
  static const char fn[] = "jg_parquet_reader_open";
  JG_RETURN_IF(f == NULL || out == NULL, JG_EINVAL, err, "%s: NULL %s", fn,
               f == NULL ? "file" : "out");
  *out = NULL;
  JG_RETURN_IF(batch_rows < 0, JG_EINVAL, err, "%s: batch_rows %lld", fn,
               (long long)batch_rows);
  jg_parquet_reader *r = calloc(1, sizeof *r);
  JG_RETURN_IF(r == NULL, JG_ENOMEM, err, "%s: out of memory", fn);
  jg_status st = plan_make(f, o, fn, &r->p, err);
  if (st == JG_OK) st = plan_device(&r->p, fn, err);
  if (st != JG_OK) {
    plan_reset(&r->p);
    free(r);
    return st;
  }
  r->f = f;
  r->batch_rows = batch_rows;
  r->next = r->p.rg_begin;
  r->end = r->p.rg_end;
  *out = r;
  return JG_OK;
}

jg_status jg_parquet_reader_next(jg_parquet_reader *r, jg_array **out, jg_error *err) {
  static const char fn[] = "jg_parquet_reader_next";
  JG_RETURN_IF(r == NULL || out == NULL, JG_EINVAL, err, "%s: NULL %s", fn,
               r == NULL ? "reader" : "out");
  *out = NULL;
  while (r->group == NULL || r->pos >= jg_array_length(r->group)) {
    jg_array_release(r->group);
    r->group = NULL;
    r->pos = 0;
    /* Skip empty row groups. */
    while (r->next < r->end && r->f->meta.row_groups[r->next].num_rows == 0) r->next++;
    if (r->next >= r->end) return JG_OK;
    plan one = r->p;
    one.rg_begin = r->next;
    one.rg_end = r->next + 1;
    jg_status st = read_rows(r->f, &one, fn, &r->group, err);
    if (st != JG_OK) return jgi_error_prefix_once(st, fn, err);
    r->next++;
  }
  jg_len len = jg_array_length(r->group);
  if (r->batch_rows == 0 || (r->pos == 0 && r->batch_rows >= len)) {
    *out = jg_array_retain(r->group);
    r->pos = len;
    return JG_OK;
  }
  jg_len stop = r->pos + r->batch_rows < len ? r->pos + r->batch_rows : len;
  JG_RETURN_NOT_OK(jg_array_slice(r->group, r->pos, stop, out, err));
  r->pos = stop;
  return JG_OK;
}

void jg_parquet_reader_close(jg_parquet_reader *r) {
  if (r == NULL) return;
  jg_array_release(r->group);
  plan_reset(&r->p);
  free(r);
}
