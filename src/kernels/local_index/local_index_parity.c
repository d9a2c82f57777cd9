/* local_index_parity.c: parity cases of kernel "local_index" (local_index.json): the cases of every
 * kernel that maps lists given as offsets to one int64 per element (jgk_parity_element_cases,
 * jgk_parity.h). */
#include "jgk_local_index.h"
#include "jgk_parity.h"

jg_status jgk_local_index_parity(jg_parity_ctx *ctx, int case_index, jg_kernel_arg *args,
                                 void *user, jg_error *err) {
  (void)user;
  return jgk_parity_element_cases("local_index", ctx, case_index, args, err);
}
