/* src/core/api/thread_attr.h - ULT attributes (struct weft_thread_attr lives in unit.h). */
#ifndef WEFT_CORE_THREAD_ATTR_H
#define WEFT_CORE_THREAD_ATTR_H

#include "core/unit/unit.h"

static inline struct weft_thread_attr *weft_thread_attr_from(ABT_thread_attr h)
{
    return (h == NULL || h == ABT_THREAD_ATTR_NULL) ? NULL : (struct weft_thread_attr *)h;
}

WEFT_INTERNAL WEFT_WUR int weft_thread_attr_new(struct weft_thread_attr **out);

#endif
