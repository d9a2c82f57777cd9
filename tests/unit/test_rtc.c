/* test_rtc.c: run-time compilation without a GPU (rtc.h): NVRTC compiles for an explicit
 * architecture (sm_90), compile errors and their logs, the on-disk cache (hits, what the key
 * covers, corrupt and torn entries, concurrent writers in several processes, the directory
 * settings), a missing NVRTC (in a re-executed child with JG_NVRTC_LIBRARY set), argument errors,
 * and jg_catalog_compile_all. Tests that need NVRTC skip when it cannot be loaded; a build
 * without CUDA checks that every call reports JG_ENOTSUP. Every cache test uses its own
 * temporary folder (mkdtemp) and removes it. */
#define _XOPEN_SOURCE 700 /* mkdtemp, nftw, setenv */

#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "jg_test.h"

#include "internal/jgi_kernel.h"
#include "jagged/kernel.h"
#include "jagged/rtc.h"

/* An extern "C" kernel and a template, both simple enough to mangle by hand. */
static const char kSource[] =
    "extern \"C\" __global__ void saxpy(float a, const float *x, float *y, long long n) {\n"
    "  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) y[i] = a * x[i] + y[i];\n"
    "}\n"
    "template <typename T> __global__ void fill_one(T *x) { *x = T(1); }\n";

static const char *const kNames[] = {"fill_one<float>", "saxpy"};

static char *argv0; /* for re-executing this program */

/* ------------------------------------------------------------------------------------------ */
/* Helpers                                                                                     */
/* ------------------------------------------------------------------------------------------ */

static jg_rtc_options opts_arch(int arch, const char *cache_dir) {
  jg_rtc_options o;
  memset(&o, 0, sizeof o);
  o.arch = arch;
  o.cache_dir = cache_dir;
  if (cache_dir == NULL) o.cache = JG_RTC_CACHE_OFF;
  return o;
}

/* true when NVRTC loads (checked once). */
static bool have_nvrtc(void) {
  static int state = -1;
  if (state < 0) {
    jg_rtc_options o = opts_arch(90, NULL);
    jg_rtc_program *p = NULL;
    jg_error err;
    jg_status st = jg_rtc_compile("__global__ void k() {}\n", NULL, NULL, 0, &o, &p, &err);
    if (st != JG_OK) printf("[  INFO    ] NVRTC unusable: %s\n", err.message);
    state = st == JG_OK;
    jg_rtc_program_destroy(p);
  }
  return state == 1;
}

#define REQUIRE_NVRTC()        \
  do {                         \
    if (!have_nvrtc()) skip(); \
  } while (0)

static void make_tmpdir(char *buf, size_t size) {
  snprintf(buf, size, "/tmp/jgrtc-test-XXXXXX");
  assert_non_null(mkdtemp(buf));
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st;
  (void)flag;
  (void)ftw;
  return remove(path);
}

static void remove_tree(const char *path) {
  assert_int_equal(nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS), 0);
}

static void write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(text, 1, strlen(text), f), strlen(text));
  assert_int_equal(fclose(f), 0);
}

static size_t file_size(const char *path) {
  struct stat st;
  if (stat(path, &st) != 0) return (size_t)-1;
  return (size_t)st.st_size;
}

/* "<dir>/<k0k1>/<key>.jgrtc" */
static void entry_path(char *buf, size_t size, const char *dir, const char *key) {
  int n = snprintf(buf, size, "%s/%c%c/%s.jgrtc", dir, key[0], key[1], key);
  assert_true(n > 0 && (size_t)n < size);
}

/* Number of names in folder `dir` (without . and ..), and how many contain ".tmp.". */
static size_t count_entries(const char *dir, size_t *tmp_files) {
  DIR *d = opendir(dir);
  if (d == NULL) return 0;
  size_t n = 0;
  *tmp_files = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    ++n;
    if (strstr(e->d_name, ".tmp.") != NULL) ++*tmp_files;
  }
  closedir(d);
  return n;
}

static jg_rtc_stats stats_now(void) {
  jg_rtc_stats s;
  memset(&s, 0xff, sizeof s);
  jg_rtc_stats_get(&s);
  return s;
}

/* Compiles kSource with kNames; returns the program. */
static jg_rtc_program *compile_ok(const jg_rtc_options *o) {
  jg_rtc_program *p = NULL;
  JGT_OK(jg_rtc_compile(kSource, "k.cu", kNames, 2, o, &p, &jgt_err_));
  assert_non_null(p);
  return p;
}

/* Reads a whole file into a malloc'd buffer. */
static unsigned char *read_bytes(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  assert_non_null(f);
  size_t cap = file_size(path);
  unsigned char *b = malloc(cap + 1);
  assert_non_null(b);
  *len = fread(b, 1, cap, f);
  fclose(f);
  return b;
}

static void write_bytes(const char *path, const unsigned char *b, size_t len) {
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(b, 1, len, f), len);
  assert_int_equal(fclose(f), 0);
}

/* ------------------------------------------------------------------------------------------ */
/* Argument errors (every build)                                                               */
/* ------------------------------------------------------------------------------------------ */

static void test_argument_errors(void **state) {
  (void)state;
  jg_error err;
  jg_rtc_program *p = (jg_rtc_program *)&err; /* must be reset to NULL */
  const char *null_name[] = {NULL};
  const char *empty_name[] = {"ok", ""};
  JGT_STATUS(JG_EINVAL, jg_rtc_compile(NULL, NULL, NULL, 0, NULL, &p, &err));
  assert_null(p);
  JGT_CONTAINS(err.message, "source is NULL");
  JGT_STATUS(JG_EINVAL, jg_rtc_compile("x", NULL, NULL, 0, NULL, NULL, &err));
  JGT_CONTAINS(err.message, "out is NULL");
  JGT_STATUS(JG_EINVAL, jg_rtc_compile("x", NULL, NULL, 1, NULL, &p, &err));
  JGT_CONTAINS(err.message, "name expression");
  JGT_STATUS(JG_EINVAL, jg_rtc_compile("x", NULL, null_name, 1, NULL, &p, &err));
  assert_int_equal(err.index, 0);
  JGT_STATUS(JG_EINVAL, jg_rtc_compile("x", NULL, empty_name, 2, NULL, &p, &err));
  assert_int_equal(err.index, 1);
  JGT_CONTAINS(err.message, "empty");

  jg_rtc_options o;
  memset(&o, 0, sizeof o);
  o.arch = -1;
  JGT_STATUS(JG_EINVAL, jg_rtc_compile("x", NULL, NULL, 0, &o, &p, &err));
  JGT_CONTAINS(err.message, "arch -1");
  o.arch = 90;
  o.n_include_dirs = 1;
  JGT_STATUS(JG_EINVAL, jg_rtc_compile("x", NULL, NULL, 0, &o, &p, &err));
  JGT_CONTAINS(err.message, "include dir");
  o.include_dirs = null_name;
  JGT_STATUS(JG_EINVAL, jg_rtc_compile("x", NULL, NULL, 0, &o, &p, &err));
  o.n_include_dirs = 0;
  o.options = null_name;
  o.n_options = 1;
  JGT_STATUS(JG_EINVAL, jg_rtc_compile("x", NULL, NULL, 0, &o, &p, &err));
  JGT_CONTAINS(err.message, "option 0 is NULL");
  o.n_options = 0;
  o.cache = (jg_rtc_cache_mode)7;
  JGT_STATUS(JG_EINVAL, jg_rtc_compile("x", NULL, NULL, 0, &o, &p, &err));
  JGT_CONTAINS(err.message, "cache mode 7");

  JGT_STATUS(JG_EINVAL, jg_rtc_compile_file(NULL, NULL, 0, NULL, &p, &err));
  JGT_STATUS(JG_EINVAL, jg_rtc_compile_file("/x.cu", NULL, 0, NULL, NULL, &err));

  jg_rtc_module *m = (jg_rtc_module *)&err;
  JGT_STATUS(JG_EINVAL, jg_rtc_module_load(NULL, 0, &m, &err));
  assert_null(m);
  JGT_STATUS(JG_EINVAL, jg_rtc_module_load(NULL, 0, NULL, &err));
  jg_rtc_kernel *k = (jg_rtc_kernel *)&err;
  JGT_STATUS(JG_EINVAL, jg_rtc_kernel_get(NULL, "k", NULL, 0, &k, &err));
  assert_null(k);
  JGT_STATUS(JG_EINVAL, jg_rtc_kernel_get(NULL, "k", NULL, 0, NULL, &err));
  JGT_STATUS(JG_EINVAL, jg_rtc_launch(NULL, NULL, 0, NULL, &err));
  JGT_CONTAINS(err.message, "kernel is NULL");

  jg_compile_report rep;
  JGT_STATUS(JG_EINVAL, jg_catalog_compile_all(0, NULL, NULL, &err));
  JGT_STATUS(JG_EINVAL, jg_catalog_compile_all(-1, NULL, &rep, &err));
  JGT_CONTAINS(err.message, "jobs is -1");
  assert_null(rep.log);
  o.cache = JG_RTC_CACHE_OFF;
  o.arch = -3;
  JGT_STATUS(JG_EINVAL, jg_catalog_compile_all(1, &o, &rep, &err));
  JGT_CONTAINS(err.message, "arch -3");
  o.arch = 90;
  o.options = null_name;
  o.n_options = 1;
  JGT_STATUS(JG_EINVAL, jg_catalog_compile_all(1, &o, &rep, &err));
  o.n_options = 0;

  /* NULL programs and reports. */
  size_t size = 99;
  assert_null(jg_rtc_program_cubin(NULL, &size));
  assert_int_equal(size, 0);
  assert_null(jg_rtc_program_lowered_name(NULL, "x"));
  assert_string_equal(jg_rtc_program_log(NULL), "");
  assert_string_equal(jg_rtc_program_key(NULL), "");
  assert_false(jg_rtc_program_cached(NULL));
  jg_rtc_program_destroy(NULL);
  jg_rtc_module_destroy(NULL);
  jg_rtc_stats_get(NULL);
  jg_compile_report_free(NULL);
  rep.compiled = 3;
  rep.log = malloc(8);
  assert_non_null(rep.log);
  jg_compile_report_free(&rep);
  assert_null(rep.log);
  assert_int_equal(rep.compiled, 0);
}

/* A build without CUDA: everything is JG_ENOTSUP. */
static void test_without_cuda(void **state) {
  (void)state;
  if (jg_cuda_compiled()) skip();
  jg_error err;
  jg_rtc_program *p = NULL;
  JGT_STATUS(JG_ENOTSUP, jg_rtc_compile(kSource, NULL, kNames, 2, NULL, &p, &err));
  assert_null(p);
  assert_string_equal(err.message, "jagged was built without CUDA");
  JGT_STATUS(JG_ENOTSUP, jg_rtc_compile_file("/nonexistent.cu", NULL, 0, NULL, &p, &err));
  assert_string_equal(err.message, "jagged was built without CUDA");
  jg_compile_report rep;
  JGT_STATUS(JG_ENOTSUP, jg_catalog_compile_all(0, NULL, &rep, &err));
  assert_string_equal(err.message, "jagged was built without CUDA");
  assert_string_equal(jg_rtc_last_log(), "");
  jg_rtc_stats s = stats_now();
  assert_int_equal(s.compiles, 0);
  assert_int_equal(s.cache_hits + s.cache_misses + s.cache_corrupt, 0);
}

/* No GPU: arch 0 cannot be resolved, and nothing loads. */
static void test_without_gpu(void **state) {
  (void)state;
  REQUIRE_NVRTC();
  int n = 0;
  JGT_OK(jg_device_count(&n, &jgt_err_));
  if (n > 0) skip();
  jg_error err;
  jg_rtc_program *p = NULL;
  jg_rtc_options o = opts_arch(0, NULL);
  JGT_STATUS(JG_ENODEV, jg_rtc_compile(kSource, NULL, NULL, 0, &o, &p, &err));
  JGT_CONTAINS(err.message, "CUDA unavailable");
  JGT_STATUS(JG_ENODEV, jg_rtc_compile(kSource, NULL, NULL, 0, NULL, &p, &err));
  jg_compile_report rep;
  JGT_STATUS(JG_ENODEV, jg_catalog_compile_all(0, NULL, &rep, &err));
  assert_null(rep.log);
  o.arch = 90;
  p = compile_ok(&o);
  jg_rtc_module *m = (jg_rtc_module *)p;
  JGT_STATUS(JG_ENODEV, jg_rtc_module_load(p, 0, &m, &err));
  assert_null(m);
  jg_rtc_program_destroy(p);
}

/* ------------------------------------------------------------------------------------------ */
/* Compiling                                                                                   */
/* ------------------------------------------------------------------------------------------ */

static void test_compile_sm90(void **state) {
  (void)state;
  REQUIRE_NVRTC();
  jg_rtc_options o = opts_arch(90, NULL);
  jg_rtc_program *p = compile_ok(&o);
  size_t size = 0;
  const unsigned char *cubin = jg_rtc_program_cubin(p, &size);
  assert_non_null(cubin);
  assert_true(size > 64);
  /* An ELF image: 0x7f 'E' 'L' 'F', 64-bit (class 2), little-endian (data 1). */
  assert_memory_equal(cubin,
                      "\x7f"
                      "ELF",
                      4);
  assert_int_equal(cubin[4], 2);
  assert_int_equal(cubin[5], 1);
  /* Itanium C++ ABI: _Z, name "8fill_one", template args "IfE", return type "v" (templates
   * encode it), parameter "PT_" (pointer to the first template parameter). */
  assert_string_equal(jg_rtc_program_lowered_name(p, "fill_one<float>"), "_Z8fill_oneIfEvPT_");
  assert_string_equal(jg_rtc_program_lowered_name(p, "saxpy"), "saxpy"); /* extern "C" */
  assert_null(jg_rtc_program_lowered_name(p, "fill_one<double>"));
  assert_null(jg_rtc_program_lowered_name(p, NULL));
  assert_false(jg_rtc_program_cached(p));
  assert_string_equal(jg_rtc_program_log(p), "");
  assert_string_equal(jg_rtc_last_log(), "");
  const char *key = jg_rtc_program_key(p);
  assert_int_equal(strlen(key), 32);
  for (int i = 0; i < 32; ++i) assert_non_null(strchr("0123456789abcdef", key[i]));

  /* Same input, same key; the CUBIN is deterministic too. */
  jg_rtc_program *q = compile_ok(&o);
  assert_string_equal(jg_rtc_program_key(q), key);
  size_t size2 = 0;
  const void *cubin2 = jg_rtc_program_cubin(q, &size2);
  assert_int_equal(size2, size);
  assert_memory_equal(cubin2, cubin, size);
  jg_rtc_program_destroy(q);

  /* sm_80 gives another binary and another key. */
  jg_rtc_options o80 = opts_arch(80, NULL);
  q = compile_ok(&o80);
  assert_string_not_equal(jg_rtc_program_key(q), key);
  jg_rtc_program_destroy(q);

  /* Warnings land in the program's log. */
  const char *warn = "__global__ void w(int *x) { int unused_var; *x = 1; }\n";
  jg_rtc_program *pw = NULL;
  JGT_OK(jg_rtc_compile(warn, "w.cu", NULL, 0, &o, &pw, &jgt_err_));
  JGT_CONTAINS(jg_rtc_program_log(pw), "unused_var");
  jg_rtc_program_destroy(pw);
  jg_rtc_program_destroy(p);
}

static void test_compile_errors(void **state) {
  (void)state;
  REQUIRE_NVRTC();
  jg_rtc_options o = opts_arch(90, NULL);
  jg_error err;
  jg_rtc_program *p = (jg_rtc_program *)&err;
  const char *bad =
      "__global__ void k(int *x) {\n"
      "  int a = 1;\n"
      "  *x = a + undefined_thing;\n"
      "}\n";
  jg_rtc_stats s0 = stats_now();
  JGT_STATUS(JG_ECUDA, jg_rtc_compile(bad, "bad.cu", NULL, 0, &o, &p, &err));
  assert_null(p);
  assert_int_equal(stats_now().compiles, s0.compiles + 1);
  JGT_CONTAINS(err.message, "NVRTC: compiling bad.cu failed: bad.cu(3): error");
  JGT_CONTAINS(err.message, "undefined_thing");
  JGT_CONTAINS(jg_rtc_last_log(), "bad.cu(3): error");
  JGT_CONTAINS(jg_rtc_last_log(), "identifier \"undefined_thing\" is undefined");
  /* The log stays until the thread's next compile, which replaces it. */
  JGT_CONTAINS(jg_rtc_last_log(), "undefined_thing");
  jg_rtc_program_destroy(compile_ok(&o));
  assert_string_equal(jg_rtc_last_log(), "");

  /* A compile that fails its argument checks also replaces the log. */
  JGT_STATUS(JG_ECUDA, jg_rtc_compile(bad, "bad.cu", NULL, 0, &o, &p, &err));
  assert_true(jg_rtc_last_log()[0] != '\0');
  JGT_STATUS(JG_EINVAL, jg_rtc_compile(NULL, "bad.cu", NULL, 0, &o, &p, &err));
  assert_string_equal(jg_rtc_last_log(), "");

  /* Default name. */
  JGT_STATUS(JG_ECUDA, jg_rtc_compile(bad, NULL, NULL, 0, &o, &p, &err));
  JGT_CONTAINS(err.message, "compiling kernel.cu failed: kernel.cu(3): error");

  /* A name expression that names nothing. */
  const char *nosuch[] = {"nosuch<int>"};
  JGT_STATUS(JG_ECUDA, jg_rtc_compile(kSource, "k.cu", nosuch, 1, &o, &p, &err));
  JGT_CONTAINS(jg_rtc_last_log(), "nosuch");

  /* An architecture NVRTC does not know: the option is rejected. */
  jg_rtc_options o1 = opts_arch(1, NULL);
  JGT_STATUS(JG_ECUDA, jg_rtc_compile(kSource, "k.cu", NULL, 0, &o1, &p, &err));
  JGT_CONTAINS(err.message, "NVRTC: compiling k.cu failed:");
  JGT_CONTAINS(jg_rtc_last_log(), "gpu-architecture");

  /* A bad user option. */
  const char *bad_opt[] = {"--no-such-option"};
  o.options = bad_opt;
  o.n_options = 1;
  JGT_STATUS(JG_ECUDA, jg_rtc_compile(kSource, "k.cu", NULL, 0, &o, &p, &err));
  JGT_CONTAINS(jg_rtc_last_log(), "no-such-option");

  /* Options reach NVRTC: -D defines what the source needs. */
  const char *needs =
      "#ifndef VAL\n#error VAL is not defined\n#endif\n"
      "__global__ void k(int *x) { *x = VAL; }\n";
  o.n_options = 0;
  JGT_STATUS(JG_ECUDA, jg_rtc_compile(needs, "n.cu", NULL, 0, &o, &p, &err));
  JGT_CONTAINS(jg_rtc_last_log(), "VAL is not defined");
  const char *def[] = {"-DVAL=3"};
  o.options = def;
  o.n_options = 1;
  JGT_OK(jg_rtc_compile(needs, "n.cu", NULL, 0, &o, &p, &jgt_err_));
  jg_rtc_program_destroy(p);
}

static void test_compile_file(void **state) {
  (void)state;
  REQUIRE_NVRTC();
  char dir[64], path[128], local[128];
  make_tmpdir(dir, sizeof dir);
  snprintf(path, sizeof path, "%s/prog.cu", dir);
  snprintf(local, sizeof local, "%s/local.h", dir);
  write_text(local, "#define LOCAL_VALUE 7\n");
  write_text(path,
             "#include \"local.h\"\n"
             "extern \"C\" __global__ void k(int *x) { *x = LOCAL_VALUE; }\n");
  jg_rtc_options o = opts_arch(90, NULL);
  jg_rtc_program *p = NULL;
  JGT_OK(jg_rtc_compile_file(path, NULL, 0, &o, &p, &jgt_err_));
  char key1[33];
  snprintf(key1, sizeof key1, "%s", jg_rtc_program_key(p));
  jg_rtc_program_destroy(p);

  /* The header next to the file is part of the key. */
  write_text(local, "#define LOCAL_VALUE 8\n");
  JGT_OK(jg_rtc_compile_file(path, NULL, 0, &o, &p, &jgt_err_));
  assert_string_not_equal(jg_rtc_program_key(p), key1);
  jg_rtc_program_destroy(p);

  /* A missing header is an NVRTC error naming it. */
  assert_int_equal(unlink(local), 0);
  jg_error err;
  JGT_STATUS(JG_ECUDA, jg_rtc_compile_file(path, NULL, 0, &o, &p, &err));
  JGT_CONTAINS(jg_rtc_last_log(), "local.h");

  char missing[160];
  snprintf(missing, sizeof missing, "%s/none.cu", dir);
  JGT_STATUS(JG_EIO, jg_rtc_compile_file(missing, NULL, 0, &o, &p, &err));
  JGT_CONTAINS(err.message, missing);
  assert_null(p);
  JGT_STATUS(JG_EIO, jg_rtc_compile_file(dir, NULL, 0, &o, &p, &err));
  JGT_CONTAINS(err.message, "not a regular file");

  /* A FIFO as the file is refused without blocking (no writer ever opens it: a blocking open
   * would hang). A FIFO where a cache entry should be: test_cache_entry_not_regular. (A FIFO as an
   * included header is passed over by the cache key's include walk, but NVRTC itself would then
   * block opening it, so it is not tested here.) */
  char fifo[160];
  snprintf(fifo, sizeof fifo, "%s/fifo.cu", dir);
  assert_int_equal(mkfifo(fifo, 0600), 0);
  JGT_STATUS(JG_EIO, jg_rtc_compile_file(fifo, NULL, 0, &o, &p, &err));
  JGT_CONTAINS(err.message, "not a regular file");
  remove_tree(dir);
}


/* ------------------------------------------------------------------------------------------ */
/* Cache                                                                                       */
/* ------------------------------------------------------------------------------------------ */

static void test_cache_hit(void **state) {
  (void)state;
  REQUIRE_NVRTC();
  char dir[64];
  make_tmpdir(dir, sizeof dir);
  jg_rtc_options o = opts_arch(90, dir);
  jg_rtc_stats s0 = stats_now();
  jg_rtc_program *p = compile_ok(&o);
  jg_rtc_stats s1 = stats_now();
  assert_false(jg_rtc_program_cached(p));
  assert_int_equal(s1.compiles, s0.compiles + 1);
  assert_int_equal(s1.cache_misses, s0.cache_misses + 1);
  assert_int_equal(s1.cache_hits, s0.cache_hits);
  assert_int_equal(s1.cache_corrupt, s0.cache_corrupt);

  char path[256];
  entry_path(path, sizeof path, dir, jg_rtc_program_key(p));
  size_t len = 0;
  unsigned char *bytes = read_bytes(path, &len);
  assert_true(len > 32);
  assert_memory_equal(bytes, "JGRTC\0\0\1", 8);
  free(bytes);

  jg_rtc_program *q = compile_ok(&o);
  jg_rtc_stats s2 = stats_now();
  assert_true(jg_rtc_program_cached(q));
  assert_int_equal(s2.compiles, s1.compiles);
  assert_int_equal(s2.cache_hits, s1.cache_hits + 1);
  assert_int_equal(s2.cache_misses, s1.cache_misses);
  assert_string_equal(jg_rtc_program_key(q), jg_rtc_program_key(p));
  assert_string_equal(jg_rtc_program_log(q), "");
  size_t a = 0, b = 0;
  const void *ca = jg_rtc_program_cubin(p, &a);
  const void *cb = jg_rtc_program_cubin(q, &b);
  assert_int_equal(a, b);
  assert_memory_equal(ca, cb, a);
  assert_string_equal(jg_rtc_program_lowered_name(q, "fill_one<float>"), "_Z8fill_oneIfEvPT_");
  assert_string_equal(jg_rtc_program_lowered_name(q, "saxpy"), "saxpy");
  assert_null(jg_rtc_program_lowered_name(q, "fill_one<int>"));

  /* The key does not depend on the cache setting. */
  jg_rtc_options off = opts_arch(90, NULL);
  jg_rtc_program *r = compile_ok(&off);
  assert_string_equal(jg_rtc_program_key(r), jg_rtc_program_key(p));
  assert_false(jg_rtc_program_cached(r));
  jg_rtc_program_destroy(r);

  /* Other name expressions (here: the same ones in another order) are another entry. */
  const char *swapped[] = {"saxpy", "fill_one<float>"};
  JGT_OK(jg_rtc_compile(kSource, "k.cu", swapped, 2, &o, &r, &jgt_err_));
  assert_false(jg_rtc_program_cached(r));
  assert_string_not_equal(jg_rtc_program_key(r), jg_rtc_program_key(p));
  assert_string_equal(jg_rtc_program_lowered_name(r, "fill_one<float>"), "_Z8fill_oneIfEvPT_");
  jg_rtc_program_destroy(r);
  /* ... and so is another source name (NVRTC messages and include folder differ). */
  JGT_OK(jg_rtc_compile(kSource, "other.cu", kNames, 2, &o, &r, &jgt_err_));
  assert_false(jg_rtc_program_cached(r));
  jg_rtc_program_destroy(r);

  jg_rtc_program_destroy(p);
  jg_rtc_program_destroy(q);
  remove_tree(dir);
}

/* Compiles `src` with include dir `inc` and options `o`; returns whether it was cached and
 * copies the key. */
static bool compile_key(const char *src, const jg_rtc_options *o, char key[33]) {
  jg_rtc_program *p = NULL;
  JGT_OK(jg_rtc_compile(src, "main.cu", NULL, 0, o, &p, &jgt_err_));
  snprintf(key, 33, "%s", jg_rtc_program_key(p));
  bool cached = jg_rtc_program_cached(p);
  jg_rtc_program_destroy(p);
  return cached;
}

static void test_cache_key(void **state) {
  (void)state;
  REQUIRE_NVRTC();
  char dir[64], inc[96], inc2[96], path[160];
  make_tmpdir(dir, sizeof dir);
  snprintf(inc, sizeof inc, "%s/inc", dir);
  snprintf(inc2, sizeof inc2, "%s/inc2", dir);
  assert_int_equal(mkdir(inc, 0755), 0);
  assert_int_equal(mkdir(inc2, 0755), 0);
  char cache[96];
  snprintf(cache, sizeof cache, "%s/cache", dir);
  /* val.h (quoted, from the include dir) includes deep.h from its own folder; ang.h comes
   * through an angle-bracket include. */
  snprintf(path, sizeof path, "%s/val.h", inc);
  write_text(path, "#include \"deep.h\"\n#define VAL (DEEP + 1)\n");
  snprintf(path, sizeof path, "%s/deep.h", inc);
  write_text(path, "#define DEEP 1\n");
  snprintf(path, sizeof path, "%s/ang.h", inc2);
  write_text(path, "#define ANG 5\n");
  snprintf(path, sizeof path, "%s/unrelated.h", inc);
  write_text(path, "#define UNRELATED 1\n");
  const char *src =
      "#include \"val.h\"\n"
      "  #  include <ang.h>\n"
      "__global__ void k(int *x) { *x = VAL + ANG; }\n";
  const char *dirs[] = {inc, inc2};
  jg_rtc_options o = opts_arch(90, cache);
  o.include_dirs = dirs;
  o.n_include_dirs = 2;

  char k1[33], k[33];
  assert_false(compile_key(src, &o, k1));
  assert_true(compile_key(src, &o, k));
  assert_string_equal(k, k1);

  /* A nested header's content changes the key; restoring it finds the first entry again. */
  snprintf(path, sizeof path, "%s/deep.h", inc);
  write_text(path, "#define DEEP 2\n");
  assert_false(compile_key(src, &o, k));
  assert_string_not_equal(k, k1);
  write_text(path, "#define DEEP 1\n");
  assert_true(compile_key(src, &o, k));
  assert_string_equal(k, k1);

  /* So does an angle-bracket header found in an include dir. */
  snprintf(path, sizeof path, "%s/ang.h", inc2);
  write_text(path, "#define ANG 6\n");
  assert_false(compile_key(src, &o, k));
  assert_string_not_equal(k, k1);
  write_text(path, "#define ANG 5\n");
  assert_true(compile_key(src, &o, k));

  /* A header the source does not include does not. */
  snprintf(path, sizeof path, "%s/unrelated.h", inc);
  write_text(path, "#define UNRELATED 2\n");
  assert_true(compile_key(src, &o, k));
  assert_string_equal(k, k1);

  /* Options: another value, another key. */
  const char *d1[] = {"-DX=1"};
  const char *d2[] = {"-DX=2"};
  o.options = d1;
  o.n_options = 1;
  char kx1[33], kx2[33];
  assert_false(compile_key(src, &o, kx1));
  o.options = d2;
  assert_false(compile_key(src, &o, kx2));
  assert_string_not_equal(kx1, kx2);
  assert_string_not_equal(kx1, k1);
  o.options = d1;
  assert_true(compile_key(src, &o, k));
  assert_string_equal(k, kx1);
  o.n_options = 0;

  /* Architecture. */
  o.arch = 89;
  assert_false(compile_key(src, &o, k));
  assert_string_not_equal(k, k1);
  o.arch = 90;

  /* The source text. */
  char src2[512];
  snprintf(src2, sizeof src2, "%s// a comment\n", src);
  assert_false(compile_key(src2, &o, k));
  assert_string_not_equal(k, k1);
  remove_tree(dir);
}

/* Compiles kSource into `dir` and returns (in `key`) its key; asserts whether it was cached. */
static void compile_expect(const char *dir, bool cached, char key[33]) {
  jg_rtc_options o = opts_arch(90, dir);
  jg_rtc_program *p = compile_ok(&o);
  if (jg_rtc_program_cached(p) != cached) {
    print_error("expected cached=%d\n", cached);
    fail();
  }
  snprintf(key, 33, "%s", jg_rtc_program_key(p));
  jg_rtc_program_destroy(p);
}

typedef enum damage {
  FLIP_PAYLOAD,
  FLIP_MAGIC,
  FLIP_HASH,
  TRUNCATE_HALF,
  TRUNCATE_HEADER,
  TRUNCATE_ONE,
  EMPTY,
  APPEND,
  DAMAGE_COUNT
} damage;

static void test_cache_corrupt(void **state) {
  (void)state;
  REQUIRE_NVRTC();
  char dir[64], key[33], path[256];
  make_tmpdir(dir, sizeof dir);
  compile_expect(dir, false, key);
  entry_path(path, sizeof path, dir, key);
  size_t good_len = 0;
  unsigned char *good = read_bytes(path, &good_len);
  assert_true(good_len > 64);

  for (int d = 0; d < DAMAGE_COUNT; ++d) {
    unsigned char *b = malloc(good_len + 8);
    assert_non_null(b);
    memcpy(b, good, good_len);
    size_t len = good_len;
    switch ((damage)d) {
      case FLIP_PAYLOAD:
        b[good_len / 2] ^= 0x5a;
        break;
      case FLIP_MAGIC:
        b[2] ^= 1;
        break;
      case FLIP_HASH:
        b[28] ^= 1;
        break;
      case TRUNCATE_HALF:
        len = good_len / 2;
        break;
      case TRUNCATE_HEADER:
        len = 20;
        break;
      case TRUNCATE_ONE:
        len = good_len - 1;
        break;
      case EMPTY:
        len = 0;
        break;
      case APPEND:
        memcpy(b + good_len, "garbage!", 8);
        len = good_len + 8;
        break;
      default:
        break;
    }
    write_bytes(path, b, len);
    free(b);
    jg_rtc_stats s0 = stats_now();
    char k2[33];
    compile_expect(dir, false, k2); /* a miss, never an error */
    jg_rtc_stats s1 = stats_now();
    assert_string_equal(k2, key);
    assert_int_equal(s1.cache_corrupt, s0.cache_corrupt + 1);
    assert_int_equal(s1.cache_misses, s0.cache_misses + 1);
    assert_int_equal(s1.compiles, s0.compiles + 1);
    /* ... and the entry was rewritten whole. */
    size_t len2 = 0;
    unsigned char *again = read_bytes(path, &len2);
    assert_int_equal(len2, good_len);
    assert_memory_equal(again, good, good_len);
    free(again);
    compile_expect(dir, true, k2);
  }
  free(good);

  /* An entry that is a folder cannot be read or replaced: compiles work, nothing is cached. */
  assert_int_equal(unlink(path), 0);
  assert_int_equal(mkdir(path, 0755), 0);
  jg_rtc_stats s0 = stats_now();
  compile_expect(dir, false, key);
  compile_expect(dir, false, key);
  jg_rtc_stats s1 = stats_now();
  assert_int_equal(s1.cache_corrupt, s0.cache_corrupt + 2);
  remove_tree(dir);
}

/* Something other than a regular file where an entry should be (a FIFO, a symbolic link, a
 * device node): it is neither opened nor followed, counts as corrupt, and is left in place (the
 * cache replaces only regular files); the compile works and nothing is cached. The device is a
 * private copy of /dev/null made in the test's folder (root only). */
static void test_cache_entry_not_regular(void **state) {
  (void)state;
  REQUIRE_NVRTC();
  char dir[64], key[33], path[256], target[256];
  make_tmpdir(dir, sizeof dir);
  compile_expect(dir, false, key);
  entry_path(path, sizeof path, dir, key);
  size_t good_len = 0;
  unsigned char *good = read_bytes(path, &good_len);
  snprintf(target, sizeof target, "%s/elsewhere.jgrtc", dir);
  write_bytes(target, good, good_len); /* a valid entry, reached only through the link */
  for (int kind = 0; kind < 3; ++kind) {
    assert_int_equal(unlink(path), 0);
    if (kind == 0) {
      assert_int_equal(mkfifo(path, 0600), 0);
    } else if (kind == 1) {
      assert_int_equal(symlink(target, path), 0);
    } else if (geteuid() != 0 || mknod(path, S_IFCHR | 0666, makedev(1, 3)) != 0) {
      fprintf(stderr, "skipping the device-node entry: mknod needs root\n");
      break;
    }
    jg_rtc_stats before = stats_now();
    compile_expect(dir, false, key); /* a miss (not a hit through the link), compiled again */
    jg_rtc_stats after = stats_now();
    assert_int_equal(after.compiles, before.compiles + 1);
    assert_int_equal(after.cache_corrupt, before.cache_corrupt + 1);
    struct stat st;
    assert_int_equal(lstat(path, &st), 0); /* left as it was */
    assert_true(kind == 0 ? S_ISFIFO(st.st_mode)
                          : kind == 1 ? S_ISLNK(st.st_mode) : S_ISCHR(st.st_mode));
    size_t tlen = 0;
    unsigned char *t = read_bytes(target, &tlen); /* the link's target is untouched */
    assert_int_equal(tlen, good_len);
    assert_memory_equal(t, good, good_len);
    free(t);
    char shard[128];
    snprintf(shard, sizeof shard, "%s/%c%c", dir, key[0], key[1]);
    size_t tmp = 99;
    assert_int_equal(count_entries(shard, &tmp), 1); /* no temporary file left */
    assert_int_equal(tmp, 0);
  }
  free(good);
  remove_tree(dir);
}

/* Several processes compile the same program into a fresh cache at once. */
static void test_cache_concurrent_processes(void **state) {
  (void)state;
  REQUIRE_NVRTC();
  enum { N = 4 };
  char dir[64];
  make_tmpdir(dir, sizeof dir);
  int gate[2];
  assert_int_equal(pipe(gate), 0);
  pid_t pids[N];
  for (int i = 0; i < N; ++i) {
    pids[i] = fork();
    assert_true(pids[i] >= 0);
    if (pids[i] == 0) {
      close(gate[1]);
      char c;
      if (read(gate[0], &c, 1) < 0) c = 0; /* returns 0 when the parent closes the gate */
      jg_rtc_options o = opts_arch(90, dir);
      jg_rtc_program *p = NULL;
      jg_error err;
      jg_status st = jg_rtc_compile(kSource, "k.cu", kNames, 2, &o, &p, &err);
      if (st != JG_OK) fprintf(stderr, "child %d: %s\n", i, err.message);
      size_t size = 0;
      int ok = st == JG_OK && jg_rtc_program_cubin(p, &size) != NULL && size > 0;
      _exit(ok ? 0 : 1);
    }
  }
  close(gate[0]);
  close(gate[1]); /* opens the gate for all children at once */
  for (int i = 0; i < N; ++i) {
    int status = 0;
    assert_int_equal(waitpid(pids[i], &status, 0), pids[i]);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
  }
  char key[33];
  compile_expect(dir, true, key); /* one complete entry */
  char shard[128];
  snprintf(shard, sizeof shard, "%s/%c%c", dir, key[0], key[1]);
  size_t tmp = 99;
  assert_int_equal(count_entries(shard, &tmp), 1);
  assert_int_equal(tmp, 0);
  size_t top = 0;
  assert_int_equal(count_entries(dir, &top), 1); /* only the shard folder */
  remove_tree(dir);
}

/* Saves and restores one environment variable. */
typedef struct saved_env {
  const char *name;
  char *value; /* NULL: unset */
} saved_env;

static saved_env env_save(const char *name) {
  saved_env s = {name, NULL};
  const char *v = getenv(name);
  if (v != NULL) {
    s.value = malloc(strlen(v) + 1);
    assert_non_null(s.value);
    strcpy(s.value, v);
  }
  return s;
}

static void env_restore(saved_env *s) {
  if (s->value != NULL) {
    setenv(s->name, s->value, 1);
  } else {
    unsetenv(s->name);
  }
  free(s->value);
  s->value = NULL;
}

static bool entry_exists_under(const char *dir, const char *key) {
  char path[512];
  entry_path(path, sizeof path, dir, key);
  return file_size(path) != (size_t)-1;
}

static void test_cache_directory_settings(void **state) {
  (void)state;
  REQUIRE_NVRTC();
  saved_env e_cache = env_save("JG_CACHE_DIR"), e_xdg = env_save("XDG_CACHE_HOME"),
            e_home = env_save("HOME");
  char dir[64], sub[512];
  make_tmpdir(dir, sizeof dir);
  jg_rtc_options o = opts_arch(90, NULL);
  o.cache = JG_RTC_CACHE_DEFAULT; /* cache_dir NULL: the environment decides */
  jg_rtc_program *p = NULL;

  /* JG_CACHE_DIR="" disables: no lookups, nothing written. */
  setenv("JG_CACHE_DIR", "", 1);
  setenv("XDG_CACHE_HOME", dir, 1);
  setenv("HOME", dir, 1);
  jg_rtc_stats s0 = stats_now();
  for (int i = 0; i < 2; ++i) {
    p = compile_ok(&o);
    assert_false(jg_rtc_program_cached(p));
    jg_rtc_program_destroy(p);
  }
  jg_rtc_stats s1 = stats_now();
  assert_int_equal(s1.cache_hits, s0.cache_hits);
  assert_int_equal(s1.cache_misses, s0.cache_misses);
  assert_int_equal(s1.compiles, s0.compiles + 2);
  size_t tmp = 0;
  assert_int_equal(count_entries(dir, &tmp), 0);

  /* JG_CACHE_DIR, created as needed (two levels). */
  snprintf(sub, sizeof sub, "%s/a/b", dir);
  setenv("JG_CACHE_DIR", sub, 1);
  p = compile_ok(&o);
  char key[33];
  snprintf(key, sizeof key, "%s", jg_rtc_program_key(p));
  jg_rtc_program_destroy(p);
  assert_true(entry_exists_under(sub, key));
  p = compile_ok(&o);
  assert_true(jg_rtc_program_cached(p));
  jg_rtc_program_destroy(p);

  /* opt->cache_dir wins over JG_CACHE_DIR; an empty one disables. */
  char mine[128];
  snprintf(mine, sizeof mine, "%s/mine", dir);
  o.cache_dir = mine;
  jg_rtc_program_destroy(compile_ok(&o));
  assert_true(entry_exists_under(mine, key));
  o.cache_dir = "";
  p = compile_ok(&o);
  assert_false(jg_rtc_program_cached(p));
  jg_rtc_program_destroy(p);
  /* JG_RTC_CACHE_OFF: neither read nor written, even with a populated folder. */
  o.cache_dir = mine;
  o.cache = JG_RTC_CACHE_OFF;
  s0 = stats_now();
  p = compile_ok(&o);
  assert_false(jg_rtc_program_cached(p));
  jg_rtc_program_destroy(p);
  assert_int_equal(stats_now().cache_misses, s0.cache_misses);
  o.cache = JG_RTC_CACHE_DEFAULT;
  o.cache_dir = NULL;

  /* $XDG_CACHE_HOME/jagged/kernels. */
  unsetenv("JG_CACHE_DIR");
  char xdg[128];
  snprintf(xdg, sizeof xdg, "%s/xdg", dir);
  setenv("XDG_CACHE_HOME", xdg, 1);
  jg_rtc_program_destroy(compile_ok(&o));
  snprintf(sub, sizeof sub, "%s/jagged/kernels", xdg);
  assert_true(entry_exists_under(sub, key));

  /* A relative XDG_CACHE_HOME is ignored (XDG Base Directory spec): $HOME/.cache/... */
  setenv("XDG_CACHE_HOME", "relative/cache", 1);
  char home[128];
  snprintf(home, sizeof home, "%s/home", dir);
  setenv("HOME", home, 1);
  jg_rtc_program_destroy(compile_ok(&o));
  snprintf(sub, sizeof sub, "%s/.cache/jagged/kernels", home);
  assert_true(entry_exists_under(sub, key));
  unsetenv("XDG_CACHE_HOME");
  p = compile_ok(&o);
  assert_true(jg_rtc_program_cached(p));
  jg_rtc_program_destroy(p);

  /* Nothing usable: no cache, still compiles. */
  unsetenv("HOME");
  s0 = stats_now();
  p = compile_ok(&o);
  assert_false(jg_rtc_program_cached(p));
  jg_rtc_program_destroy(p);
  assert_int_equal(stats_now().cache_misses, s0.cache_misses);

  /* An unusable folder (below a regular file) is no error. */
  char file[160], below[200];
  snprintf(file, sizeof file, "%s/plainfile", dir);
  write_text(file, "x");
  snprintf(below, sizeof below, "%s/sub", file);
  o.cache_dir = below;
  for (int i = 0; i < 2; ++i) {
    p = compile_ok(&o);
    assert_false(jg_rtc_program_cached(p));
    jg_rtc_program_destroy(p);
  }
  env_restore(&e_cache);
  env_restore(&e_xdg);
  env_restore(&e_home);
  remove_tree(dir);
}

/* ------------------------------------------------------------------------------------------ */
/* Missing NVRTC (a fresh process)                                                             */
/* ------------------------------------------------------------------------------------------ */

/* Runs in the re-executed child: JG_NVRTC_LIBRARY names a missing file. Exit 0 when every call
 * reports JG_ENOTSUP naming it. */
static int child_missing_nvrtc(void) {
  jg_rtc_options o = opts_arch(90, NULL);
  jg_rtc_program *p = NULL;
  jg_error err;
  jg_status st = jg_rtc_compile(kSource, NULL, NULL, 0, &o, &p, &err);
  printf("compile: %s: %s\n", jg_status_name(st), err.message);
  if (st != JG_ENOTSUP || p != NULL) return 1;
  if (strstr(err.message, "/nonexistent/libnvrtc.so.13") == NULL) return 2;
  if (strstr(err.message, "JG_NVRTC_LIBRARY") == NULL) return 3;
  /* Arguments are still checked first. */
  if (jg_rtc_compile(NULL, NULL, NULL, 0, &o, &p, &err) != JG_EINVAL) return 4;
  jg_compile_report rep;
  st = jg_catalog_compile_all(1, &o, &rep, &err);
  printf("compile_all: %s: %s\n", jg_status_name(st), err.message);
  if (st != JG_ENOTSUP || strstr(err.message, "JG_NVRTC_LIBRARY") == NULL) return 5;
  if (rep.log != NULL || rep.compiled != 0) return 6;
  jg_rtc_stats s;
  jg_rtc_stats_get(&s);
  if (s.compiles != 0) return 7;
  return 0;
}

static void test_missing_nvrtc(void **state) {
  (void)state;
  if (!jg_cuda_compiled()) skip();
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    setenv("JG_NVRTC_LIBRARY", "/nonexistent/libnvrtc.so.13", 1);
    char *args[] = {argv0, (char *)"--child-missing-nvrtc", NULL};
    if (strchr(argv0, '/') != NULL) execv(argv0, args); /* also right under valgrind */
    execv("/proc/self/exe", args);
    _exit(99);
  }
  int status = 0;
  assert_int_equal(waitpid(pid, &status, 0), pid);
  assert_true(WIFEXITED(status));
  assert_int_equal(WEXITSTATUS(status), 0);
}

/* ------------------------------------------------------------------------------------------ */
/* jg_catalog_compile_all                                                                      */
/* ------------------------------------------------------------------------------------------ */

/* Kernels of the catalog with CUDA source (what compile_all compiles). */
static size_t kernels_with_source(void) {
  size_t n = 0;
  for (size_t i = 0; i < jg_catalog_size(); ++i) n += jg_catalog_at(i)->cuda_source != NULL;
  return n;
}

/* The cache folder of test_compile_all, which test_compile_all_registered reuses (so that the
 * catalog is compiled once, not three times: NVRTC under ASan is slow) and then removes. */
static char g_all_dir[64];

static void test_compile_all(void **state) {
  (void)state;
  REQUIRE_NVRTC();
  make_tmpdir(g_all_dir, sizeof g_all_dir);
  jg_rtc_options o = opts_arch(90, g_all_dir);
  jg_compile_report rep;
  memset(&rep, 0xcd, sizeof rep);
  JGT_OK(jg_catalog_compile_all(0, &o, &rep, &jgt_err_));
  size_t with = kernels_with_source();
  assert_int_equal(rep.compiled, with);
  assert_int_equal(rep.compiled + rep.skipped, jg_catalog_size());
  assert_int_equal(rep.failed, 0);
  assert_int_equal(rep.cached, 0);
  assert_null(rep.log);
  /* Again (one job): everything from the cache. */
  JGT_OK(jg_catalog_compile_all(1, &o, &rep, &jgt_err_));
  assert_int_equal(rep.compiled, with);
  assert_int_equal(rep.cached, with);
  assert_int_equal(rep.failed, 0);
  jg_compile_report_free(&rep);
}

static jg_status host_noop(const jg_kernel_arg *args, size_t n_args, void *user, jg_error *err) {
  (void)args;
  (void)n_args;
  (void)user;
  (void)err;
  return JG_OK;
}

static void register_kernel(const char *name, const char *source, const char *entry,
                            const char *const *options, size_t n_options) {
  jg_kernel_param param;
  memset(&param, 0, sizeof param);
  param.name = "x";
  param.kind = JG_PARAM_ARRAY;
  param.dir = JG_PARAM_INOUT;
  param.dtype = JG_DTYPE_INT32;
  param.min_length_param = -1;
  jg_kernel_desc d;
  memset(&d, 0, sizeof d);
  d.version = JG_KERNEL_DESC_VERSION;
  d.name = name;
  d.params = &param;
  d.n_params = 1;
  d.host = host_noop;
  d.cuda_source = source;
  d.cuda_entry = entry;
  d.threads_from = -1;
  d.cuda_options = options;
  d.n_cuda_options = n_options;
  JGT_OK(jg_catalog_register(&d, NULL, &jgt_err_));
}

/* Registered kernels: their entry name and options reach NVRTC; failures are all reported with
 * their logs, and the others still compile (the catalog from test_compile_all's cache). Runs last:
 * registrations are permanent. */
static void test_compile_all_registered(void **state) {
  (void)state;
  REQUIRE_NVRTC();
  size_t before = kernels_with_source();
  const char *def[] = {"-DRTC_TEST_VALUE=4"};
  register_kernel("rtc_test_ok",
                  "#ifndef RTC_TEST_VALUE\n#error RTC_TEST_VALUE missing\n#endif\n"
                  "extern \"C\" __global__ void rtc_test_entry(int *x) { *x = RTC_TEST_VALUE; }\n",
                  "rtc_test_entry", def, 1);
  register_kernel("rtc_test_nosource", NULL, NULL, NULL, 0);
  /* test_compile_all's cache: the catalog's kernels come from it, rtc_test_ok is compiled. */
  if (g_all_dir[0] == '\0') make_tmpdir(g_all_dir, sizeof g_all_dir);
  jg_rtc_options o = opts_arch(90, g_all_dir);
  jg_compile_report rep;
  JGT_OK(jg_catalog_compile_all(2, &o, &rep, &jgt_err_));
  assert_int_equal(rep.compiled, before + 1);
  assert_int_equal(rep.compiled + rep.skipped, jg_catalog_size());
  assert_int_equal(rep.cached, before);

  register_kernel("rtc_test_bad1",
                  "extern \"C\" __global__ void rtc_test_bad1(int *x) {\n"
                  "  *x = missing_one;\n}\n",
                  NULL, NULL, 0);
  register_kernel("rtc_test_bad2", "extern \"C\" __global__ void other(int *x) { *x = 1; }\n", NULL,
                  NULL, 0); /* the entry rtc_test_bad2 does not exist */
  jg_error err;
  JGT_STATUS(JG_ECUDA, jg_catalog_compile_all(3, &o, &rep, &err));
  assert_int_equal(err.index, 2);
  assert_int_equal(rep.failed, 2);
  assert_int_equal(rep.compiled, before + 1);
  assert_int_equal(rep.compiled + rep.skipped + rep.failed, jg_catalog_size());
  JGT_CONTAINS(err.message, "2 of");
  JGT_CONTAINS(err.message, "kernel 'rtc_test_bad1'");
  assert_non_null(rep.log);
  JGT_CONTAINS(rep.log, "kernel 'rtc_test_bad1': ");
  JGT_CONTAINS(rep.log, "missing_one");
  JGT_CONTAINS(rep.log, "kernel 'rtc_test_bad2': ");
  assert_null(strstr(rep.log, "rtc_test_ok"));
  jg_compile_report_free(&rep);
  assert_null(rep.log);
  remove_tree(g_all_dir);
}

int main(int argc, char **argv) {
  argv0 = argv[0];
  if (argc > 1 && strcmp(argv[1], "--child-missing-nvrtc") == 0) return child_missing_nvrtc();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_argument_errors),
      cmocka_unit_test(test_without_cuda),
      cmocka_unit_test(test_missing_nvrtc),
      cmocka_unit_test(test_without_gpu),
      cmocka_unit_test(test_compile_sm90),
      cmocka_unit_test(test_compile_errors),
      cmocka_unit_test(test_compile_file),
      cmocka_unit_test(test_cache_hit),
      cmocka_unit_test(test_cache_key),
      cmocka_unit_test(test_cache_corrupt),
      cmocka_unit_test(test_cache_entry_not_regular),
      cmocka_unit_test(test_cache_concurrent_processes),
      cmocka_unit_test(test_cache_directory_settings),
      cmocka_unit_test(test_compile_all),
      cmocka_unit_test(test_compile_all_registered),
  };
  return JGT_RUN_TESTS(tests, NULL, NULL);
}
