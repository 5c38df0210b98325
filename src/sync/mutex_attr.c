/* src/sync/mutex_attr.c - ABT_mutex_attr_*: creation-time settings of a mutex (only
 * recursiveness exists).  ABT_MUTEX_ATTR_NULL means the defaults where an attribute is
 * read (ABT_mutex_create_with_attr, as in Argobots >= 1.1). */
#include <stdlib.h>

#include "sync/mutex.h"

struct weft_mutex_attr {
    bool recursive;
};

static inline struct weft_mutex_attr *attr_from(ABT_mutex_attr h)
{
    return (h == NULL || h == ABT_MUTEX_ATTR_NULL) ? NULL : (struct weft_mutex_attr *)h;
}

int weft_mutex_attr_recursive(ABT_mutex_attr attr, bool *recursive)
{
    struct weft_mutex_attr *a = attr_from(attr);
    *recursive = a ? a->recursive : false;
    return ABT_SUCCESS;
}

int weft_mutex_attr_make(bool recursive, ABT_mutex_attr *attr)
{
    struct weft_mutex_attr *a = malloc(sizeof(*a));
    if (!a)
        return ABT_ERR_MEM; /* *attr untouched, as in Argobots 1.x */
    a->recursive = recursive;
    *attr = (ABT_mutex_attr)a;
    return ABT_SUCCESS;
}

WEFT_API int ABT_mutex_attr_create(ABT_mutex_attr *newattr)
{
    if (!newattr)
        return ABT_ERR_INV_ARG;
    return weft_mutex_attr_make(false, newattr);
}

WEFT_API int ABT_mutex_attr_free(ABT_mutex_attr *attr)
{
    if (!attr)
        return ABT_ERR_INV_ARG;
    struct weft_mutex_attr *a = attr_from(*attr);
    if (!a)
        return ABT_ERR_INV_MUTEX_ATTR;
    free(a);
    *attr = ABT_MUTEX_ATTR_NULL;
    return ABT_SUCCESS;
}

WEFT_API int ABT_mutex_attr_set_recursive(ABT_mutex_attr attr, ABT_bool recursive)
{
    struct weft_mutex_attr *a = attr_from(attr);
    if (!a)
        return ABT_ERR_INV_MUTEX_ATTR;
    a->recursive = recursive != ABT_FALSE;
    return ABT_SUCCESS;
}

WEFT_API int ABT_mutex_attr_get_recursive(ABT_mutex_attr attr, ABT_bool *recursive)
{
    struct weft_mutex_attr *a = attr_from(attr);
    if (!a)
        return ABT_ERR_INV_MUTEX_ATTR;
    if (!recursive)
        return ABT_ERR_INV_ARG;
    *recursive = a->recursive ? ABT_TRUE : ABT_FALSE;
    return ABT_SUCCESS;
}
