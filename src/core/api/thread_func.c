/* src/core/api/thread_func.c - weft_thread_get_func (weft.h): the function a work unit runs,
 * for a program's own reports (a watchdog callback, a log of what its units do). */
#include "core/handle.h"
#include "core/types.h"
#include <weft.h>

/* fn is written once, before the unit's handle is published; a caller that got the handle
 * by a path ThreadSanitizer does not see (a watchdog report, a shared variable) reads it
 * correctly, so this one read is left uninstrumented. */
__attribute__((noinline, no_sanitize("thread"))) static void (*read_fn(const weft_unit *u))(void *)
{
    return ((const volatile weft_unit *)u)->fn;
}

WEFT_API int weft_thread_get_func(ABT_thread thread, void (**func)(void *))
{
    weft_unit *u = weft_unit_from(thread);
    if (!u)
        return ABT_ERR_INV_THREAD;
    if (!func)
        return ABT_ERR_INV_ARG;
    *func = read_fn(u);
    return ABT_SUCCESS;
}
