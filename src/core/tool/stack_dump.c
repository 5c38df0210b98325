/* src/core/tool/stack_dump.c - ULT stack dumps: ABT_info_print_thread_stack,
 * ABT_info_print_thread_stacks_in_pool, ABT_info_trigger_print_all_thread_stacks.
 *
 * What a dump shows, per ULT: id, state, stack range and size, the saved stack pointer,
 * and the used part of the stack ([sp, top)) as 64-bit words; a word that points into an
 * executable mapping is followed by its symbol (dladdr), or by object+offset when the
 * object does not export one.  Runs of identical plain words collapse to "*".
 *
 * Reading another ULT's stack is a debugging aid: the words are read with sanitizer
 * instrumentation off (redzones of suspended frames are poisoned) and, under valgrind,
 * marked defined before they are formatted (frames hold padding nobody wrote).
 *
 * The trigger (stop-the-world).  ABT_info_trigger_print_all_thread_stacks stores fp,
 * timeout, callback and argument (each atomically) and raises weft_dump_pending; it
 * takes no lock (it may be called from a signal handler) and, when weft_g.lock is free,
 * wakes the streams that sleep in their pools.  Schedulers reach weft_dump_check at their
 * event checks; a stream in scheduler context that sees the flag calls weft_dump_stop:
 * under stop_lock it counts itself stopped and waits on stop_cond (re-checking every
 * millisecond) until the number of stopped streams reaches the number of live streams
 * (counted under weft_g.lock each time), or until `timeout` seconds have passed since the
 * first stream stopped (timeout >= 0).  Whoever sees that condition first clears the flag,
 * prints, calls the callback with timed_out = (not all stopped), then bumps `round` and
 * wakes the others.  Every ULT is found through the descriptor slabs (weft_desc_foreach:
 * live descriptors have nonzero flags), plus the primary ULT, which has its own
 * allocation: ready, blocked, suspended and not-yet-started ULTs all appear, not only
 * those in the pools of main schedulers (Argobots' subset).
 * Lock order: stop_lock, then weft_g.lock or the depot lock (never the reverse). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/pool/pool.h"
#include "core/tool/stack_dump.h"
#include "core/tool/stack_unwind.h"
#include "core/unit/unit.h"
#include "mem/mem.h"

#if WEFT_USE_VALGRIND
#include <valgrind/memcheck.h>
#define VG_DEFINED(p, n) VALGRIND_MAKE_MEM_DEFINED(p, n)
#else
#define VG_DEFINED(p, n) ((void)0)
#endif

#define MAX_DUMP_BYTES (64u << 10) /* per ULT; deeper stacks are cut */

extern void *__libc_stack_end __attribute__((weak)); /* glibc: top of main()'s frames */

_Atomic uint32_t weft_dump_pending;

/* ---------------------------------------------------------------- memory map */

struct range {
    uintptr_t lo, hi;
    bool exec;
};

/* What a dump needs to know: the memory map, and the streams and pools that exist (a
 * terminated unit may still name a stream or pool that was freed since). */
struct maps {
    struct range *r;
    size_t n;
    weft_xstream **xs;
    int nxs;
    weft_pool **pools;
    int npools;
};

static void known_load(struct maps *m)
{
    m->xs = NULL;
    m->pools = NULL;
    m->nxs = m->npools = 0;
    pthread_mutex_lock(&weft_g.lock);
    int np = 0;
    for (weft_pool *p = weft_g.pools; p; p = p->all_next)
        np++;
    m->xs = weft_g.rank_cap ? malloc((size_t)weft_g.rank_cap * sizeof(*m->xs)) : NULL;
    m->pools = np ? malloc((size_t)np * sizeof(*m->pools)) : NULL;
    for (int i = 0; m->xs && i < weft_g.rank_cap; i++)
        if (weft_g.by_rank[i])
            m->xs[m->nxs++] = weft_g.by_rank[i];
    for (weft_pool *p = weft_g.pools; m->pools && p; p = p->all_next)
        m->pools[m->npools++] = p;
    pthread_mutex_unlock(&weft_g.lock);
}

static bool known_xs(const struct maps *m, const weft_xstream *x)
{
    for (int i = 0; i < m->nxs; i++)
        if (m->xs[i] == x)
            return true;
    return false;
}

static bool known_pool(const struct maps *m, const weft_pool *p)
{
    for (int i = 0; i < m->npools; i++)
        if (m->pools[i] == p)
            return true;
    return false;
}

/* Read /proc/self/maps: the executable ranges (for symbols) and every range (to bound
 * the dump of a stack whose extent the runtime does not know: the primary ULT's). */
static void maps_load(struct maps *m)
{
    m->r = NULL;
    m->n = 0;
    known_load(m);
    FILE *f = fopen("/proc/self/maps", "re");
    if (!f)
        return;
    size_t cap = 0;
    char line[512];
    while (fgets(line, sizeof(line), f)) {
        unsigned long lo, hi;
        char perms[8];
        if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) != 3)
            continue;
        if (m->n == cap) {
            size_t nc = cap ? cap * 2 : 64;
            struct range *nr = realloc(m->r, nc * sizeof(*nr));
            if (!nr)
                break;
            m->r = nr;
            cap = nc;
        }
        m->r[m->n++] = (struct range){ lo, hi, perms[2] == 'x' };
    }
    fclose(f);
}

static void maps_free(struct maps *m)
{
    free(m->r);
    free(m->xs);
    free(m->pools);
}

static const struct range *maps_find(const struct maps *m, uintptr_t a)
{
    for (size_t i = 0; i < m->n; i++)
        if (a >= m->r[i].lo && a < m->r[i].hi)
            return &m->r[i];
    return NULL;
}

/* " <symbol+0xoff>" for an address in executable memory, else nothing. */
static void print_symbol(FILE *fp, const struct maps *m, uintptr_t a)
{
    const struct range *r = maps_find(m, a);
    if (!r || !r->exec)
        return;
    Dl_info di;
    if (!dladdr((void *)a, &di) || !di.dli_fname) {
        fputs("  <code>", fp);
        return;
    }
    if (di.dli_sname && di.dli_saddr)
        fprintf(fp, "  <%s+0x%" PRIxPTR ">", di.dli_sname, a - (uintptr_t)di.dli_saddr);
    else {
        const char *base = strrchr(di.dli_fname, '/');
        fprintf(fp, "  <%s+0x%" PRIxPTR ">", base ? base + 1 : di.dli_fname,
                a - (uintptr_t)di.dli_fbase);
    }
}

/* One word of a stack that is not ours: no sanitizer checks, defined for valgrind. */
__attribute__((noinline, no_sanitize("address", "thread"))) static uintptr_t
peek(const uintptr_t *p)
{
    uintptr_t v = *(const volatile uintptr_t *)p;
    VG_DEFINED(&v, sizeof(v));
    return v;
}

static void dump_words(FILE *fp, const struct maps *m, uintptr_t lo, uintptr_t hi)
{
    lo &= ~(uintptr_t)7;
    bool cut = false;
    if (hi - lo > MAX_DUMP_BYTES) {
        hi = lo + MAX_DUMP_BYTES;
        cut = true;
    }
    uintptr_t prev = 0;
    bool have_prev = false, starred = false;
    for (uintptr_t a = lo; a < hi; a += sizeof(uintptr_t)) {
        uintptr_t v = peek((const uintptr_t *)a);
        const struct range *r = v ? maps_find(m, v) : NULL;
        bool code = r && r->exec;
        if (!code && have_prev && v == prev && a + sizeof(uintptr_t) < hi) {
            if (!starred)
                fputs("  *\n", fp);
            starred = true;
            continue;
        }
        starred = false;
        fprintf(fp, "  %016" PRIxPTR ": %016" PRIxPTR, a, v);
        if (code)
            print_symbol(fp, m, v);
        fputc('\n', fp);
        prev = v;
        have_prev = !code;
    }
    if (cut)
        fprintf(fp, "  ... (cut after %u bytes)\n", MAX_DUMP_BYTES);
}

/* ---------------------------------------------------------------- one unit */

static const char *state_name(uint32_t s)
{
    static const char *n[] = { "READY", "RUNNING", "BLOCKED", "TERMINATED" };
    return s < 4 ? n[s] : "UNKNOWN";
}

static const char *kind_name(uint8_t k)
{
    static const char *n[] = {
        [WEFT_STACK_NONE] = "none",
        [WEFT_STACK_CACHED] = "runtime (default size)",
        [WEFT_STACK_OWNED] = "runtime (own mapping)",
        [WEFT_STACK_USER] = "user-supplied",
        [WEFT_STACK_OS] = "OS thread",
        [WEFT_STACK_BORROWED] = "its joiner's",
        [WEFT_STACK_SC] = "its scheduler loop's (SC)",
        [WEFT_STACK_LENT] = "its joiner's (not left yet)",
    };
    return k < sizeof(n) / sizeof(n[0]) ? n[k] : "?";
}

/* [lo, top) of the stack a unit runs on; false when it has none or it is unknown. */
static bool unit_stack(weft_unit *u, const struct maps *m, uintptr_t sp, uintptr_t *lo,
                       uintptr_t *top)
{
    switch (u->stack_kind) {
    case WEFT_STACK_CACHED:
    case WEFT_STACK_OWNED:
        if (!u->stack)
            return false;
        *lo = (uintptr_t)weft_stack_lo(u->stack);
        *top = (uintptr_t)weft_stack_top(u->stack);
        return true;
    case WEFT_STACK_USER:
        *lo = (uintptr_t)u->user_stack;
        *top = ((uintptr_t)u->user_stack + u->stack_size) & ~(uintptr_t)15;
        return true;
    case WEFT_STACK_LENT:
    case WEFT_STACK_BORROWED: /* below its lend record, in its joiner's frame */
        *lo = weft_unit_lent_lo(u);
        *top = (uintptr_t)u->user_stack;
        return true;
    case WEFT_STACK_OS: {
        if (u->xs && known_xs(m, u->xs) && u->xs->os_stack_lo) {
            *lo = (uintptr_t)u->xs->os_stack_lo;
            *top = *lo + u->xs->os_stack_size;
            return true;
        }
        const struct range *r = sp ? maps_find(m, sp) : NULL;
        if (!r)
            return false;
        *lo = r->lo;
        *top = r->hi;
        /* the main thread: its frames end where the process started (argv and the
         * environment lie above) */
        uintptr_t end = &__libc_stack_end ? (uintptr_t)__libc_stack_end : 0;
        if (end > sp && end <= r->hi)
            *top = (end + 15) & ~(uintptr_t)15;
        return true;
    }
    default: return false;
    }
}

static void dump_unit(FILE *fp, const struct maps *m, weft_unit *u)
{
    bool ult = u->flags & WEFT_U_ULT;
    uint32_t st = weft_atomic_load_acquire(&u->state);
    weft_xstream *me = weft_xs_self();
    fprintf(fp, "=== %s (%p) ===\n", ult ? "ULT" : "tasklet", (void *)u);
    fprintf(fp, "id        : %" PRIu64 "\n", weft_unit_id(u));
    fprintf(fp, "state     : %s%s%s%s\n", state_name(st),
            (weft_atomic_load_relaxed(&u->request) & WEFT_REQ_SUSPENDED) ? " (suspended)" : "",
            (u->flags & WEFT_U_MAIN) ? " (primary ULT)" : "",
            (u->flags & WEFT_U_SCHED) ? " (runs a stacked scheduler)" : "");
    if (u->xs && known_xs(m, u->xs))
        fprintf(fp, "xstream   : rank %d (last)\n", u->xs->rank);
    if (u->pool && known_pool(m, u->pool))
        fprintf(fp, "pool      : id %d\n", u->pool->id);
    if (u->fn) {
        fprintf(fp, "function  : %p", (void *)(uintptr_t)u->fn);
        print_symbol(fp, m, (uintptr_t)u->fn);
        fputc('\n', fp);
    }
    if (!ult) {
        fputs("stack     : none (a tasklet runs on its scheduler's stack)\n", fp);
        return;
    }
    if (st == WEFT_TERMINATED) {
        fputs("stack     : none (terminated; its stack was given back)\n", fp);
        return;
    }
    /* where the saved context is: the caller itself, a suspended context, or none */
    uintptr_t sp = 0;
    bool self = me && me->cur == u;
    if (self)
        sp = (uintptr_t)__builtin_frame_address(0);
    else if (st != WEFT_RUNNING)
        sp = (uintptr_t)u->ctx;
    uintptr_t lo = 0, top = 0;
    bool known = unit_stack(u, m, sp, &lo, &top);
    if (!u->ctx && !self && u->stack_kind != WEFT_STACK_OS) {
        fprintf(fp,
                "stack     : none yet (not started: it gets a stack of %zu bytes when "
                "it first runs)\n",
                u->stack_size);
        return;
    }
    if (known)
        fprintf(fp, "stack     : [%#" PRIxPTR ", %#" PRIxPTR ") %zu bytes, %s%s\n", lo, top,
                (size_t)(top - lo), kind_name(u->stack_kind),
                !(u->stack && u->stack->guarded) ? ""
                : u->stack->guard_inside         ? ", guard page at its bottom"
                                                 : ", guard page below");
    else
        fprintf(fp, "stack     : %s, extent unknown\n", kind_name(u->stack_kind));
    if (st == WEFT_RUNNING && !self) {
        fprintf(fp, "sp        : unknown (running on execution stream %d)\n",
                u->xs && known_xs(m, u->xs) ? u->xs->rank : -1);
        return;
    }
    fprintf(fp, "sp        : %#" PRIxPTR "%s\n", sp, self ? " (the caller itself)" : " (saved)");
    if (!known || sp < lo || sp >= top) {
        fputs("used      : unknown (the saved stack pointer is outside the stack)\n", fp);
        return;
    }
    fprintf(fp, "used      : %zu of %zu bytes\n", (size_t)(top - sp), (size_t)(top - lo));
    /* (helper) core/tool/stack_unwind.h: the frames; the words too with
     * WEFT_STACK_DUMP_WORDS=1, or alone where frames cannot be had */
    if (!self && weft_unwind_print(fp, u->ctx, 64)) {
        const char *w = getenv("WEFT_STACK_DUMP_WORDS");
        if (!w || strcmp(w, "1") != 0)
            return;
        fputs("words     :\n", fp);
    }
    dump_words(fp, m, sp, top);
}

void weft_dump_unit_stack(FILE *fp, weft_unit *u)
{
    struct maps m;
    maps_load(&m);
    dump_unit(fp, &m, u);
    maps_free(&m);
}

/* ---------------------------------------------------------------- public: one, a pool */

WEFT_API int ABT_info_print_thread_stack(FILE *fp, ABT_thread thread)
{
    weft_unit *u = weft_unit_from(thread);
    if (!fp)
        return ABT_ERR_INV_ARG;
    if (!u)
        return ABT_ERR_INV_THREAD;
    weft_dump_unit_stack(fp, u);
    fflush(fp);
    return ABT_SUCCESS;
}

struct pool_dump {
    FILE *fp;
    struct maps m;
};

static void pool_dump_one(void *arg, ABT_thread t)
{
    struct pool_dump *d = arg;
    weft_unit *u = weft_unit_from(t);
    if (u)
        dump_unit(d->fp, &d->m, u);
}

WEFT_API int ABT_info_print_thread_stacks_in_pool(FILE *fp, ABT_pool pool)
{
    weft_pool *p = weft_pool_from(pool);
    if (!fp)
        return ABT_ERR_INV_ARG;
    if (!p)
        return ABT_ERR_INV_POOL;
    if (!p->ops->print_all)
        return ABT_ERR_POOL; /* the pool cannot list its units */
    struct pool_dump d = { .fp = fp };
    maps_load(&d.m);
    fprintf(fp, "== pool (%p) ==\n", (void *)p);
    int r = ABT_pool_print_all_threads(pool, &d, pool_dump_one);
    maps_free(&d.m);
    fflush(fp);
    return r;
}

/* ---------------------------------------------------------------- stop the world */

static _Atomic(FILE *) req_fp;
static _Atomic uint64_t req_timeout_ns; /* UINT64_MAX: wait forever */
static _Atomic(void (*)(ABT_bool, void *)) req_cb;
static _Atomic(void *) req_arg;

static pthread_mutex_t stop_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t stop_cond;
static pthread_once_t stop_once = PTHREAD_ONCE_INIT;
static bool stop_ready;     /* stop_cond is initialised */
static uint32_t stopped;    /* streams waiting at the stop point; stop_lock */
static uint64_t round_done; /* completed dumps; stop_lock */
static uint64_t first_ns;   /* when the first stream of this round stopped */

static void stop_init(void)
{
    pthread_condattr_t a;
    pthread_condattr_init(&a);
    pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
    pthread_cond_init(&stop_cond, &a);
    pthread_condattr_destroy(&a);
    stop_ready = true;
}

/* Live streams (not terminated).  weft_g.lock must be free. */
static uint32_t live_streams(void)
{
    uint32_t n = 0;
    pthread_mutex_lock(&weft_g.lock);
    for (int i = 0; i < weft_g.rank_cap; i++) {
        weft_xstream *x = weft_g.by_rank[i];
        if (x && weft_atomic_load_acquire(&x->state) != WEFT_XS_TERMINATED)
            n++;
    }
    pthread_mutex_unlock(&weft_g.lock);
    return n;
}

/* Wake streams that sleep (idle or in pop_wait), so that they reach their stop point.
 * Lock held. */
static void wake_streams_locked(void)
{
    for (int i = 0; i < weft_g.rank_cap; i++) {
        weft_xstream *x = weft_g.by_rank[i];
        if (!x || weft_atomic_load_acquire(&x->state) == WEFT_XS_TERMINATED)
            continue;
        weft_sched *s = x->main_sched;
        for (int j = 0; s && j < s->num_pools; j++)
            weft_pool_wake_all(s->pools[j]);
        weft_xs_wake(x); /* a sleeping scheduler (core/sched/idle.h) */
    }
}

static void dump_ult_cb(void *desc, void *arg)
{
    weft_unit *u = desc;
    struct pool_dump *d = arg;
    if (u->flags & WEFT_U_ULT) /* free descriptors have flags == 0 */
        dump_unit(d->fp, &d->m, u);
}

static void print_all(FILE *fp, uint32_t nstopped, uint32_t nlive)
{
    char when[64] = "";
    time_t t = time(NULL);
    struct tm tm;
    if (localtime_r(&t, &tm))
        strftime(when, sizeof(when), "%Y/%m/%d-%H:%M:%S", &tm);
    fprintf(fp, "Start of ULT stacks dump %s\n", when);
    if (nstopped < nlive)
        fprintf(fp,
                "(time-out: %u of %u execution streams stopped; the stacks of the "
                "others may be changing)\n",
                nstopped, nlive);
    pthread_mutex_lock(&weft_g.lock);
    for (int i = 0; i < weft_g.rank_cap; i++) {
        weft_xstream *x = weft_g.by_rank[i];
        if (!x)
            continue;
        fprintf(fp, "= xstream[%d] (%p) =\n%s, %s\nmain_sched : %p\n", x->rank, (void *)x,
                x->primary ? "primary" : "secondary",
                weft_atomic_load_seq_cst(&x->state) == WEFT_XS_TERMINATED ? "terminated"
                                                                          : "running",
                (void *)x->main_sched);
        weft_sched *s = x->main_sched;
        for (int j = 0; s && j < s->num_pools; j++)
            fprintf(fp, "  pools[%d] : %p (id %d)\n", j, (void *)s->pools[j], s->pools[j]->id);
    }
    weft_unit *m = weft_g.primary ? weft_g.primary->main_unit : NULL;
    pthread_mutex_unlock(&weft_g.lock);
    struct pool_dump d = { .fp = fp };
    maps_load(&d.m);
    if (m)
        dump_unit(fp, &d.m, m);
    weft_desc_foreach(dump_ult_cb, &d);
    maps_free(&d.m);
    fprintf(fp, "End of ULT stacks dump %s\n", when);
    fflush(fp);
}

void weft_dump_stop(void)
{
    weft_xstream *xs = weft_xs_self();
    if (!xs || !xs->sched || xs->cur != xs->sched->unit)
        return; /* only a scheduler is at a safe point */
    pthread_once(&stop_once, stop_init);
    pthread_mutex_lock(&stop_lock);
    if (!weft_atomic_load_acquire(&weft_dump_pending)) {
        pthread_mutex_unlock(&stop_lock);
        return;
    }
    uint64_t my_round = round_done;
    if (stopped++ == 0) {
        first_ns = weft_clock_ns();
        pthread_mutex_lock(&weft_g.lock);
        wake_streams_locked();
        pthread_mutex_unlock(&weft_g.lock);
    }
    while (round_done == my_round) {
        uint32_t live = live_streams();
        uint64_t to = weft_atomic_load_relaxed(&req_timeout_ns);
        bool all = stopped >= live;
        if (all || (to != UINT64_MAX && weft_clock_ns() - first_ns >= to)) {
            /* this stream prints; a trigger from now on starts a new round */
            weft_atomic_store_relaxed(&weft_dump_pending, 0);
            FILE *fp = weft_atomic_load_relaxed(&req_fp);
            void (*cb)(ABT_bool, void *) = weft_atomic_load_relaxed(&req_cb);
            void *arg = weft_atomic_load_relaxed(&req_arg);
            if (fp)
                print_all(fp, stopped, live);
            if (cb)
                cb(all ? ABT_FALSE : ABT_TRUE, arg);
            stopped = 0;
            round_done++;
            pthread_cond_broadcast(&stop_cond);
            break;
        }
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        ts.tv_nsec += 1000000;
        if (ts.tv_nsec >= 1000000000) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000;
        }
        pthread_cond_timedwait(&stop_cond, &stop_lock, &ts);
    }
    pthread_mutex_unlock(&stop_lock);
}

WEFT_API int ABT_info_trigger_print_all_thread_stacks(FILE *fp, double timeout,
                                                      void (*cb_func)(ABT_bool, void *), void *arg)
{
    if (!weft_initialized())
        return ABT_ERR_UNINITIALIZED;
    uint64_t to = UINT64_MAX;
    if (timeout >= 0)
        to = timeout > 1.0e9 ? UINT64_MAX - 1 : (uint64_t)(timeout * 1.0e9);
    weft_atomic_store_relaxed(&req_fp, fp);
    weft_atomic_store_relaxed(&req_timeout_ns, to);
    weft_atomic_store_relaxed(&req_cb, cb_func);
    weft_atomic_store_relaxed(&req_arg, arg);
    weft_atomic_store_release(&weft_dump_pending, 1);
    /* best effort, without blocking (signal handlers call this): wake sleeping streams */
    if (pthread_mutex_trylock(&weft_g.lock) == 0) {
        wake_streams_locked();
        pthread_mutex_unlock(&weft_g.lock);
    }
    return ABT_SUCCESS;
}

/* fork() child (atfork.c): a stream of the parent may have held the stop lock. */
void weft_dump_atfork_child(void)
{
    pthread_mutex_init(&stop_lock, NULL);
    if (stop_ready)
        stop_init();
    stopped = 0;
    weft_atomic_store_relaxed(&weft_dump_pending, 0);
}
