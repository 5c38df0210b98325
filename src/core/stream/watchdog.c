/* src/core/stream/watchdog.c - the watchdog: a unit that holds its execution stream longer than
 * a bound without a switch is reported, once per offence (WEFT_WATCHDOG_MS,
 * weft_watchdog_set in weft.h).
 *
 * Cost on the switch path: none.  The watchdog is a thread of its own that wakes every
 * quarter of the bound (at least every millisecond) and samples, for each stream, three
 * words the stream keeps anyway: the running unit (xs->cur, and its handle: a descriptor
 * that a new unit took is another unit), the switch count (xs->epoch, bumped by every
 * switch but the starts that may be returned from and those returns) and the yield budget
 * (xs->yield_budget, decremented by every yield and park that bypasses the scheduler, so
 * a lone ULT that yields to nobody still moves it).  While the three stay the same, the
 * same unit runs without having switched, yielded or parked; once that has lasted the
 * bound, the unit is reported and not again until one of them changes.  Time is wall
 * time: a unit blocked in a system call holds its stream as much as one that spins.
 * Schedulers (xs->cur NULL, or a scheduler's unit) are never reported.
 *
 * The samples are reads of another thread's plain fields: racy on purpose, in a function
 * the sanitizers do not instrument (like the stack dumps' reads); the three words are
 * compared only with themselves, and a torn view at worst delays a report by one period.
 * Streams are read under weft_g.lock (they leave by_rank under it before being freed); a
 * unit's descriptor stays mapped until ABT_finalize, which stops the watchdog first.
 *
 * The report: the callback of weft_watchdog_set, or else on stderr one line
 *   weft: watchdog: ULT 12 (hog_fn) has held stream 1 for 312 ms without a switch
 * then what can be said of where it is without stopping it: when its stream's thread is
 * blocked in a system call (/proc/self/task/<tid>/syscall gives the stack pointer and
 * program counter, and the thread is the one whose stack pointer lies in the unit's
 * stack), the call and the return addresses found on the stack from that pointer up
 * (words that point just after a call instruction), with their symbols; when it runs
 * user code, its backtrace, taken by the stream's own thread in a signal handler: the
 * watchdog sends it one signal (WEFT_WATCHDOG_SIGNAL, default SIGRTMAX - 2; 0 never
 * sends it), installed with SA_RESTART and SA_ONSTACK (the alternate stack of the
 * overflow handler, so the unit's own stack is not used) and only where the program left
 * that signal at its default; the handler records the frames with backtrace(3) only if its
 * thread still runs the offending unit, and the watchdog prints them with their symbols.
 * Sent only to a thread seen running user code, and once per offence.  Without the
 * signal (0, a handler of the program's, no alternate stack under
 * ABT_STACK_OVERFLOW_CHECK=none, or no answer within 100 ms: ThreadSanitizer delivers a
 * signal only at the thread's next call into its runtime), a line says where to look
 * instead (gdb's `weft bt ID`: docs/debugging.md).
 * Rejected: no signal at all (a spinning unit's report would name no frame), and
 * ptrace-like stops of the thread (another process's job, and they stop the stream). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <execinfo.h>
#include <signal.h>
#include <stdatomic.h>
#include <dlfcn.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/handle.h"
#include "core/runtime.h"
#include "core/unit/unit.h"
#include "core/stream/watchdog.h"
#include <weft.h>

#define MAX_FRAMES 24

static pthread_mutex_t wd_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wd_cond;
static bool wd_cond_ready;
static bool wd_running; /* the thread exists (wd_lock) */
static bool wd_stop;    /* it is to end (wd_lock) */
static pthread_t wd_thread;
static uint32_t wd_ms;         /* 0: off (wd_lock) */
static weft_watchdog_cb wd_cb; /* NULL: the report on stderr (wd_lock) */
static void *wd_arg;

/* What the thread remembers of each stream (by rank). */
struct slot {
    const weft_xstream *xs;
    const weft_unit *cur;
    uintptr_t handle; /* cur's handle: a descriptor reused by a new unit is a new unit */
    uint64_t epoch;
    int budget;
    uint64_t since; /* when this (cur, epoch, budget) was first seen */
    bool reported;
};

/* One offence, taken under weft_g.lock and reported after it is released. */
struct offence {
    weft_unit *u;
    pthread_t thread; /* its stream's thread */
    ABT_thread handle;
    void (*fn)(void *);
    int rank;
    bool ult;
    uint64_t ran_ns;
    uintptr_t lo, top; /* the stack it runs on, 0 when unknown */
};

struct sample {
    const weft_unit *cur;
    uintptr_t handle;
    uint64_t epoch;
    int budget;
    uint16_t flags;
    int state;
};

/* The racy reads of another stream's fields (see the header comment). */
__attribute__((noinline, no_sanitize("address", "thread"))) static void
sample_stream(const weft_xstream *x, struct sample *s)
{
    const volatile weft_xstream *v = x;
    s->cur = v->cur;
    s->epoch = v->epoch;
    s->budget = v->yield_budget;
    s->state = *(const volatile int *)&x->state;
    s->flags = s->cur ? *(const volatile uint16_t *)&s->cur->flags : 0;
    s->handle = s->cur ? *(const volatile uintptr_t *)&s->cur->handle : 0;
}

__attribute__((noinline, no_sanitize("address", "thread"))) static void
sample_unit(const weft_xstream *x, weft_unit *u, struct offence *o)
{
    const volatile weft_unit *v = u;
    o->fn = v->fn;
    o->ult = (v->flags & WEFT_U_ULT) != 0;
    o->lo = o->top = 0;
    uint8_t kind = v->stack_kind;
    weft_stack *st = v->stack;
    switch (kind) {
    case WEFT_STACK_CACHED:
    case WEFT_STACK_OWNED:
        if (st) { /* weft_stack_lo/top, read here uninstrumented */
            o->top = (uintptr_t)st;
            o->lo = o->top + WEFT_STACK_HEADER_SIZE - ((const volatile weft_stack *)st)->usable;
        }
        break;
    case WEFT_STACK_USER:
        o->lo = (uintptr_t)v->user_stack;
        o->top = ((uintptr_t)v->user_stack + v->stack_size) & ~(uintptr_t)15;
        break;
    case WEFT_STACK_LENT:
    case WEFT_STACK_BORROWED:
        o->lo = ((uintptr_t)v->user_stack - v->stack_size) & ~(uintptr_t)15;
        o->top = (uintptr_t)v->user_stack;
        break;
    case WEFT_STACK_OS:
        if (((const volatile weft_xstream *)x)->os_stack_lo) {
            o->lo = (uintptr_t)((const volatile weft_xstream *)x)->os_stack_lo;
            o->top = o->lo + ((const volatile weft_xstream *)x)->os_stack_size;
        }
        break;
    default: break;
    }
    weft_sched *sc = ((const volatile weft_xstream *)x)->sched;
    st = sc ? ((const volatile weft_sched *)sc)->stack : NULL;
    if (!o->ult && st) { /* a tasklet runs on its scheduler's stack */
        o->top = (uintptr_t)st;
        o->lo = o->top + WEFT_STACK_HEADER_SIZE - ((const volatile weft_stack *)st)->usable;
    }
}

__attribute__((noinline, no_sanitize("address", "thread"))) static uintptr_t peek(uintptr_t a)
{
    return *(const volatile uintptr_t *)a;
}

/* ---------------------------------------------------------------- the report */

struct exec_map {
    uintptr_t lo, hi;
};

static size_t load_exec_maps(struct exec_map *m, size_t cap)
{
    FILE *f = fopen("/proc/self/maps", "re");
    if (!f)
        return 0;
    char line[512];
    size_t n = 0;
    while (n < cap && fgets(line, sizeof(line), f)) {
        unsigned long lo, hi;
        char perms[8];
        if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) == 3 && perms[0] == 'r' && perms[2] == 'x')
            m[n++] = (struct exec_map){ lo, hi };
    }
    fclose(f);
    return n;
}

static bool in_exec(const struct exec_map *m, size_t n, uintptr_t a, uintptr_t before)
{
    for (size_t i = 0; i < n; i++)
        if (a >= m[i].lo + before && a < m[i].hi)
            return true;
    return false;
}

/* Does the code at a follow a call instruction (x86-64: e8 rel32; ff /2 with the usual
 * ModRM forms)?  Elsewhere every word into code counts. */
__attribute__((no_sanitize("address", "thread"))) static bool after_call(const struct exec_map *m,
                                                                         size_t n, uintptr_t a)
{
#if defined(__x86_64__)
    if (!in_exec(m, n, a, 7))
        return false;
    const volatile uint8_t *p = (const volatile uint8_t *)a;
    if (p[-5] == 0xe8)
        return true;
    for (int len = 2; len <= 7; len++)
        if (p[-len] == 0xff && (p[-len + 1] & 0x38) == 0x10)
            return true;
    return false;
#else
    return in_exec(m, n, a, 0);
#endif
}

static void print_sym(FILE *fp, uintptr_t a)
{
    Dl_info di;
    if (dladdr((void *)a, &di) && di.dli_fname) {
        const char *obj = strrchr(di.dli_fname, '/');
        obj = obj ? obj + 1 : di.dli_fname;
        if (di.dli_sname && di.dli_saddr == (void *)a)
            fprintf(fp, "%s (%s)", di.dli_sname, obj);
        else if (di.dli_sname && di.dli_saddr)
            fprintf(fp, "%s+0x%" PRIxPTR " (%s)", di.dli_sname, a - (uintptr_t)di.dli_saddr, obj);
        else
            fprintf(fp, "%s+0x%" PRIxPTR, obj, a - (uintptr_t)di.dli_fbase);
    } else {
        fprintf(fp, "%#" PRIxPTR, a);
    }
}

/* Find the thread whose stack pointer, while blocked in a system call, lies in [lo, top):
 * its call number, stack pointer and program counter. */
static bool find_blocked_thread(uintptr_t lo, uintptr_t top, long *nr, uintptr_t *sp, uintptr_t *pc)
{
    if (!lo || !top)
        return false;
    DIR *d = opendir("/proc/self/task");
    if (!d)
        return false;
    bool found = false;
    struct dirent *de;
    while (!found && (de = readdir(d))) {
        if (de->d_name[0] < '0' || de->d_name[0] > '9')
            continue;
        char path[300], buf[512];
        snprintf(path, sizeof(path), "/proc/self/task/%s/syscall", de->d_name);
        FILE *f = fopen(path, "re");
        if (!f)
            continue;
        bool ok = fgets(buf, sizeof(buf), f) != NULL;
        fclose(f);
        if (!ok || !strncmp(buf, "running", 7))
            continue;
        /* "NR a1 a2 a3 a4 a5 a6 SP PC" (or "-1 SP PC" outside a call) */
        char *w[9];
        int k = 0;
        for (char *t = strtok(buf, " \n"); t && k < 9; t = strtok(NULL, " \n"))
            w[k++] = t;
        if (k < 3)
            continue;
        uintptr_t s = (uintptr_t)strtoull(w[k - 2], NULL, 0);
        if (s >= lo && s < top) {
            *nr = strtol(w[0], NULL, 0);
            *sp = s;
            *pc = (uintptr_t)strtoull(w[k - 1], NULL, 0);
            found = true;
        }
    }
    closedir(d);
    return found;
}

/* The backtrace of a unit that runs user code (see the header comment). */
static int bt_sig;                       /* 0: none is sent (wd_lock) */
static bool bt_installed;                /* our handler holds bt_sig */
static const weft_unit *_Atomic bt_unit; /* the unit asked for; NULL: no request */
static atomic_int bt_n;                  /* frames in bt_frames; -1 while none */
static void *bt_frames[MAX_FRAMES + 4];

static void bt_handler(int sig)
{
    (void)sig;
    int e = errno;
    const weft_unit *want = atomic_load(&bt_unit);
    weft_xstream *xs = weft_tls_xs;
    if (want && xs && xs->cur == want && atomic_load(&bt_n) < 0)
        atomic_store(&bt_n, backtrace(bt_frames, MAX_FRAMES + 4));
    errno = e;
}

/* wd_lock held, when the watchdog is armed: take bt_sig if the program left it alone. */
static void bt_install(void)
{
    if (bt_installed)
        return;
    bt_sig = SIGRTMAX - 2;
    const char *e = getenv("WEFT_WATCHDOG_SIGNAL");
    if (e && *e) {
        char *end;
        long v = strtol(e, &end, 10);
        bt_sig = (*end || v < 0 || v > SIGRTMAX) ? -1 : (int)v;
        if (bt_sig < 0)
            weft_warn("WEFT_WATCHDOG_SIGNAL=%s is not a signal number (0 to %d): the watchdog "
                      "sends no signal",
                      e, SIGRTMAX);
    }
    if (bt_sig <= 0 || weft_g.cfg.stack_overflow_check == 0) { /* no alternate stacks */
        bt_sig = 0;
        return;
    }
    struct sigaction old, sa;
    if (sigaction(bt_sig, NULL, &old) != 0 || old.sa_handler != SIG_DFL ||
        (old.sa_flags & SA_SIGINFO)) {
        bt_sig = 0;
        return;
    }
    void *warm[2];
    backtrace(warm, 2); /* loads the unwinder now, not in a signal handler */
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = bt_handler;
    sa.sa_flags = SA_RESTART | SA_ONSTACK;
    sigfillset(&sa.sa_mask);
    if (sigaction(bt_sig, &sa, NULL) != 0) {
        bt_sig = 0;
        return;
    }
    bt_installed = true;
}

/* The frames of o's unit, asked of its stream's thread; the count, 0 when none came. */
static int bt_take(const struct offence *o, int sig)
{
    if (!sig || !o->ult)
        return 0;
    atomic_store(&bt_n, -1);
    atomic_store(&bt_unit, o->u);
    pthread_mutex_lock(&weft_g.lock);
    bool alive = o->rank < weft_g.rank_cap && weft_g.by_rank[o->rank] &&
                 pthread_equal(weft_g.by_rank[o->rank]->thread, o->thread);
    int r = alive ? pthread_kill(o->thread, sig) : ESRCH;
    pthread_mutex_unlock(&weft_g.lock);
    int n = 0;
    if (r == 0)
        for (int i = 0; i < 100 && (n = atomic_load(&bt_n)) < 0; i++) {
            struct timespec ts = { 0, 1000000 };
            nanosleep(&ts, NULL);
        }
    atomic_store(&bt_unit, NULL);
    n = atomic_load(&bt_n);
    return n > 0 ? n : 0;
}

static void report_stderr(const struct offence *o, ABT_unit_id id, int sig)
{
    FILE *fp = stderr;
    flockfile(fp);
    fprintf(fp, "weft: watchdog: %s %" PRIu64 " (", o->ult ? "ULT" : "tasklet", (uint64_t)id);
    if (o->fn)
        print_sym(fp, (uintptr_t)o->fn);
    else
        fputs(o->ult ? "the primary ULT" : "?", fp);
    fprintf(fp, ") has held stream %d for %" PRIu64 " ms without a switch\n", o->rank,
            o->ran_ns / 1000000u);
    long nr;
    uintptr_t sp, pc;
    int n;
    if (find_blocked_thread(o->lo, o->top, &nr, &sp, &pc)) {
        struct exec_map maps[256];
        size_t nm = load_exec_maps(maps, 256);
        fprintf(fp, "  blocked in system call %ld at ", nr);
        print_sym(fp, pc);
        fputc('\n', fp);
        int k = 0;
        for (uintptr_t a = sp & ~(uintptr_t)7; a + 8 <= o->top && k < MAX_FRAMES; a += 8) {
            uintptr_t v = peek(a);
            if (!after_call(maps, nm, v))
                continue;
            fprintf(fp, "  #%d ", k++);
            print_sym(fp, v);
            fputc('\n', fp);
        }
    } else if ((n = bt_take(o, sig)) > 0) {
        /* frames: the handler, the signal's return trampoline, then the unit's own */
        int first = 0;
        for (int i = 0; i < n && i < 4; i++) {
            Dl_info di;
            if (dladdr(bt_frames[i], &di) && di.dli_sname && !strcmp(di.dli_sname, "__restore_rt"))
                first = i + 1;
        }
        if (!first)
            first = n > 2 ? 2 : 0;
        fputs("  running user code:\n", fp);
        for (int i = first, k = 0; i < n && k < MAX_FRAMES; i++, k++) {
            fprintf(fp, "  #%d ", k);
            print_sym(fp, (uintptr_t)bt_frames[i]);
            fputc('\n', fp);
        }
    } else {
        fputs("  not blocked in a system call: it runs user code (gdb's `weft bt ID` shows "
              "its frames)\n",
              fp);
    }
    funlockfile(fp);
    fflush(fp);
}

/* ---------------------------------------------------------------- the thread */

static void *watchdog_main(void *unused)
{
    struct slot *slots = NULL;
    int nslots = 0;
    pthread_mutex_lock(&wd_lock);
    while (!wd_stop) {
        uint32_t ms = wd_ms;
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        uint64_t period = ms ? (uint64_t)ms * 1000000u / 4 : 0;
        if (period && period < 1000000u)
            period = 1000000u;
        if (!period) {
            pthread_cond_wait(&wd_cond, &wd_lock);
            continue;
        }
        uint64_t t = (uint64_t)ts.tv_nsec + period;
        ts.tv_sec += (time_t)(t / 1000000000u);
        ts.tv_nsec = (long)(t % 1000000000u);
        pthread_cond_timedwait(&wd_cond, &wd_lock, &ts);
        if (wd_stop || !wd_ms)
            continue;
        ms = wd_ms;
        weft_watchdog_cb cb = wd_cb;
        void *arg = wd_arg;
        int sig = bt_sig;
        pthread_mutex_unlock(&wd_lock);

        struct offence found[8];
        int nfound = 0;
        uint64_t now = weft_clock_ns();
        pthread_mutex_lock(&weft_g.lock);
        if (weft_g.rank_cap > nslots) {
            struct slot *ns = realloc(slots, (size_t)weft_g.rank_cap * sizeof(*ns));
            if (ns) {
                memset(ns + nslots, 0, (size_t)(weft_g.rank_cap - nslots) * sizeof(*ns));
                slots = ns;
                nslots = weft_g.rank_cap;
            }
        }
        for (int i = 0; i < nslots && i < weft_g.rank_cap; i++) {
            weft_xstream *x = weft_g.by_rank[i];
            struct slot *sl = &slots[i];
            if (!x) {
                sl->xs = NULL;
                continue;
            }
            struct sample s;
            sample_stream(x, &s);
            if (sl->xs != x || sl->cur != s.cur || sl->handle != s.handle || sl->epoch != s.epoch ||
                sl->budget != s.budget) {
                *sl = (struct slot){ x, s.cur, s.handle, s.epoch, s.budget, now, false };
                continue;
            }
            if (!s.cur || s.state != WEFT_XS_RUNNING ||
                (s.flags & (WEFT_U_SCHED | WEFT_U_MAIN_SCHED)) || sl->reported ||
                now - sl->since < (uint64_t)ms * 1000000u || nfound == 8)
                continue;
            sl->reported = true;
            struct offence *o = &found[nfound++];
            o->u = (weft_unit *)s.cur;
            o->handle = weft_unit_handle(s.cur);
            o->rank = x->rank;
            o->thread = x->thread;
            o->ran_ns = now - sl->since;
            sample_unit(x, o->u, o);
        }
        pthread_mutex_unlock(&weft_g.lock);

        for (int i = 0; i < nfound; i++) {
            struct offence *o = &found[i];
            ABT_unit_id id = weft_unit_id(o->u);
            if (cb) {
                weft_watchdog_info info = {
                    .thread = o->handle,
                    .id = id,
                    .rank = o->rank,
                    .func = o->fn,
                    .seconds = (double)o->ran_ns / 1e9,
                    .is_tasklet = o->ult ? ABT_FALSE : ABT_TRUE,
                };
                cb(&info, arg);
            } else {
                report_stderr(o, id, sig);
            }
        }
        pthread_mutex_lock(&wd_lock);
    }
    pthread_mutex_unlock(&wd_lock);
    free(slots);
    return NULL;
}

static void cond_init_once(void)
{
    if (wd_cond_ready)
        return;
    pthread_condattr_t a;
    pthread_condattr_init(&a);
    pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
    pthread_cond_init(&wd_cond, &a);
    pthread_condattr_destroy(&a);
    wd_cond_ready = true;
}

static void atfork_child(void);

/* wd_lock held.  ABT_SUCCESS or ABT_ERR_SYS (the thread could not start). */
static int set_locked(uint32_t ms, weft_watchdog_cb cb, void *arg)
{
    static bool atfork_set;
    if (!atfork_set && pthread_atfork(NULL, NULL, atfork_child) == 0)
        atfork_set = true;
    cond_init_once();
    wd_ms = ms;
    wd_cb = cb;
    wd_arg = arg;
    if (ms)
        bt_install();
    if (ms && !wd_running) {
        wd_stop = false;
        pthread_attr_t at;
        pthread_attr_init(&at);
        pthread_attr_setstacksize(&at, 256u << 10);
        /* the watchdog's own thread must not take signals meant for the program */
        sigset_t all, old;
        sigfillset(&all);
        pthread_sigmask(SIG_SETMASK, &all, &old);
        int e = pthread_create(&wd_thread, &at, watchdog_main, NULL);
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        pthread_attr_destroy(&at);
        if (e) {
            wd_ms = 0;
            return ABT_ERR_SYS;
        }
        wd_running = true;
    }
    pthread_cond_signal(&wd_cond);
    return ABT_SUCCESS;
}

void weft_watchdog_init(void)
{
    const char *e = getenv("WEFT_WATCHDOG_MS");
    if (!e || !*e)
        return;
    char *end;
    unsigned long v = strtoul(e, &end, 10);
    if (*end || v > UINT32_MAX || e[0] == '-') {
        weft_warn("WEFT_WATCHDOG_MS=%s is not a number of milliseconds: no watchdog", e);
        return;
    }
    if (v == 0)
        return;
    pthread_mutex_lock(&wd_lock);
    if (set_locked((uint32_t)v, NULL, NULL) != ABT_SUCCESS)
        weft_warn("WEFT_WATCHDOG_MS: the watchdog thread could not start");
    pthread_mutex_unlock(&wd_lock);
}

void weft_watchdog_finalize(void)
{
    pthread_mutex_lock(&wd_lock);
    bool join = wd_running && !pthread_equal(wd_thread, pthread_self());
    wd_stop = true;
    wd_ms = 0;
    wd_cb = NULL;
    wd_arg = NULL;
    if (wd_cond_ready)
        pthread_cond_signal(&wd_cond);
    pthread_mutex_unlock(&wd_lock);
    if (join)
        pthread_join(wd_thread, NULL);
    pthread_mutex_lock(&wd_lock);
    wd_running = false;
    wd_stop = false;
    pthread_mutex_unlock(&wd_lock);
}

/* fork(): the thread is not in the child, whose copy of wd_lock may be held. */
static void atfork_child(void)
{
    pthread_mutex_init(&wd_lock, NULL);
    wd_running = false;
    wd_stop = false;
    wd_ms = 0;
    if (wd_cond_ready) {
        wd_cond_ready = false;
        cond_init_once();
    }
}

WEFT_API int weft_watchdog_set(unsigned int ms, weft_watchdog_cb callback, void *arg)
{
    if (!weft_initialized())
        return ABT_ERR_UNINITIALIZED;
    pthread_mutex_lock(&wd_lock);
    int r = set_locked(ms, callback, arg);
    pthread_mutex_unlock(&wd_lock);
    return r;
}
