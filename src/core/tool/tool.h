/* src/core/tool/tool.h - the tool interface (ABT_tool_*): event callbacks on work units.
 *
 * A hook is one relaxed load of the event mask and a predicted-not-taken branch, so the
 * hot paths pay almost nothing while no tool is registered.  The callback receives a
 * context (struct weft_tool_ctx on the caller's stack) that ABT_tool_query_thread reads
 * during the call.
 *
 * The tracer (core/tool/trace.h, WEFT_TRACE) listens at the same sites: `mask` is the union of
 * the events the registered tool wants (`user_mask`) and those the tracer records, so
 * tracing adds no test to any path.  weft_tool_dispatch hands each event to the tracer
 * first, then to the tool if the tool asked for it; a switch (a unit leaves, another
 * runs: weft_tool_switch) is one call for its two or three events. */
#ifndef WEFT_CORE_TOOL_H
#define WEFT_CORE_TOOL_H

#include "core/types.h"

struct weft_tool {
    _Atomic uint64_t mask; /* events wanted by the tool or the tracer; 0 = neither */
    /* atomics, read after user_mask (acquire) and written before it (release): a stream
     * that sees the mask sees the callback that goes with it (no data race in C11) */
    _Atomic(ABT_tool_thread_callback_fn) cb;
    void *_Atomic arg;
    _Atomic uint64_t user_mask; /* events the registered callback wants */
    _Atomic bool trace;         /* the tracer records (core/tool/trace.c) */
};
extern WEFT_INTERNAL struct weft_tool weft_tool_g;

/* Events only the tracer hears (never passed to a tool callback: outside
 * ABT_TOOL_EVENT_THREAD_ALL).  MIGRATE: the unit moves to another pool, reported where
 * the move happens (core/api/migrate.c, core/unit/yield.c), on cold paths. */
#define WEFT_TOOL_EVENT_MIGRATE ((uint64_t)1 << 32)

/* The tracer starts or stops listening (core/tool/trace.c; no stream runs besides the
 * caller's when it is called). */
WEFT_INTERNAL void weft_tool_set_trace(bool on, uint64_t events);

/* Out of line: finds the stream and the calling unit itself, so that a hook costs its
 * caller nothing but the mask test. */
WEFT_INTERNAL WEFT_COLD void weft_tool_dispatch(weft_unit *u, uint64_t ev);
/* The events `evs` of one switch, one step of the stream: `from` leaves (evs has one of
 * YIELD, SUSPEND, FINISH), then `to` RESUMEs (if evs has RESUME) and RUNs (evs has RUN).
 * A registered callback hears them one by one, as from weft_tool_dispatch; the tracer
 * records the switch in one go, with one time stamp (weft_trace_switch).  Called by
 * weft_tool_switch, which tests the mask once for them all. */
WEFT_INTERNAL WEFT_COLD void weft_tool_dispatch_switch(weft_unit *from, weft_unit *to,
                                                       uint64_t evs);

#ifndef WEFT_TOOL
#define WEFT_TOOL 1
#endif
#ifndef WEFT_ENABLE_TOOL_DEFAULT
#define WEFT_ENABLE_TOOL_DEFAULT 0
#endif

/* ABT_init: the tool interface is on (weft_g.cfg.tool, WEFT_ENABLE_TOOL) or off for this
 * session; off drops a callback an earlier session registered, so that none is called
 * while ABT_tool_register_thread_callback answers ABT_ERR_FEATURE_NA. */
WEFT_INTERNAL void weft_tool_init(bool on);

/* Is any of the events `evs` wanted?  For a path that reports several events behind one
 * test; it then calls weft_tool_dispatch for each (which skips unwanted ones). */
static inline bool weft_tool_wants(uint64_t evs)
{
    return WEFT_TOOL && WEFT_UNLIKELY(weft_atomic_test64_relaxed(&weft_tool_g.mask, evs));
}

/* With -DWEFT_TOOL=OFF the hooks compile to nothing.  ABT_tool_register_thread_callback
 * reports ABT_ERR_FEATURE_NA then, and whenever the tool interface is off at run time (the
 * default: WEFT_ENABLE_TOOL), as an Argobots built without --enable-tool does; the hooks
 * stay in, for the tracer. */
static inline void weft_tool_event(weft_unit *u, uint64_t ev)
{
    if (WEFT_TOOL && WEFT_UNLIKELY(weft_atomic_test64_relaxed(&weft_tool_g.mask, ev)))
        weft_tool_dispatch(u, ev);
}

/* A switch (weft_tool_dispatch_switch) behind one test of the mask for all its events. */
static inline void weft_tool_switch(weft_unit *from, weft_unit *to, uint64_t evs)
{
    if (weft_tool_wants(evs))
        weft_tool_dispatch_switch(from, to, evs);
}

#endif
