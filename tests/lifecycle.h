/* tests/lifecycle.h - a tool that checks every work-unit event against the life cycle
 * Argobots documents, for every test of the suite (included by test.h).
 *
 * With WEFT_TEST_LIFECYCLE=1 in the environment (tests/CMakeLists.txt sets it in the
 * AddressSanitizer configuration), test.h turns ABT_init/ABT_finalize into lc_init/
 * lc_finalize: the first ABT_init registers a thread callback for ABT_TOOL_EVENT_THREAD_ALL
 * (tasklets report through the same callback), and the ABT_finalize that really ends the
 * runtime fails the test (exit 1) if any event broke the life cycle.  Each violation is
 * printed when it happens, with the unit's handle and id, its recent events and the
 * offending one.  A test that registers its own tool callback defines TEST_NO_LIFECYCLE
 * before including test.h; registering one without doing so fails the test.
 *
 * The life cycle of a ULT or tasklet, per handle (a handle is reused after FREE):
 *
 *   CREATE -> READY --RUN--> RUNNING --YIELD--> READY
 *                                    --SUSPEND--> BLOCKED --RESUME--> READY
 *                                    --FINISH--> FINISHED
 *             READY --CANCEL--> FINISHED          (cancelled before it ran again)
 *   FINISHED --JOIN--> JOINED --JOIN--> JOINED    (named units only; every join reports)
 *   FINISHED|JOINED --REVIVE--> READY             (named units only; then a fresh RUN)
 *   JOINED --FREE--> gone      (named)      FINISHED|READY --FREE--> gone   (unnamed)
 *
 * and RUN, YIELD, SUSPEND and FINISH are reported on the stream that runs the unit: the
 * callback's xstream argument is the calling stream (ABT_xstream_self), RUN's stream is
 * the one YIELD/SUSPEND/FINISH then report.  Every other event's xstream argument is the
 * caller's stream too (ABT_XSTREAM_NULL for an external thread).  The primary ULT is
 * known from the start as RUNNING on the primary stream.
 *
 * Cost: one striped mutex and a hash lookup per event; the table holds one small record
 * per live unit.  Thread-safe: events of one unit are ordered by the runtime (each event
 * of a unit happens-before the next), records of different units hash to different
 * stripes. */
#ifndef WEFT_TEST_LIFECYCLE_H
#define WEFT_TEST_LIFECYCLE_H

#include <abt.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum lc_state { LC_READY = 1, LC_RUNNING, LC_BLOCKED, LC_FINISHED, LC_JOINED };

#define LC_HIST    16 /* events remembered per unit, for the report */
#define LC_BUCKETS 16384
#define LC_STRIPES 64

struct lc_unit {
    struct lc_unit *next; /* bucket chain */
    ABT_thread h;
    ABT_xstream run_xs; /* stream of the last RUN */
    uint8_t state;
    uint32_t nev; /* events seen; the last LC_HIST are in hist */
    struct {
        uint16_t ev;
        int16_t rank;
    } hist[LC_HIST];
};

static struct {
    pthread_mutex_t stripe[LC_STRIPES];
    struct lc_unit *bucket[LC_BUCKETS];
    atomic_int violations;
    int on;     /* registered for the current runtime */
    int trace;  /* WEFT_TEST_LIFECYCLE_TRACE=1: print every event */
    int hooked; /* atexit and atfork handlers installed */
} lc_g = { .stripe = { [0 ... LC_STRIPES - 1] = PTHREAD_MUTEX_INITIALIZER } };

static inline const char *lc_evname(uint64_t ev)
{
    static const char *const names[] = { "CREATE", "JOIN",   "FREE",  "REVIVE",  "RUN",
                                         "FINISH", "CANCEL", "YIELD", "SUSPEND", "RESUME" };
    for (int i = 0; i < 10; i++)
        if (ev == ((uint64_t)1 << i))
            return names[i];
    return "UNKNOWN-EVENT";
}

static inline const char *lc_statename(int s)
{
    static const char *const names[] = { "none (not created)", "READY", "RUNNING", "BLOCKED",
                                         "FINISHED",           "JOINED" };
    return s >= 0 && s <= LC_JOINED ? names[s] : "?";
}

static inline size_t lc_hash(ABT_thread h)
{
    uint64_t x = (uint64_t)(uintptr_t)h;
    x ^= x >> 17;
    x *= 0x9e3779b97f4a7c15ull;
    return (size_t)(x >> 40) & (LC_BUCKETS - 1);
}

static inline int lc_rank(ABT_xstream xs)
{
    int r = -1;
    if (xs != ABT_XSTREAM_NULL && ABT_xstream_get_rank(xs, &r) != ABT_SUCCESS)
        r = -2;
    return r;
}

static inline void lc_record(struct lc_unit *u, uint64_t ev, ABT_xstream xs)
{
    int i = 0;
    while (i < 16 && ev != ((uint64_t)1 << i))
        i++;
    u->hist[u->nev % LC_HIST].ev = (uint16_t)i;
    u->hist[u->nev % LC_HIST].rank = (int16_t)lc_rank(xs);
    u->nev++;
}

/* Print one violation (the unit's stripe lock is held).  u may be NULL: no record. */
static inline void lc_violation(struct lc_unit *u, ABT_thread h, uint64_t ev, ABT_xstream xs,
                                const char *why)
{
    int n = atomic_fetch_add(&lc_g.violations, 1);
    if (n >= 20)
        return; /* enough to debug; the count still fails the test */
    char seq[LC_HIST * 16] = "";
    size_t len = 0;
    if (u) {
        uint32_t first = u->nev > LC_HIST ? u->nev - LC_HIST : 0;
        if (first)
            len += (size_t)snprintf(seq + len, sizeof(seq) - len, "... ");
        for (uint32_t k = first; k < u->nev && len < sizeof(seq); k++) {
            int rank = u->hist[k % LC_HIST].rank;
            const char *name = lc_evname((uint64_t)1 << u->hist[k % LC_HIST].ev);
            if (rank >= 0)
                len += (size_t)snprintf(seq + len, sizeof(seq) - len, "%s@xs%d ", name, rank);
            else
                len += (size_t)snprintf(seq + len, sizeof(seq) - len, "%s@ext ", name);
        }
    }
    ABT_unit_id id = 0;
    ABT_thread_get_id(h, &id);
    ABT_bool unnamed = ABT_FALSE;
    ABT_thread_is_unnamed(h, &unnamed);
    fprintf(stderr,
            "lifecycle: unit %p (id %llu, %s): event %s reported on xstream %d is a "
            "violation: %s\n  state before: %s; events so far: %s\n",
            (void *)h, (unsigned long long)id, unnamed ? "unnamed" : "named", lc_evname(ev),
            lc_rank(xs), why, lc_statename(u ? u->state : 0), u ? seq : "(none)");
}

static void lc_callback(ABT_thread h, ABT_xstream xs, uint64_t ev, ABT_tool_context ctx, void *arg)
{
    (void)ctx;
    (void)arg;
    ABT_xstream self = ABT_XSTREAM_NULL;
    if (ABT_xstream_self(&self) != ABT_SUCCESS)
        self = ABT_XSTREAM_NULL;
    ABT_bool unnamed = ABT_FALSE;
    ABT_thread_is_unnamed(h, &unnamed);
    size_t b = lc_hash(h);
    pthread_mutex_t *lock = &lc_g.stripe[b % LC_STRIPES];
    pthread_mutex_lock(lock);
    struct lc_unit **pp = &lc_g.bucket[b], *u;
    for (u = *pp; u && u->h != h; u = u->next)
        pp = &u->next;
    const char *bad = NULL;
    int next = 0; /* 0: keep the state; -1: forget the unit */
    if (ev == ABT_TOOL_EVENT_THREAD_CREATE) {
        if (u) {
            bad = "CREATE for a handle that is alive (never freed)";
        } else {
            u = calloc(1, sizeof(*u));
            if (!u) {
                lc_violation(NULL, h, ev, xs, "the checker ran out of memory");
                pthread_mutex_unlock(lock);
                return;
            }
            u->h = h;
            u->next = lc_g.bucket[b];
            lc_g.bucket[b] = u;
            next = LC_READY;
        }
    } else if (!u) {
        lc_violation(NULL, h, ev, xs,
                     "event for a unit that was never created "
                     "(or is already freed)");
        pthread_mutex_unlock(lock);
        return;
    } else {
        int s = u->state;
        switch (ev) {
        case ABT_TOOL_EVENT_THREAD_RUN:
            if (s != LC_READY)
                bad = "RUN for a unit that is not ready";
            else if (xs == ABT_XSTREAM_NULL)
                bad = "RUN reported without a stream";
            u->run_xs = xs;
            next = LC_RUNNING;
            break;
        case ABT_TOOL_EVENT_THREAD_YIELD:
        case ABT_TOOL_EVENT_THREAD_SUSPEND:
        case ABT_TOOL_EVENT_THREAD_FINISH:
            if (s != LC_RUNNING)
                bad = "only a running unit yields, suspends or finishes";
            else if (xs != u->run_xs)
                bad = "reported on another stream than the one the unit runs on";
            next = ev == ABT_TOOL_EVENT_THREAD_YIELD     ? LC_READY
                   : ev == ABT_TOOL_EVENT_THREAD_SUSPEND ? LC_BLOCKED
                                                         : LC_FINISHED;
            break;
        case ABT_TOOL_EVENT_THREAD_RESUME:
            if (s != LC_BLOCKED)
                bad = "RESUME for a unit that is not suspended";
            next = LC_READY;
            break;
        case ABT_TOOL_EVENT_THREAD_CANCEL:
            if (s != LC_READY)
                bad = "CANCEL for a unit that is not ready";
            next = LC_FINISHED;
            break;
        case ABT_TOOL_EVENT_THREAD_JOIN:
            if (unnamed)
                bad = "JOIN for an unnamed unit";
            else if (s != LC_FINISHED && s != LC_JOINED)
                bad = "JOIN before the unit finished";
            next = LC_JOINED;
            break;
        case ABT_TOOL_EVENT_THREAD_REVIVE:
            if (unnamed)
                bad = "REVIVE for an unnamed unit";
            else if (s != LC_FINISHED && s != LC_JOINED)
                bad = "REVIVE before the unit finished";
            next = LC_READY;
            break;
        case ABT_TOOL_EVENT_THREAD_FREE:
            if (unnamed ? (s != LC_FINISHED && s != LC_READY) : s != LC_JOINED)
                bad = unnamed ? "FREE of an unnamed unit that is running or blocked"
                              : "FREE of a named unit that was not joined";
            next = -1;
            break;
        default: bad = "unknown event code"; break;
        }
    }
    if (lc_g.trace)
        fprintf(stderr, "lifecycle: %p %s xs%d (state %s)\n", (void *)h, lc_evname(ev), lc_rank(xs),
                lc_statename(u ? u->state : 0));
    if (!bad && xs != self)
        bad = "the xstream argument is not the stream that reports the event";
    if (bad) {
        lc_record(u, ev, xs);
        lc_violation(u, h, ev, xs, bad);
    } else {
        lc_record(u, ev, xs);
    }
    if (next > 0) {
        u->state = (uint8_t)next;
    } else if (next < 0) {
        *pp = u->next;
        free(u);
    }
    pthread_mutex_unlock(lock);
}

/* Forget every record (the runtime is gone, or a new one starts). */
static inline void lc_clear(void)
{
    for (size_t b = 0; b < LC_BUCKETS; b++) {
        struct lc_unit *u = lc_g.bucket[b];
        lc_g.bucket[b] = NULL;
        while (u) {
            struct lc_unit *n = u->next;
            free(u);
            u = n;
        }
    }
}

/* A fork in another thread must not leave a stripe locked in the child. */
static void lc_fork_prepare(void)
{
    for (int i = 0; i < LC_STRIPES; i++)
        pthread_mutex_lock(&lc_g.stripe[i]);
}

static void lc_fork_done(void)
{
    for (int i = LC_STRIPES - 1; i >= 0; i--)
        pthread_mutex_unlock(&lc_g.stripe[i]);
}

/* A test that ends without ABT_finalize still fails on a violation. */
static void lc_atexit(void)
{
    if (atomic_load(&lc_g.violations) > 0) {
        fprintf(stderr, "lifecycle: %d tool event(s) broke the work-unit life cycle\n",
                atomic_load(&lc_g.violations));
        _exit(1);
    }
}

static inline int lc_enabled(void)
{
#ifdef TEST_LIFECYCLE_ALWAYS
    return 1; /* the focused tool_lifecycle_* tests */
#endif
    const char *e = getenv("WEFT_TEST_LIFECYCLE");
    return e && strcmp(e, "1") == 0;
}

static inline int lc_init(int argc, char **argv)
{
    int was = ABT_initialized() == ABT_SUCCESS;
    int r = ABT_init(argc, argv);
    if (r != ABT_SUCCESS || was || !lc_enabled())
        return r;
    ABT_bool tool = ABT_FALSE;
    ABT_info_query_config(ABT_INFO_QUERY_KIND_ENABLED_TOOL, &tool);
    if (!tool)
        return r;
    if (!lc_g.hooked) {
        lc_g.hooked = 1;
        atexit(lc_atexit);
        pthread_atfork(lc_fork_prepare, lc_fork_done, lc_fork_done);
    }
    lc_clear();
    lc_g.trace = getenv("WEFT_TEST_LIFECYCLE_TRACE") != NULL;
    ABT_thread primary;
    ABT_xstream xs;
    if (ABT_thread_self(&primary) == ABT_SUCCESS && ABT_xstream_self(&xs) == ABT_SUCCESS) {
        struct lc_unit *u = calloc(1, sizeof(*u));
        if (u) {
            u->h = primary;
            u->state = LC_RUNNING;
            u->run_xs = xs;
            size_t b = lc_hash(primary);
            u->next = lc_g.bucket[b];
            lc_g.bucket[b] = u;
        }
    }
    if (ABT_tool_register_thread_callback(lc_callback, ABT_TOOL_EVENT_THREAD_ALL, NULL) ==
        ABT_SUCCESS)
        lc_g.on = 1;
    return r;
}

static inline int lc_finalize(void)
{
    int r = ABT_finalize();
    if (!lc_g.on || ABT_initialized() == ABT_SUCCESS)
        return r; /* a nested init remains */
    lc_g.on = 0;
    lc_clear();
    int n = atomic_load(&lc_g.violations);
    if (n > 0) {
        fprintf(stderr,
                "lifecycle: FAIL: %d tool event(s) broke the work-unit life cycle "
                "(see above)\n",
                n);
        exit(1);
    }
    return r;
}

/* For the focused tests: is the checker on, how many violations so far, and the events
 * of a live unit as space-separated names (the last LC_HIST; "" if it is not tracked). */
static inline int lc_active(void) { return lc_g.on; }
static inline int lc_violations(void) { return atomic_load(&lc_g.violations); }

static inline const char *lc_history(ABT_thread h)
{
    static char buf[LC_HIST * 10];
    size_t b = lc_hash(h), len = 0;
    buf[0] = 0;
    pthread_mutex_lock(&lc_g.stripe[b % LC_STRIPES]);
    struct lc_unit *u = lc_g.bucket[b];
    while (u && u->h != h)
        u = u->next;
    if (u) {
        uint32_t first = u->nev > LC_HIST ? u->nev - LC_HIST : 0;
        for (uint32_t k = first; k < u->nev && len < sizeof(buf); k++)
            len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s", k > first ? " " : "",
                                    lc_evname((uint64_t)1 << u->hist[k % LC_HIST].ev));
    }
    pthread_mutex_unlock(&lc_g.stripe[b % LC_STRIPES]);
    return buf;
}

/* The recorded events of h end with `want` (lc_history's format). */
#define LC_CHECK_TAIL(h, want)                                                                   \
    do {                                                                                         \
        const char *got_ = lc_history(h);                                                        \
        size_t gl_ = strlen(got_), wl_ = strlen(want);                                           \
        if (gl_ < wl_ || strcmp(got_ + gl_ - wl_, want) != 0 ||                                  \
            (gl_ > wl_ && got_[gl_ - wl_ - 1] != ' '))                                           \
            TEST_FAIL("events of %s: \"%s\", expected them to end with \"%s\"", #h, got_, want); \
    } while (0)

/* Registering another callback would silently switch the checker off. */
static inline int lc_register_thread_callback(ABT_tool_thread_callback_fn cb, uint64_t mask,
                                              void *arg)
{
    if (lc_g.on) {
        fprintf(stderr, "lifecycle: this test registers its own tool callback: define "
                        "TEST_NO_LIFECYCLE before including test.h\n");
        exit(1);
    }
    return ABT_tool_register_thread_callback(cb, mask, arg);
}

#define ABT_init(argc, argv) lc_init((argc), (argv))
#define ABT_finalize()       lc_finalize()
#define ABT_tool_register_thread_callback(cb, mask, arg) \
    lc_register_thread_callback((cb), (mask), (arg))

#endif
