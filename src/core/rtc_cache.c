/* rtc_cache.c: the cache key and the on-disk cache of run-time compiled programs (rtc.h).
 *
 * Key: XXH3-128 (xxHash, used header-only) over length-prefixed fields, including the content of
 * every header the source reaches (jgi_rtc.h says which and how they resolve).
 *
 * Entry file <dir>/<k0k1>/<32 hex>.jgrtc, little-endian:
 *   header, 32 bytes: magic "JGRTC\0\0\1" (8), format version u32, reserved u32 (0),
 *                     payload length u64, XXH3-64 of the payload u64;
 *   payload:          key high u64, key low u64, arch u32, name count u32, CUBIN length u64,
 *                     per name: expression length u32 + bytes, lowered length u32 + bytes,
 *                     then the CUBIN bytes.
 * Any read, permission or decode problem is a miss or a corrupt entry, never an error. */
#define _XOPEN_SOURCE 700 /* realpath */

#include <stdlib.h>
#include <string.h>

#include "internal/jgi_rtc.h"

/* ------------------------------------------------------------------------------------------ */
/* Binaries                                                                                    */
/* ------------------------------------------------------------------------------------------ */

void jgi_rtc_binary_free(jgi_rtc_binary *b) {
  if (b == NULL) return;
  for (size_t i = 0; i < b->n_names; ++i) {
    if (b->names != NULL) free(b->names[i]);
    if (b->lowered != NULL) free(b->lowered[i]);
  }
  free(b->names);
  free(b->lowered);
  free(b->cubin);
  memset(b, 0, sizeof *b);
}

#if defined(JG_HAVE_CUDA) && JG_HAVE_CUDA

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "jagged/version.h"

/* ------------------------------------------------------------------------------------------ */
/* Small helpers                                                                               */
/* ------------------------------------------------------------------------------------------ */

/* Reads the regular file at `path` whole into a malloc'd, NUL-terminated buffer. */
static bool read_whole_file(const char *path, char **data, size_t *len) {
  /* O_NONBLOCK: opening a FIFO must not wait for a writer; it is then refused as not regular. */
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return false;
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 0 ||
      (uint64_t)st.st_size > (uint64_t)SIZE_MAX - 1) {
    close(fd);
    return false;
  }
  size_t cap = (size_t)st.st_size;
  char *buf = malloc(cap + 1);
  if (buf == NULL) {
    close(fd);
    return false;
  }
  size_t got = 0;
  while (got < cap) {
    ssize_t r = read(fd, buf + got, cap - got);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break; /* the file shrank: keep what was read; the checks will reject it */
    got += (size_t)r;
  }
  close(fd);
  buf[got] = '\0';
  *data = buf;
  *len = got;
  return true;
}

/* A malloc'd "<a>/<b>" (or a copy of b when a is NULL or b is absolute). */
static char *path_join(const char *a, const char *b) {
  if (a == NULL || a[0] == '\0' || b[0] == '/') {
    size_t n = strlen(b) + 1;
    char *p = malloc(n);
    if (p != NULL) memcpy(p, b, n);
    return p;
  }
  size_t la = strlen(a), lb = strlen(b);
  bool slash = a[la - 1] == '/';
  char *p = malloc(la + lb + 2);
  if (p == NULL) return NULL;
  memcpy(p, a, la);
  if (!slash) p[la++] = '/';
  memcpy(p + la, b, lb + 1);
  return p;
}

/* A malloc'd folder part of `path`: "." for a bare name, "/" for "/x", "a" for "a/x". */
static char *path_folder(const char *path) {
  const char *slash = strrchr(path, '/');
  const char *src = path;
  size_t n;
  if (slash == NULL) {
    src = ".";
    n = 1;
  } else {
    n = slash == path ? 1 : (size_t)(slash - path);
  }
  char *p = malloc(n + 1);
  if (p == NULL) return NULL;
  memcpy(p, src, n);
  p[n] = '\0';
  return p;
}

/* ------------------------------------------------------------------------------------------ */
/* Key                                                                                         */
/* ------------------------------------------------------------------------------------------ */

/* Field tags: every field is tag, u64 length, bytes, so no two inputs give the same stream. */
enum {
  TAG_FORMAT = 1,
  TAG_JG_VERSION,
  TAG_NVRTC,
  TAG_ARCH,
  TAG_SOURCE,
  TAG_SOURCE_NAME,
  TAG_HEADER_NAME,
  TAG_HEADER,
  TAG_OPTION,
  TAG_NAME,
  TAG_INCLUDE,
  TAG_INCLUDE_CONTENT,
  TAG_INCLUDE_MISSING
};

static void put_field(XXH3_state_t *st, unsigned char tag, const void *data, size_t len) {
  unsigned char head[9];
  head[0] = tag;
  uint64_t l = (uint64_t)len;
  for (int i = 0; i < 8; ++i) head[1 + i] = (unsigned char)(l >> (8 * i));
  (void)XXH3_128bits_update(st, head, sizeof head);
  if (len > 0) (void)XXH3_128bits_update(st, data, len);
}

static void put_str(XXH3_state_t *st, unsigned char tag, const char *s) {
  put_field(st, tag, s != NULL ? s : "", s != NULL ? strlen(s) : 0);
}

static void put_int(XXH3_state_t *st, unsigned char tag, int64_t v) {
  unsigned char b[8];
  for (int i = 0; i < 8; ++i) b[i] = (unsigned char)((uint64_t)v >> (8 * i));
  put_field(st, tag, b, sizeof b);
}

/* Safety limits of the include walk (cycles are cut by the visited set already). */
#define MAX_INCLUDE_DEPTH 64
#define MAX_INCLUDES 4096

typedef struct include_walk {
  XXH3_state_t *st;
  const jgi_rtc_key_input *in;
  char **visited; /* identities: "m:<name>" for in-memory headers, realpath for files */
  size_t n_visited, cap_visited;
  bool overflow; /* a limit was hit or memory ran out: hashed as a marker */
} include_walk;

/* true when `id` was seen; otherwise records it (taking ownership) and returns false. */
static bool visit(include_walk *w, char *id) {
  for (size_t i = 0; i < w->n_visited; ++i) {
    if (strcmp(w->visited[i], id) == 0) {
      free(id);
      return true;
    }
  }
  if (w->n_visited == w->cap_visited) {
    size_t cap = w->cap_visited == 0 ? 16 : 2 * w->cap_visited;
    if (w->n_visited >= MAX_INCLUDES) {
      w->overflow = true;
      free(id);
      return true;
    }
    char **v = realloc(w->visited, cap * sizeof *v);
    if (v == NULL) {
      w->overflow = true;
      free(id);
      return true;
    }
    w->visited = v;
    w->cap_visited = cap;
  }
  w->visited[w->n_visited++] = id;
  return false;
}

static void walk_text(include_walk *w, const char *text, const char *folder, int depth);

/* Index of the in-memory header named `name`, or -1. */
static long find_header(const jgi_rtc_key_input *in, const char *name) {
  for (size_t i = 0; i < in->n_headers; ++i) {
    if (strcmp(in->header_names[i], name) == 0) return (long)i;
  }
  return -1;
}

/* Tries the file `path`: hashes it and walks it when readable and not seen yet. */
static bool try_file(include_walk *w, const char *path, int depth) {
  char *data = NULL;
  size_t len = 0;
  if (!read_whole_file(path, &data, &len)) return false;
  char *id = realpath(path, NULL);
  if (id == NULL) {
    size_t n = strlen(path) + 1;
    id = malloc(n);
    if (id == NULL) {
      w->overflow = true;
      free(data);
      return true;
    }
    memcpy(id, path, n);
  }
  if (visit(w, id)) {
    free(data);
    return true; /* seen: its content is in the stream already */
  }
  put_field(w->st, TAG_INCLUDE_CONTENT, data, len);
  char *folder = path_folder(path);
  if (folder == NULL) {
    w->overflow = true;
  } else {
    walk_text(w, data, folder, depth + 1);
    free(folder);
  }
  free(data);
  return true;
}

/* Resolves one include (`quoted`: "name", else <name>) from a file in `folder` (NULL: an
 * in-memory header) and hashes what it resolves to. */
static void resolve_include(include_walk *w, const char *name, bool quoted, const char *folder,
                            int depth) {
  put_str(w->st, TAG_INCLUDE, name);
  put_int(w->st, TAG_INCLUDE, quoted ? 1 : 0);
  long h = find_header(w->in, name);
  if (h >= 0) {
    const char *pre = "m:";
    size_t n = strlen(name);
    char *id = malloc(n + 3);
    if (id == NULL) {
      w->overflow = true;
      return;
    }
    memcpy(id, pre, 2);
    memcpy(id + 2, name, n + 1);
    if (!visit(w, id)) walk_text(w, w->in->header_sources[h], NULL, depth + 1);
    return; /* its content is hashed with the headers */
  }
  if (name[0] == '/') {
    if (try_file(w, name, depth)) return;
  } else {
    if (quoted && folder != NULL) {
      char *p = path_join(folder, name);
      if (p == NULL) {
        w->overflow = true;
        return;
      }
      bool found = try_file(w, p, depth);
      free(p);
      if (found) return;
    }
    for (size_t i = 0; i < w->in->n_include_dirs; ++i) {
      char *p = path_join(w->in->include_dirs[i], name);
      if (p == NULL) {
        w->overflow = true;
        return;
      }
      bool found = try_file(w, p, depth);
      free(p);
      if (found) return;
    }
  }
  put_field(w->st, TAG_INCLUDE_MISSING, NULL, 0);
}

static bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\v' || c == '\f';
}

/* Finds every `# include "x"` and `# include <x>` line of `text` in order and resolves it. */
static void walk_text(include_walk *w, const char *text, const char *folder, int depth) {
  if (depth > MAX_INCLUDE_DEPTH) {
    w->overflow = true;
    return;
  }
  const char *p = text;
  while (*p != '\0') {
    const char *line_end = strchr(p, '\n');
    if (line_end == NULL) line_end = p + strlen(p);
    const char *q = p;
    while (q < line_end && is_blank(*q)) ++q;
    if (q < line_end && *q == '#') {
      ++q;
      while (q < line_end && is_blank(*q)) ++q;
      if ((size_t)(line_end - q) > 7 && strncmp(q, "include", 7) == 0) {
        q += 7;
        while (q < line_end && is_blank(*q)) ++q;
        if (q < line_end && (*q == '"' || *q == '<')) {
          char close = *q == '"' ? '"' : '>';
          bool quoted = *q == '"';
          const char *s = ++q;
          while (q < line_end && *q != close) ++q;
          if (q < line_end && q > s) {
            size_t n = (size_t)(q - s);
            char *name = malloc(n + 1);
            if (name == NULL) {
              w->overflow = true;
              return;
            }
            memcpy(name, s, n);
            name[n] = '\0';
            resolve_include(w, name, quoted, folder, depth);
            free(name);
          }
        }
      }
    }
    p = *line_end == '\0' ? line_end : line_end + 1;
  }
}

jgi_rtc_key jgi_rtc_key_compute(const jgi_rtc_key_input *in) {
  XXH3_state_t st;
  (void)XXH3_128bits_reset(&st);
  put_int(&st, TAG_FORMAT, JGI_RTC_CACHE_FORMAT);
  put_str(&st, TAG_JG_VERSION, JG_VERSION_STRING);
  put_int(&st, TAG_NVRTC, (int64_t)in->nvrtc_major * 1000 + in->nvrtc_minor);
  put_int(&st, TAG_ARCH, in->arch);
  put_str(&st, TAG_SOURCE, in->source);
  put_str(&st, TAG_SOURCE_NAME, in->source_name);
  for (size_t i = 0; i < in->n_headers; ++i) {
    put_str(&st, TAG_HEADER_NAME, in->header_names[i]);
    put_str(&st, TAG_HEADER, in->header_sources[i]);
  }
  for (size_t i = 0; i < in->n_options; ++i) put_str(&st, TAG_OPTION, in->options[i]);
  for (size_t i = 0; i < in->n_names; ++i) put_str(&st, TAG_NAME, in->names[i]);

  include_walk w;
  memset(&w, 0, sizeof w);
  w.st = &st;
  w.in = in;
  char *folder = path_folder(in->source_name != NULL ? in->source_name : "kernel.cu");
  if (folder == NULL) {
    w.overflow = true;
  } else {
    walk_text(&w, in->source, folder, 0);
    free(folder);
  }
  for (size_t i = 0; i < w.n_visited; ++i) free(w.visited[i]);
  free(w.visited);
  /* An incomplete walk still gives a key, but one that no complete walk can give. */
  if (w.overflow) put_field(&st, TAG_INCLUDE_MISSING, "incomplete", 10);

  XXH128_hash_t h = XXH3_128bits_digest(&st);
  jgi_rtc_key key = {h.high64, h.low64};
  return key;
}

void jgi_rtc_key_hex(const jgi_rtc_key *key, char hex[33]) {
  static const char digits[] = "0123456789abcdef";
  for (int i = 0; i < 16; ++i) {
    hex[i] = digits[(key->high >> (60 - 4 * i)) & 0xf];
    hex[16 + i] = digits[(key->low >> (60 - 4 * i)) & 0xf];
  }
  hex[32] = '\0';
}

/* ------------------------------------------------------------------------------------------ */
/* Cache directory                                                                             */
/* ------------------------------------------------------------------------------------------ */

bool jgi_rtc_cache_dir(const jg_rtc_options *opt, char *buf, size_t size) {
  if (size == 0) return false;
  buf[0] = '\0';
  if (opt != NULL && opt->cache == JG_RTC_CACHE_OFF) return false;
  const char *base = NULL, *suffix = "";
  if (opt != NULL && opt->cache_dir != NULL) {
    base = opt->cache_dir;
  } else {
    const char *env = getenv("JG_CACHE_DIR");
    if (env != NULL) {
      base = env;
    } else {
      const char *xdg = getenv("XDG_CACHE_HOME");
      if (xdg != NULL && xdg[0] == '/') {
        base = xdg;
        suffix = "/jagged/kernels";
      } else {
        const char *home = getenv("HOME");
        if (home != NULL && home[0] != '\0') {
          base = home;
          suffix = "/.cache/jagged/kernels";
        }
      }
    }
  }
  if (base == NULL || base[0] == '\0') return false;
  int n = snprintf(buf, size, "%s%s", base, suffix);
  if (n < 0 || (size_t)n >= size) {
    buf[0] = '\0';
    return false;
  }
  return true;
}

/* mkdir -p `path` (a writable copy is made). */
static bool make_dirs(const char *path) {
  size_t n = strlen(path);
  char *p = malloc(n + 1);
  if (p == NULL) return false;
  memcpy(p, path, n + 1);
  for (size_t i = 1; i <= n; ++i) {
    if (p[i] != '/' && p[i] != '\0') continue;
    if (p[i - 1] == '/') continue; /* "a//b" */
    char saved = p[i];
    p[i] = '\0';
    if (mkdir(p, 0755) != 0 && errno != EEXIST) {
      free(p);
      return false;
    }
    p[i] = saved;
  }
  struct stat st;
  bool ok = stat(p, &st) == 0 && S_ISDIR(st.st_mode);
  free(p);
  return ok;
}

/* "<dir>/<k0k1>" and "<dir>/<k0k1>/<hex>.jgrtc", malloc'd. */
static bool entry_paths(const char *dir, const jgi_rtc_key *key, char **shard, char **file) {
  char hex[33];
  jgi_rtc_key_hex(key, hex);
  char sub[3] = {hex[0], hex[1], '\0'};
  char leaf[40];
  snprintf(leaf, sizeof leaf, "%s.jgrtc", hex);
  *shard = path_join(dir, sub);
  *file = *shard != NULL ? path_join(*shard, leaf) : NULL;
  if (*file == NULL) {
    free(*shard);
    *shard = NULL;
    return false;
  }
  return true;
}

/* ------------------------------------------------------------------------------------------ */
/* Entry encoding                                                                              */
/* ------------------------------------------------------------------------------------------ */

static const unsigned char entry_magic[8] = {'J', 'G', 'R', 'T', 'C', 0, 0, 1};
#define HEADER_SIZE 32u

static void put_u32(unsigned char *p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = (unsigned char)(v >> (8 * i));
}
static void put_u64(unsigned char *p, uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = (unsigned char)(v >> (8 * i));
}
static uint32_t get_u32(const unsigned char *p) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= (uint32_t)p[i] << (8 * i);
  return v;
}
static uint64_t get_u64(const unsigned char *p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= (uint64_t)p[i] << (8 * i);
  return v;
}

/* Adds `b` to `*total`; false on overflow. */
static bool add_size(size_t *total, size_t b) {
  return !__builtin_add_overflow(*total, b, total);
}

/* Encodes header + payload into a malloc'd buffer. */
static bool encode_entry(const jgi_rtc_key *key, int arch, const jgi_rtc_binary *bin,
                         unsigned char **out, size_t *out_len) {
  if (bin->n_names > UINT32_MAX || arch < 0) return false;
  size_t payload = 16 + 4 + 4 + 8;
  for (size_t i = 0; i < bin->n_names; ++i) {
    size_t a = strlen(bin->names[i]), b = strlen(bin->lowered[i]);
    if (a > UINT32_MAX || b > UINT32_MAX) return false;
    if (!add_size(&payload, 8) || !add_size(&payload, a) || !add_size(&payload, b)) return false;
  }
  if (!add_size(&payload, bin->cubin_size)) return false;
  size_t total = payload;
  if (!add_size(&total, HEADER_SIZE)) return false;
  unsigned char *buf = malloc(total);
  if (buf == NULL) return false;
  unsigned char *p = buf + HEADER_SIZE;
  put_u64(p, key->high);
  put_u64(p + 8, key->low);
  put_u32(p + 16, (uint32_t)arch);
  put_u32(p + 20, (uint32_t)bin->n_names);
  put_u64(p + 24, (uint64_t)bin->cubin_size);
  p += 32;
  for (size_t i = 0; i < bin->n_names; ++i) {
    size_t a = strlen(bin->names[i]), b = strlen(bin->lowered[i]);
    put_u32(p, (uint32_t)a);
    memcpy(p + 4, bin->names[i], a);
    p += 4 + a;
    put_u32(p, (uint32_t)b);
    memcpy(p + 4, bin->lowered[i], b);
    p += 4 + b;
  }
  if (bin->cubin_size > 0) memcpy(p, bin->cubin, bin->cubin_size);
  memcpy(buf, entry_magic, 8);
  put_u32(buf + 8, JGI_RTC_CACHE_FORMAT);
  put_u32(buf + 12, 0);
  put_u64(buf + 16, (uint64_t)payload);
  put_u64(buf + 24, (uint64_t)XXH3_64bits(buf + HEADER_SIZE, payload));
  *out = buf;
  *out_len = total;
  return true;
}

/* A malloc'd NUL-terminated copy of `n` bytes. */
static char *dup_bytes(const unsigned char *s, size_t n) {
  char *p = malloc(n + 1);
  if (p == NULL) return NULL;
  memcpy(p, s, n);
  p[n] = '\0';
  return p;
}

/* Decodes and checks an entry; JGI_RTC_HIT fills *out. */
static jgi_rtc_lookup decode_entry(const unsigned char *buf, size_t len, const jgi_rtc_key *key,
                                   int arch, const char *const *names, size_t n_names,
                                   jgi_rtc_binary *out) {
  if (len < HEADER_SIZE || memcmp(buf, entry_magic, 8) != 0) return JGI_RTC_CORRUPT;
  if (get_u32(buf + 8) != JGI_RTC_CACHE_FORMAT || get_u32(buf + 12) != 0) return JGI_RTC_CORRUPT;
  uint64_t payload = get_u64(buf + 16);
  if (payload != (uint64_t)(len - HEADER_SIZE)) return JGI_RTC_CORRUPT;
  const unsigned char *p = buf + HEADER_SIZE;
  if (XXH3_64bits(p, (size_t)payload) != get_u64(buf + 24)) return JGI_RTC_CORRUPT;
  size_t left = (size_t)payload;
  if (left < 32) return JGI_RTC_CORRUPT;
  if (get_u64(p) != key->high || get_u64(p + 8) != key->low) return JGI_RTC_CORRUPT;
  if (get_u32(p + 16) != (uint32_t)arch || get_u32(p + 20) != n_names) return JGI_RTC_CORRUPT;
  uint64_t cubin_size = get_u64(p + 24);
  p += 32;
  left -= 32;

  jgi_rtc_binary b;
  memset(&b, 0, sizeof b);
  if (n_names > 0) {
    b.names = calloc(n_names, sizeof *b.names);
    b.lowered = calloc(n_names, sizeof *b.lowered);
    if (b.names == NULL || b.lowered == NULL) goto nomem;
  }
  for (size_t i = 0; i < n_names; ++i) {
    b.n_names = i + 1; /* frees what is filled so far on the error paths */
    if (left < 4) goto corrupt;
    size_t a = get_u32(p);
    p += 4;
    left -= 4;
    if (left < a || strlen(names[i]) != a || memcmp(p, names[i], a) != 0) goto corrupt;
    p += a;
    left -= a;
    if (left < 4) goto corrupt;
    size_t l = get_u32(p);
    p += 4;
    left -= 4;
    if (left < l || l == 0) goto corrupt;
    b.names[i] = dup_bytes((const unsigned char *)names[i], a);
    b.lowered[i] = dup_bytes(p, l);
    if (b.names[i] == NULL || b.lowered[i] == NULL) goto nomem;
    if (strlen(b.lowered[i]) != l) goto corrupt; /* an embedded NUL */
    p += l;
    left -= l;
  }
  b.n_names = n_names;
  if (cubin_size != (uint64_t)left || cubin_size == 0) goto corrupt;
  b.cubin = malloc(left);
  if (b.cubin == NULL) goto nomem;
  memcpy(b.cubin, p, left);
  b.cubin_size = left;
  *out = b;
  return JGI_RTC_HIT;
corrupt:
  jgi_rtc_binary_free(&b);
  return JGI_RTC_CORRUPT;
nomem:
  jgi_rtc_binary_free(&b);
  return JGI_RTC_MISS;
}

jgi_rtc_lookup jgi_rtc_cache_read(const char *dir, const jgi_rtc_key *key, int arch,
                                  const char *const *names, size_t n_names, jgi_rtc_binary *out) {
  char *shard = NULL, *file = NULL;
  if (!entry_paths(dir, key, &shard, &file)) return JGI_RTC_MISS;
  free(shard);
  jgi_rtc_lookup r = JGI_RTC_MISS;
  struct stat st;
  if (lstat(file, &st) == 0) {
    char *data = NULL;
    size_t len = 0;
    /* Only a regular file is opened: a symbolic link, FIFO or device where an entry should be
     * is not followed or opened (opening a device can act on it), and counts as corrupt. */
    if (S_ISREG(st.st_mode) && read_whole_file(file, &data, &len)) {
      r = decode_entry((const unsigned char *)data, len, key, arch, names, n_names, out);
      free(data);
    } else {
      r = JGI_RTC_CORRUPT; /* exists but is not a readable regular file (a folder, a link, a
                              FIFO, no permission) */
    }
  }
  free(file);
  return r;
}

bool jgi_rtc_cache_write(const char *dir, const jgi_rtc_key *key, int arch,
                         const jgi_rtc_binary *bin) {
  unsigned char *buf = NULL;
  size_t len = 0;
  if (!encode_entry(key, arch, bin, &buf, &len)) return false;
  char *shard = NULL, *file = NULL;
  if (!entry_paths(dir, key, &shard, &file)) {
    free(buf);
    return false;
  }
  bool ok = false;
  char *tmp = NULL;
  if (!make_dirs(shard)) goto done;
  char hex[33];
  jgi_rtc_key_hex(key, hex);
  char leaf[64];
  snprintf(leaf, sizeof leaf, ".%s.tmp.XXXXXX", hex);
  tmp = path_join(shard, leaf);
  if (tmp == NULL) goto done;
  int fd = mkstemp(tmp);
  if (fd < 0) goto done;
  {
    /* mkstemp makes the file 0600; entries are as readable as the user's umask lets files be,
     * so that a cache shared by several users is read, not taken for corrupt and rewritten. */
    const mode_t mask = umask(0);
    umask(mask);
    (void)fchmod(fd, (mode_t)0666 & ~mask);
  }
  size_t put = 0;
  while (put < len) {
    ssize_t w = write(fd, buf + put, len - put);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) break;
    put += (size_t)w;
  }
  bool written = put == len && fsync(fd) == 0;
  if (close(fd) != 0) written = false;
  /* The rename replaces a regular file only (an entry, corrupt or stale): anything else there
   * (a folder, symbolic link, FIFO, device) was not made by the cache and is left alone. */
  struct stat at;
  if (lstat(file, &at) == 0 && !S_ISREG(at.st_mode)) written = false;
  if (written && rename(tmp, file) == 0) {
    ok = true;
  } else {
    (void)unlink(tmp);
  }
done:
  free(tmp);
  free(shard);
  free(file);
  free(buf);
  return ok;
}

#endif /* JG_HAVE_CUDA: without CUDA there is nothing to cache (rtc.c reports JG_ENOTSUP) */
