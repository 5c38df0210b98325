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
/* The main scheduler's run() returned: should the stream stop?  (Argobots semantics:
 * it stops when cancelled, or when finishing and the pools are empty; a plain
 * ABT_sched_exit only makes the loop start run() again.) */
WEFT_INTERNAL bool weft_xstream_should_stop(weft_xstream *xs, weft_sched *s);
/* A scheduler that stopped being a stream's main scheduler: freed if automatic. */
WEFT_INTERNAL void weft_sched_retire(weft_sched *s);
/* The stream's loop, once a replaced main scheduler returned: retire the schedulers that
 * were replaced while pending, before they ran (xs->sched_retire; own thread only). */
WEFT_INTERNAL void weft_xstream_retire_pending(weft_xstream *xs);
/* Bind the calling thread as rank `rank` asks (ABT_SET_AFFINITY). */
WEFT_INTERNAL void weft_xstream_apply_affinity(weft_xstream *xs);

#endif
