/* list_anyall_cuda.cu: CUDA implementation of kernel "list_anyall" (list_anyall.json). One warp
 * per list, warps looping over the lists grid-stride (JGK_FOR_WARP): each lane tests the
 * elements at lane, lane + 32, ... (!= 0, so a NaN is true), stopping at the first that decides
 * (a nonzero for any, a zero for all), and jgk_warp_reduce combines the lanes with or (any) or
 * and (all); lane 0 writes out[i]: false for an empty any, true for an empty all, as on the host.
 * A bad list (jgk_list_bad) goes to the error word through lane 0 and is skipped. */

struct any_or_all {
  bool all;
  __device__ bool operator()(bool a, bool b) const {
    return all ? (a && b) : (a || b);
  }
};

template <typename I, typename T>
__global__ void jgk_list_anyall(int64_t n, const I *__restrict__ starts,
                                const I *__restrict__ stops, int64_t m,
                                const T *__restrict__ content, int64_t op, bool *__restrict__ out,
                                unsigned long long *error_word) {
  const jgk_warp w = jgk_warp_self();
  any_or_all f;
  f.all = op != 0;
  JGK_FOR_WARP(i, n, w) {
    const int64_t a = (int64_t)starts[i], b = (int64_t)stops[i];
    if (jgk_list_bad(a, b, m)) {
      if (w.lane == 0) jgk_fail(error_word, i, JGK_LIST_ANYALL_BAD_RANGE);
      continue;
    }
    bool r = f.all;
    for (int64_t j = a + w.lane; j < b; j += w.width) {
      if ((content[j] != 0) != f.all) {
        r = !f.all;
        break;
      }
    }
    r = jgk_warp_reduce(r, f, w);
    if (w.lane == 0) out[i] = r;
  }
}
