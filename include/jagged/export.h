/* export.h: symbol visibility and API annotations for jagged. */
#ifndef JAGGED_EXPORT_H
#define JAGGED_EXPORT_H

#if defined(JG_STATIC_DEFINE)
#define JG_API
#elif defined(_WIN32)
#if defined(JG_BUILDING_LIBRARY)
#define JG_API __declspec(dllexport)
#else
#define JG_API __declspec(dllimport)
#endif
#else
#define JG_API __attribute__((visibility("default")))
#endif

/** Marks a function whose result must be used (a jg_status, an owned pointer). */
#if defined(__GNUC__) || defined(__clang__)
#define JG_NODISCARD __attribute__((warn_unused_result))
#define JG_DEPRECATED(msg) __attribute__((deprecated(msg)))
#else
#define JG_NODISCARD
#define JG_DEPRECATED(msg)
#endif

#endif /* JAGGED_EXPORT_H */
