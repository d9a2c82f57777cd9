/* adl_output.c: the histogram outputs of `jagged adl`: CSV files in the format of the published
 * ADL reference histograms (written atomically), reading and comparing those references, and
 * plots drawn with PLplot (PNG through its pngcairo device, SVG through its svg device) when the
 * build has PLplot and both devices load at run time.
 *
 * PLplot prints its warnings and errors on stderr, and on a fatal error calls exit(). Here it
 * never does either: while PLplot runs, stdout and stderr (the file descriptors) point at a
 * temporary file, whose last line becomes the error message when something fails; an abort
 * handler records PLplot's errors, and an exit handler jumps back out of PLplot (longjmp) before
 * it can exit, after which the stream is ended and the partial output removed. That is why the
 * plotting functions are for the main thread only, while no other thread prints. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "adl.h"
#include "adl_tmp.h"

#ifdef JG_HAVE_PLPLOT
#include <plplot.h>
#include <setjmp.h>
#endif

/* ------------------------------------------------------------------------------------------ */
/* Bins and numbers as the reference CSVs write them                                           */
/* ------------------------------------------------------------------------------------------ */

/* Longest line adl_read_csv accepts (a row is two numbers: some 40 characters). */
#define CSV_MAX_LINE 256
/* Most rows adl_read_csv accepts: far more than any histogram of the ADL benchmark (102). */
#define CSV_MAX_ROWS (INT64_C(1) << 20)
/* Most bins adl_plot draws. */
#define PLOT_MAX_BINS 1000000

/** Whether `h` is a histogram the outputs can handle: counts present, 1 <= n_bins <= 2^40, finite
 *  edges lo < hi and a bin width that neither overflows nor underflows to 0. On failure fills `err`
 *  (JG_EINVAL, prefixed by `what`) and returns false. */
static bool hist_check(const jg_hist1d *h, const char *what, jg_error *err) {
  if (h->counts == NULL) {
    jg_error_set(err, JG_EINVAL, -1, "%s: the histogram has no counts", what);
    return false;
  }
  if (h->n_bins < 1 || h->n_bins > (INT64_C(1) << 40)) {
    jg_error_set(err, JG_EINVAL, -1, "%s: %" PRId64 " bins (1 .. 2^40 allowed)", what, h->n_bins);
    return false;
  }
  const double w = (h->hi - h->lo) / (double)h->n_bins;
  if (!isfinite(h->lo) || !isfinite(h->hi) || !(h->lo < h->hi) || !isfinite(w) || !(w > 0)) {
    jg_error_set(err, JG_EINVAL, -1, "%s: bad binning [%g, %g) in %" PRId64 " bins", what, h->lo,
                 h->hi, h->n_bins);
    return false;
  }
  return true;
}

/** The centre of entry `k` of h->counts (0: underflow, 1 .. n_bins: the bins, n_bins + 1:
 *  overflow): lo + (k - 1/2) w, w = (hi - lo) / n_bins; a centre within 1e-12 of the range from 0
 *  (rounding noise, or -0.0) is 0. */
static double bin_centre(const jg_hist1d *h, int64_t k) {
  const double range = h->hi - h->lo;
  const double x = h->lo + ((double)k - 0.5) * (range / (double)h->n_bins);
  return fabs(x) < 1e-12 * range ? 0.0 : x;
}

/** Writes `x` as the references do into buf (at least 32 bytes): up to 12 significant digits and
 *  at least one decimal ("10.0", "15.225", "-0.005"); exponent forms ("1e-05") stay as they are. */
static void format_x(double x, char *buf, size_t size) {
  const int n = snprintf(buf, size, "%.12g", x);
  if (n > 0 && (size_t)n + 2 < size && strpbrk(buf, ".eni") == NULL) memcpy(buf + n, ".0", 3);
}

/** Writes a count `y` into buf: as an integer when it is one ("346"), else with up to 12
 *  significant digits (weighted histograms). */
static void format_y(double y, char *buf, size_t size) {
  if (y == 0) {
    snprintf(buf, size, "0");
  } else if (y == floor(y) && fabs(y) < 1e15) {
    snprintf(buf, size, "%.0f", y);
  } else {
    snprintf(buf, size, "%.12g", y);
  }
}

/* ------------------------------------------------------------------------------------------ */
/* Files written under a temporary name, then renamed                                          */
/* ------------------------------------------------------------------------------------------ */

/** The temporary name of `path` (adl_tmp_name: "PATH.<pid>.tmp"), malloc'd; NULL when out of
 *  memory. */
static char *tmp_name(const char *path) {
  const size_t n = strlen(path) + 32;
  char *t = malloc(n);
  if (t != NULL && !adl_tmp_name(path, t, n)) {
    free(t);
    t = NULL;
  }
  return t;
}

/** Creates `tmp` as a new empty regular file for writing: a leftover of an earlier run (a file,
 *  or a link, which is not followed) is removed first. Returns the descriptor, or -1 with errno. */
static int tmp_create(const char *tmp) {
  if (unlink(tmp) != 0 && errno != ENOENT) return -1;
  return open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
}

/* ------------------------------------------------------------------------------------------ */
/* CSV                                                                                         */
/* ------------------------------------------------------------------------------------------ */

/** Writes `h` to `path` in the reference format, through `path`.tmp (contract in adl.h). */
jg_status adl_write_csv(const jg_hist1d *h, const char *path, jg_error *err) {
  if (h == NULL || path == NULL) {
    return jg_error_set(err, JG_EINVAL, -1, "adl_write_csv: NULL %s",
                        h == NULL ? "histogram" : "path");
  }
  if (!hist_check(h, "adl_write_csv", err)) return JG_EINVAL;
  for (int64_t k = 0; k < h->n_bins + 2; k++) {
    if (!isfinite(h->counts[k])) {
      return jg_error_set(err, JG_EINVAL, k,
                          "adl_write_csv: the count of bin %" PRId64 " (of 0 .. %" PRId64 ") is %g",
                          k, h->n_bins + 1, h->counts[k]);
    }
  }
  char *tmp = tmp_name(path);
  if (tmp == NULL) return jg_error_set(err, JG_ENOMEM, -1, "out of memory writing %s", path);
  const int fd = tmp_create(tmp);
  if (fd < 0) {
    const int e = errno;
    jg_error_set(err, JG_EIO, -1, "cannot create %s: %s", tmp, strerror(e));
    free(tmp);
    return JG_EIO;
  }
  const int slot = adl_tmp_track(tmp); /* removed if a signal ends the run */
  FILE *f = fdopen(fd, "wb");
  int e = f == NULL ? errno : 0;
  if (f != NULL) {
    fputs("x,y\n", f);
    for (int64_t k = 0; k < h->n_bins + 2 && !ferror(f); k++) {
      if (h->counts[k] == 0) continue;
      char xs[64], ys[64];
      format_x(bin_centre(h, k), xs, sizeof xs);
      format_y(h->counts[k], ys, sizeof ys);
      fprintf(f, "%s,%s\n", xs, ys);
    }
    if (ferror(f) || fflush(f) != 0 || fsync(fileno(f)) != 0) e = errno != 0 ? errno : EIO;
    if (fclose(f) != 0 && e == 0) e = errno;
  } else {
    close(fd);
  }
  if (e != 0) {
    jg_error_set(err, JG_EIO, -1, "cannot write %s: %s", tmp, strerror(e));
  } else if (rename(tmp, path) != 0) {
    e = errno;
    jg_error_set(err, JG_EIO, -1, "cannot rename %s to %s: %s", tmp, path, strerror(e));
  }
  if (e != 0) unlink(tmp);
  adl_tmp_untrack(slot);
  free(tmp);
  return e != 0 ? JG_EIO : JG_OK;
}

/** One line of a CSV being read. */
typedef struct csv_line {
  char text[CSV_MAX_LINE + 1]; /* without the newline and a final \r */
  size_t len;
  bool too_long; /* more than CSV_MAX_LINE characters (text holds the first ones) */
  bool nul;      /* holds a NUL byte */
} csv_line;

/** Reads the next line of `f` into `l`; false at the end of the file (or on a read error: check
 *  ferror). A last line without a newline counts as a line. */
static bool csv_next_line(FILE *f, csv_line *l) {
  l->len = 0;
  l->too_long = l->nul = false;
  bool any = false;
  for (int c; (c = getc(f)) != EOF;) {
    any = true;
    if (c == '\n') break;
    if (c == '\0') l->nul = true;
    if (l->len < CSV_MAX_LINE) {
      l->text[l->len++] = (char)c;
    } else {
      l->too_long = true;
    }
  }
  if (!l->too_long && l->len > 0 && l->text[l->len - 1] == '\r') l->len--;
  l->text[l->len] = '\0';
  return any;
}

/** `s` made printable for a message into buf: control bytes as '?', cut to 40 bytes ("..."). */
static void printable(const char *s, char *buf, size_t size) {
  size_t i = 0;
  for (; s[i] != '\0' && i < 40 && i + 4 < size; i++) {
    const unsigned char c = (unsigned char)s[i];
    buf[i] = c < 0x20 || c == 0x7f ? '?' : (char)c;
  }
  if (s[i] != '\0' && i + 4 <= size) {
    memcpy(buf + i, "...", 3);
    i += 3;
  }
  buf[i] = '\0';
}

/** Parses a row "x,y" (spaces or tabs around either number allowed) into two finite numbers. */
static bool csv_parse_row(const char *s, double *x, double *y) {
  char *end = NULL;
  *x = strtod(s, &end);
  if (end == s) return false;
  while (*end == ' ' || *end == '\t') end++;
  if (*end != ',') return false;
  s = end + 1;
  *y = strtod(s, &end);
  if (end == s) return false;
  while (*end == ' ' || *end == '\t') end++;
  return *end == '\0' && isfinite(*x) && isfinite(*y) && *y >= 0;
}

/** Appends (x, y) to `c`, growing its arrays (capacity *cap); false when out of memory. */
static bool csv_append(adl_csv *c, int64_t *cap, double x, double y) {
  if (c->n == *cap) {
    const int64_t ncap = *cap == 0 ? 128 : 2 * *cap;
    double *nx = realloc(c->x, (size_t)ncap * sizeof(double));
    if (nx == NULL) return false;
    c->x = nx;
    double *ny = realloc(c->y, (size_t)ncap * sizeof(double));
    if (ny == NULL) return false;
    c->y = ny;
    *cap = ncap;
  }
  c->x[c->n] = x;
  c->y[c->n] = y;
  c->n++;
  return true;
}

/** The body of adl_read_csv over the open file `f`: fills `out` (freed by the caller on error). */
static jg_status csv_read(FILE *f, const char *path, adl_csv *out, jg_error *err) {
  csv_line l;
  int64_t line = 0, cap = 0, blank = 0; /* blank: the first empty line after the header */
  char shown[64], prev[64], cur[64];
  while (csv_next_line(f, &l)) {
    line++;
    if (l.nul) {
      return jg_error_set(err, JG_ECORRUPT, line,
                          "%s, line %" PRId64 ": a NUL byte (binary data, not a histogram CSV)",
                          path, line);
    }
    if (l.too_long) {
      return jg_error_set(err, JG_ECORRUPT, line,
                          "%s, line %" PRId64 ": longer than %d characters (not a histogram CSV)",
                          path, line, CSV_MAX_LINE);
    }
    if (line == 1) {
      /* a UTF-8 byte order mark before the header is allowed */
      const char *hdr = strncmp(l.text, "\xEF\xBB\xBF", 3) == 0 ? l.text + 3 : l.text;
      if (strcmp(hdr, "x,y") != 0) {
        printable(l.text, shown, sizeof shown);
        return jg_error_set(err, JG_ECORRUPT, line,
                            "%s, line 1: the header is '%s', not x,y (not a histogram CSV)", path,
                            shown);
      }
      continue;
    }
    if (l.len == 0) {
      if (blank == 0) blank = line;
      continue;
    }
    if (blank != 0) {
      return jg_error_set(err, JG_ECORRUPT, blank,
                          "%s, line %" PRId64 ": an empty line inside the table", path, blank);
    }
    double x, y;
    if (!csv_parse_row(l.text, &x, &y)) {
      printable(l.text, shown, sizeof shown);
      return jg_error_set(err, JG_ECORRUPT, line,
                          "%s, line %" PRId64
                          ": '%s' is not a row x,y of two finite numbers, y >= 0",
                          path, line, shown);
    }
    if (out->n > 0 && !(x > out->x[out->n - 1])) {
      format_x(x, cur, sizeof cur);
      format_x(out->x[out->n - 1], prev, sizeof prev);
      return jg_error_set(err, JG_ECORRUPT, line,
                          "%s, line %" PRId64
                          ": x = %s after x = %s (rows must be in increasing x)",
                          path, line, cur, prev);
    }
    if (out->n == CSV_MAX_ROWS) {
      return jg_error_set(err, JG_ECORRUPT, line,
                          "%s, line %" PRId64 ": more than %" PRId64 " rows (not a histogram CSV)",
                          path, line, CSV_MAX_ROWS);
    }
    if (!csv_append(out, &cap, x, y)) {
      return jg_error_set(err, JG_ENOMEM, line, "out of memory reading %s", path);
    }
  }
  if (ferror(f)) {
    const int e = errno;
    return jg_error_set(err, JG_EIO, -1, "cannot read %s: %s", path, strerror(e));
  }
  if (line == 0) {
    return jg_error_set(err, JG_ECORRUPT, 1,
                        "%s, line 1: the file is empty (no header x,y; not a histogram CSV)", path);
  }
  return JG_OK;
}

/** Reads the reference CSV at `path` into `out` (contract in adl.h). */
jg_status adl_read_csv(const char *path, adl_csv *out, jg_error *err) {
  if (out != NULL) memset(out, 0, sizeof *out);
  if (path == NULL || out == NULL) {
    return jg_error_set(err, JG_EINVAL, -1, "adl_read_csv: NULL %s", path == NULL ? "path" : "out");
  }
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    const int e = errno;
    return jg_error_set(err, JG_EIO, -1, "cannot open %s: %s", path, strerror(e));
  }
  errno = 0;
  const jg_status st = csv_read(f, path, out, err);
  fclose(f);
  if (st != JG_OK) adl_csv_free(out);
  return st;
}

/** Frees `c`'s arrays and zeroes it (NULL allowed). */
void adl_csv_free(adl_csv *c) {
  if (c == NULL) return;
  free(c->x);
  free(c->y);
  memset(c, 0, sizeof *c);
}

/** One line of adl_compare's report for the bin at `x`: counts `here` and `there`. */
static void report_line(FILE *report, double x, double here, double there) {
  char xs[64], a[64], b[64];
  format_x(x, xs, sizeof xs);
  format_y(here, a, sizeof a);
  format_y(there, b, sizeof b);
  fprintf(report, "  x=%s: %s here, %s in the reference\n", xs, a, b);
}

/** Counts (and reports) the bins where `h` and `ref` differ, merging both in increasing x
 *  (contract in adl.h). */
int64_t adl_compare(const jg_hist1d *h, const adl_csv *ref, FILE *report, int max_lines) {
  if (h == NULL || ref == NULL || (ref->n > 0 && (ref->x == NULL || ref->y == NULL)) ||
      !hist_check(h, "adl_compare", NULL)) {
    return -1;
  }
  const double tol = 1e-9 * (h->hi - h->lo);
  const int64_t nk = h->n_bins + 2;
  int64_t k = 0, j = 0, ndiff = 0;
  for (;;) {
    while (k < nk && h->counts[k] == 0) k++;
    if (k == nk && j == ref->n) break;
    double x, here = 0, there = 0;
    const double xk = k < nk ? bin_centre(h, k) : 0;
    if (k < nk && j < ref->n && fabs(xk - ref->x[j]) <= tol) {
      x = xk;
      here = h->counts[k++];
      there = ref->y[j++];
    } else if (k < nk && (j == ref->n || xk < ref->x[j])) {
      x = xk;
      here = h->counts[k++];
    } else {
      x = ref->x[j];
      there = ref->y[j++];
    }
    if (here == there) continue;
    ndiff++;
    if (report != NULL && ndiff <= max_lines) report_line(report, x, here, there);
  }
  if (report != NULL && ndiff > (max_lines > 0 ? max_lines : 0)) {
    fprintf(report, "  ... and %" PRId64 " more\n", ndiff - (max_lines > 0 ? max_lines : 0));
  }
  return ndiff;
}

/* ------------------------------------------------------------------------------------------ */
/* Plots                                                                                       */
/* ------------------------------------------------------------------------------------------ */

#ifndef JG_HAVE_PLPLOT

/** A build without PLplot draws no plots. */
bool adl_plot_available(void) {
  return false;
}

/** A build without PLplot: JG_ENOTSUP naming the packages (after the NULL checks). */
jg_status adl_plot(const jg_hist1d *h, const adl_plot_info *info, const char *png_path,
                   const char *svg_path, jg_error *err) {
  (void)png_path;
  (void)svg_path;
  if (h == NULL || info == NULL) {
    return jg_error_set(err, JG_EINVAL, -1, "adl_plot: NULL %s", h == NULL ? "histogram" : "info");
  }
  return jg_error_set(err, JG_ENOTSUP, -1,
                      "this build has no PLplot (install libplplot-dev and plplot-driver-cairo, "
                      "then rebuild)");
}

#else /* JG_HAVE_PLPLOT */

/* PLplot's devices: PNG through cairo (plplot-driver-cairo), SVG through PLplot's own svg
 * driver (in the library's package), which keeps text as text. */
#define PNG_DEVICE "pngcairo"
#define SVG_DEVICE "svg"

/* ---- keeping PLplot quiet and alive ------------------------------------------------------ */

/** Where PLplot's exit handler jumps (NULL: not inside a guarded call). */
static jmp_buf *pl_jump;
/** The first error PLplot reported (abort or exit handler) in the current guarded call. */
static char pl_message[256];
/** PLplot failed in a way its stream could not be ended after: no more plots this process. */
static bool pl_broken;

/** PLplot's abort handler: PLplot gave up an operation and carries on; the message is kept. */
static void pl_on_abort(const char *msg) {
  if (pl_message[0] == '\0') snprintf(pl_message, sizeof pl_message, "%s", msg);
}

/** PLplot's exit handler: PLplot would now print, end every stream and exit(); instead the
 *  message is kept and control jumps back to the guarded call. */
static int pl_on_exit(const char *msg) {
  if (pl_message[0] == '\0') snprintf(pl_message, sizeof pl_message, "%s", msg);
  if (pl_jump != NULL) longjmp(*pl_jump, 1);
  return 1; /* not reached: PLplot runs only inside guarded calls */
}

/** Runs fn(arg) with PLplot's handlers installed; false when PLplot called its exit handler
 *  (the jump back) or aborted an operation: pl_message says why. */
static bool pl_guarded(void (*fn)(void *), void *arg) {
  jmp_buf here;
  pl_message[0] = '\0';
  plsabort(pl_on_abort);
  plsexit(pl_on_exit);
  if (setjmp(here) != 0) {
    pl_jump = NULL;
    return false;
  }
  pl_jump = &here;
  fn(arg);
  pl_jump = NULL;
  return pl_message[0] == '\0';
}

/** While PLplot runs, the process's stdout and stderr go to a temporary file. */
typedef struct quiet {
  FILE *sink;   /* the temporary file (NULL: /dev/null, or no redirection) */
  int saved[2]; /* descriptors 1 and 2 as they were (-1: not redirected) */
} quiet;

/** Points descriptors 1 and 2 at a new temporary file (or /dev/null when none can be made). */
static void quiet_begin(quiet *q) {
  fflush(stdout);
  fflush(stderr);
  q->sink = tmpfile();
  const int target = q->sink != NULL ? fileno(q->sink) : open("/dev/null", O_WRONLY | O_CLOEXEC);
  for (int i = 0; i < 2; i++) {
    q->saved[i] = target >= 0 ? fcntl(i + 1, F_DUPFD_CLOEXEC, 3) : -1;
    if (q->saved[i] >= 0 && dup2(target, i + 1) < 0) {
      close(q->saved[i]);
      q->saved[i] = -1;
    }
  }
  if (q->sink == NULL && target >= 0) close(target);
}

/** Restores descriptors 1 and 2; copies the last non-empty line PLplot (or a library under it)
 *  printed into `last` (empty when none) and drops the rest. */
static void quiet_end(quiet *q, char *last, size_t size) {
  fflush(stdout);
  fflush(stderr);
  for (int i = 0; i < 2; i++) {
    if (q->saved[i] < 0) continue;
    dup2(q->saved[i], i + 1);
    close(q->saved[i]);
  }
  last[0] = '\0';
  if (q->sink == NULL) return;
  rewind(q->sink);
  char buf[256];
  while (fgets(buf, sizeof buf, q->sink) != NULL) {
    size_t n = strlen(buf);
    while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r' || buf[n - 1] == ' ')) buf[--n] = 0;
    if (n > 0) snprintf(last, size, "%s", buf);
  }
  fclose(q->sink);
}

/* ---- one PLplot stream to one file ------------------------------------------------------- */

/** What a guarded PLplot call draws: `device` into `file` (handed to PLplot, which closes it
 *  when the stream ends), the histogram `h` with `info`'s labels; h NULL draws an empty page
 *  (the probe). */
typedef struct pl_job {
  const char *device;
  FILE *file;
  const jg_hist1d *h;
  const adl_plot_info *info;
  PLFLT *xs, *ys; /* 2 n_bins + 2 points of the step outline */
  bool ending;    /* inside plend1 */
  bool ended;     /* the stream is ended and the file closed */
} pl_job;

/** The number of characters PLplot draws for the PLplot text `s`: escapes that move or change
 *  the font ("#d", "#u", "#fi", ...) count 0, a Greek letter ("#gS"), "##", a Unicode or
 *  Hershey escape ("#[0x3b7]", "#(229)") one, a UTF-8 character one. */
static int pl_text_chars(const char *s) {
  int n = 0;
  while (*s != '\0') {
    if (*s == '#' && s[1] != '\0') {
      const char c = s[1];
      if (c == '[' || c == '(') {
        const char *end = strchr(s, c == '[' ? ']' : ')');
        s = end != NULL ? end + 1 : s + 2;
        n++;
      } else if (c == 'g' || c == 'f') {
        n += c == 'g';
        s += s[2] != '\0' ? 3 : 2;
      } else {
        n += c == '#';
        s += 2;
      }
    } else {
      n += ((unsigned char)*s & 0xc0) != 0x80;
      s++;
    }
  }
  return n;
}

/** Writes the PLplot text `text` centred above the frame at `disp` character heights of scale
 *  `scale`, shrunk (down to 0.6 of it) when it would not fit between the page's edges: an
 *  average character of the cairo and svg devices' sans-serif font is taken as 0.72 of the
 *  character height wide (measured: about 0.68). */
static void pl_title(const char *text, PLFLT disp, PLFLT scale) {
  PLFLT xmin, xmax, ymin, ymax, vx0, vx1, vy0, vy1, def, ht;
  plgspa(&xmin, &xmax, &ymin, &ymax); /* the page, in mm */
  plgvpd(&vx0, &vx1, &vy0, &vy1);     /* the frame, as fractions of it */
  plschr(0, scale);
  plgchr(&def, &ht);
  const PLFLT centre = (vx0 + vx1) / 2, room = centre < 1 - centre ? centre : 1 - centre;
  const PLFLT width = 0.72 * ht * (PLFLT)pl_text_chars(text);
  const PLFLT avail = 0.97 * 2 * room * (xmax - xmin);
  PLFLT fit = width > avail ? avail / width : 1;
  if (fit < 0.6) fit = 0.6;
  plschr(0, scale * fit);
  plmtex("t", disp / fit, 0.5, 0.5, text);
  plschr(0, 1.0);
}

/** Draws the job's histogram on the current stream (between plinit and plend1). */
static void pl_draw_hist(const pl_job *j) {
  const jg_hist1d *h = j->h;
  const int64_t n = h->n_bins;
  const double w = (h->hi - h->lo) / (double)n;
  double max = 0, minpos = INFINITY;
  for (int64_t k = 1; k <= n; k++) {
    const double c = h->counts[k];
    if (c > max) max = c;
    if (c > 0 && c < minpos) minpos = c;
  }
  /* a log scale when the counts span two decades or more */
  const bool logy = max > 0 && max >= 100 * minpos;
  double ylo = 0, yhi = max > 0 ? 1.12 * max : 1;
  if (logy) {
    ylo = floor(log10(minpos) - 0.3);
    yhi = log10(max) + 0.12 * (log10(max) - ylo);
  }
  /* the outline: up from the axis at lo, along each bin, down to the axis at hi */
  PLINT np = 0;
  j->xs[np] = h->lo;
  j->ys[np++] = ylo;
  for (int64_t k = 1; k <= n; k++) {
    const double c = h->counts[k];
    const double y = logy ? (c > 0 ? log10(c) : ylo) : (c > 0 ? c : 0);
    j->xs[np] = h->lo + (double)(k - 1) * w;
    j->ys[np++] = y;
    j->xs[np] = k == n ? h->hi : h->lo + (double)k * w;
    j->ys[np++] = y;
  }
  j->xs[np] = h->hi;
  j->ys[np++] = ylo;

  /* The y axis's numbers are integers up to 8 digits (no "x10^5"); the frame's left edge and the
   * y label leave room for the widest, about 0.7 character heights per character. */
  int ychars = 4; /* log: "10" and a small exponent */
  if (!logy) {
    ychars = yhi < 20 ? 3 : 0; /* "0.5" */
    for (double v = yhi; v >= 1; v /= 10) ychars++;
  }
  const PLFLT ydisp = 1.7 + 0.7 * ychars;
  PLFLT xmin, xmax, ymin, ymax, def, ht;
  plsyax(8, 0);
  pladv(0);
  plgspa(&xmin, &xmax, &ymin, &ymax); /* the page, in mm (once advanced to) */
  plgchr(&def, &ht);
  plvpor((ydisp + 1.0) * ht / (xmax - xmin), 0.965, 0.12, 0.875);
  plwind(h->lo, h->hi, ylo, yhi);
  plcol0(3);
  plfill(np, j->xs, j->ys);
  plcol0(1);
  plwidth(1.0);
  plbox("bcnst", 0, 0, logy ? "bcnstlv" : "bcnstv", 0, 0);
  plcol0(2);
  plwidth(2.0);
  plline(np, j->xs, j->ys);
  plwidth(1.0);
  plcol0(1);

  const adl_plot_info *info = j->info;
  pl_title(info->title != NULL ? info->title : "", 2.3, 1.1);
  plmtex("b", 3.0, 0.5, 0.5, info->xlabel != NULL ? info->xlabel : "");
  plmtex("l", ydisp, 0.5, 0.5, info->ylabel != NULL ? info->ylabel : "");
  char stats[160], u[32], o[32];
  format_y(h->counts[0], u, sizeof u);
  format_y(h->counts[n + 1], o, sizeof o);
  int len = snprintf(stats, sizeof stats, "entries %" PRId64 "    underflow %s    overflow %s",
                     h->entries, u, o);
  if (h->nan > 0 && len > 0 && (size_t)len < sizeof stats) {
    snprintf(stats + len, sizeof stats - (size_t)len, "    NaN %" PRId64, h->nan);
  }
  plschr(0, 0.8);
  plmtex("t", 0.7, 1.0, 1.0, stats);
  plschr(0, 1.0);
}

/** Ends the current stream. PLplot closes the job's file when its driver took it; when it did
 *  not (plinit failed first), it is closed here. */
static void pl_end_stream(pl_job *j) {
  PLINT level = 0;
  plglevel(&level);
  FILE *of = NULL;
  plgfile(&of);
  if (level == 0 && of == j->file && j->file != NULL) {
    fclose(j->file);
    plsfile(NULL);
  }
  j->ending = true;
  plend1();
  j->ending = false;
  j->ended = true;
  j->file = NULL;
}

/** The guarded body: one stream on the job's device and file, drawn, ended. */
static void pl_run(void *arg) {
  pl_job *j = arg;
  j->ending = j->ended = false;
  plsdev(j->device);
  plsfile(j->file);
  plspage(0, 0, 800, 600, 0, 0);
  plscol0(0, 255, 255, 255); /* background */
  plscol0(1, 0, 0, 0);       /* axes and text */
  plscol0(2, 31, 90, 160);   /* the histogram's outline */
  plscol0(3, 190, 212, 235); /* its fill */
  plinit();
  if (pl_message[0] == '\0' && j->h != NULL) pl_draw_hist(j);
  pl_end_stream(j);
}

/** The guarded clean-up after PLplot jumped out of pl_run: the stream is ended and the file
 *  closed. When the jump came from inside plend1, the stream's state is unknown: PLplot is not
 *  used again in this process. */
static void pl_cleanup(void *arg) {
  pl_job *j = arg;
  if (j->ended) return;
  if (j->ending) {
    pl_broken = true;
    return;
  }
  pl_end_stream(j);
}

/** Runs `j` quietly; on failure fills `why` with PLplot's message (or the last line it printed). */
static bool pl_run_quietly(pl_job *j, char *why, size_t size) {
  quiet q;
  quiet_begin(&q);
  bool ok = pl_guarded(pl_run, j);
  char first[sizeof pl_message];
  snprintf(first, sizeof first, "%s", pl_message);
  if (!ok && !pl_guarded(pl_cleanup, j)) pl_broken = true;
  char printed[256];
  quiet_end(&q, printed, sizeof printed);
  if (!ok) {
    snprintf(why, size, "%s", first[0] != '\0' ? first : printed[0] != '\0' ? printed : "failed");
  }
  return ok;
}

/* ---- whether the devices are there ------------------------------------------------------- */

/** Probe result: 0 not yet probed, 1 available, -1 not (the reason in pl_unavailable). */
static int pl_probed;
/** Why plots are not available, naming the package to install (adl_plot's JG_ENOTSUP). */
static char pl_unavailable[384];

/** Lists PLplot's devices into *found: bit 0 pngcairo, bit 1 svg (guarded body). */
static void pl_list_devices(void *arg) {
  int *found = arg;
  const char *menus[128], *names[128];
  const char **m = menus, **d = names;
  int n = 128;
  plgDevs(&m, &d, &n);
  for (int i = 0; i < n; i++) {
    if (strcmp(d[i], PNG_DEVICE) == 0) *found |= 1;
    if (strcmp(d[i], SVG_DEVICE) == 0) *found |= 2;
  }
}

/** Whether `device` loads and draws: an empty page into /dev/null. */
static bool pl_device_works(const char *device, char *why, size_t size) {
  FILE *f = fopen("/dev/null", "wb");
  if (f == NULL) {
    snprintf(why, size, "cannot open /dev/null");
    return false;
  }
  pl_job j = {.device = device, .file = f};
  return pl_run_quietly(&j, why, size);
}

/** Finds out (once) whether PLplot's two devices are listed and load. */
static void pl_probe(void) {
  if (pl_probed != 0) return;
  int found = 0;
  quiet q;
  quiet_begin(&q);
  const bool listed = pl_guarded(pl_list_devices, &found);
  char printed[256];
  quiet_end(&q, printed, sizeof printed);
  pl_probed = -1;
  char why[256];
  if (!listed) {
    snprintf(pl_unavailable, sizeof pl_unavailable,
             "PLplot cannot list its devices: %s (reinstall libplplot-dev and "
             "plplot-driver-cairo)",
             pl_message[0] != '\0' ? pl_message : printed);
  } else if ((found & 1) == 0) {
    snprintf(pl_unavailable, sizeof pl_unavailable,
             "PLplot has no " PNG_DEVICE " device here (install plplot-driver-cairo)");
  } else if ((found & 2) == 0) {
    snprintf(pl_unavailable, sizeof pl_unavailable,
             "PLplot has no " SVG_DEVICE " device here (reinstall libplplot-dev)");
  } else if (!pl_device_works(PNG_DEVICE, why, sizeof why)) {
    snprintf(pl_unavailable, sizeof pl_unavailable,
             "PLplot's " PNG_DEVICE " device does not load: %s (reinstall plplot-driver-cairo)",
             why);
  } else if (!pl_device_works(SVG_DEVICE, why, sizeof why)) {
    snprintf(pl_unavailable, sizeof pl_unavailable,
             "PLplot's " SVG_DEVICE " device does not load: %s (reinstall libplplot-dev)", why);
  } else {
    pl_probed = 1;
  }
}

/** Probes PLplot's devices on the first call (contract in adl.h). */
bool adl_plot_available(void) {
  pl_probe();
  return pl_probed == 1 && !pl_broken;
}

/* ---- the plots ----------------------------------------------------------------------------- */

/** Whether the file at `path` is a complete PNG (signature, IEND last) or SVG ("<svg" near the
 *  start, "</svg>" at the end); the file is synced to disk when it is. */
static bool output_complete(const char *path, bool png) {
  const int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st;
  bool ok = fstat(fd, &st) == 0 && st.st_size >= 64;
  unsigned char head[512], tail[16];
  const size_t nhead = ok && st.st_size < 512 ? (size_t)st.st_size : sizeof head;
  ok = ok && pread(fd, head, nhead, 0) == (ssize_t)nhead &&
       pread(fd, tail, sizeof tail, st.st_size - (off_t)sizeof tail) == (ssize_t)sizeof tail;
  if (ok && png) {
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    static const unsigned char iend[12] = {0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xae, 0x42, 0x60, 0x82};
    ok = memcmp(head, sig, 8) == 0 && memcmp(tail + 4, iend, 12) == 0;
  } else if (ok) {
    size_t end = sizeof tail;
    while (end > 0 && (tail[end - 1] == '\n' || tail[end - 1] == ' ' || tail[end - 1] == '\r')) {
      end--;
    }
    bool svg = false;
    for (size_t i = 0; i + 4 <= nhead && !svg; i++) svg = memcmp(head + i, "<svg", 4) == 0;
    ok = svg && end >= 6 && memcmp(tail + end - 6, "</svg>", 6) == 0;
  }
  ok = ok && fsync(fd) == 0;
  close(fd);
  return ok;
}

/** Draws the job's histogram on `device` into `path` (through PATH.tmp). */
static jg_status plot_one(pl_job *j, const char *device, const char *path, jg_error *err) {
  char *tmp = tmp_name(path);
  if (tmp == NULL) return jg_error_set(err, JG_ENOMEM, -1, "out of memory drawing %s", path);
  const int fd = tmp_create(tmp);
  FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
  if (f == NULL) {
    const int e = errno;
    if (fd >= 0) close(fd);
    jg_error_set(err, JG_EIO, -1, "cannot create %s: %s", tmp, strerror(e));
    if (fd >= 0) unlink(tmp);
    free(tmp);
    return JG_EIO;
  }
  const int slot = adl_tmp_track(tmp); /* removed if a signal ends the run */
  j->device = device;
  j->file = f; /* PLplot closes it */
  char why[256];
  jg_status st = JG_OK;
  if (!pl_run_quietly(j, why, sizeof why)) {
    st = jg_error_set(err, JG_EIO, -1, "cannot draw %s: PLplot (%s device): %s", path, device, why);
  } else if (!output_complete(tmp, strcmp(device, PNG_DEVICE) == 0)) {
    st = jg_error_set(err, JG_EIO, -1,
                      "cannot draw %s: PLplot's %s device left %s incomplete (disk full?)", path,
                      device, tmp);
  } else if (rename(tmp, path) != 0) {
    const int e = errno;
    st = jg_error_set(err, JG_EIO, -1, "cannot rename %s to %s: %s", tmp, path, strerror(e));
  }
  if (st != JG_OK) unlink(tmp);
  adl_tmp_untrack(slot);
  free(tmp);
  return st;
}

/** Checks, then draws `h` into the PNG and the SVG in turn (contract in adl.h). */
jg_status adl_plot(const jg_hist1d *h, const adl_plot_info *info, const char *png_path,
                   const char *svg_path, jg_error *err) {
  if (h == NULL || info == NULL) {
    return jg_error_set(err, JG_EINVAL, -1, "adl_plot: NULL %s", h == NULL ? "histogram" : "info");
  }
  if (!adl_plot_available()) {
    return jg_error_set(err, JG_ENOTSUP, -1, "%s",
                        pl_broken ? "PLplot failed earlier in this process and cannot be "
                                    "used again (see the first error)"
                                  : pl_unavailable);
  }
  if (!hist_check(h, "adl_plot", err)) return JG_EINVAL;
  if (h->n_bins > PLOT_MAX_BINS) {
    return jg_error_set(err, JG_EINVAL, -1, "adl_plot: %" PRId64 " bins; at most %d are drawn",
                        h->n_bins, PLOT_MAX_BINS);
  }
  for (int64_t k = 0; k < h->n_bins + 2; k++) {
    if (!isfinite(h->counts[k])) {
      return jg_error_set(err, JG_EINVAL, k, "adl_plot: the count of bin %" PRId64 " is %g", k,
                          h->counts[k]);
    }
  }
  if (png_path == NULL && svg_path == NULL) return JG_OK;
  const size_t np = 2 * (size_t)h->n_bins + 2;
  pl_job j = {
      .h = h, .info = info, .xs = malloc(np * sizeof(PLFLT)), .ys = malloc(np * sizeof(PLFLT))};
  jg_status st = JG_OK;
  if (j.xs == NULL || j.ys == NULL) {
    st = jg_error_set(err, JG_ENOMEM, -1, "out of memory drawing %s",
                      png_path != NULL ? png_path : svg_path);
  }
  if (st == JG_OK && png_path != NULL) st = plot_one(&j, PNG_DEVICE, png_path, err);
  if (st == JG_OK && svg_path != NULL) st = plot_one(&j, SVG_DEVICE, svg_path, err);
  free(j.xs);
  free(j.ys);
  return st;
}

#endif /* JG_HAVE_PLPLOT */
