/* fast_glt.h - the header-only build of GLT on weft (see <glt.h> for the API).
 *
 * Compile with -DFASTGLT (or include this header directly) and link libweft only
 * (`pkg-config --cflags --libs weft`): every glt_* function is a static inline definition
 * over abt.h, so a call costs what the abt.h call costs plus GLT's few documented checks.
 *
 * Several translation units of one program may include it.  The state GLT needs between
 * calls (the team, the per-OS-thread pool cache, the event table) is defined here as weak
 * symbols: each translation unit emits a weak definition and the linker keeps one, so
 * all of them share it (the original fast_glt.h defined `main_team` strongly, which fails
 * to link with -fno-common, GCC 10's default).  The weak symbols have default visibility;
 * a program made of several shared objects that each include this header gets one state
 * per object unless they export it to each other: use the library build there.
 */
#ifndef FAST_GLT_H_INCLUDED
#define FAST_GLT_H_INCLUDED

#ifndef FASTGLT
#define FASTGLT 1
#endif

#include <glt.h>

#if defined(__cplusplus)
extern "C" {
#endif

/* The shared state: weak definitions, one copy per linked module. */
#define GLT_FN          static inline
#define GLT_STATE_ATTR_ __attribute__((weak))
#define GLT_TEAM_ATTR_  __attribute__((weak))
#include <glt_impl.h>

#if defined(__cplusplus)
}
#endif

#endif /* FAST_GLT_H_INCLUDED */
