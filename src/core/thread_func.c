/* src/core/thread_func.c - weft_thread_get_func (weft.h): the function a work unit runs,
 * for a program's own reports (a watchdog callback, a log of what its units do). */
#include "core/handle.h"
#include "core/types.h"
#include <weft.h>

WEFT_API int weft_thread_get_func(ABT_thread thread, void (**func)(void *))
{
    weft_unit *u = weft_unit_from(thread);
    if (!u)
        return ABT_ERR_INV_THREAD;
    if (!func)
        return ABT_ERR_INV_ARG;
    *func = u->fn;
    return ABT_SUCCESS;
}
