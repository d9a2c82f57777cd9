/* list_parents_parity.c: parity cases of kernel "list_parents" (list_parents.json): the cases of
 * every kernel that maps lists given as offsets to one int64 per element (jgk_parity_element_cases,
 * jgk_parity.h). */
#include "jgk_list_parents.h"
#include "jgk_parity.h"

jg_status jgk_list_parents_parity(jg_parity_ctx *ctx, int case_index, jg_kernel_arg *args,
                                  void *user, jg_error *err) {
  (void)user;
  return jgk_parity_element_cases("list_parents", ctx, case_index, args, err);
}
