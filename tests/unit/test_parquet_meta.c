/* test_parquet_meta.c: the Parquet layers under the reader: the Thrift compact protocol
 * (io/parquet/thrift.c), FileMetaData and PageHeader (metadata.c) and the page codecs (codecs.c).
 *
 * Expected values come from outside our code: the Thrift compact protocol spec's encodings
 * (zigzag, varints, field headers), parquet.thrift's field ids in hand-built bytes, the sample
 * files' own descriptions (their README, and the Spark schema that the writer, parquet-mr under
 * Spark, stored as JSON in the footer's key_value_metadata), RFC 1950/1951 (a zlib stream built
 * by hand) and the LZ4 frame format (a frame built by hand, with its xxHash32 header check). */
#include "internal/jgi_parquet.h"
#include "io/parquet/thrift.h"
#include "jg_test.h"

/* ------------------------------------------------------------------------------------------ */
/* Helpers                                                                                     */
/* ------------------------------------------------------------------------------------------ */

#define FLAT_FILE JG_TEST_DATA_DIR "/adl/Run2012B_SingleMu-1000.parquet"
#define NESTED_FILE JG_TEST_DATA_DIR "/adl/Run2012B_SingleMu-restructured-1000.parquet"

typedef struct file_bytes {
  uint8_t *data;
  size_t size;
  const uint8_t *footer; /* the FileMetaData bytes */
  size_t footer_size;
} file_bytes;

static file_bytes load_file(const char *path) {
  file_bytes f = {0};
  FILE *fp = fopen(path, "rb");
  if (fp == NULL) {
    print_error("cannot open %s\n", path);
    fail();
  }
  assert_int_equal(fseek(fp, 0, SEEK_END), 0);
  const long n = ftell(fp);
  assert_true(n > 12);
  assert_int_equal(fseek(fp, 0, SEEK_SET), 0);
  f.data = malloc((size_t)n);
  assert_non_null(f.data);
  assert_int_equal(fread(f.data, 1, (size_t)n, fp), (size_t)n);
  fclose(fp);
  f.size = (size_t)n;
  /* File layout (parquet-format README): "PAR1", data, FileMetaData, 4-byte LE length, "PAR1". */
  assert_memory_equal(f.data, "PAR1", 4);
  assert_memory_equal(f.data + f.size - 4, "PAR1", 4);
  const uint8_t *l = f.data + f.size - 8;
  f.footer_size = (size_t)l[0] | (size_t)l[1] << 8 | (size_t)l[2] << 16 | (size_t)l[3] << 24;
  assert_true(f.footer_size + 12 <= f.size);
  f.footer = f.data + f.size - 8 - f.footer_size;
  return f;
}

/* An exact-size heap copy, so that AddressSanitizer sees any read past the end. */
static uint8_t *copy_bytes(const uint8_t *p, size_t n) {
  uint8_t *c = malloc(n > 0 ? n : 1);
  assert_non_null(c);
  if (n > 0) memcpy(c, p, n);
  return c;
}

static void parse_ok(const uint8_t *p, size_t n, jgi_pq_file_meta *m) {
  memset(m, 0, sizeof *m);
  JGT_OK(jgi_pq_meta_parse(p, n, m, &jgt_err_));
}

/* The index in m->schema of the element after the subtree rooted at i (depth-first order). */
static int subtree_end(const jgi_pq_file_meta *m, int i) {
  int todo = 1;
  while (todo > 0) {
    assert_true(i < m->nschema);
    todo += (m->schema[i].num_children > 0 ? m->schema[i].num_children : 0) - 1;
    i++;
  }
  return i;
}

/* The schema element named `name` among the children of element `parent`; -1 if none. */
static int child(const jgi_pq_file_meta *m, int parent, const char *name) {
  int i = parent + 1;
  for (int c = 0; c < m->schema[parent].num_children; c++) {
    if (strcmp(m->schema[i].name, name) == 0) return i;
    i = subtree_end(m, i);
  }
  return -1;
}

/* Walks the schema tree depth first and checks that the row group's column chunks are its
 * leaves in order: same path_in_schema (the names from below the root to the leaf) and same
 * physical type. Returns the number of leaves. */
static int check_leaves(const jgi_pq_file_meta *m, const jgi_pq_row_group *g) {
  const char *path[64];
  int remaining[64]; /* children still to visit at each open level */
  int depth = 0, leaves = 0;
  remaining[0] = m->schema[0].num_children;
  for (int i = 1; i < m->nschema; i++) {
    while (depth > 0 && remaining[depth] == 0) depth--;
    assert_true(remaining[depth] > 0);
    remaining[depth]--;
    const jgi_pq_schema_elem *e = &m->schema[i];
    path[depth] = e->name;
    if (e->num_children > 0) {
      assert_true(depth + 1 < 64);
      remaining[++depth] = e->num_children;
      continue;
    }
    assert_true(e->type >= 0); /* a leaf has a physical type */
    assert_true(leaves < g->ncolumns);
    const jgi_pq_column_meta *c = &g->columns[leaves].meta;
    assert_true(g->columns[leaves].has_meta);
    assert_int_equal(c->npath, depth + 1);
    for (int k = 0; k <= depth; k++) assert_string_equal(c->path[k], path[k]);
    assert_int_equal(c->type, e->type);
    leaves++;
  }
  assert_int_equal(leaves, g->ncolumns);
  return leaves;
}

/* Walks every page of column chunk `c` of file f: the headers parse, the pages' sizes (headers
 * included) add up to the chunk's total_compressed_size and total_uncompressed_size, the data
 * pages' values to num_values, and every page decompresses to its uncompressed size. Returns
 * the number of pages. */
static int walk_pages(const file_bytes *f, const jgi_pq_column_meta *c, int *ndict) {
  int64_t start = c->data_page_offset;
  if (c->dictionary_page_offset >= 0 && c->dictionary_page_offset < start) {
    start = c->dictionary_page_offset;
  }
  assert_true(start >= 4 && (size_t)(start + c->total_compressed_size) <= f->size);
  int64_t pos = start, end = start + c->total_compressed_size, values = 0, usize = 0;
  int pages = 0;
  *ndict = 0;
  while (pos < end) {
    jgi_pq_page_header h;
    size_t hs = 0;
    JGT_OK(jgi_pq_page_header_parse(f->data + pos, (size_t)(end - pos), &h, &hs, &jgt_err_));
    assert_true(hs > 0);
    assert_true(pos + (int64_t)hs + h.compressed_size <= end);
    if (h.type == JGI_PQ_DATA_PAGE) {
      values += h.v1.num_values;
      assert_true(h.v1.encoding == JGI_PQ_PLAIN || h.v1.encoding == JGI_PQ_PLAIN_DICTIONARY);
      /* The README: RLE / BIT_PACKED levels. */
      assert_true(h.v1.def_encoding == JGI_PQ_RLE || h.v1.def_encoding == JGI_PQ_BIT_PACKED);
    } else {
      assert_int_equal(h.type, JGI_PQ_DICTIONARY_PAGE);
      assert_int_equal(pages, 0); /* the dictionary page comes first */
      assert_true(h.dict.encoding == JGI_PQ_PLAIN || h.dict.encoding == JGI_PQ_PLAIN_DICTIONARY);
      (*ndict)++;
    }
    uint8_t *dst = malloc(h.uncompressed_size > 0 ? (size_t)h.uncompressed_size : 1);
    assert_non_null(dst);
    JGT_OK(jgi_pq_decompress(c->codec, f->data + pos + hs, (size_t)h.compressed_size, dst,
                             (size_t)h.uncompressed_size, &jgt_err_));
    free(dst);
    usize += (int64_t)hs + h.uncompressed_size;
    pos += (int64_t)hs + h.compressed_size;
    pages++;
  }
  assert_int_equal(pos, end);
  assert_int_equal(values, c->num_values);
  assert_int_equal(usize, c->total_uncompressed_size);
  return pages;
}

static const jgi_pq_key_value *find_kv(const jgi_pq_file_meta *m, const char *key) {
  for (int i = 0; i < m->nkv; i++) {
    if (strcmp(m->kv[i].key, key) == 0) return &m->kv[i];
  }
  return NULL;
}

/* Spark's type names (its JSON schema) as Parquet physical types, as Spark writes them. */
static int spark_physical(const char *t, size_t n) {
  static const struct {
    const char *name;
    int type;
  } map[] = {{"integer", JGI_PQ_INT32},
             {"long", JGI_PQ_INT64},
             {"float", JGI_PQ_FLOAT},
             {"double", JGI_PQ_DOUBLE},
             {"boolean", JGI_PQ_BOOLEAN}};
  for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) {
    if (strlen(map[i].name) == n && memcmp(map[i].name, t, n) == 0) return map[i].type;
  }
  print_error("unexpected Spark type %.*s\n", (int)n, t);
  fail();
  return -1;
}

/* ------------------------------------------------------------------------------------------ */
/* The sample files' footers                                                                  */
/* ------------------------------------------------------------------------------------------ */

static void test_flat_footer(void **state) {
  (void)state;
  file_bytes f = load_file(FLAT_FILE);
  jgi_pq_file_meta m;
  parse_ok(f.footer, f.footer_size, &m);
  /* The README: 1000 events, one row group, SNAPPY, written by parquet-mr 1.10.1. */
  assert_int_equal(m.num_rows, 1000);
  assert_int_equal(m.nrow_groups, 1);
  assert_int_equal(m.row_groups[0].num_rows, 1000);
  assert_non_null(m.created_by);
  JGT_CONTAINS(m.created_by, "parquet-mr version 1.10.1");
  assert_string_equal(m.schema[0].name, "spark_schema");
  assert_int_equal(m.schema[0].type, -1);
  assert_int_equal(m.schema[0].repetition, -1);
  assert_int_equal(subtree_end(&m, 0), m.nschema);

  /* The Spark schema in the footer, field by field, against the Parquet schema: names in order,
   * "nullable":false -> REQUIRED, scalar types -> physical types, arrays -> 3-level LISTs. */
  const jgi_pq_key_value *kv = find_kv(&m, "org.apache.spark.sql.parquet.row.metadata");
  assert_non_null(kv);
  assert_non_null(kv->value);
  const char *p = kv->value;
  int elem = 1, fields = 0;
  while ((p = strstr(p, "{\"name\":\"")) != NULL) {
    p += 9;
    const char *name_end = strchr(p, '"');
    assert_non_null(name_end);
    const jgi_pq_schema_elem *e = &m.schema[elem];
    assert_true(strlen(e->name) == (size_t)(name_end - p) &&
                memcmp(e->name, p, (size_t)(name_end - p)) == 0);
    const char *t = name_end + 9; /* past `","type":` */
    assert_memory_equal(name_end, "\",\"type\":", 9);
    assert_int_equal(e->repetition, JGI_PQ_REQUIRED);
    if (*t == '"') {
      const char *te = strchr(t + 1, '"');
      assert_int_equal(e->type, spark_physical(t + 1, (size_t)(te - t - 1)));
      assert_int_equal(e->num_children, -1);
      elem++;
    } else {
      const char *arr = "{\"type\":\"array\",\"elementType\":\"";
      assert_memory_equal(t, arr, strlen(arr));
      const char *et = t + strlen(arr), *ete = strchr(et, '"');
      /* <name> (LIST) { repeated group list { required <type> element } } */
      assert_int_equal(e->converted_type, JGI_PQ_CT_LIST);
      assert_int_equal(e->num_children, 1);
      assert_string_equal(e[1].name, "list");
      assert_int_equal(e[1].repetition, JGI_PQ_REPEATED);
      assert_int_equal(e[1].num_children, 1);
      assert_string_equal(e[2].name, "element");
      assert_int_equal(e[2].repetition, JGI_PQ_REQUIRED); /* "containsNull":false */
      assert_memory_equal(ete, "\",\"containsNull\":false", 22);
      assert_int_equal(e[2].type, spark_physical(et, (size_t)(ete - et)));
      elem += 3;
    }
    fields++;
  }
  assert_int_equal(elem, m.nschema);
  assert_int_equal(fields, m.schema[0].num_children);
  assert_true(fields > 50);
  /* A few names seen in the bytes (strings(1)). */
  assert_string_equal(m.schema[1].name, "run");
  assert_string_equal(m.schema[2].name, "luminosityBlock");
  assert_string_equal(m.schema[3].name, "event");
  const int muon_pt = child(&m, 0, "Muon_pt");
  assert_true(muon_pt > 0);
  assert_int_equal(m.schema[muon_pt + 2].type, JGI_PQ_FLOAT);

  /* Column chunks: the leaves in order, SNAPPY; REQUIRED top-level scalars hold one value per
   * row; every list column at least one (an empty list is one level entry). */
  const jgi_pq_row_group *g = &m.row_groups[0];
  assert_int_equal(check_leaves(&m, g), g->ncolumns);
  int64_t total = 0;
  for (int i = 0; i < g->ncolumns; i++) {
    const jgi_pq_column_meta *c = &g->columns[i].meta;
    assert_null(g->columns[i].file_path);
    assert_int_equal(c->codec, JGI_PQ_SNAPPY);
    if (c->npath == 1) {
      assert_int_equal(c->num_values, 1000);
    } else {
      assert_int_equal(c->npath, 3);
      assert_true(c->num_values >= 1000);
    }
    assert_true(c->nencodings >= 1);
    total += c->total_uncompressed_size;
  }
  /* RowGroup.total_byte_size: "total byte size of all the uncompressed column data". */
  assert_int_equal(g->total_byte_size, total);
  assert_string_equal(g->columns[0].meta.path[0], "run");
  jgi_pq_meta_reset(&m);
  assert_null(m.arena);
  assert_int_equal(m.nschema, 0);
  free(f.data);
}

static void test_flat_pages(void **state) {
  (void)state;
  file_bytes f = load_file(FLAT_FILE);
  jgi_pq_file_meta m;
  parse_ok(f.footer, f.footer_size, &m);
  const jgi_pq_row_group *g = &m.row_groups[0];
  /* Every column chunk's pages, through the page headers and SNAPPY. */
  int pages = 0, dicts = 0;
  for (int i = 0; i < g->ncolumns; i++) {
    int nd;
    pages += walk_pages(&f, &g->columns[i].meta, &nd);
    dicts += nd;
  }
  assert_true(pages >= g->ncolumns);
  assert_true(dicts > 0); /* the README: PLAIN_DICTIONARY values */

  /* The first column chunk, `run` (INT32, REQUIRED: no levels in its v1 pages), by hand: a PLAIN
   * data page holds 4 bytes a value; a dictionary page 4 bytes an entry. */
  const jgi_pq_column_meta *c = &g->columns[0].meta;
  int64_t pos = c->dictionary_page_offset >= 0 ? c->dictionary_page_offset : c->data_page_offset;
  const int64_t end = pos + c->total_compressed_size;
  while (pos < end) {
    jgi_pq_page_header h;
    size_t hs;
    JGT_OK(jgi_pq_page_header_parse(f.data + pos, (size_t)(end - pos), &h, &hs, &jgt_err_));
    if (h.type == JGI_PQ_DICTIONARY_PAGE) {
      assert_int_equal(h.uncompressed_size, 4 * h.dict.num_values);
    } else if (h.v1.encoding == JGI_PQ_PLAIN) {
      assert_int_equal(h.uncompressed_size, 4 * h.v1.num_values);
    }
    pos += (int64_t)hs + h.compressed_size;
  }
  jgi_pq_meta_reset(&m);
  free(f.data);
}

static void test_nested_footer(void **state) {
  (void)state;
  file_bytes f = load_file(NESTED_FILE);
  jgi_pq_file_meta m;
  parse_ok(f.footer, f.footer_size, &m);
  assert_int_equal(m.num_rows, 1000);
  assert_int_equal(m.nrow_groups, 1);
  assert_int_equal(m.row_groups[0].num_rows, 1000);
  assert_int_equal(subtree_end(&m, 0), m.nschema);
  /* The Spark schema (key_value_metadata): MET is a non-nullable struct of 7 nullable floats. */
  const jgi_pq_key_value *kv = find_kv(&m, "org.apache.spark.sql.parquet.row.metadata");
  assert_non_null(kv);
  JGT_CONTAINS(kv->value,
               "{\"name\":\"MET\",\"type\":{\"type\":\"struct\",\"fields\":[{\"name\":"
               "\"pt\",\"type\":\"float\",\"nullable\":true");
  const int met = child(&m, 0, "MET");
  assert_true(met > 0);
  assert_int_equal(m.schema[met].repetition, JGI_PQ_REQUIRED);
  assert_int_equal(m.schema[met].num_children, 7);
  assert_int_equal(m.schema[met].type, -1);
  static const char *const met_fields[] = {"pt",    "phi",   "sumet", "significance",
                                           "CovXX", "CovXY", "CovYY"};
  for (int k = 0; k < 7; k++) {
    const jgi_pq_schema_elem *e = &m.schema[met + 1 + k];
    assert_string_equal(e->name, met_fields[k]);
    assert_int_equal(e->type, JGI_PQ_FLOAT);
    assert_int_equal(e->repetition, JGI_PQ_OPTIONAL);
  }
  /* Muon: a nullable array of nullable structs -> optional LIST, repeated list, optional
   * element group whose first fields are pt, eta, phi, mass (float) and charge (integer). */
  const int muon = child(&m, 0, "Muon");
  assert_true(muon > 0);
  assert_int_equal(m.schema[muon].repetition, JGI_PQ_OPTIONAL);
  assert_int_equal(m.schema[muon].converted_type, JGI_PQ_CT_LIST);
  const int list = child(&m, muon, "list");
  assert_int_equal(list, muon + 1);
  assert_int_equal(m.schema[list].repetition, JGI_PQ_REPEATED);
  const int el = child(&m, list, "element");
  assert_int_equal(m.schema[el].repetition, JGI_PQ_OPTIONAL);
  assert_true(m.schema[el].num_children >= 5);
  assert_int_equal(m.schema[child(&m, el, "pt")].type, JGI_PQ_FLOAT);
  assert_int_equal(m.schema[child(&m, el, "charge")].type, JGI_PQ_INT32);
  assert_int_equal(m.schema[child(&m, el, "tightId")].type, JGI_PQ_BOOLEAN);

  const jgi_pq_row_group *g = &m.row_groups[0];
  check_leaves(&m, g);
  bool seen_muon_pt = false;
  for (int i = 0; i < g->ncolumns; i++) {
    const jgi_pq_column_meta *c = &g->columns[i].meta;
    assert_int_equal(c->codec, JGI_PQ_SNAPPY);
    if (c->npath == 4 && strcmp(c->path[0], "Muon") == 0 && strcmp(c->path[3], "pt") == 0) {
      assert_string_equal(c->path[1], "list");
      assert_string_equal(c->path[2], "element");
      assert_true(c->num_values >= 1000);
      seen_muon_pt = true;
    }
    int nd;
    walk_pages(&f, c, &nd);
  }
  assert_true(seen_muon_pt);
  jgi_pq_meta_reset(&m);
  free(f.data);
}

/* ------------------------------------------------------------------------------------------ */
/* Write -> parse round trips                                                                  */
/* ------------------------------------------------------------------------------------------ */

static char *sdup(jgi_pq_file_meta *m, const char *s) {
  char *d = jgi_pq_meta_strdup(m, s, (size_t)-1);
  assert_non_null(d);
  return d;
}

static jgi_pq_schema_elem elem(jgi_pq_file_meta *m, const char *name, int type, int rep,
                               int nchildren) {
  jgi_pq_schema_elem e;
  memset(&e, 0, sizeof e);
  e.name = sdup(m, name);
  e.type = type;
  e.type_length = -1;
  e.repetition = rep;
  e.num_children = nchildren;
  e.converted_type = e.scale = e.precision = e.field_id = -1;
  return e;
}

/* A FileMetaData with every field the structs carry, and lists longer than 14 (the long list
 * header). */
static void build_meta(jgi_pq_file_meta *m) {
  memset(m, 0, sizeof *m);
  m->version = 2;
  m->num_rows = 5000000000LL; /* beyond 32 bits */
  enum { NSCHEMA = 20 };
  m->schema = jgi_pq_meta_alloc(m, NSCHEMA * sizeof *m->schema);
  assert_non_null(m->schema);
  m->nschema = NSCHEMA;
  jgi_pq_schema_elem *s = m->schema;
  s[0] = elem(m, "schema", -1, -1, NSCHEMA - 1);
  s[1] = elem(m, "s", JGI_PQ_BYTE_ARRAY, JGI_PQ_OPTIONAL, -1);
  s[1].converted_type = JGI_PQ_CT_UTF8;
  s[1].logical.kind = JGI_PQ_LT_STRING;
  s[2] = elem(m, "d", JGI_PQ_FIXED_LEN_BYTE_ARRAY, JGI_PQ_REQUIRED, -1);
  s[2].type_length = 16;
  s[2].converted_type = JGI_PQ_CT_DECIMAL;
  s[2].scale = 3;
  s[2].precision = 30;
  s[2].logical = (jgi_pq_logical){.kind = JGI_PQ_LT_DECIMAL, .scale = 3, .precision = 30};
  s[3] = elem(m, "t", JGI_PQ_INT64, JGI_PQ_REQUIRED, -1);
  s[3].logical = (jgi_pq_logical){.kind = JGI_PQ_LT_TIME, .unit = JGI_PQ_NANOS, .utc = true};
  s[4] = elem(m, "ts", JGI_PQ_INT64, JGI_PQ_OPTIONAL, -1);
  s[4].converted_type = JGI_PQ_CT_TIMESTAMP_MICROS;
  s[4].logical = (jgi_pq_logical){.kind = JGI_PQ_LT_TIMESTAMP, .unit = JGI_PQ_MICROS};
  s[5] = elem(m, "ts_ms", JGI_PQ_INT64, JGI_PQ_OPTIONAL, -1);
  s[5].logical = (jgi_pq_logical){.kind = JGI_PQ_LT_TIMESTAMP, .unit = JGI_PQ_MILLIS, .utc = 1};
  s[6] = elem(m, "u16", JGI_PQ_INT32, JGI_PQ_REQUIRED, -1);
  s[6].converted_type = JGI_PQ_CT_UINT_16;
  s[6].logical = (jgi_pq_logical){.kind = JGI_PQ_LT_INTEGER, .bit_width = 16};
  s[7] = elem(m, "i64", JGI_PQ_INT64, JGI_PQ_REQUIRED, -1);
  s[7].logical = (jgi_pq_logical){.kind = JGI_PQ_LT_INTEGER, .bit_width = 64, .is_signed = 1};
  s[7].field_id = 12345;
  s[8] = elem(m, "date", JGI_PQ_INT32, JGI_PQ_REQUIRED, -1);
  s[8].converted_type = JGI_PQ_CT_DATE;
  s[8].logical.kind = JGI_PQ_LT_DATE;
  s[9] = elem(m, "uuid", JGI_PQ_FIXED_LEN_BYTE_ARRAY, JGI_PQ_OPTIONAL, -1);
  s[9].type_length = 16;
  s[9].logical.kind = JGI_PQ_LT_UUID;
  s[10] = elem(m, "nothing", JGI_PQ_INT32, JGI_PQ_OPTIONAL, -1);
  s[10].logical.kind = JGI_PQ_LT_UNKNOWN;
  s[11] = elem(m, "js", JGI_PQ_BYTE_ARRAY, JGI_PQ_OPTIONAL, -1);
  s[11].converted_type = JGI_PQ_CT_JSON;
  s[11].logical.kind = JGI_PQ_LT_JSON;
  s[12] = elem(m, "half", JGI_PQ_FIXED_LEN_BYTE_ARRAY, JGI_PQ_REQUIRED, -1);
  s[12].type_length = 2;
  s[12].logical.kind = JGI_PQ_LT_FLOAT16;
  s[13] = elem(m, "e", JGI_PQ_BYTE_ARRAY, JGI_PQ_REQUIRED, -1);
  s[13].converted_type = JGI_PQ_CT_ENUM;
  s[13].logical.kind = JGI_PQ_LT_ENUM;
  s[14] = elem(m, "b", JGI_PQ_BOOLEAN, JGI_PQ_REQUIRED, -1);
  s[15] = elem(m, "i96", JGI_PQ_INT96, JGI_PQ_OPTIONAL, -1);
  s[16] = elem(m, "f", JGI_PQ_FLOAT, JGI_PQ_REQUIRED, -1);
  s[17] = elem(m, "bs", JGI_PQ_BYTE_ARRAY, JGI_PQ_OPTIONAL, -1);
  s[17].converted_type = JGI_PQ_CT_BSON;
  s[17].logical.kind = JGI_PQ_LT_BSON;
  s[18] = elem(m, "dbl", JGI_PQ_DOUBLE, JGI_PQ_REPEATED, -1);
  s[19] = elem(m, "lst", -1, JGI_PQ_OPTIONAL, 0);
  s[19].converted_type = JGI_PQ_CT_LIST;
  s[19].logical.kind = JGI_PQ_LT_LIST;

  m->nrow_groups = 2;
  m->row_groups = jgi_pq_meta_alloc(m, 2 * sizeof *m->row_groups);
  assert_non_null(m->row_groups);
  for (int r = 0; r < 2; r++) {
    jgi_pq_row_group *g = &m->row_groups[r];
    g->num_rows = 2500000000LL + r;
    g->total_byte_size = 1000000 + r;
    g->ncolumns = 3;
    g->columns = jgi_pq_meta_alloc(m, 3 * sizeof *g->columns);
    assert_non_null(g->columns);
    for (int c = 0; c < 3; c++) {
      jgi_pq_column_chunk *cc = &g->columns[c];
      cc->file_offset = 4 + 1000 * c + r;
      cc->has_meta = c != 2; /* the last one without meta_data */
      if (c == 1) cc->file_path = sdup(m, "other.parquet");
      jgi_pq_column_meta *cm = &cc->meta;
      cm->type = c == 0 ? JGI_PQ_BYTE_ARRAY : JGI_PQ_DOUBLE;
      cm->nencodings = c == 0 ? 17 : 2; /* 17: the long list header */
      cm->encodings = jgi_pq_meta_alloc(m, (size_t)cm->nencodings * sizeof(int));
      assert_non_null(cm->encodings);
      for (int k = 0; k < cm->nencodings; k++) cm->encodings[k] = (k * 3 + c) % 10;
      cm->npath = c + 1;
      cm->path = jgi_pq_meta_alloc(m, (size_t)cm->npath * sizeof(char *));
      assert_non_null(cm->path);
      for (int k = 0; k < cm->npath; k++) cm->path[k] = sdup(m, k == 0 ? "lst" : "element");
      cm->codec = c == 0 ? JGI_PQ_ZSTD : JGI_PQ_LZ4_RAW;
      cm->num_values = 3000000000LL + c;
      cm->total_uncompressed_size = 123456789012LL;
      cm->total_compressed_size = 12345678901LL;
      cm->data_page_offset = 4000000000LL + c;
      cm->index_page_offset = c == 0 ? 77 : -1;
      cm->dictionary_page_offset = c == 1 ? 88 : -1;
    }
  }
  m->nkv = 3;
  m->kv = jgi_pq_meta_alloc(m, 3 * sizeof *m->kv);
  assert_non_null(m->kv);
  m->kv[0] = (jgi_pq_key_value){sdup(m, "k0"), sdup(m, "v0")};
  m->kv[1] = (jgi_pq_key_value){sdup(m, "no value"), NULL};
  m->kv[2] = (jgi_pq_key_value){sdup(m, ""), sdup(m, "")};
  m->created_by = sdup(m, "jagged test");
}

static void assert_str_or_null(const char *a, const char *b) {
  if (a == NULL || b == NULL) {
    assert_ptr_equal(a, b);
  } else {
    assert_string_equal(a, b);
  }
}

static void assert_meta_equal(const jgi_pq_file_meta *a, const jgi_pq_file_meta *b) {
  assert_int_equal(a->version, b->version);
  assert_int_equal(a->num_rows, b->num_rows);
  assert_int_equal(a->nschema, b->nschema);
  for (int i = 0; i < a->nschema; i++) {
    const jgi_pq_schema_elem *x = &a->schema[i], *y = &b->schema[i];
    assert_string_equal(x->name, y->name);
    assert_int_equal(x->type, y->type);
    assert_int_equal(x->type_length, y->type_length);
    assert_int_equal(x->repetition, y->repetition);
    assert_int_equal(x->num_children, y->num_children);
    assert_int_equal(x->converted_type, y->converted_type);
    assert_int_equal(x->scale, y->scale);
    assert_int_equal(x->precision, y->precision);
    assert_int_equal(x->field_id, y->field_id);
    assert_int_equal(x->logical.kind, y->logical.kind);
    assert_int_equal(x->logical.bit_width, y->logical.bit_width);
    assert_int_equal(x->logical.is_signed, y->logical.is_signed);
    assert_int_equal(x->logical.unit, y->logical.unit);
    assert_int_equal(x->logical.utc, y->logical.utc);
    assert_int_equal(x->logical.scale, y->logical.scale);
    assert_int_equal(x->logical.precision, y->logical.precision);
  }
  assert_int_equal(a->nrow_groups, b->nrow_groups);
  for (int r = 0; r < a->nrow_groups; r++) {
    const jgi_pq_row_group *g = &a->row_groups[r], *h = &b->row_groups[r];
    assert_int_equal(g->num_rows, h->num_rows);
    assert_int_equal(g->total_byte_size, h->total_byte_size);
    assert_int_equal(g->ncolumns, h->ncolumns);
    for (int c = 0; c < g->ncolumns; c++) {
      const jgi_pq_column_chunk *x = &g->columns[c], *y = &h->columns[c];
      assert_str_or_null(x->file_path, y->file_path);
      assert_int_equal(x->file_offset, y->file_offset);
      assert_int_equal(x->has_meta, y->has_meta);
      if (!x->has_meta) continue;
      const jgi_pq_column_meta *p = &x->meta, *q = &y->meta;
      assert_int_equal(p->type, q->type);
      assert_int_equal(p->nencodings, q->nencodings);
      for (int k = 0; k < p->nencodings; k++) assert_int_equal(p->encodings[k], q->encodings[k]);
      assert_int_equal(p->npath, q->npath);
      for (int k = 0; k < p->npath; k++) assert_string_equal(p->path[k], q->path[k]);
      assert_int_equal(p->codec, q->codec);
      assert_int_equal(p->num_values, q->num_values);
      assert_int_equal(p->total_uncompressed_size, q->total_uncompressed_size);
      assert_int_equal(p->total_compressed_size, q->total_compressed_size);
      assert_int_equal(p->data_page_offset, q->data_page_offset);
      assert_int_equal(p->index_page_offset, q->index_page_offset);
      assert_int_equal(p->dictionary_page_offset, q->dictionary_page_offset);
    }
  }
  assert_int_equal(a->nkv, b->nkv);
  for (int i = 0; i < a->nkv; i++) {
    assert_string_equal(a->kv[i].key, b->kv[i].key);
    assert_str_or_null(a->kv[i].value, b->kv[i].value);
  }
  assert_str_or_null(a->created_by, b->created_by);
}

static void test_meta_round_trip(void **state) {
  (void)state;
  jgi_pq_file_meta m, back;
  build_meta(&m);
  jgi_pq_buf buf = {0};
  JGT_OK(jgi_pq_meta_write(&m, &buf, &jgt_err_));
  parse_ok(buf.data, buf.size, &back);
  assert_meta_equal(&m, &back);
  /* The parsed metadata writes the same bytes. */
  jgi_pq_buf again = {0};
  JGT_OK(jgi_pq_meta_write(&back, &again, &jgt_err_));
  assert_int_equal(again.size, buf.size);
  assert_memory_equal(again.data, buf.data, buf.size);
  /* Optional fields left out: no key_value_metadata, no created_by. */
  m.nkv = 0;
  m.created_by = NULL;
  jgi_pq_buf small = {0};
  JGT_OK(jgi_pq_meta_write(&m, &small, &jgt_err_));
  jgi_pq_meta_reset(&back);
  parse_ok(small.data, small.size, &back);
  assert_int_equal(back.nkv, 0);
  assert_null(back.kv);
  assert_null(back.created_by);
  assert_meta_equal(&m, &back);
  jgi_pq_buf_reset(&small);
  jgi_pq_buf_reset(&again);
  jgi_pq_buf_reset(&buf);
  jgi_pq_meta_reset(&back);
  jgi_pq_meta_reset(&m);
  jgi_pq_meta_reset(NULL);
  jgi_pq_buf_reset(NULL);
}

/* The writer's bytes for a small FileMetaData, against the compact protocol by hand. */
static void test_meta_write_bytes(void **state) {
  (void)state;
  jgi_pq_file_meta m;
  memset(&m, 0, sizeof m);
  m.version = 1;
  m.num_rows = 3;
  m.nschema = 1;
  m.schema = jgi_pq_meta_alloc(&m, sizeof *m.schema);
  assert_non_null(m.schema);
  m.schema[0] = elem(&m, "r", -1, -1, 0);
  jgi_pq_buf buf = {0};
  JGT_OK(jgi_pq_meta_write(&m, &buf, &jgt_err_));
  static const uint8_t want[] = {0x15, 0x02,      /* 1: i32 version = 1 (zigzag 2) */
                                 0x19, 0x1C,      /* 2: list<struct> schema, 1 element */
                                 0x48, 0x01, 'r', /*   4: binary name "r" (delta 4) */
                                 0x15, 0x00,      /*   5: i32 num_children = 0 */
                                 0x00,            /*   stop */
                                 0x16, 0x06,      /* 3: i64 num_rows = 3 (zigzag 6) */
                                 0x19, 0x0C,      /* 4: list<struct> row_groups, empty */
                                 0x00};           /* stop */
  assert_int_equal(buf.size, sizeof want);
  assert_memory_equal(buf.data, want, sizeof want);
  jgi_pq_buf_reset(&buf);
  jgi_pq_meta_reset(&m);
}

static void assert_page_header_equal(const jgi_pq_page_header *a, const jgi_pq_page_header *b) {
  assert_int_equal(a->type, b->type);
  assert_int_equal(a->uncompressed_size, b->uncompressed_size);
  assert_int_equal(a->compressed_size, b->compressed_size);
  assert_int_equal(a->has_crc, b->has_crc);
  assert_int_equal(a->crc, b->crc);
  assert_int_equal(a->v1.num_values, b->v1.num_values);
  assert_int_equal(a->v1.encoding, b->v1.encoding);
  assert_int_equal(a->v1.def_encoding, b->v1.def_encoding);
  assert_int_equal(a->v1.rep_encoding, b->v1.rep_encoding);
  assert_int_equal(a->dict.num_values, b->dict.num_values);
  assert_int_equal(a->dict.encoding, b->dict.encoding);
  assert_int_equal(a->dict.is_sorted, b->dict.is_sorted);
  assert_int_equal(a->v2.num_values, b->v2.num_values);
  assert_int_equal(a->v2.num_nulls, b->v2.num_nulls);
  assert_int_equal(a->v2.num_rows, b->v2.num_rows);
  assert_int_equal(a->v2.encoding, b->v2.encoding);
  assert_int_equal(a->v2.def_bytes, b->v2.def_bytes);
  assert_int_equal(a->v2.rep_bytes, b->v2.rep_bytes);
  assert_int_equal(a->v2.is_compressed, b->v2.is_compressed);
}

static void test_page_header_round_trip(void **state) {
  (void)state;
  jgi_pq_page_header hs[6];
  memset(hs, 0, sizeof hs);
  hs[0].type = JGI_PQ_DATA_PAGE;
  hs[0].uncompressed_size = 1 << 20;
  hs[0].compressed_size = 54321;
  hs[0].v1.num_values = 100000;
  hs[0].v1.encoding = JGI_PQ_RLE_DICTIONARY;
  hs[0].v1.def_encoding = JGI_PQ_RLE;
  hs[0].v1.rep_encoding = JGI_PQ_BIT_PACKED;
  hs[1].type = JGI_PQ_DICTIONARY_PAGE;
  hs[1].uncompressed_size = 400;
  hs[1].compressed_size = 400;
  hs[1].has_crc = true;
  hs[1].crc = INT32_MIN;
  hs[1].dict.num_values = 100;
  hs[1].dict.encoding = JGI_PQ_PLAIN;
  hs[1].dict.is_sorted = true;
  hs[2].type = JGI_PQ_DATA_PAGE_V2;
  hs[2].uncompressed_size = INT32_MAX;
  hs[2].compressed_size = 0;
  hs[2].has_crc = true;
  hs[2].crc = -1;
  hs[2].v2.num_values = 7;
  hs[2].v2.num_nulls = 2;
  hs[2].v2.num_rows = 3;
  hs[2].v2.encoding = JGI_PQ_DELTA_BINARY_PACKED;
  hs[2].v2.def_bytes = 5;
  hs[2].v2.rep_bytes = 6;
  hs[2].v2.is_compressed = false;
  hs[3] = hs[2];
  hs[3].v2.is_compressed = true;
  hs[3].has_crc = false;
  hs[3].crc = 0;
  hs[4] = hs[1];
  hs[4].dict.is_sorted = false;
  hs[5].type = JGI_PQ_INDEX_PAGE;
  hs[5].uncompressed_size = 10;
  hs[5].compressed_size = 9;
  for (int i = 0; i < 6; i++) {
    jgi_pq_buf buf = {0};
    JGT_OK(jgi_pq_page_header_write(&hs[i], &buf, &jgt_err_));
    const size_t n = buf.size;
    /* Page bytes after the header are not read. */
    static const uint8_t page[8] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
    JGT_OK(jgi_pq_buf_append(&buf, page, sizeof page, &jgt_err_));
    jgi_pq_page_header back;
    size_t hsize = 0;
    memset(&back, 0x5A, sizeof back);
    JGT_OK(jgi_pq_page_header_parse(buf.data, buf.size, &back, &hsize, &jgt_err_));
    assert_int_equal(hsize, n);
    assert_page_header_equal(&hs[i], &back);
    jgi_pq_buf_reset(&buf);
  }
}

/* A DataPageHeaderV2 without is_compressed is compressed (the field's default); a v1 header's
 * statistics (field 5) are skipped. Bytes by hand from parquet.thrift. */
static void test_page_header_bytes(void **state) {
  (void)state;
  static const uint8_t v2[] = {0x15, 0x06, /* 1: type = DATA_PAGE_V2 (3) */
                               0x15, 0x14, /* 2: uncompressed_page_size = 10 */
                               0x15, 0x10, /* 3: compressed_page_size = 8 */
                               0x5C,       /* 8: data_page_header_v2 (delta 5) */
                               0x15, 0x08, /*   1: num_values = 4 */
                               0x15, 0x02, /*   2: num_nulls = 1 */
                               0x15, 0x04, /*   3: num_rows = 2 */
                               0x15, 0x00, /*   4: encoding = PLAIN */
                               0x15, 0x02, /*   5: definition_levels_byte_length = 1 */
                               0x15, 0x00, /*   6: repetition_levels_byte_length = 0 */
                               0x00, 0x00};
  jgi_pq_page_header h;
  size_t hs;
  JGT_OK(jgi_pq_page_header_parse(v2, sizeof v2, &h, &hs, &jgt_err_));
  assert_int_equal(hs, sizeof v2);
  assert_int_equal(h.type, JGI_PQ_DATA_PAGE_V2);
  assert_int_equal(h.uncompressed_size, 10);
  assert_int_equal(h.compressed_size, 8);
  assert_false(h.has_crc);
  assert_int_equal(h.v2.num_values, 4);
  assert_int_equal(h.v2.num_nulls, 1);
  assert_int_equal(h.v2.num_rows, 2);
  assert_int_equal(h.v2.def_bytes, 1);
  assert_true(h.v2.is_compressed);
  static const uint8_t v1b[] = {0x15, 0x00, /* 1: type = DATA_PAGE */
                                0x15, 0x04, /* 2: uncompressed_page_size = 2 */
                                0x15, 0x04, /* 3: compressed_page_size = 2 */
                                0x15, 0x0F, /* 4: crc = -8 */
                                0x1C,       /* 5: data_page_header */
                                0x15, 0x02, /*   1: num_values = 1 */
                                0x15, 0x10, /*   2: encoding = RLE_DICTIONARY (8) */
                                0x15, 0x06, /*   3: definition_level_encoding = RLE (3) */
                                0x15, 0x08, /*   4: repetition_level_encoding = BIT_PACKED (4) */
                                0x1C,       /*   5: statistics */
                                0x18, 0x02, 0xAB, 0xCD, /*     1: max (binary, 2 bytes) */
                                0x26, 0x04,             /*     3: null_count = 2 */
                                0x00,                   /*     stop */
                                0x00,                   /*   stop */
                                0x00};                  /* stop */
  JGT_OK(jgi_pq_page_header_parse(v1b, sizeof v1b, &h, &hs, &jgt_err_));
  assert_int_equal(hs, sizeof v1b);
  assert_int_equal(h.type, JGI_PQ_DATA_PAGE);
  assert_true(h.has_crc);
  assert_int_equal(h.crc, -8);
  assert_int_equal(h.v1.num_values, 1);
  assert_int_equal(h.v1.encoding, JGI_PQ_RLE_DICTIONARY);
  assert_int_equal(h.v1.def_encoding, JGI_PQ_RLE);
  assert_int_equal(h.v1.rep_encoding, JGI_PQ_BIT_PACKED);
  assert_int_equal(h.v2.is_compressed, false); /* not a v2 page: zero */

  /* Every prefix is corrupt; a data page without its member, a negative size too. */
  for (size_t n = 0; n < sizeof v1b; n++) {
    uint8_t *c = copy_bytes(v1b, n);
    jg_error err;
    JGT_STATUS(JG_ECORRUPT, jgi_pq_page_header_parse(c, n, &h, &hs, &err));
    JGT_CONTAINS(err.message, "page header");
    free(c);
  }
  /* Every byte of it set to every value: JG_OK or JG_ECORRUPT, within the bytes given. */
  for (size_t i = 0; i < sizeof v1b; i++) {
    for (int v = 0; v < 256; v++) {
      uint8_t *c = copy_bytes(v1b, sizeof v1b);
      c[i] = (uint8_t)v;
      jg_error e;
      const jg_status st = jgi_pq_page_header_parse(c, sizeof v1b, &h, &hs, &e);
      assert_true(st == JG_OK || st == JG_ECORRUPT);
      if (st == JG_OK) assert_true(hs <= sizeof v1b);
      free(c);
    }
  }
  static const uint8_t no_member[] = {0x15, 0x00, 0x15, 0x04, 0x15, 0x04, 0x00};
  jg_error err;
  JGT_STATUS(JG_ECORRUPT, jgi_pq_page_header_parse(no_member, sizeof no_member, &h, &hs, &err));
  JGT_CONTAINS(err.message, "data_page_header");
  static const uint8_t negative[] = {0x15, 0x00, 0x15, 0x03, 0x15, 0x04, 0x00};
  JGT_STATUS(JG_ECORRUPT, jgi_pq_page_header_parse(negative, sizeof negative, &h, &hs, &err));
  JGT_CONTAINS(err.message, "uncompressed_page_size: -2 is negative");
  static const uint8_t no_size[] = {0x15, 0x00, 0x15, 0x04, 0x00};
  JGT_STATUS(JG_ECORRUPT, jgi_pq_page_header_parse(no_size, sizeof no_size, &h, &hs, &err));
  JGT_CONTAINS(err.message, "compressed_page_size: missing");
}

/* ------------------------------------------------------------------------------------------ */
/* Thrift compact protocol                                                                     */
/* ------------------------------------------------------------------------------------------ */

static void test_thrift_zigzag(void **state) {
  (void)state;
  /* Zigzag: 0 -> 0, -1 -> 1, 1 -> 2, -2 -> 3, ..., INT64_MAX -> 2^64 - 2, INT64_MIN -> 2^64 - 1;
   * then ULEB128, 7 bits a byte, least significant first. */
  static const struct {
    int64_t v;
    uint8_t bytes[10];
    size_t n;
  } cases[] = {
      {0, {0x00}, 1},
      {-1, {0x01}, 1},
      {1, {0x02}, 1},
      {-2, {0x03}, 1},
      {63, {0x7E}, 1},
      {-64, {0x7F}, 1},
      {64, {0x80, 0x01}, 2},
      {INT32_MAX, {0xFE, 0xFF, 0xFF, 0xFF, 0x0F}, 5},
      {INT32_MIN, {0xFF, 0xFF, 0xFF, 0xFF, 0x0F}, 5},
      {INT64_MAX, {0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01}, 10},
      {INT64_MIN, {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01}, 10},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    jgi_pq_buf buf = {0};
    jgi_tc_writer w;
    jgi_tc_writer_init(&w, &buf, NULL);
    jgi_tc_write_i64(&w, cases[i].v);
    JGT_OK(jgi_tc_writer_status(&w));
    assert_int_equal(buf.size, cases[i].n);
    assert_memory_equal(buf.data, cases[i].bytes, cases[i].n);
    jgi_tc_reader r;
    uint8_t *c = copy_bytes(cases[i].bytes, cases[i].n);
    jgi_tc_reader_init(&r, c, cases[i].n);
    int64_t v;
    JGT_OK(jgi_tc_read_i64(&r, &v, &jgt_err_));
    assert_int_equal(v, cases[i].v);
    assert_int_equal(jgi_tc_left(&r), 0);
    /* As i32 only within its range. */
    jgi_tc_reader_init(&r, c, cases[i].n);
    int32_t v32;
    jg_error err;
    if (cases[i].v >= INT32_MIN && cases[i].v <= INT32_MAX) {
      JGT_OK(jgi_tc_read_i32(&r, &v32, &jgt_err_));
      assert_int_equal(v32, cases[i].v);
    } else {
      JGT_STATUS(JG_ECORRUPT, jgi_tc_read_i32(&r, &v32, &err));
      JGT_CONTAINS(err.message, "outside the i32 range");
    }
    free(c);
    jgi_pq_buf_reset(&buf);
  }
  /* Too long: 11 bytes, and a 10th byte with more than bit 63. */
  static const uint8_t eleven[] = {0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
                                   0x80, 0x80, 0x80, 0x80, 0x00};
  static const uint8_t wide[] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02};
  jgi_tc_reader r;
  uint64_t u;
  jg_error err;
  jgi_tc_reader_init(&r, eleven, sizeof eleven);
  JGT_STATUS(JG_ECORRUPT, jgi_tc_read_varint(&r, &u, &err));
  jgi_tc_reader_init(&r, wide, sizeof wide);
  JGT_STATUS(JG_ECORRUPT, jgi_tc_read_varint(&r, &u, &err));
  JGT_CONTAINS(err.message, "longer than 64 bits");
  /* Runs past the end. */
  jgi_tc_reader_init(&r, eleven, 3);
  JGT_STATUS(JG_ECORRUPT, jgi_tc_read_varint(&r, &u, &err));
  JGT_CONTAINS(err.message, "runs past the end");
  /* Doubles: 8 bytes little-endian (1.0 = 0x3FF0000000000000). */
  static const uint8_t one[] = {0, 0, 0, 0, 0, 0, 0xF0, 0x3F};
  double d;
  jgi_tc_reader_init(&r, one, 8);
  JGT_OK(jgi_tc_read_double(&r, &d, &jgt_err_));
  assert_true(d == 1.0);
  jgi_tc_reader_init(&r, one, 7);
  JGT_STATUS(JG_ECORRUPT, jgi_tc_read_double(&r, &d, &err));
  jgi_pq_buf buf = {0};
  jgi_tc_writer w;
  jgi_tc_writer_init(&w, &buf, NULL);
  jgi_tc_write_double(&w, 1.0);
  assert_int_equal(buf.size, 8);
  assert_memory_equal(buf.data, one, 8);
  jgi_pq_buf_reset(&buf);
}

static void test_thrift_field_ids(void **state) {
  (void)state;
  /* Short form (delta in the high nibble) and long form (type, then zigzag i16 id). */
  static const uint8_t bytes[] = {
      0x15, 0x02,                   /* id 1, i32 1 */
      0x05, 0xC8, 0x01, 0x04,       /* long form: id 100 (zigzag 200), i32 2 */
      0x11,                         /* id 101 (delta 1), bool true */
      0x02, 0x0F,                   /* long form: id -8 (zigzag 15), bool false */
      0x52,                         /* id -3 (delta 5 from -8), bool false */
      0x06, 0xFE, 0xFF, 0x03, 0x01, /* long form: id 32767, i64 -1 */
      0x00};
  jgi_tc_reader r;
  jgi_tc_reader_init(&r, bytes, sizeof bytes);
  int16_t last, id;
  int type;
  int32_t v;
  int64_t v64;
  JGT_OK(jgi_tc_struct_begin(&r, &last, &jgt_err_));
  JGT_OK(jgi_tc_read_field(&r, &last, &type, &id, &jgt_err_));
  assert_int_equal(id, 1);
  assert_int_equal(type, JGI_TC_I32);
  JGT_OK(jgi_tc_read_i32(&r, &v, &jgt_err_));
  assert_int_equal(v, 1);
  JGT_OK(jgi_tc_read_field(&r, &last, &type, &id, &jgt_err_));
  assert_int_equal(id, 100);
  JGT_OK(jgi_tc_read_i32(&r, &v, &jgt_err_));
  assert_int_equal(v, 2);
  JGT_OK(jgi_tc_read_field(&r, &last, &type, &id, &jgt_err_));
  assert_int_equal(id, 101);
  assert_int_equal(type, JGI_TC_TRUE);
  JGT_OK(jgi_tc_read_field(&r, &last, &type, &id, &jgt_err_));
  assert_int_equal(id, -8);
  assert_int_equal(type, JGI_TC_FALSE);
  JGT_OK(jgi_tc_read_field(&r, &last, &type, &id, &jgt_err_));
  assert_int_equal(id, -3);
  assert_int_equal(type, JGI_TC_FALSE);
  JGT_OK(jgi_tc_read_field(&r, &last, &type, &id, &jgt_err_));
  assert_int_equal(id, 32767);
  assert_int_equal(type, JGI_TC_I64);
  JGT_OK(jgi_tc_read_i64(&r, &v64, &jgt_err_));
  assert_int_equal(v64, -1);
  JGT_OK(jgi_tc_read_field(&r, &last, &type, &id, &jgt_err_));
  assert_int_equal(type, JGI_TC_STOP);
  assert_int_equal(r.depth, 0);
  assert_int_equal(jgi_tc_left(&r), 0);

  /* The writer makes the same bytes. */
  jgi_pq_buf buf = {0};
  jgi_tc_writer w;
  jgi_tc_writer_init(&w, &buf, NULL);
  jgi_tc_write_struct_begin(&w);
  jgi_tc_write_field_i32(&w, 1, 1);
  jgi_tc_write_field_i32(&w, 100, 2);
  jgi_tc_write_field_bool(&w, 101, true);
  jgi_tc_write_field_bool(&w, -8, false);
  jgi_tc_write_field_bool(&w, -3, false);
  jgi_tc_write_field_i64(&w, 32767, -1);
  jgi_tc_write_struct_end(&w);
  JGT_OK(jgi_tc_writer_status(&w));
  assert_int_equal(buf.size, sizeof bytes);
  assert_memory_equal(buf.data, bytes, sizeof bytes);
  jgi_pq_buf_reset(&buf);

  /* A delta past 32767 and an unknown type are corrupt. */
  static const uint8_t over[] = {0x06, 0xFE, 0xFF, 0x03, 0x00, 0x15, 0x00};
  jg_error err;
  jgi_tc_reader_init(&r, over, sizeof over);
  JGT_OK(jgi_tc_struct_begin(&r, &last, &jgt_err_));
  JGT_OK(jgi_tc_read_field(&r, &last, &type, &id, &jgt_err_));
  JGT_OK(jgi_tc_read_i64(&r, &v64, &jgt_err_));
  JGT_STATUS(JG_ECORRUPT, jgi_tc_read_field(&r, &last, &type, &id, &err));
  static const uint8_t bad_type[] = {0x1E};
  jgi_tc_reader_init(&r, bad_type, 1);
  JGT_OK(jgi_tc_struct_begin(&r, &last, &jgt_err_));
  JGT_STATUS(JG_ECORRUPT, jgi_tc_read_field(&r, &last, &type, &id, &err));
  JGT_CONTAINS(err.message, "unknown type 14");
}

/* Unknown fields of every compact type, added to FileMetaData and to a nested ColumnMetaData,
 * are skipped: the parse equals the parse without them. */
static const uint8_t unknown_fields[] = {
    0x11,                                                 /* +1 bool true */
    0x12,                                                 /* +1 bool false */
    0x13, 0x7F,                                           /* +1 i8 */
    0x14, 0x03,                                           /* +1 i16 -2 */
    0x15, 0x80, 0x01,                                     /* +1 i32 64 */
    0x16, 0x01,                                           /* +1 i64 -1 */
    0x17, 0,    0,    0,    0,    0,    0,    0xF0, 0x3F, /* +1 double 1.0 */
    0x18, 0x03, 'a',  'b',  'c',                          /* +1 binary "abc" */
    0x19, 0x25, 0x02, 0x04,                               /* +1 list<i32> [1, 2] */
    0x1A, 0x21, 0x01, 0x02,                               /* +1 set<bool> {true, false} */
    0x1B, 0x02, 0x85, 0x01, 'x',  0x02, 0x01, 'y',  0x04, /* +1 map<binary, i32> of 2 */
    0x1C, 0x15, 0x02, 0x19, 0x1C, 0x00, 0x00,             /* +1 struct {i32, list<struct> [{}]} */
    0x1D, 0x10, 0x32, 0x54, 0x76, 0x98, 0xBA, 0xDC, 0xFE, /* +1 uuid (16 bytes) */
    0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF,       /*   ... */
    0x0B, 0xD8, 0x04, 0x00,                               /* id 300 (long form): empty map */
    0x09, 0xDA, 0x04, 0xF9, 0x11,                         /* id 301: list of 17 lists: */
    0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05,       /*   16 empty lists of i32 */
    0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05,       /*   ... */
    0x18, 0x01, 'z',                                      /*   and one list<binary> ["z"] */
    0x0A, 0xDC, 0x04, 0x1C, 0x00,                         /* id 302: set<struct> [{}] */
};

static void test_thrift_skip_unknown(void **state) {
  (void)state;
  jgi_pq_file_meta m, base, back;
  build_meta(&m);
  jgi_pq_buf buf = {0};
  JGT_OK(jgi_pq_meta_write(&m, &buf, &jgt_err_));
  parse_ok(buf.data, buf.size, &base);
  /* FileMetaData's last field is created_by (6), then the stop byte: insert before it. */
  assert_int_equal(buf.data[buf.size - 1], 0x00);
  buf.size--;
  JGT_OK(jgi_pq_buf_append(&buf, unknown_fields, sizeof unknown_fields, &jgt_err_));
  JGT_OK(jgi_pq_buf_append(&buf, "", 1, &jgt_err_)); /* the stop byte */
  uint8_t *c = copy_bytes(buf.data, buf.size);
  parse_ok(c, buf.size, &back);
  assert_meta_equal(&base, &back);
  jgi_pq_meta_reset(&back);
  free(c);
  jgi_pq_buf_reset(&buf);

  /* Inside a SchemaElement, after its name (4) and num_children (5): the ids from 6 on are the
   * spec's, so a long-form id (1000) first, then the unknown fields (1001...). */
  jgi_pq_file_meta one;
  memset(&one, 0, sizeof one);
  one.num_rows = 1;
  one.nschema = 1;
  one.schema = jgi_pq_meta_alloc(&one, sizeof *one.schema);
  assert_non_null(one.schema);
  one.schema[0] = elem(&one, "root", -1, -1, 0);
  JGT_OK(jgi_pq_meta_write(&one, &buf, &jgt_err_));
  /* Bytes: 15 00 (version 0), 19 1C, 48 04 'root', 15 00, 00 (stop of the element), ... */
  assert_int_equal(buf.data[10], 0x15);
  assert_int_equal(buf.data[12], 0x00);
  jgi_pq_buf with = {0};
  JGT_OK(jgi_pq_buf_append(&with, buf.data, 12, &jgt_err_));
  static const uint8_t jump[] = {0x06, 0xD0, 0x0F, 0x02}; /* id 1000, i64 1 */
  JGT_OK(jgi_pq_buf_append(&with, jump, sizeof jump, &jgt_err_));
  JGT_OK(jgi_pq_buf_append(&with, unknown_fields, sizeof unknown_fields, &jgt_err_));
  JGT_OK(jgi_pq_buf_append(&with, buf.data + 12, buf.size - 12, &jgt_err_));
  parse_ok(with.data, with.size, &back);
  assert_meta_equal(&one, &back);
  jgi_pq_meta_reset(&back);
  jgi_pq_buf_reset(&with);
  jgi_pq_buf_reset(&buf);
  jgi_pq_meta_reset(&one);
  jgi_pq_meta_reset(&base);
  jgi_pq_meta_reset(&m);
}

/* FileMetaData {version = 0, <unknown field 7: `depth` structs nested>, ...}: FileMetaData is
 * level 1, so up to 63 nested structs fit under the limit of 64. */
static jgi_pq_buf nested_meta(int depth, int kind) {
  jgi_pq_buf b = {0};
  static const uint8_t head[] = {0x15, 0x00};
  JGT_OK(jgi_pq_buf_append(&b, head, 2, &jgt_err_));
  /* Field 7 (delta 6): a struct (kind 0) or a list (kind 1). */
  const uint8_t f7 = kind == 0 ? 0x6C : 0x69;
  JGT_OK(jgi_pq_buf_append(&b, &f7, 1, &jgt_err_));
  for (int i = 1; i < depth; i++) {
    /* Struct: a field 1 that is a struct; list: a list of one list. */
    const uint8_t x = kind == 0 ? 0x1C : 0x19;
    JGT_OK(jgi_pq_buf_append(&b, &x, 1, &jgt_err_));
  }
  if (kind == 0) {
    for (int i = 0; i < depth; i++) JGT_OK(jgi_pq_buf_append(&b, "", 1, &jgt_err_));
  } else {
    const uint8_t empty = 0x05; /* the innermost: an empty list of i32 */
    JGT_OK(jgi_pq_buf_append(&b, &empty, 1, &jgt_err_));
  }
  /* The required fields: schema [{name "r"}], num_rows 0, row_groups []. */
  /* After field 7 the schema (2) needs the long form: type list, then the zigzag id 2 = 4. */
  static const uint8_t tail[] = {0x09, 0x04, 0x1C, 0x48, 0x01, 'r',
                                 0x00, 0x16, 0x00, 0x19, 0x0C, 0x00};
  JGT_OK(jgi_pq_buf_append(&b, tail, sizeof tail, &jgt_err_));
  return b;
}

static void test_thrift_depth_limit(void **state) {
  (void)state;
  for (int kind = 0; kind < 2; kind++) {
    jgi_pq_file_meta m;
    jgi_pq_buf ok = nested_meta(63, kind);
    parse_ok(ok.data, ok.size, &m);
    assert_int_equal(m.nschema, 1);
    assert_string_equal(m.schema[0].name, "r");
    jgi_pq_meta_reset(&m);
    jgi_pq_buf_reset(&ok);
    jgi_pq_buf deep = nested_meta(64, kind);
    memset(&m, 0, sizeof m);
    jg_error err;
    JGT_STATUS(JG_ECORRUPT, jgi_pq_meta_parse(deep.data, deep.size, &m, &err));
    JGT_CONTAINS(err.message, "nested deeper than 64");
    assert_null(m.arena);
    jgi_pq_buf_reset(&deep);
    jgi_pq_buf much = nested_meta(100000, kind);
    JGT_STATUS(JG_ECORRUPT, jgi_pq_meta_parse(much.data, much.size, &m, &err));
    jgi_pq_buf_reset(&much);
  }
}

/* Sizes and counts read from the input larger than the input, negative values, missing
 * required fields and wrong wire types: JG_ECORRUPT with the field named. */
static void test_meta_bad_fields(void **state) {
  (void)state;
  static const struct {
    const char *what;
    uint8_t bytes[24];
    size_t n;
    const char *message;
  } cases[] = {
      {"list of 2^31 elements",
       {0x29, 0xFC, 0x80, 0x80, 0x80, 0x80, 0x08},
       7,
       "more than the 0 bytes left"},
      {"list of 1000 elements in 2 bytes",
       {0x29, 0xFC, 0xE8, 0x07, 0x00, 0x00},
       6,
       "1000 elements, more than"},
      {"binary of 2^60 bytes",
       {0x29, 0x1C, 0x48, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x10},
       12,
       "SchemaElement.name: Thrift: a binary of 1152921504606846976 bytes"},
      {"negative num_rows", {0x36, 0x01, 0x00}, 3, "FileMetaData.num_rows: -1 is negative"},
      {"num_rows as i32", {0x35, 0x02, 0x00}, 3, "FileMetaData.num_rows: wire type i32"},
      {"no schema", {0x36, 0x02, 0x19, 0x0C, 0x00}, 5, "FileMetaData.schema: missing"},
      {"empty schema", {0x29, 0x0C, 0x16, 0x02, 0x19, 0x0C, 0x00}, 7, "FileMetaData.schema: empty"},
      {"schema element without name",
       {0x29, 0x1C, 0x15, 0x02, 0x00},
       5,
       "schema element 0: SchemaElement.name: missing"},
      {"physical type 8",
       {0x29, 0x1C, 0x15, 0x10, 0x00},
       5,
       "SchemaElement.type: 8 is not a physical type"},
      {"list of i32 as schema", {0x29, 0x15, 0x02}, 3, "a list of i32, expected a list of struct"},
      {"no stop byte", {0x15, 0x02}, 2, "without its stop byte"},
      {"stray field type 0", {0x10}, 1, "unknown type 0"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    jgi_pq_file_meta m;
    memset(&m, 0, sizeof m);
    jg_error err;
    uint8_t *c = copy_bytes(cases[i].bytes, cases[i].n);
    const jg_status st = jgi_pq_meta_parse(c, cases[i].n, &m, &err);
    if (st != JG_ECORRUPT || strstr(err.message, cases[i].message) == NULL) {
      print_error("%s: %s: %s\n", cases[i].what, jg_status_name(st), err.message);
      fail();
    }
    JGT_CONTAINS(err.message, "Parquet footer: ");
    assert_null(m.arena);
    free(c);
  }
}

/* Missing required fields deep inside: a column chunk's ColumnMetaData without num_values; the
 * message names the row group and the column chunk. */
static void test_meta_missing_column_field(void **state) {
  (void)state;
  static const uint8_t bytes[] = {
      0x29, 0x1C, 0x48, 0x01, 'r',  0x15, 0x00, 0x00, /* 2: schema [{name r, num_children 0}] */
      0x16, 0x02,                                     /* 3: num_rows 1 */
      0x19, 0x1C,                                     /* 4: row_groups, 1 */
      0x19, 0x1C,                                     /*   1: columns, 1 */
      0x26, 0x08,                                     /*     2: file_offset 4 */
      0x1C,                                           /*     3: meta_data */
      0x15, 0x02,                                     /*       1: type INT32 */
      0x19, 0x15, 0x00,                               /*       2: encodings [PLAIN] */
      0x19, 0x18, 0x01, 'r',                          /*       3: path ["r"] */
      0x15, 0x00,                                     /*       4: codec UNCOMPRESSED */
      0x26, 0x0A,                                     /*       6: total_uncompressed 5 */
      0x16, 0x0A,                                     /*       7: total_compressed 5 */
      0x26, 0x08,                                     /*       9: data_page_offset 4 */
      0x00, 0x00,                                     /*     stops */
      0x16, 0x0A, 0x16, 0x02, 0x00,                   /*   2: total_byte_size, 3: num_rows */
      0x00};
  jgi_pq_file_meta m;
  memset(&m, 0, sizeof m);
  jg_error err;
  JGT_STATUS(JG_ECORRUPT, jgi_pq_meta_parse(bytes, sizeof bytes, &m, &err));
  JGT_CONTAINS(err.message,
               "Parquet footer: row group 0: column chunk 0: ColumnMetaData.num_values: missing");
  assert_null(m.arena);
}

/* Every prefix of a real footer, and many single-byte changes: JG_ECORRUPT (or JG_OK for a
 * change that stays valid), never a crash or a read past the end (run under ASan). */
static void test_meta_corrupt_footer(void **state) {
  (void)state;
  file_bytes f = load_file(NESTED_FILE);
  const size_t n = f.footer_size;
  uint8_t *c = malloc(n);
  assert_non_null(c);
  for (size_t len = 0; len < n; len++) {
    memcpy(c + (n - len), f.footer, len); /* the prefix ends where the allocation ends */
    jgi_pq_file_meta m;
    memset(&m, 0, sizeof m);
    jg_error err;
    const jg_status st = jgi_pq_meta_parse(c + (n - len), len, &m, &err);
    if (st != JG_ECORRUPT) {
      print_error("prefix of %zu bytes: %s\n", len, jg_status_name(st));
      fail();
    }
    assert_null(m.arena);
  }
  uint64_t seed = 0x9E3779B97F4A7C15ull;
  int ok = 0, corrupt = 0;
  for (size_t i = 0; i < n; i++) {
    for (int k = 0; k < 3; k++) {
      memcpy(c, f.footer, n);
      seed = seed * 6364136223846793005ull + 1442695040888963407ull;
      c[i] ^= k == 0 ? 0xFF : k == 1 ? 0x80 : (uint8_t)((seed >> 33) | 1);
      jgi_pq_file_meta m;
      memset(&m, 0, sizeof m);
      jg_error err;
      const jg_status st = jgi_pq_meta_parse(c, n, &m, &err);
      if (st == JG_OK) {
        ok++;
        jgi_pq_meta_reset(&m);
      } else if (st == JG_ECORRUPT) {
        corrupt++;
        assert_null(m.arena);
      } else {
        print_error("byte %zu changed: %s: %s\n", i, jg_status_name(st), err.message);
        fail();
      }
    }
  }
  /* Most changes break the structure; changes inside names and values do not. */
  assert_true(corrupt > 0);
  assert_true(ok > 0);
  free(c);
  free(f.data);
}

/* ------------------------------------------------------------------------------------------ */
/* Codecs                                                                                      */
/* ------------------------------------------------------------------------------------------ */

static const int all_codecs[] = {JGI_PQ_UNCOMPRESSED, JGI_PQ_SNAPPY,  JGI_PQ_GZIP,
                                 JGI_PQ_ZSTD,         JGI_PQ_LZ4_RAW, JGI_PQ_BROTLI};

static void fill_random(uint8_t *p, size_t n, uint64_t seed) {
  for (size_t i = 0; i < n; i++) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    p[i] = (uint8_t)(seed >> 56);
  }
}

/* Text-like data: words from a small list, compressible. */
static void fill_compressible(uint8_t *p, size_t n) {
  static const char *const words[] = {"muon ", "electron ", "jet ", "tau ", "photon ", "MET "};
  uint64_t seed = 42;
  size_t i = 0;
  while (i < n) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    const char *w = words[(seed >> 40) % 6];
    for (size_t k = 0; w[k] != '\0' && i < n; k++) p[i++] = (uint8_t)w[k];
  }
}

static void round_trip(int codec, const uint8_t *src, size_t n, bool compressible) {
  jgi_pq_buf z = {0};
  JGT_OK(jgi_pq_compress(codec, 0, src, n, &z, &jgt_err_));
  if (compressible && codec != JGI_PQ_UNCOMPRESSED) assert_true(z.size < n / 2);
  if (codec == JGI_PQ_UNCOMPRESSED) assert_int_equal(z.size, n);
  uint8_t *zc = copy_bytes(z.data, z.size);
  uint8_t *dst = malloc(n + 1);
  assert_non_null(dst);
  JGT_OK(jgi_pq_decompress(codec, zc, z.size, dst, n, &jgt_err_));
  if (n > 0) assert_memory_equal(dst, src, n);
  /* The page header's size must be the data's. */
  jg_error err;
  JGT_STATUS(JG_ECORRUPT, jgi_pq_decompress(codec, zc, z.size, dst, n + 1, &err));
  JGT_CONTAINS(err.message, jgi_pq_codec_name(codec));
  if (n > 0) JGT_STATUS(JG_ECORRUPT, jgi_pq_decompress(codec, zc, z.size, dst, n - 1, &err));
  /* Truncated compressed data. */
  if (codec != JGI_PQ_UNCOMPRESSED && z.size > 1) {
    for (size_t cut = 0; cut < z.size; cut += 1 + z.size / 7) {
      uint8_t *t = copy_bytes(z.data, cut);
      JGT_STATUS(JG_ECORRUPT, jgi_pq_decompress(codec, t, cut, dst, n, &err));
      free(t);
    }
  }
  free(dst);
  free(zc);
  jgi_pq_buf_reset(&z);
}

static void test_codecs_round_trip(void **state) {
  (void)state;
  const size_t sizes[] = {0, 1, 1000, 300000};
  for (size_t ci = 0; ci < sizeof all_codecs / sizeof all_codecs[0]; ci++) {
    const int codec = all_codecs[ci];
    if (!jgi_pq_codec_available(codec)) {
      printf("[     INFO ] codec %s not built in: skipped\n", jgi_pq_codec_name(codec));
      continue;
    }
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
      const size_t n = sizes[si];
      uint8_t *a = malloc(n > 0 ? n : 1);
      assert_non_null(a);
      fill_random(a, n, 7 + n);
      round_trip(codec, a, n, false);
      fill_compressible(a, n);
      round_trip(codec, a, n, n >= 1000);
      free(a);
    }
  }
  assert_true(jgi_pq_codec_available(JGI_PQ_UNCOMPRESSED));
  assert_false(jgi_pq_codec_available(JGI_PQ_LZO));
  assert_false(jgi_pq_codec_available(99));
}

static void test_codecs_garbage(void **state) {
  (void)state;
  enum { N = 4096 };
  uint8_t *dst = malloc(N);
  assert_non_null(dst);
  static const int codecs[] = {JGI_PQ_SNAPPY,  JGI_PQ_GZIP, JGI_PQ_ZSTD,
                               JGI_PQ_LZ4_RAW, JGI_PQ_LZ4,  JGI_PQ_BROTLI};
  for (size_t ci = 0; ci < sizeof codecs / sizeof codecs[0]; ci++) {
    const int codec = codecs[ci];
    if (!jgi_pq_codec_available(codec)) continue;
    for (uint64_t seed = 1; seed <= 64; seed++) {
      const size_t n = (size_t)(seed * 37 % 700) + 1;
      uint8_t *g = malloc(n);
      assert_non_null(g);
      fill_random(g, n, seed);
      jg_error err;
      const jg_status st = jgi_pq_decompress(codec, g, n, dst, N, &err);
      /* Random bytes that happen to decode to exactly N bytes would be valid; they do not. */
      if (st != JG_ECORRUPT) {
        print_error("%s, seed %d: %s: %s\n", jgi_pq_codec_name(codec), (int)seed,
                    jg_status_name(st), err.message);
        fail();
      }
      free(g);
    }
  }
  free(dst);
}

static uint32_t adler32_by_hand(const uint8_t *p, size_t n) {
  uint32_t a = 1, b = 0; /* RFC 1950, section 8.2 */
  for (size_t i = 0; i < n; i++) {
    a = (a + p[i]) % 65521;
    b = (b + a) % 65521;
  }
  return b << 16 | a;
}

/* GZIP takes zlib streams (RFC 1950) too, and gzip members back to back. */
static void test_codec_gzip_forms(void **state) {
  (void)state;
  if (!jgi_pq_codec_available(JGI_PQ_GZIP)) {
    skip();
  }
  /* A zlib stream by hand: header 78 01, one stored deflate block (RFC 1951: BFINAL 1, BTYPE 00,
   * LEN, NLEN), the Adler-32 of the data, big-endian. */
  static const uint8_t data[] = "jagged arrays from Parquet";
  const size_t n = sizeof data - 1;
  uint8_t z[64];
  size_t k = 0;
  z[k++] = 0x78;
  z[k++] = 0x01;
  z[k++] = 0x01;
  z[k++] = (uint8_t)n;
  z[k++] = 0;
  z[k++] = (uint8_t)~n;
  z[k++] = 0xFF;
  memcpy(z + k, data, n);
  k += n;
  const uint32_t ad = adler32_by_hand(data, n);
  z[k++] = (uint8_t)(ad >> 24);
  z[k++] = (uint8_t)(ad >> 16);
  z[k++] = (uint8_t)(ad >> 8);
  z[k++] = (uint8_t)ad;
  uint8_t out[64];
  JGT_OK(jgi_pq_decompress(JGI_PQ_GZIP, z, k, out, n, &jgt_err_));
  assert_memory_equal(out, data, n);
  /* A wrong checksum is corrupt. */
  z[k - 1] ^= 1;
  jg_error err;
  JGT_STATUS(JG_ECORRUPT, jgi_pq_decompress(JGI_PQ_GZIP, z, k, out, n, &err));

  /* Two gzip members back to back decode to both parts. */
  uint8_t a[5000], b[3000];
  fill_compressible(a, sizeof a);
  fill_random(b, sizeof b, 3);
  jgi_pq_buf two = {0};
  JGT_OK(jgi_pq_compress(JGI_PQ_GZIP, 0, a, sizeof a, &two, &jgt_err_));
  assert_int_equal(two.data[0], 0x1F); /* the gzip magic (RFC 1952) */
  assert_int_equal(two.data[1], 0x8B);
  JGT_OK(jgi_pq_compress(JGI_PQ_GZIP, 9, b, sizeof b, &two, &jgt_err_));
  uint8_t *both = malloc(sizeof a + sizeof b);
  assert_non_null(both);
  JGT_OK(jgi_pq_decompress(JGI_PQ_GZIP, two.data, two.size, both, sizeof a + sizeof b, &jgt_err_));
  assert_memory_equal(both, a, sizeof a);
  assert_memory_equal(both + sizeof a, b, sizeof b);
  /* Only the first member's size is not enough. */
  JGT_STATUS(JG_ECORRUPT, jgi_pq_decompress(JGI_PQ_GZIP, two.data, two.size, both, sizeof a, &err));
  free(both);
  jgi_pq_buf_reset(&two);
}

static uint32_t rotl32(uint32_t x, int r) {
  return x << r | x >> (32 - r);
}

/* xxHash32 of fewer than 4 bytes (the xxHash spec: seed + PRIME5 + len, each byte mixed with
 * PRIME5 and PRIME1, then the avalanche). */
static uint32_t xxh32_short(const uint8_t *p, size_t n, uint32_t seed) {
  const uint32_t P1 = 0x9E3779B1u, P2 = 0x85EBCA77u, P3 = 0xC2B2AE3Du, P5 = 0x165667B1u;
  uint32_t h = seed + P5 + (uint32_t)n;
  for (size_t i = 0; i < n; i++) h = rotl32(h + p[i] * P5, 11) * P1;
  h ^= h >> 15;
  h *= P2;
  h ^= h >> 13;
  h *= P3;
  h ^= h >> 16;
  return h;
}

static void put_be32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
}

static void put_le32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
  p[2] = (uint8_t)(v >> 16);
  p[3] = (uint8_t)(v >> 24);
}

/* LZ4 (the deprecated codec): Hadoop's framing built by hand from raw blocks, a bare raw block,
 * and the LZ4 frame format built by hand; LZO is not supported. */
static void test_codec_lz4_forms(void **state) {
  (void)state;
  jg_error err;
  uint8_t src[1] = {0};
  uint8_t dst[16];
  JGT_STATUS(JG_ENOTSUP, jgi_pq_decompress(JGI_PQ_LZO, src, 1, dst, 1, &err));
  JGT_CONTAINS(err.message, "LZO");
  jgi_pq_buf none = {0};
  JGT_STATUS(JG_ENOTSUP, jgi_pq_compress(JGI_PQ_LZO, 0, src, 1, &none, &err));
  JGT_STATUS(JG_ENOTSUP, jgi_pq_decompress(42, src, 1, dst, 1, &err));
  JGT_CONTAINS(err.message, "unknown codec 42");
  if (!jgi_pq_codec_available(JGI_PQ_LZ4)) {
    skip();
  }
  JGT_STATUS(JG_ENOTSUP, jgi_pq_compress(JGI_PQ_LZ4, 0, src, 1, &none, &err));
  enum { NA = 70000, NB = 20000 };
  uint8_t *data = malloc(NA + NB), *out = malloc(NA + NB);
  assert_non_null(data);
  assert_non_null(out);
  fill_compressible(data, NA);
  fill_random(data + NA, NB, 11);
  jgi_pq_buf ba = {0}, bb = {0}, hadoop = {0};
  JGT_OK(jgi_pq_compress(JGI_PQ_LZ4_RAW, 0, data, NA, &ba, &jgt_err_));
  JGT_OK(jgi_pq_compress(JGI_PQ_LZ4_RAW, 0, data + NA, NB, &bb, &jgt_err_));
  uint8_t hdr[8];
  put_be32(hdr, NA);
  put_be32(hdr + 4, (uint32_t)ba.size);
  JGT_OK(jgi_pq_buf_append(&hadoop, hdr, 8, &jgt_err_));
  JGT_OK(jgi_pq_buf_append(&hadoop, ba.data, ba.size, &jgt_err_));
  put_be32(hdr, NB);
  put_be32(hdr + 4, (uint32_t)bb.size);
  JGT_OK(jgi_pq_buf_append(&hadoop, hdr, 8, &jgt_err_));
  JGT_OK(jgi_pq_buf_append(&hadoop, bb.data, bb.size, &jgt_err_));
  JGT_OK(jgi_pq_decompress(JGI_PQ_LZ4, hadoop.data, hadoop.size, out, NA + NB, &jgt_err_));
  assert_memory_equal(out, data, NA + NB);
  /* A wrong total, and a block's size that disagrees, are corrupt. */
  JGT_STATUS(JG_ECORRUPT,
             jgi_pq_decompress(JGI_PQ_LZ4, hadoop.data, hadoop.size, out, NA + NB - 1, &err));
  JGT_CONTAINS(err.message, "Hadoop");
  put_be32(hadoop.data, NA - 1);
  JGT_STATUS(JG_ECORRUPT,
             jgi_pq_decompress(JGI_PQ_LZ4, hadoop.data, hadoop.size, out, NA + NB, &err));
  /* One raw block under LZ4 (as some writers put it). */
  JGT_OK(jgi_pq_decompress(JGI_PQ_LZ4, ba.data, ba.size, out, NA, &jgt_err_));
  assert_memory_equal(out, data, NA);

  /* An LZ4 frame: magic 0x184D2204 (LE), FLG 0x60 (version 01, independent blocks, no
   * checksums, no content size), BD 0x70 (4 MB blocks), HC = second byte of xxh32(FLG BD), then
   * blocks (a 4-byte LE size, the high bit set for an uncompressed block) and the end mark 0. */
  jgi_pq_buf frame = {0};
  uint8_t fh[7];
  put_le32(fh, 0x184D2204u);
  fh[4] = 0x60;
  fh[5] = 0x70;
  fh[6] = (uint8_t)(xxh32_short(fh + 4, 2, 0) >> 8);
  JGT_OK(jgi_pq_buf_append(&frame, fh, 7, &jgt_err_));
  uint8_t bs[4];
  put_le32(bs, (uint32_t)ba.size); /* a compressed block */
  JGT_OK(jgi_pq_buf_append(&frame, bs, 4, &jgt_err_));
  JGT_OK(jgi_pq_buf_append(&frame, ba.data, ba.size, &jgt_err_));
  put_le32(bs, 0x80000000u | NB); /* an uncompressed block */
  JGT_OK(jgi_pq_buf_append(&frame, bs, 4, &jgt_err_));
  JGT_OK(jgi_pq_buf_append(&frame, data + NA, NB, &jgt_err_));
  put_le32(bs, 0);
  JGT_OK(jgi_pq_buf_append(&frame, bs, 4, &jgt_err_));
  memset(out, 0, NA + NB);
  JGT_OK(jgi_pq_decompress(JGI_PQ_LZ4, frame.data, frame.size, out, NA + NB, &jgt_err_));
  assert_memory_equal(out, data, NA + NB);
  JGT_STATUS(JG_ECORRUPT,
             jgi_pq_decompress(JGI_PQ_LZ4, frame.data, frame.size, out, NA + NB + 1, &err));
  /* Without its end mark the frame is incomplete. */
  JGT_STATUS(JG_ECORRUPT,
             jgi_pq_decompress(JGI_PQ_LZ4, frame.data, frame.size - 4, out, NA + NB, &err));
  /* LZ4_RAW takes only a raw block. */
  JGT_STATUS(JG_ECORRUPT,
             jgi_pq_decompress(JGI_PQ_LZ4_RAW, hadoop.data, hadoop.size, out, NA + NB, &err));
  jgi_pq_buf_reset(&frame);
  jgi_pq_buf_reset(&hadoop);
  jgi_pq_buf_reset(&ba);
  jgi_pq_buf_reset(&bb);
  free(data);
  free(out);
}

/* ------------------------------------------------------------------------------------------ */

static void test_names(void **state) {
  (void)state;
  assert_string_equal(jgi_pq_codec_name(JGI_PQ_SNAPPY), "SNAPPY");
  assert_string_equal(jgi_pq_codec_name(JGI_PQ_LZ4_RAW), "LZ4_RAW");
  assert_string_equal(jgi_pq_codec_name(8), "unknown");
  assert_string_equal(jgi_pq_encoding_name(JGI_PQ_RLE_DICTIONARY), "RLE_DICTIONARY");
  assert_string_equal(jgi_pq_encoding_name(JGI_PQ_BYTE_STREAM_SPLIT), "BYTE_STREAM_SPLIT");
  assert_string_equal(jgi_pq_encoding_name(1), "unknown");
  assert_string_equal(jgi_pq_type_name(JGI_PQ_INT96), "INT96");
  assert_string_equal(jgi_pq_type_name(JGI_PQ_FIXED_LEN_BYTE_ARRAY), "FIXED_LEN_BYTE_ARRAY");
  assert_string_equal(jgi_pq_type_name(-1), "unknown");
}

/* The arena: many small pieces and one large, all zeroed, strdup with a length. */
static void test_meta_arena(void **state) {
  (void)state;
  jgi_pq_file_meta m;
  memset(&m, 0, sizeof m);
  for (int i = 0; i < 10000; i++) {
    uint8_t *p = jgi_pq_meta_alloc(&m, (size_t)(i % 50));
    assert_non_null(p);
    for (int k = 0; k < i % 50; k++) assert_int_equal(p[k], 0);
    memset(p, 0xAB, (size_t)(i % 50));
  }
  uint8_t *big = jgi_pq_meta_alloc(&m, 1 << 20);
  assert_non_null(big);
  assert_int_equal(big[0], 0);
  assert_int_equal(big[(1 << 20) - 1], 0);
  char *s = jgi_pq_meta_strdup(&m, "abcdef", 3);
  assert_string_equal(s, "abc");
  assert_null(jgi_pq_meta_alloc(&m, SIZE_MAX - 8));
  jgi_pq_meta_reset(&m);
  assert_null(m.arena);
}

int main(void) {
  JGT_REQUIRE_DATA();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_flat_footer),
      cmocka_unit_test(test_flat_pages),
      cmocka_unit_test(test_nested_footer),
      cmocka_unit_test(test_meta_round_trip),
      cmocka_unit_test(test_meta_write_bytes),
      cmocka_unit_test(test_page_header_round_trip),
      cmocka_unit_test(test_page_header_bytes),
      cmocka_unit_test(test_thrift_zigzag),
      cmocka_unit_test(test_thrift_field_ids),
      cmocka_unit_test(test_thrift_skip_unknown),
      cmocka_unit_test(test_thrift_depth_limit),
      cmocka_unit_test(test_meta_bad_fields),
      cmocka_unit_test(test_meta_missing_column_field),
      cmocka_unit_test(test_meta_corrupt_footer),
      cmocka_unit_test(test_codecs_round_trip),
      cmocka_unit_test(test_codecs_garbage),
      cmocka_unit_test(test_codec_gzip_forms),
      cmocka_unit_test(test_codec_lz4_forms),
      cmocka_unit_test(test_names),
      cmocka_unit_test(test_meta_arena),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
