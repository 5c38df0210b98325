/* src/core/tool/trace.h - the trace export: WEFT_TRACE=<file> writes a Chrome/Perfetto trace
 * (the JSON trace-event format) of what every execution stream ran.
 *
 * The tracer listens at the tool interface's event sites (core/tool/tool.h): while it records,
 * its events are part of weft_tool_g.mask, and the tool dispatch calls weft_trace_record
 * (weft_trace_create for a creation, weft_trace_switch for the events of a switch).
 * With WEFT_TRACE unset nothing is added to any path: the sites test the same mask as
 * before.  docs/design/tool.md ("Tracing") has the model: per-stream chunked buffers
 * without locks, a locked buffer for external threads, a writer thread that turns full
 * chunks into JSON, and the last chunks written by ABT_finalize. */
#ifndef WEFT_CORE_TRACE_H
#define WEFT_CORE_TRACE_H

#include <stdio.h>

#include "core/types.h"

/* ABT_init (no other stream runs yet): read WEFT_TRACE and start recording.  A file that
 * cannot be opened gets one message on stderr and the program runs untraced. */
WEFT_INTERNAL void weft_trace_init(void);
/* The last ABT_finalize, once every secondary stream is gone and the primary ULT runs
 * again: stop recording, write what is left, close the file. */
WEFT_INTERNAL void weft_trace_finalize(void);
/* One event `ev` (ABT_TOOL_EVENT_THREAD_* or WEFT_TOOL_EVENT_MIGRATE) of unit u, reported
 * on stream xs (NULL: an external thread).  same_time: it belongs to the step of the
 * stream's previous event (a switch's RESUME and RUN), whose time stamp it takes.  Called
 * by the tool dispatch, and by the two fast paths below for what they do not cover. */
WEFT_INTERNAL void weft_trace_record(weft_xstream *xs, weft_unit *u, uint64_t ev, bool same_time);
/* The fast paths of the two commonest cases, with the same records as weft_trace_record
 * would make: a switch (weft_tool_dispatch_switch: `from` leaves with the YIELD, SUSPEND
 * or FINISH of `evs`, `to` RESUMEs if evs has RESUME, and RUNs; one time stamp) and a
 * creation. */
WEFT_INTERNAL void weft_trace_switch(weft_xstream *xs, weft_unit *from, weft_unit *to,
                                     uint64_t evs);
WEFT_INTERNAL void weft_trace_create(weft_xstream *xs, weft_unit *u);
/* One line for ABT_info_print_config. */
WEFT_INTERNAL void weft_trace_print_config(FILE *fp);

#endif
