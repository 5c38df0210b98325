/* src/core/api/info.c - ABT_info_*: configuration queries and human-readable dumps of
 * streams, schedulers, pools, units and attributes. */
#include <stdio.h>
#include <string.h>

#include "core/unit/fork.h"
#include "core/api/thread_attr.h"
#include "core/tool/tool.h"
#include "core/unit/unit.h"
#include "core/stream/xstream.h"

WEFT_API int ABT_info_query_config(ABT_info_query_kind query_kind, void *val)
{
    if (!val)
        return ABT_ERR_INV_ARG;
    const struct weft_config *c = &weft_g.cfg;
    bool init = weft_initialized();
    if (!init)
        return ABT_ERR_UNINITIALIZED;
    ABT_bool *b = val;
    switch (query_kind) {
    case ABT_INFO_QUERY_KIND_ENABLED_DEBUG:
    case ABT_INFO_QUERY_KIND_ENABLED_PRINT_ERRNO:
    case ABT_INFO_QUERY_KIND_ENABLED_LOG:
    case ABT_INFO_QUERY_KIND_ENABLED_CHECK_POOL_PRODUCER:
    case ABT_INFO_QUERY_KIND_ENABLED_CHECK_POOL_CONSUMER:
    case ABT_INFO_QUERY_KIND_ENABLED_STACK_UNWIND: *b = ABT_FALSE; return ABT_SUCCESS;
    case ABT_INFO_QUERY_KIND_ENABLED_TOOL: /* WEFT_ENABLE_TOOL (runtime.c) */
        *b = WEFT_TOOL && c->tool ? ABT_TRUE : ABT_FALSE;
        return ABT_SUCCESS;
    case ABT_INFO_QUERY_KIND_ENABLED_AFFINITY:
        /* as Argobots: affinity is on (WEFT_ENABLE_AFFINITY) and ABT_SET_AFFINITY does not
         * turn the binding off (core/stream/affinity.h) */
        *b = c->set_affinity ? ABT_TRUE : ABT_FALSE;
        return ABT_SUCCESS;
    case ABT_INFO_QUERY_KIND_ENABLED_VALGRIND:
        *b = WEFT_USE_VALGRIND ? ABT_TRUE : ABT_FALSE;
        return ABT_SUCCESS;
    case ABT_INFO_QUERY_KIND_ENABLED_CHECK_ERROR:
    case ABT_INFO_QUERY_KIND_ENABLED_PRESERVE_FPU:
    case ABT_INFO_QUERY_KIND_ENABLED_THREAD_CANCEL:
    case ABT_INFO_QUERY_KIND_ENABLED_TASK_CANCEL:
    case ABT_INFO_QUERY_KIND_ENABLED_MIGRATION:
    case ABT_INFO_QUERY_KIND_ENABLED_STACKABLE_SCHED:
    case ABT_INFO_QUERY_KIND_ENABLED_EXTERNAL_THREAD:
    case ABT_INFO_QUERY_KIND_ENABLED_SCHED_SLEEP:
    case ABT_INFO_QUERY_KIND_DYNAMIC_PROMOTION:
    case ABT_INFO_QUERY_KIND_ENABLED_LAZY_STACK_ALLOC: *b = ABT_TRUE; return ABT_SUCCESS;
    case ABT_INFO_QUERY_KIND_ENABLED_PRINT_CONFIG:
        *b = init && c->print_config ? ABT_TRUE : ABT_FALSE;
        return ABT_SUCCESS;
    case ABT_INFO_QUERY_KIND_FCONTEXT:
        *b = WEFT_CONTEXT_UCONTEXT ? ABT_FALSE : ABT_TRUE;
        return ABT_SUCCESS;
    default: break;
    }
    /* the rest describe the running configuration */
    if (!init)
        return ABT_ERR_UNINITIALIZED;
    switch (query_kind) {
    case ABT_INFO_QUERY_KIND_MAX_NUM_XSTREAMS:
        pthread_mutex_lock(&weft_g.lock);
        *(unsigned int *)val = (unsigned int)weft_g.rank_cap;
        pthread_mutex_unlock(&weft_g.lock);
        return ABT_SUCCESS;
    case ABT_INFO_QUERY_KIND_DEFAULT_THREAD_STACKSIZE:
        *(size_t *)val = c->thread_stacksize;
        return ABT_SUCCESS;
    case ABT_INFO_QUERY_KIND_DEFAULT_SCHED_STACKSIZE:
        *(size_t *)val = c->sched_stacksize;
        return ABT_SUCCESS;
    case ABT_INFO_QUERY_KIND_DEFAULT_SCHED_EVENT_FREQ:
        *(uint64_t *)val = c->sched_event_freq;
        return ABT_SUCCESS;
    case ABT_INFO_QUERY_KIND_DEFAULT_SCHED_SLEEP_NSEC:
        *(uint64_t *)val = c->sched_sleep_nsec;
        return ABT_SUCCESS;
    case ABT_INFO_QUERY_KIND_ENABLED_STACK_OVERFLOW_CHECK:
        *(int *)val = c->stack_overflow_check;
        return ABT_SUCCESS;
    case ABT_INFO_QUERY_KIND_WAIT_POLICY:
        *(int *)val = 0; /* passive: idle waits sleep */
        return ABT_SUCCESS;
    default: return ABT_ERR_INV_QUERY_KIND;
    }
}

WEFT_API int ABT_info_print_config(FILE *fp)
{
    if (!fp)
        return ABT_ERR_INV_ARG;
    if (!weft_initialized())
        return ABT_ERR_UNINITIALIZED;
    weft_config_print(fp, &weft_g.cfg);
    fflush(fp);
    return ABT_SUCCESS;
}

static const char *state_name(uint32_t s)
{
    static const char *n[] = { "READY", "RUNNING", "BLOCKED", "TERMINATED" };
    return s < 4 ? n[s] : "UNKNOWN";
}

static void print_pool(FILE *fp, weft_pool *p)
{
    static const char *acc[] = { "PRIV", "SPSC", "MPSC", "SPMC", "MPMC" };
    fprintf(fp,
            "== pool (%p) ==\n id: %d\n kind: %s\n access: %s\n automatic: %s\n"
            " size: %zu\n total size: %zu\n num schedulers: %d\n data: %p\n",
            (void *)p, p->id, p->ops->name, (unsigned)p->access < 5 ? acc[p->access] : "?",
            p->automatic ? "TRUE" : "FALSE", weft_pool_size(p), weft_pool_total_size(p),
            weft_atomic_load_seq_cst(&p->num_scheds), p->data);
}

static void print_sched(FILE *fp, weft_sched *s)
{
    static const char *pre[] = { "DEFAULT", "BASIC", "PRIO", "RANDWS", "BASIC_WAIT" };
    fprintf(fp,
            "== scheduler (%p) ==\n kind: %s\n automatic: %s\n request: %u\n"
            " num pools: %d\n event frequency: %u\n data: %p\n",
            (void *)s, s->predef >= 0 && s->predef < 5 ? pre[s->predef] : "USER",
            s->automatic ? "TRUE" : "FALSE", weft_atomic_load_seq_cst(&s->request), s->num_pools,
            s->event_freq, s->data);
    for (int i = 0; i < s->num_pools; i++)
        print_pool(fp, s->pools[i]);
}

static void print_xstream(FILE *fp, weft_xstream *xs)
{
    fprintf(fp,
            "== execution stream (%p) ==\n rank: %d\n type: %s\n state: %s\n"
            " running unit: %p\n cpu binding: %d\n",
            (void *)xs, xs->rank, xs->primary ? "PRIMARY" : "SECONDARY",
            weft_atomic_load_seq_cst(&xs->state) == WEFT_XS_TERMINATED ? "TERMINATED" : "RUNNING",
            (void *)xs->cur, xs->cpubind);
    print_sched(fp, xs->main_sched);
}

WEFT_API int ABT_info_print_all_xstreams(FILE *fp)
{
    if (!fp)
        return ABT_ERR_INV_ARG;
    if (!weft_initialized())
        return ABT_ERR_UNINITIALIZED;
    pthread_mutex_lock(&weft_g.lock);
    fprintf(fp, "# of created execution streams: %d\n", weft_g.num_xstreams);
    for (int i = 0; i < weft_g.rank_cap; i++)
        if (weft_g.by_rank[i])
            print_xstream(fp, weft_g.by_rank[i]);
    pthread_mutex_unlock(&weft_g.lock);
    fflush(fp);
    return ABT_SUCCESS;
}

WEFT_API int ABT_info_print_xstream(FILE *fp, ABT_xstream xstream)
{
    weft_xstream *xs = weft_xstream_from(xstream);
    if (!fp)
        return ABT_ERR_INV_ARG;
    if (!xs)
        return ABT_ERR_INV_XSTREAM;
    print_xstream(fp, xs);
    fflush(fp);
    return ABT_SUCCESS;
}

WEFT_API int ABT_info_print_sched(FILE *fp, ABT_sched sched)
{
    weft_sched *s = weft_sched_from(sched);
    if (!fp)
        return ABT_ERR_INV_ARG;
    if (!s)
        return ABT_ERR_INV_SCHED;
    print_sched(fp, s);
    fflush(fp);
    return ABT_SUCCESS;
}

WEFT_API int ABT_info_print_pool(FILE *fp, ABT_pool pool)
{
    weft_pool *p = weft_pool_from(pool);
    if (!fp)
        return ABT_ERR_INV_ARG;
    if (!p)
        return ABT_ERR_INV_POOL;
    print_pool(fp, p);
    fflush(fp);
    return ABT_SUCCESS;
}

static void print_unit(FILE *fp, weft_unit *u)
{
    fprintf(fp,
            "== %s (%p) ==\n id: %llu\n state: %s\n primary: %s\n named: %s\n"
            " last execution stream rank: %d\n last pool id: %d\n migratable: %s\n"
            " stack size: %zu\n function: %p\n argument: %p\n",
            (u->flags & WEFT_U_ULT) ? "ULT" : "tasklet", (void *)u,
            (unsigned long long)weft_unit_id(u), state_name(weft_atomic_load_seq_cst(&u->state)),
            (u->flags & WEFT_U_MAIN) ? "TRUE" : "FALSE",
            (u->flags & WEFT_U_NAMED) ? "TRUE" : "FALSE", u->xs ? u->xs->rank : -1,
            u->pool ? u->pool->id : -1, (u->flags & WEFT_U_MIGRATABLE) ? "TRUE" : "FALSE",
            (u->flags & WEFT_U_ULT) ? u->stack_size : (size_t)0, (void *)(uintptr_t)u->fn, u->arg);
    if ((u->flags & (WEFT_U_ULT | WEFT_U_SPECIAL)) == WEFT_U_ULT)
        fprintf(fp, " fork-join technique: %s%s\n", weft_fork_name(weft_fork_of(u->flags)),
                (u->flags & (WEFT_U_F_SS | WEFT_U_F_SC))
                    ? " (run as RoC when a joiner or a user-defined "
                      "scheduler starts it)"
                    : "");
}

WEFT_API int ABT_info_print_thread(FILE *fp, ABT_thread thread)
{
    weft_unit *u = weft_unit_from(thread);
    if (!fp)
        return ABT_ERR_INV_ARG;
    if (!u)
        return ABT_ERR_INV_THREAD;
    print_unit(fp, u);
    fflush(fp);
    return ABT_SUCCESS;
}

WEFT_API int ABT_info_print_task(FILE *fp, ABT_task task)
{
    weft_unit *u = weft_unit_from(task);
    if (!fp)
        return ABT_ERR_INV_ARG;
    if (!u)
        return ABT_ERR_INV_TASK;
    print_unit(fp, u);
    fflush(fp);
    return ABT_SUCCESS;
}

WEFT_API int ABT_info_print_thread_attr(FILE *fp, ABT_thread_attr attr)
{
    struct weft_thread_attr *a = weft_thread_attr_from(attr);
    if (!fp)
        return ABT_ERR_INV_ARG;
    if (!a)
        return ABT_ERR_INV_THREAD_ATTR;
    fprintf(fp,
            "== ULT attribute (%p) ==\n stack address: %p\n stack size: %zu\n"
            " migratable: %s\n callback: %p\n fork-join technique: %s\n",
            (void *)a, a->stackaddr, a->stacksize, a->migratable ? "TRUE" : "FALSE",
            (void *)(uintptr_t)a->cb,
            a->fork ? weft_fork_name((weft_fork_t)a->fork) : "the runtime default");
    fflush(fp);
    return ABT_SUCCESS;
}
