/* scatter_kept_cpu.c: host reference of kernel "scatter_kept" (scatter_kept.json): entry i is
 * kept when prefix[i+1] - prefix[i] is 1 and then written to out[prefix[i]], which must lie in
 * [0, m); a step other than 0 or 1, or a kept entry outside out, is BAD_PREFIX (JG_EVALUE) at
 * the first such entry. With prefix the exclusive scan of 0/1 flags the kept entries land in
 * order, out[0..prefix[n]) (the compaction step of a mask). On error out is unspecified. */
#include "jgk_scatter_kept.h"

jg_status jgk_scatter_kept_c(int64_t n, int64_t m, const int64_t *prefix, const int64_t *index,
                             int64_t *out, jg_error *err) {
  for (int64_t i = 0; i < n; ++i) {
    const int64_t a = prefix[i];
    const uint64_t d = (uint64_t)prefix[i + 1] - (uint64_t)a;
    if (d > 1u || (d == 1u && (a < 0 || a >= m)))
      return jgk_scatter_kept_error(err, JGK_SCATTER_KEPT_BAD_PREFIX, i);
    if (d == 1u) out[a] = index[i];
  }
  return JG_OK;
}
