/* src/core/tool/tool.c - ABT_tool_register_thread_callback and ABT_tool_query_thread. */
#include "core/handle.h"
#include "core/tool/tool.h"
#include "core/runtime.h"
#include "core/tool/trace.h"

struct weft_tool weft_tool_g;
static uint64_t trace_events; /* written by weft_tool_set_trace with no stream running */

struct weft_tool_ctx {
    weft_unit *unit;
    weft_unit *caller; /* NULL: an external thread (or a scheduler) */
    bool caller_is_unit;
    int sync_type;
    void *sync_obj;
};

/* The registered callback's part of a dispatch (out of line: the tracer's path, which
 * is most of the events while tracing, then saves no registers). */
static WEFT_COLD void dispatch_callback(weft_xstream *xs, weft_unit *u, uint64_t ev, bool trace,
                                        bool next)
{
    if (trace)
        weft_trace_record(xs, u, ev, next);
    ABT_tool_thread_callback_fn cb = weft_atomic_load_relaxed(&weft_tool_g.cb);
    void *arg = weft_atomic_load_relaxed(&weft_tool_g.arg);
    if (!cb)
        return;
    weft_unit *caller = xs ? xs->cur : NULL;
    if (caller == u)
        caller = NULL; /* a unit is not its own caller (RUN: its scheduler) */
    /* every join reports JOIN, as in Argobots (ABT_thread_free joins again after
     * ABT_thread_join; a revived unit is joined afresh) */
    struct weft_tool_ctx ctx = { u, caller, caller != NULL, ABT_SYNC_EVENT_TYPE_UNKNOWN, NULL };
    cb(weft_unit_handle(u), xs ? (ABT_xstream)xs : ABT_XSTREAM_NULL, ev, (ABT_tool_context)&ctx,
       arg);
}

static inline __attribute__((always_inline)) void dispatch(weft_unit *u, uint64_t ev, bool next)
{
    /* paths that report several events test the mask once for all of them */
    if (!(weft_atomic_load_relaxed(&weft_tool_g.mask) & ev))
        return;
    weft_xstream *xs = weft_xs_self();
    bool trace = weft_atomic_load_relaxed(&weft_tool_g.trace);
    if (WEFT_UNLIKELY(weft_atomic_load_acquire(&weft_tool_g.user_mask) & ev)) {
        dispatch_callback(xs, u, ev, trace, next);
        return;
    }
    if (!trace)
        return;
    /* the tracer alone: its record is the whole dispatch (a tail call) */
    if (ev == ABT_TOOL_EVENT_THREAD_CREATE)
        weft_trace_create(xs, u); /* the commonest event alone, its fast path */
    else
        weft_trace_record(xs, u, ev, next);
}

void weft_tool_dispatch(weft_unit *u, uint64_t ev) { dispatch(u, ev, false); }

/* The events of a switch one by one, for a registered callback (or a tool without the
 * tracer). */
static WEFT_COLD void switch_each(weft_unit *from, weft_unit *to, uint64_t evs)
{
    dispatch(from, evs & ~(ABT_TOOL_EVENT_THREAD_RESUME | ABT_TOOL_EVENT_THREAD_RUN), false);
    if (evs & ABT_TOOL_EVENT_THREAD_RESUME)
        dispatch(to, ABT_TOOL_EVENT_THREAD_RESUME, true);
    dispatch(to, ABT_TOOL_EVENT_THREAD_RUN, true);
}

void weft_tool_dispatch_switch(weft_unit *from, weft_unit *to, uint64_t evs)
{
    if (WEFT_LIKELY(!(weft_atomic_load_acquire(&weft_tool_g.user_mask) & evs)) &&
        WEFT_LIKELY(weft_atomic_load_relaxed(&weft_tool_g.trace)))
        weft_trace_switch(weft_xs_self(), from, to, evs); /* the tracer alone (a tail call) */
    else
        switch_each(from, to, evs);
}

void weft_tool_set_trace(bool on, uint64_t events)
{
    trace_events = on ? events : 0;
    weft_atomic_store_seq_cst(&weft_tool_g.trace, on);
    weft_atomic_store_seq_cst(&weft_tool_g.mask,
                              weft_atomic_load_relaxed(&weft_tool_g.user_mask) | trace_events);
}

void weft_tool_init(bool on)
{
    if (on)
        return;
    weft_atomic_store_seq_cst(&weft_tool_g.user_mask, 0);
    weft_atomic_store_seq_cst(&weft_tool_g.mask, trace_events);
    weft_atomic_store_relaxed(&weft_tool_g.cb, NULL);
    weft_atomic_store_relaxed(&weft_tool_g.arg, NULL);
}

WEFT_API int ABT_tool_register_thread_callback(ABT_tool_thread_callback_fn cb_func,
                                               uint64_t event_mask, void *user_arg)
{
    if (!weft_initialized())
        return ABT_ERR_UNINITIALIZED;
    if (!WEFT_TOOL || !weft_g.cfg.tool)
        return ABT_ERR_FEATURE_NA; /* the tool interface is off (WEFT_ENABLE_TOOL) */
    /* disable first, so a callback never sees a half-updated (cb, arg) pair; the
     * tracer's events stay on */
    weft_atomic_store_seq_cst(&weft_tool_g.user_mask, 0);
    weft_atomic_store_seq_cst(&weft_tool_g.mask, trace_events);
    if (!cb_func || !(event_mask & ABT_TOOL_EVENT_THREAD_ALL))
        return ABT_SUCCESS;
    weft_atomic_store_relaxed(&weft_tool_g.cb, cb_func);
    weft_atomic_store_relaxed(&weft_tool_g.arg, user_arg);
    uint64_t m = event_mask & ABT_TOOL_EVENT_THREAD_ALL;
    weft_atomic_store_seq_cst(&weft_tool_g.user_mask, m); /* publishes cb and arg */
    weft_atomic_store_seq_cst(&weft_tool_g.mask, m | trace_events);
    return ABT_SUCCESS;
}

WEFT_API int ABT_tool_query_thread(ABT_tool_context context, uint64_t event,
                                   ABT_tool_query_kind query_kind, void *val)
{
    if (!WEFT_TOOL || !weft_g.cfg.tool)
        return ABT_ERR_FEATURE_NA; /* as Argobots without --enable-tool, before any check */
    if (context == NULL || context == ABT_TOOL_CONTEXT_NULL)
        return ABT_ERR_INV_TOOL_CONTEXT;
    if (!val)
        return ABT_ERR_INV_ARG;
    struct weft_tool_ctx *c = (struct weft_tool_ctx *)context;
    switch (query_kind) {
    case ABT_TOOL_QUERY_KIND_POOL:
        *(ABT_pool *)val = c->unit->pool ? (ABT_pool)c->unit->pool : ABT_POOL_NULL;
        return ABT_SUCCESS;
    case ABT_TOOL_QUERY_KIND_STACK_DEPTH: {
        int depth = 0; /* schedulers stacked above the unit's own scheduler */
        weft_xstream *xs = c->unit->xs;
        for (weft_sched *s = xs ? xs->sched : NULL; s && s->parent; s = s->parent)
            depth++;
        *(int *)val = depth;
        return ABT_SUCCESS;
    }
    case ABT_TOOL_QUERY_KIND_CALLER_TYPE:
        *(ABT_exec_entity_type *)val =
            c->caller_is_unit ? ABT_EXEC_ENTITY_TYPE_THREAD : ABT_EXEC_ENTITY_TYPE_EXT;
        return ABT_SUCCESS;
    case ABT_TOOL_QUERY_KIND_CALLER_HANDLE:
        *(ABT_thread *)val = c->caller ? weft_unit_handle(c->caller) : ABT_THREAD_NULL;
        return ABT_SUCCESS;
    case ABT_TOOL_QUERY_KIND_SYNC_OBJECT_TYPE:
        *(ABT_sync_event_type *)val = (ABT_sync_event_type)c->sync_type;
        return ABT_SUCCESS;
    case ABT_TOOL_QUERY_KIND_SYNC_OBJECT_HANDLE: *(void **)val = c->sync_obj; return ABT_SUCCESS;
    default: return ABT_ERR_INV_ARG;
    }
}
