/* src/arch/assert.c - the failure path of WEFT_ASSERT (arch/compiler.h). */
#include "arch/compiler.h"

void weft_assert_fail(const char *expr, const char *file, int line, const char *func)
{
    fprintf(stderr,
            "weft: internal assertion failed: %s (%s:%d, %s)\n"
            "weft: this is a bug in weft; please report it with this message.\n",
            expr, file, line, func);
    fflush(stderr);
    abort();
}
