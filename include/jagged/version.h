/* version.h: compile-time and run-time version of jagged.
 *
 * ABI policy: within one major version, structs that start with a `version` field only grow at
 * their reserved tail, and status numbers are never reused. */
#ifndef JAGGED_VERSION_H
#define JAGGED_VERSION_H

#include "jagged/export.h"

#define JG_VERSION_MAJOR 0
#define JG_VERSION_MINOR 1
#define JG_VERSION_PATCH 0
/** One integer for comparisons: major * 10000 + minor * 100 + patch. */
#define JG_VERSION_NUMBER (JG_VERSION_MAJOR * 10000 + JG_VERSION_MINOR * 100 + JG_VERSION_PATCH)
#define JG_VERSION_STRING "0.1.0"

#ifdef __cplusplus
extern "C" {
#endif

/** The version number of the linked library (JG_VERSION_NUMBER it was built with). A program
 *  compares it with the JG_VERSION_NUMBER of the header it was compiled against. Never fails. */
JG_API int jg_version(void);

/** The version string of the linked library, e.g. "0.1.0". Static storage; never NULL. */
JG_API const char *jg_version_string(void);

#ifdef __cplusplus
}
#endif

#endif /* JAGGED_VERSION_H */
