/* src/glt/glt.c - libweft-glt, the library build of GLT on weft (include/glt.h).
 *
 * The definitions are those of the header-only build, written once in include/glt_impl.h;
 * here they become the library's exported functions (GLT_FN empty, visibility from the
 * prototypes of glt.h), its state hidden symbols, and main_team an exported variable as
 * in the original.  glt_start/glt_end are the library's load and unload hooks. */
#define GLT_BUILDING_LIBRARY 1
#include <glt.h>

#define GLT_FN
#define GLT_STATE_ATTR_ __attribute__((visibility("hidden")))
#define GLT_TEAM_ATTR_  __attribute__((visibility("default")))
#include <glt_impl.h>

/* The original's constructor/destructor hooks; they do nothing (see glt.h). */
__attribute__((constructor)) static void glt_load_hook(void) { glt_start(); }
__attribute__((destructor)) static void glt_unload_hook(void) { glt_end(); }
