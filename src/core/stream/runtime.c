/* src/core/stream/runtime.c - ABT_init / ABT_finalize, the configuration read from the
 * environment, and the registries of streams, pools and schedulers.
 *
 * ABT_init makes the calling OS thread the primary stream (rank 0) and the caller the
 * primary ULT, running on the thread's own stack; the primary stream's scheduler gets a
 * stack of its own and starts the first time the primary ULT blocks or yields.  Init and
 * finalize nest (a counter).  The last ABT_finalize, called by the primary ULT: asks
 * every secondary stream to finish its work and joins and frees it, lets the primary
 * scheduler run until its pools are empty, then frees everything the runtime holds. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/stream/affinity.h"
#include "core/stream/atfork.h"
#include "core/stream/handoff.h"
#include "core/unit/fork.h"
#include "core/tool/sanitizer.h"
#include "core/tool/stack_dump.h"
#include "core/stream/watchdog.h"
#include "core/tool/tool.h"
#include "core/tool/trace.h"
#include "core/unit/unit.h"
#include "core/stream/xstream.h"
#include "core/tool/overflow.h"

struct weft_global weft_g = { .lock = PTHREAD_MUTEX_INITIALIZER, .next_unit_id = 1 };
__thread weft_xstream *weft_tls_xs __attribute__((tls_model("initial-exec")));

static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;

__attribute__((noinline)) weft_xstream *weft_xs_reload(void)
{
    weft_xstream *xs;
    __asm__ __volatile__("" ::: "memory");
    xs = weft_tls_xs;
    return xs;
}

void weft_fatal(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("weft: fatal: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}

void weft_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("weft: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* ---------------------------------------------------------------- environment */

/* ABT_<name> wins over the legacy ABT_ENV_<name>. */
static const char *env(const char *name)
{
    char buf[128];
    snprintf(buf, sizeof(buf), "ABT_%s", name);
    const char *v = getenv(buf);
    if (v)
        return v;
    snprintf(buf, sizeof(buf), "ABT_ENV_%s", name);
    return getenv(buf);
}

/* 1 true, 0 false, -1 not a boolean */
static int parse_bool(const char *v)
{
    static const char *yes[] = { "1", "y", "yes", "true", "on" };
    static const char *no[] = { "0", "n", "no", "false", "off" };
    for (size_t i = 0; i < sizeof(yes) / sizeof(*yes); i++) {
        if (!strcasecmp(v, yes[i]))
            return 1;
        if (!strcasecmp(v, no[i]))
            return 0;
    }
    return -1;
}

static bool env_bool(const char *name, bool dflt)
{
    const char *v = env(name);
    int b = v ? parse_bool(v) : -1;
    return b < 0 ? dflt : b;
}

static uint64_t env_u64(const char *name, uint64_t dflt, uint64_t min, uint64_t max)
{
    const char *v = env(name);
    if (!v || !*v)
        return dflt;
    char *end;
    unsigned long long x = strtoull(v, &end, 10);
    if (*end || x < min || x > max)
        return dflt;
    return x;
}

static uint32_t pow2_at_least(uint32_t v)
{
    uint32_t p = 1;
    while (p < v && p < (1u << 30))
        p <<= 1;
    return p;
}

/* ABT_SET_AFFINITY: the CPU-list parser is in affinity.c (grammar in affinity.h). */

void weft_config_load(struct weft_config *c)
{
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    long pg = sysconf(_SC_PAGESIZE);
    memset(c, 0, sizeof(*c));
    c->thread_stacksize = env_u64("THREAD_STACKSIZE", 16384, 4096, WEFT_STACKSIZE_MAX);
    c->thread_stacksize = (c->thread_stacksize + 15) & ~(size_t)15;
    c->sched_stacksize = env_u64("SCHED_STACKSIZE", 4u << 20, 16384, WEFT_STACKSIZE_MAX);
    c->sched_event_freq = (uint32_t)env_u64("SCHED_EVENT_FREQ", 50, 1, UINT32_MAX);
    c->sched_sleep_nsec = env_u64("SCHED_SLEEP_NSEC", 100, 0, UINT64_MAX);
    c->sched_spin_nsec = env_u64("SCHED_SPIN_NSEC", 50000, 0, 1000000000u);
    c->sched_max_spinners = (uint32_t)env_u64("SCHED_MAX_SPINNERS", 1, 0, 65536);
    c->max_xstreams = (int)env_u64("MAX_NUM_XSTREAMS", ncpu > 0 ? (uint64_t)ncpu : 1, 1, 65536);
    c->key_table_size = pow2_at_least((uint32_t)env_u64("KEY_TABLE_SIZE", 4, 1, 1u << 20));
    c->mem_max_stacks = (uint32_t)env_u64("MEM_MAX_NUM_STACKS", 1024, 0, UINT32_MAX);
    c->mem_max_descs = (uint32_t)env_u64("MEM_MAX_NUM_DESCS", 4096, 0, UINT32_MAX);
    c->huge_page_size = env_u64("HUGE_PAGE_SIZE", 2u << 20, 4096, (uint64_t)1 << 40);
    c->sys_page_size = env_u64("SYS_PAGE_SIZE", pg > 0 ? (uint64_t)pg : 4096, 512, 1u << 30);
    c->mem_page_size = env_u64("MEM_PAGE_SIZE", 8u << 20, 4096, (uint64_t)1 << 40);
    c->mem_stack_page_size = env_u64("MEM_STACK_PAGE_SIZE", 8u << 20, 4096, (uint64_t)1 << 40);
    c->mem_trim_ms = env_u64("MEM_TRIM_MS", 100, 0, (uint64_t)1 << 32);
    c->mutex_max_handovers = (uint32_t)env_u64("MUTEX_MAX_HANDOVERS", 64, 0, UINT32_MAX);
    c->mutex_max_wakeups = (uint32_t)env_u64("MUTEX_MAX_WAKEUPS", 1, 0, UINT32_MAX);
    c->print_config = env_bool("PRINT_CONFIG", false);
    const char *pe = getenv("WEFT_PREEMPT");
    if (pe && *pe) {
        char *end;
        unsigned long long us = strtoull(pe, &end, 10);
        if (!*end && us <= WEFT_PREEMPT_MAX_US)
            c->preempt_ns = us * 1000u;
    }
    const char *bh = getenv("WEFT_BLOCKING_HANDOFF_US");
    c->blocking_handoff_ns = 20000;
    if (bh && *bh) {
        char *end;
        unsigned long long us = strtoull(bh, &end, 10);
        if (!*end && us <= 10000000u)
            c->blocking_handoff_ns = us * 1000u;
    }
    const char *lp = env("MEM_LP_ALLOC");
    c->lp_alloc = WEFT_LP_MALLOC;
    if (lp) {
        if (!strcasecmp(lp, "mmap_rp"))
            c->lp_alloc = WEFT_LP_MMAP_RP;
        else if (!strcasecmp(lp, "mmap_hp_rp"))
            c->lp_alloc = WEFT_LP_MMAP_HP_RP;
        else if (!strcasecmp(lp, "mmap_hp_thp"))
            c->lp_alloc = WEFT_LP_MMAP_HP_THP;
        else if (!strcasecmp(lp, "thp"))
            c->lp_alloc = WEFT_LP_THP;
    }
    const char *so = env("STACK_OVERFLOW_CHECK");
    /* default: guard page + canary (docs/design/tool.md, "Stack-overflow detection") */
    c->stack_overflow_check = 2;
    /* asked for by name, a guard page right below every ULT's own stack: no lending */
    c->lend_stacks = !(so && (!strcasecmp(so, "mprotect") || !strcasecmp(so, "mprotect_strict")));
    /* ... in the stack's own bytes, as Argobots lays it out (core/tool/overflow.h) */
    c->guard_in_stack = !c->lend_stacks;
    if (so) {
        if (!strcasecmp(so, "none") || !strcasecmp(so, "0") || !strcasecmp(so, "off") ||
            !strcasecmp(so, "no") || !strcasecmp(so, "false"))
            c->stack_overflow_check = 0;
        else if (!strcasecmp(so, "canary"))
            c->stack_overflow_check = 1;
        else if (!strcasecmp(so, "mprotect_strict"))
            c->stack_overflow_check = 3;
    }
    /* the two features Argobots' configure switches on (--enable-tool, --enable-affinity):
     * the build's default, which the environment overrides */
    const char *t = getenv("WEFT_ENABLE_TOOL");
    int tb = t ? parse_bool(t) : -1;
    c->tool = tb < 0 ? WEFT_ENABLE_TOOL_DEFAULT : tb;
    if (c->tool && !WEFT_TOOL) {
        weft_warn("WEFT_ENABLE_TOOL=%s: this build has no tool interface (-DWEFT_TOOL=OFF)",
                  t ? t : "ON");
        c->tool = false;
    }
    const char *a = getenv("WEFT_ENABLE_AFFINITY");
    int ab = a ? parse_bool(a) : -1;
    c->affinity = ab < 0 ? WEFT_ENABLE_AFFINITY_DEFAULT : ab;
    weft_affinity_config(c, env("SET_AFFINITY")); /* (helper) affinity.c */
}

void weft_config_print(FILE *fp, const struct weft_config *c)
{
    static const char *lp[] = { "malloc", "mmap_rp", "mmap_hp_rp", "mmap_hp_thp", "thp" };
    static const char *so[] = { "none", "canary", "mprotect (guard page + canary)",
                                "mprotect_strict (guard page required + canary)" };
    fprintf(fp, "weft %s configuration (Argobots %s API):\n", ABT_VERSION, ABT_VERSION);
    fprintf(fp, " - context switch: %s\n", WEFT_CONTEXT_UCONTEXT ? "ucontext" : "assembly");
    fprintf(fp, " - max. # of execution streams: %d\n", c->max_xstreams);
    fprintf(fp, " - default ULT stack size: %zu bytes\n", c->thread_stacksize);
    fprintf(fp, " - default scheduler stack size: %zu bytes\n", c->sched_stacksize);
    fprintf(fp, " - scheduler event check frequency: %u\n", c->sched_event_freq);
    fprintf(fp, " - scheduler sleep: %llu ns\n", (unsigned long long)c->sched_sleep_nsec);
    fprintf(fp, " - idle spin: %llu ns, at most %u streams at a time\n",
            (unsigned long long)c->sched_spin_nsec, c->sched_max_spinners);
    fprintf(fp, " - tool interface (WEFT_ENABLE_TOOL): %s\n",
            c->tool     ? "on"
            : WEFT_TOOL ? "off"
                        : "off (compiled out: -DWEFT_TOOL=OFF)");
    fprintf(fp, " - affinity (WEFT_ENABLE_AFFINITY): %s\n", c->affinity ? "on" : "off");
    fprintf(fp, " - set affinity (ABT_SET_AFFINITY): %s\n", c->set_affinity ? "yes" : "no");
    fprintf(fp, " - key table size: %u\n", c->key_table_size);
    fprintf(fp, " - stack cache per stream: %u stacks\n", c->mem_max_stacks);
    fprintf(fp, " - descriptor cache per stream: %u descriptors\n", c->mem_max_descs);
    if (c->mem_trim_ms)
        fprintf(fp, " - memory trimmed after bursts: every %llu ms\n",
                (unsigned long long)c->mem_trim_ms);
    else
        fprintf(fp, " - memory trimmed after bursts: never\n");
    fprintf(fp, " - large page allocation: %s\n", lp[c->lp_alloc]);
    fprintf(fp, " - huge page size: %zu bytes\n", c->huge_page_size);
    fprintf(fp, " - stack overflow check: %s\n", so[c->stack_overflow_check]);
    fprintf(fp, " - joiners lend their stacks to fresh ULTs: %s\n",
            c->lend_stacks ? (c->lend_canary ? "yes (canary at the ULT's stack size)" : "yes")
                           : "no");
    if (c->blocking_handoff_ns)
        fprintf(fp, " - blocking calls handed off after: %llu us (WEFT_BLOCKING_HANDOFF_US)\n",
                (unsigned long long)(c->blocking_handoff_ns / 1000u));
    else
        fprintf(fp, " - blocking calls handed off: never (WEFT_BLOCKING_HANDOFF_US=0)\n");
    if (c->preempt_ns)
        fprintf(fp, " - preemption: after %llu us without a switch (WEFT_PREEMPT)\n",
                (unsigned long long)(c->preempt_ns / 1000u));
    fprintf(fp, " - fork-join technique (WEFT_FORK): %s\n",
            weft_fork_name(weft_fork_of(c->fork_flags)));
    fprintf(fp, " - valgrind support: %s\n", WEFT_USE_VALGRIND ? "yes" : "no");
    weft_trace_print_config(fp);
}

/* ---------------------------------------------------------------- registries */

#define REGISTRY_ADD(head, x)       \
    do {                            \
        (x)->all_prev = NULL;       \
        (x)->all_next = (head);     \
        if (head)                   \
            (head)->all_prev = (x); \
        (head) = (x);               \
    } while (0)

#define REGISTRY_DEL(head, x)                        \
    do {                                             \
        if ((x)->all_prev)                           \
            (x)->all_prev->all_next = (x)->all_next; \
        else                                         \
            (head) = (x)->all_next;                  \
        if ((x)->all_next)                           \
            (x)->all_next->all_prev = (x)->all_prev; \
    } while (0)

bool weft_rank_reserve(int rank)
{
    if (rank < weft_g.rank_cap)
        return true;
    int cap = rank + 1; /* the reported maximum is the highest rank + 1 */
    weft_xstream **n = realloc(weft_g.by_rank, (size_t)cap * sizeof(*n));
    if (!n)
        return false;
    memset(n + weft_g.rank_cap, 0, (size_t)(cap - weft_g.rank_cap) * sizeof(*n));
    weft_g.by_rank = n;
    weft_g.rank_cap = cap;
    return true;
}

void weft_registry_add_pool(weft_pool *p) { REGISTRY_ADD(weft_g.pools, p); }
void weft_registry_del_pool(weft_pool *p) { REGISTRY_DEL(weft_g.pools, p); }
void weft_registry_add_sched(weft_sched *s) { REGISTRY_ADD(weft_g.scheds, s); }
void weft_registry_del_sched(weft_sched *s) { REGISTRY_DEL(weft_g.scheds, s); }

/* ---------------------------------------------------------------- init / finalize */

static void (*at_finalize[WEFT_MAX_AT_FINALIZE])(void); /* written under at_fin_lock */
static _Atomic int num_at_finalize;
static pthread_mutex_t at_fin_lock = PTHREAD_MUTEX_INITIALIZER;

bool weft_at_finalize(void (*fn)(void))
{
    bool ok = true;
    pthread_mutex_lock(&at_fin_lock);
    int n = weft_atomic_load_relaxed(&num_at_finalize), i = 0;
    while (i < n && at_finalize[i] != fn)
        i++;
    if (i == n) {
        if (n < WEFT_MAX_AT_FINALIZE) {
            at_finalize[n] = fn;
            weft_atomic_store_release(&num_at_finalize, n + 1);
        } else {
            ok = false;
        }
    }
    pthread_mutex_unlock(&at_fin_lock);
    return ok;
}

static void free_config(void) { weft_affinity_config_free(&weft_g.cfg); }

static int runtime_init(void)
{
    int r = ABT_ERR_MEM;
    weft_config_load(&weft_g.cfg);
    if ((r = weft_fork_config(getenv("WEFT_FORK"), &weft_g.cfg.fork_flags)) != ABT_SUCCESS) {
        free_config();
        return r;
    }
    weft_tool_init(weft_g.cfg.tool); /* (helper) tool.c */
    r = ABT_ERR_MEM;
    /* a spinner's place is left taken if the primary ULT finalized while the primary
     * scheduler, which handed it over, was spinning (core/sched/idle.c) */
    weft_sched_idle_reset();
    weft_g.rank_cap = weft_g.cfg.max_xstreams;
    weft_g.by_rank = calloc((size_t)weft_g.rank_cap, sizeof(weft_xstream *));
    weft_xstream *xs = weft_xstream_alloc();
    weft_unit *m = aligned_alloc(WEFT_CACHE_LINE, sizeof(weft_unit));
    if (!weft_g.by_rank || !xs || !m)
        goto fail_alloc;
    weft_g.cfg.lend_canary = weft_overflow_canary_wanted();
    weft_mem_init(&(struct weft_mem_config){
        .desc_size = sizeof(weft_unit),
        .desc_init = weft_unit_handle_init,
        .thread_stacksize = weft_g.cfg.thread_stacksize,
        .big_stacksize = weft_g.cfg.sched_stacksize,
        .max_descs = weft_g.cfg.mem_max_descs,
        .max_stacks = weft_g.cfg.mem_max_stacks,
        .lp_alloc = weft_g.cfg.lp_alloc,
        .huge_page_size = weft_g.cfg.huge_page_size,
        .sys_page_size = weft_g.cfg.sys_page_size,
        .stack_page_size = weft_g.cfg.mem_stack_page_size,
        .guard = weft_g.cfg.stack_overflow_check == 3 ? 2 : weft_g.cfg.stack_overflow_check == 2,
        .guard_inside = weft_g.cfg.guard_in_stack,
        .canary = weft_overflow_canary_wanted(), /* not under valgrind */
        .trim_ns = weft_g.cfg.mem_trim_ms * 1000000u,
    });
    weft_sched *s;
    if ((r = weft_sched_create_predef(ABT_SCHED_BASIC, 0, NULL, ABT_SCHED_CONFIG_NULL, true, &s)) !=
        ABT_SUCCESS)
        goto fail_alloc;
    s->stack = weft_stack_alloc_slow(NULL, weft_g.cfg.sched_stacksize);
    if (!s->stack) {
        r = ABT_ERR_MEM;
        goto fail_sched;
    }
    memset(m, 0, sizeof(*m));
    weft_unit_handle_init(m);
    m->flags = WEFT_U_ULT | WEFT_U_MAIN | WEFT_U_NAMED;
    m->stack_kind = WEFT_STACK_OS;
    m->pool = s->pools[0];
    m->xs = xs;
    m->fn = NULL;
    weft_atomic_store_seq_cst(&m->state, WEFT_RUNNING);
    m->tsan_fiber = weft_tsan_fiber_current();

    xs->primary = true;
    xs->rank = 0;
    xs->cpubind = -1;
    xs->thread = pthread_self();
    weft_atomic_store_seq_cst(&xs->state, WEFT_XS_RUNNING);
    xs->main_sched = s;
    xs->sched = s;
    xs->main_unit = m;
    xs->cur = m;
    s->use = WEFT_SCHED_MAIN;
    s->xs = xs;
    if (WEFT_TSAN)
        s->tsan_fiber = weft_tsan_fiber_create();
    weft_xstream_note_os_stack(xs);
    /* the floor of its stack (core/unit/switch.h, unit_stack_floor): unknown, an address it has
     * reached is a floor that is safe to lend stack down to */
    m->user_stack = xs->os_stack_lo ? xs->os_stack_lo : __builtin_frame_address(0);
    weft_g.by_rank[0] = xs;
    weft_g.num_xstreams = 1;
    weft_g.primary = xs;
    weft_tls_xs = xs;
    weft_trace_init(); /* WEFT_TRACE; its writer thread starts before any binding */
    weft_watchdog_init();
    if (weft_g.cfg.set_affinity)
        weft_xstream_apply_affinity(xs);
    weft_overflow_init(); /* (helper) mem/overflow.c: ABT_STACK_OVERFLOW_CHECK */
    weft_fork_init();     /* (helper) core/stream/atfork.c: pthread_atfork handlers */
    return ABT_SUCCESS;

fail_sched:
    weft_sched_destroy(s);
fail_alloc:
    free(m);
    free(xs);
    free(weft_g.by_rank);
    weft_g.by_rank = NULL;
    free_config();
    return r;
}

WEFT_API int ABT_init(int argc, char **argv)
{
    (void)argc, (void)argv;
    pthread_mutex_lock(&init_lock);
    int n = weft_atomic_load_seq_cst(&weft_g.init_count);
    int r = ABT_SUCCESS;
    if (n == 0)
        r = runtime_init();
    if (r == ABT_SUCCESS)
        weft_atomic_store_release(&weft_g.init_count, n + 1);
    pthread_mutex_unlock(&init_lock);
    if (r == ABT_SUCCESS && n == 0)
        weft_preempt_init(); /* WEFT_PREEMPT: the monitor samples every stream */
    if (r == ABT_SUCCESS && n == 0 && weft_g.cfg.print_config)
        weft_config_print(stdout, &weft_g.cfg);
    return r;
}

WEFT_API int ABT_initialized(void)
{
    return weft_initialized() ? ABT_SUCCESS : ABT_ERR_UNINITIALIZED;
}

static void runtime_free(void)
{
    weft_xstream *xs = weft_g.primary;
    weft_unit *m = xs->main_unit;
    weft_unit_run_key_dtors(m);
    weft_sched *s = xs->main_sched;
    s->use = WEFT_SCHED_UNUSED;
    weft_tsan_fiber_destroy(s->tsan_fiber);
    weft_pool_await_holds(); /* an external thread's push may still be notifying (pool.h) */
    weft_sched_destroy(s);
    /* whatever the program created and did not free */
    while (weft_g.scheds)
        weft_sched_destroy(weft_g.scheds);
    while (weft_g.pools)
        weft_pool_destroy(weft_g.pools);
    weft_mem_flush(&xs->cache);
    weft_mem_finalize();
    for (int i = 0; i < weft_atomic_load_acquire(&num_at_finalize); i++)
        at_finalize[i]();
    weft_overflow_finalize(); /* (helper) mem/overflow.c */
    weft_affinity_finalize(); /* (helper) affinity.c: the primary thread's CPUs back */
    weft_atomic_store_seq_cst(&weft_dump_pending, 0); /* (helper) a stack dump nobody stopped for */
    free(m);
    free(xs->affinity); /* a binding of the primary stream (ABT_xstream_set_cpubind/_affinity) */
    free(xs);
    free(weft_g.by_rank);
    weft_g.by_rank = NULL;
    weft_g.primary = NULL;
    weft_g.num_xstreams = 0;
    weft_tls_xs = NULL;
    free_config();
}

WEFT_API int ABT_finalize(void)
{
    pthread_mutex_lock(&init_lock);
    int n = weft_atomic_load_seq_cst(&weft_g.init_count);
    if (n == 0) {
        pthread_mutex_unlock(&init_lock);
        return ABT_ERR_UNINITIALIZED;
    }
    if (n > 1) {
        weft_atomic_store_seq_cst(&weft_g.init_count, n - 1);
        pthread_mutex_unlock(&init_lock);
        return ABT_SUCCESS;
    }
    weft_xstream *xs = weft_xs_self();
    if (xs != weft_g.primary || xs->cur != xs->main_unit) {
        pthread_mutex_unlock(&init_lock);
        return ABT_ERR_INV_XSTREAM;
    }
    pthread_mutex_unlock(&init_lock);
    weft_watchdog_finalize(); /* before any stream goes away (watchdog.c) */

    /* 1. every secondary stream finishes its work and goes away */
    for (;;) {
        weft_xstream *t = NULL;
        pthread_mutex_lock(&weft_g.lock);
        for (int i = 0; i < weft_g.rank_cap && !t; i++)
            if (weft_g.by_rank[i] && !weft_g.by_rank[i]->primary)
                t = weft_g.by_rank[i];
        pthread_mutex_unlock(&weft_g.lock);
        if (!t)
            break;
        weft_xstream_join(t);
        weft_xstream_destroy(t);
    }
    /* the spares finish what they run; no stream is left to hand them */
    weft_blocking_finalize();
    /* 2. the primary scheduler runs until its pools are empty, then returns here */
    weft_sched *s = xs->main_sched;
    weft_atomic_store_seq_cst(&s->request, WEFT_SCHED_REQ_FINISH);
    weft_ult_park(xs, xs->main_unit, NULL, NULL);
    xs = weft_xs_reload();
    weft_trace_finalize(); /* no other stream is left to record */
    /* 3. free everything */
    pthread_mutex_lock(&init_lock);
    runtime_free();
    weft_atomic_store_release(&weft_g.init_count, 0);
    pthread_mutex_unlock(&init_lock);
    return ABT_SUCCESS;
}
