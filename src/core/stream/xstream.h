/* src/core/stream/xstream.h - execution streams: creation, the OS thread body, join and free.
 * Ranks are unique among live streams and index weft_g.by_rank (under weft_g.lock). */
#ifndef WEFT_CORE_XSTREAM_H
#define WEFT_CORE_XSTREAM_H

#include "core/sched/sched.h"

static inline weft_xstream *weft_xstream_from(ABT_xstream h)
{
    return (h == NULL || h == ABT_XSTREAM_NULL) ? NULL : (weft_xstream *)h;
}

/* Record the OS stack of the calling thread in xs (AddressSanitizer bounds). */
/* A zeroed stream, on cache lines of its own (its first line is written at every switch:
 * no other object may share it), NULL without memory; free() frees it. */
WEFT_INTERNAL weft_xstream *weft_xstream_alloc(void);
WEFT_INTERNAL void weft_xstream_note_os_stack(weft_xstream *xs);
/* Ask a secondary stream to finish, wait for its thread, and free it. */
WEFT_INTERNAL int weft_xstream_join(weft_xstream *xs);
WEFT_INTERNAL void weft_xstream_destroy(weft_xstream *xs);
/* Bind the calling thread as rank `rank` asks (ABT_SET_AFFINITY). */
WEFT_INTERNAL void weft_xstream_apply_affinity(weft_xstream *xs);

#endif
