/* src/core/api/thread_attr.c - ABT_thread_attr_*: stack (size or user memory), migratability
 * and the migration callback of ULTs to be created. */
#include <stdlib.h>

#include "core/api/thread_attr.h"

int weft_thread_attr_new(struct weft_thread_attr **out)
{
    struct weft_thread_attr *a = malloc(sizeof(*a));
    if (!a)
        return ABT_ERR_MEM;
    a->stacksize = weft_initialized() ? weft_g.cfg.thread_stacksize : 16384;
    a->stackaddr = NULL;
    a->migratable = true;
    a->cb = NULL;
    a->cb_arg = NULL;
    a->fork = 0;
    a->fork_flags = 0;
    weft_thread_attr_reshape(a);
    *out = a;
    return ABT_SUCCESS;
}

WEFT_API int ABT_thread_attr_create(ABT_thread_attr *newattr)
{
    if (!newattr)
        return ABT_ERR_INV_ARG;
    if (!weft_initialized()) {
        *newattr = ABT_THREAD_ATTR_NULL;
        return ABT_ERR_UNINITIALIZED;
    }
    struct weft_thread_attr *a;
    int r = weft_thread_attr_new(&a);
    *newattr = r == ABT_SUCCESS ? (ABT_thread_attr)a : ABT_THREAD_ATTR_NULL;
    return r;
}

WEFT_API int ABT_thread_attr_free(ABT_thread_attr *attr)
{
    if (!attr)
        return ABT_ERR_INV_ARG;
    struct weft_thread_attr *a = weft_thread_attr_from(*attr);
    if (!a)
        return ABT_ERR_INV_THREAD_ATTR;
    free(a);
    *attr = ABT_THREAD_ATTR_NULL;
    return ABT_SUCCESS;
}

WEFT_API int ABT_thread_attr_set_stack(ABT_thread_attr attr, void *stackaddr, size_t stacksize)
{
    struct weft_thread_attr *a = weft_thread_attr_from(attr);
    if (!a)
        return ABT_ERR_INV_THREAD_ATTR;
    /* a user stack must be 8-byte aligned and large enough to hold a frame; no size
     * may exceed WEFT_STACKSIZE_MAX */
    if ((stackaddr && (((uintptr_t)stackaddr & 7) || stacksize < 512)) ||
        stacksize > WEFT_STACKSIZE_MAX)
        return ABT_ERR_INV_ARG;
    a->stackaddr = stackaddr;
    a->stacksize = stacksize;
    weft_thread_attr_reshape(a);
    return ABT_SUCCESS;
}

WEFT_API int ABT_thread_attr_get_stack(ABT_thread_attr attr, void **stackaddr, size_t *stacksize)
{
    struct weft_thread_attr *a = weft_thread_attr_from(attr);
    if (!a)
        return ABT_ERR_INV_THREAD_ATTR;
    if (!stackaddr || !stacksize)
        return ABT_ERR_INV_ARG;
    *stackaddr = a->stackaddr;
    *stacksize = a->stacksize;
    return ABT_SUCCESS;
}

WEFT_API int ABT_thread_attr_set_stacksize(ABT_thread_attr attr, size_t stacksize)
{
    struct weft_thread_attr *a = weft_thread_attr_from(attr);
    if (!a)
        return ABT_ERR_INV_THREAD_ATTR;
    if (stacksize < 512 || stacksize > WEFT_STACKSIZE_MAX)
        return ABT_ERR_INV_ARG;
    a->stackaddr = NULL; /* a size alone asks the runtime for the memory */
    a->stacksize = (stacksize + 15) & ~(size_t)15;
    weft_thread_attr_reshape(a);
    return ABT_SUCCESS;
}

WEFT_API int ABT_thread_attr_get_stacksize(ABT_thread_attr attr, size_t *stacksize)
{
    struct weft_thread_attr *a = weft_thread_attr_from(attr);
    if (!a)
        return ABT_ERR_INV_THREAD_ATTR;
    if (!stacksize)
        return ABT_ERR_INV_ARG;
    *stacksize = a->stacksize;
    return ABT_SUCCESS;
}

WEFT_API int ABT_thread_attr_set_callback(ABT_thread_attr attr, void (*cb_func)(ABT_thread, void *),
                                          void *cb_arg)
{
    struct weft_thread_attr *a = weft_thread_attr_from(attr);
    if (!a)
        return ABT_ERR_INV_THREAD_ATTR;
    a->cb = cb_func;
    a->cb_arg = cb_arg;
    weft_thread_attr_reshape(a);
    return ABT_SUCCESS;
}

WEFT_API int ABT_thread_attr_set_migratable(ABT_thread_attr attr, ABT_bool is_migratable)
{
    struct weft_thread_attr *a = weft_thread_attr_from(attr);
    if (!a)
        return ABT_ERR_INV_THREAD_ATTR;
    a->migratable = is_migratable != ABT_FALSE;
    weft_thread_attr_reshape(a);
    return ABT_SUCCESS;
}
