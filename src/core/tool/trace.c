/* src/core/tool/trace.c - WEFT_TRACE=<file>: a Chrome/Perfetto trace (JSON trace-event
 * format); here the start and the end, the recording in trace_record.c, the writing in
 * trace_write.c.
 *
 * Model.  The tracer hears the tool interface's events (core/tool/tool.h) and keeps them as
 * 16-byte binary records; JSON is made later, away from the hot paths.
 *   recording   each stream appends to its own buffer (xs->trace, one per rank), a chain
 *               of 2 MiB chunks: a record is a tick read (weft_ticks; events of one step
 *               share the first one's), a few stores and a bounds test, with no lock and
 *               no atomic.  The two commonest cases have their own entries: a switch (one
 *               unit leaves, another runs: weft_trace_switch, 32 bytes) and a creation
 *               (weft_trace_create, 16 bytes); weft_trace_record takes any event.
 *               External threads share one buffer under a mutex.  A full chunk goes to
 *               the writer's queue (one mutex per 65,000 records).
 *   mapping     a mapper thread, at the program's priority, keeps SPARE_AHEAD chunks
 *               mapped ahead (a stream that finds none maps one itself, a stall of
 *               ~0.5-1 ms).
 *   writing     a writer thread (SCHED_IDLE: only CPU time the streams leave) turns
 *               queued chunks into JSON, in slices, and appends it to the file;
 *               function names are resolved there (dladdr, then the module's ELF symbol
 *               table for static functions), once per function.  When more than
 *               MAX_QUEUED chunks wait, the stream that fills one formats the queue
 *               itself (back-pressure rather than unbounded memory).  ABT_finalize stops
 *               the writer and writes the partial chunks and the closing events.
 *   output      one track per stream (pid = the process, tid = the rank, thread_name
 *               metadata) and one for external threads; per unit run a B/E pair named
 *               after its function with its id (ABT_thread_get_id's) in args; instants
 *               create, yield, block (suspend), resume, migrate, steal, cancel; a flow
 *               arrow ("s" at create, "f" at the first run); counters "pool <id> size"
 *               sampled at a stream's first event, then every SAMPLE_SLOTS record slots.
 * Rejected: formatting JSON on the streams (hundreds of bytes per unit run on the hot
 * path); one shared buffer with an atomic cursor (a contended cache line per event);
 * resolving names at record time (dladdr takes a lock and walks the link maps).
 *
 * Who owns what: a buffer's recording fields belong to the stream of its rank (one stream
 * at a time: a rank is reused only after its previous stream was joined); the external
 * buffer's to whoever holds ext_lock; each buffer's writer fields (open spans, last time
 * stamp), the output buffer and the name table to whoever holds fmt_lock; the queue and
 * the spare chunks to qlock. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/runtime.h"
#include "core/tool/trace_buf.h"

struct weft_trace_state weft_trace_g = { .fd = -1,
                                         .reg_lock = PTHREAD_MUTEX_INITIALIZER,
                                         .ext_lock = PTHREAD_MUTEX_INITIALIZER,
                                         .qlock = PTHREAD_MUTEX_INITIALIZER,
                                         .qcond = PTHREAD_COND_INITIALIZER,
                                         .mcond = PTHREAD_COND_INITIALIZER,
                                         .fmt_lock = PTHREAD_MUTEX_INITIALIZER,
                                         .want_cpu = -1 };

/* ---------------------------------------------------------------- start and end */

void weft_trace_init(void)
{
    const char *path = getenv("WEFT_TRACE");
    if (!path || !*path)
        return;
    if (!WEFT_TOOL) {
        weft_warn("WEFT_TRACE=%s: this build has no tool events (-DWEFT_TOOL=OFF); the "
                  "program runs untraced",
                  path);
        return;
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        weft_warn("WEFT_TRACE=%s: cannot open the trace file for writing (%s); the program "
                  "runs untraced",
                  path, strerror(errno));
        return;
    }
    weft_trace_g.pid = getpid();
    weft_trace_events_init();
    weft_trace_g.path = strdup(path);
    weft_trace_g.out = malloc(OUT_CAP);
    weft_trace_g.ext = weft_trace_buf_new(EXT_TID, true);
    if (!weft_trace_g.path || !weft_trace_g.out || !weft_trace_g.ext)
        goto fail;
    weft_trace_g.ext->external = true;
    weft_trace_g.fd = fd;
    weft_trace_g.outlen = 0;
    weft_trace_g.write_err = 0;
    weft_trace_g.nevents = 0;
    weft_trace_g.stop = false;
    weft_atomic_store_relaxed(&weft_trace_g.dropped, 0);
    /* ticks -> ns: two readings of both clocks 2 ms apart */
    uint64_t t0 = weft_ticks(), n0 = weft_clock_ns();
    struct timespec nap = { 0, 2000000 };
    while (nanosleep(&nap, &nap) != 0 && errno == EINTR)
        ;
    uint64_t t1 = weft_ticks(), n1 = weft_clock_ns();
    weft_trace_g.ns_per_tick = t1 > t0 ? (double)(n1 - n0) / (double)(t1 - t0) : 1.0;
    weft_trace_g.tick0 = t1; /* the trace starts now */
    weft_trace_write_head();
    /* the writer inherits no signal handling and the process's CPU set (the primary
     * stream is bound after this, when ABT_SET_AFFINITY asks) */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int r = pthread_create(&weft_trace_g.writer, NULL, weft_trace_writer_main, NULL);
    if (r == 0) {
        r = pthread_create(&weft_trace_g.mapper, NULL, weft_trace_mapper_main, NULL);
        if (r != 0) {
            pthread_mutex_lock(&weft_trace_g.qlock);
            weft_trace_g.stop = true;
            pthread_cond_signal(&weft_trace_g.qcond);
            pthread_mutex_unlock(&weft_trace_g.qlock);
            pthread_join(weft_trace_g.writer, NULL);
        }
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (r != 0) {
        weft_warn("WEFT_TRACE=%s: cannot start the trace writer (%s); the program runs "
                  "untraced",
                  path, strerror(r));
        goto fail_quiet;
    }
    weft_trace_g.writer_started = true;
    weft_trace_g.on = true;
    weft_tool_set_trace(true, TRACE_EVENTS);
    /* the primary ULT is running already: its run starts with the trace */
    weft_xstream *xs = weft_xs_self();
    weft_trace_record(xs, xs->main_unit, ABT_TOOL_EVENT_THREAD_RUN, false);
    return;
fail:
    weft_warn("WEFT_TRACE=%s: out of memory; the program runs untraced", path);
fail_quiet:
    close(fd);
    weft_trace_g.fd = -1;
    free(weft_trace_g.path);
    free(weft_trace_g.out);
    weft_trace_g.path = weft_trace_g.out = NULL;
    if (weft_trace_g.ext) {
        weft_trace_g.bufs = NULL;
        free(weft_trace_g.ext);
        weft_trace_g.ext = NULL;
    }
}

void weft_trace_finalize(void)
{
    if (!weft_trace_g.on)
        return;
    uint64_t end_ticks = weft_ticks(); /* the trace ends here, not after the writing */
    weft_trace_g.on = false;
    weft_tool_set_trace(false, 0);
    weft_xstream *self = weft_xs_self();
    if (self)
        self->trace = NULL;
    if (getpid() != weft_trace_g.pid) {
        /* a forked child: the writer thread and the file belong to the parent */
        close(weft_trace_g.fd);
        weft_trace_g.fd = -1;
        return;
    }
    pthread_mutex_lock(&weft_trace_g.qlock);
    weft_trace_g.stop = true;
    pthread_cond_signal(&weft_trace_g.qcond);
    pthread_cond_signal(&weft_trace_g.mcond);
    pthread_mutex_unlock(&weft_trace_g.qlock);
    pthread_join(weft_trace_g.writer, NULL);
    pthread_join(weft_trace_g.mapper, NULL);
    weft_trace_g.writer_started = false;
    /* no stream records any more: queue the partial chunks, oldest buffers first */
    pthread_mutex_lock(&weft_trace_g.qlock);
    for (struct weft_trace_buf *b = weft_trace_g.bufs; b; b = b->next) {
        if (b->cur) {
            b->cur->n = (uint32_t)(b->pos - b->cur->r);
            weft_trace_enqueue(b->cur);
            b->cur = NULL;
        }
    }
    pthread_mutex_unlock(&weft_trace_g.qlock);
    weft_trace_drain();
    weft_trace_write_tail(end_ticks);
    /* free everything */
    while (weft_trace_g.bufs) {
        struct weft_trace_buf *b = weft_trace_g.bufs;
        weft_trace_g.bufs = b->next;
        free(b->open);
        free(b);
    }
    weft_trace_g.ext = NULL;
    while (weft_trace_g.spare) {
        struct chunk *c = weft_trace_g.spare;
        weft_trace_g.spare = c->next;
        weft_trace_chunk_free(c);
    }
    weft_trace_g.nspare = 0;
    for (size_t i = 0; i < weft_trace_g.names_cap; i++)
        free(weft_trace_g.names[i].s);
    free(weft_trace_g.names);
    weft_trace_g.names = NULL;
    weft_trace_g.names_cap = weft_trace_g.names_n = 0;
    free(weft_trace_g.out);
    weft_trace_g.out = NULL;
    free(weft_trace_g.path);
    weft_trace_g.path = NULL;
}

void weft_trace_print_config(FILE *fp)
{
    if (weft_trace_g.on)
        fprintf(fp, " - trace (WEFT_TRACE): %s\n", weft_trace_g.path);
    else
        fprintf(fp, " - trace (WEFT_TRACE): off\n");
}
