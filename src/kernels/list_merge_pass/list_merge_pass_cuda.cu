/* list_merge_pass_cuda.cu: CUDA implementation of kernel "list_merge_pass"
 * (list_merge_pass.json): the same merge as the host's two-finger loop, computed per entry.
 *
 * One thread per entry q < total, grid-stride: a branch-free binary search over offsets finds its
 * list i (the last i with offsets[i] <= q), and its local slot l; l's run r = l / width has a
 * partner run (r ^ 1). The entry's place in the merged pair is its rank in its own run plus the
 * number of partner entries that go before it: for a left-run entry, partner entries strictly
 * before it; for a right-run entry, partner entries not after it (equal keys from the left run go
 * first). Both counts are binary searches in the sorted partner run, with the host's order
 * (merge_before below = JGK_MERGE_BEFORE of list_merge_pass_order.h), so every entry lands where
 * the host's stable merge puts it, and out_perm is identical. Work per thread is O(log n +
 * log width) whatever the list lengths: one list of 2^22 entries uses the whole GPU, as do a
 * million short lists; a sort is ceil(log2(longest list)) launches. Stores are scattered within
 * a pair of runs (they are a permutation of it). */
template <typename T>
struct jgk_merge_key {
  int cls; /* 0 number, 1 NaN, 2 None */
  T val;
};

template <typename T>
__device__ inline jgk_merge_key<T> jgk_merge_key_of(const int64_t *__restrict__ starts,
                                                    const T *__restrict__ content,
                                                    int64_t has_option,
                                                    const int64_t *__restrict__ optindex,
                                                    int64_t i, int64_t l) {
  jgk_merge_key<T> k;
  k.cls = 0;
  k.val = T();
  int64_t g = starts[i] + l;
  if (has_option != 0) {
    g = optindex[g];
    if (g < 0) k.cls = 2;
  }
  if (k.cls == 0) {
    k.val = content[g];
    if (jgk_isnan(k.val)) k.cls = 1;
  }
  return k;
}

template <typename T>
__device__ inline bool jgk_merge_before(const jgk_merge_key<T> &a, const jgk_merge_key<T> &b,
                                        int64_t descending) {
  return a.cls < b.cls ||
         (a.cls == 0 && b.cls == 0 && (descending != 0 ? a.val > b.val : a.val < b.val));
}

template <typename T>
__global__ void jgk_list_merge_pass(int64_t n, const int64_t *__restrict__ starts,
                                    const int64_t *__restrict__ offsets, int64_t total,
                                    int64_t width, const T *__restrict__ content,
                                    int64_t has_option, const int64_t *__restrict__ optindex,
                                    int64_t descending, int64_t global,
                                    const int64_t *__restrict__ in_perm,
                                    int64_t *__restrict__ out_perm) {
  if (n <= 0) return;
  if (width < 1) width = 1;
  JGK_FOR(q, total) {
    int64_t i = 0, span = n;
    while (span > 1) {
      const int64_t half = span >> 1;
      if (offsets[i + half] <= q) i += half;
      span -= half;
    }
    const int64_t base = offsets[i], len = offsets[i + 1] - base;
    const int64_t l = q - base;
    const int64_t r = l / width;
    const int64_t pair = (r & ~(int64_t)1) * width;
    const bool left = (r & 1) == 0;
    const int64_t plo = left ? (r + 1) * width : (r - 1) * width;
    int64_t phi = plo + width;
    if (phi > len) phi = len;
    const int64_t mine = in_perm[q];
    int64_t before = 0;
    if (plo < len) {
      const jgk_merge_key<T> x = jgk_merge_key_of(starts, content, has_option, optindex, i, mine);
      /* Number of partner entries y with (left ? before(y, x) : !before(x, y)): a prefix of the
       * sorted partner run, found by bisection. */
      int64_t lo = plo, hi = phi;
      while (lo < hi) {
        const int64_t mid = lo + ((hi - lo) >> 1);
        const jgk_merge_key<T> y =
            jgk_merge_key_of(starts, content, has_option, optindex, i, in_perm[base + mid]);
        const bool goes_first = left ? jgk_merge_before(y, x, descending)
                                     : !jgk_merge_before(x, y, descending);
        if (goes_first) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      before = lo - plo;
    }
    const int64_t own = l - r * width;
    out_perm[base + pair + own + before] = mine + (global != 0 ? starts[i] : 0);
  }
}
