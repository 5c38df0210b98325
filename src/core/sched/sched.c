/* src/core/sched/sched.c - scheduler objects and the ABT_sched_* entry points: creation
 * (predefined and user-defined), stop requests, the event check every loop makes.  The
 * predefined run loops are loop.h with a pick policy each (basic.c, prio.c, randws.c);
 * stacked schedulers are in stacked.c. */
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "core/sched/sched.h"
#include "core/tool/stack_dump.h"
#include "core/unit/unit.h"
#include "core/sched/poll_hook.h"
#include "core/sched/timer_hook.h"

static size_t sched_total_size(weft_sched *s)
{
    size_t n = 0;
    for (int i = 0; i < s->num_pools; i++)
        n += weft_pool_total_size(s->pools[i]);
    return n;
}

/* The stop checks ask emptiness the way Argobots does (is_empty of each pool, plus its
 * blocked units), never a user pool's get_size. */
bool weft_sched_has_unit(weft_sched *s)
{
    for (int i = 0; i < s->num_pools; i++)
        if (weft_pool_has_unit(s->pools[i]))
            return true;
    return false;
}

/* ABT_sched_get_size / _get_total_size need get_size of every pool (Argobots). */
static bool sched_can_get_size(weft_sched *s)
{
    for (int i = 0; i < s->num_pools; i++)
        if (!weft_pool_can(s->pools[i], WEFT_POOL_CAP_SIZE))
            return false;
    return true;
}

const struct weft_timer_hook *_Atomic weft_timer_hook;

bool weft_sched_has_to_stop(weft_sched *s)
{
    /* core/sched/timer_hook.h: every scheduler loop (predefined or user) checks this when idle
     * and every event_freq units, so that is where the due timed waits of this stream fire */
    weft_timers_poll();
    weft_poll_hooks_run(); /* core/sched/poll_hook.h: I/O and MPI completions of this stream */
    weft_dump_check();     /* (helper) stack_dump.h: stop for a stack dump */
    weft_xstream *xs = weft_xs_self();
    if (WEFT_LIKELY(xs != NULL))
        weft_mem_tick(&xs->cache); /* mem/trim.c: give memory back after a burst */
    if (WEFT_UNLIKELY(s->use == WEFT_SCHED_IN_POOL)) /* stacked: sched/stacked.c */
        return weft_sched_stacked_has_to_stop(s);
    uint32_t r = weft_atomic_load_acquire(&s->request);
    if (WEFT_LIKELY(r == WEFT_SCHED_REQ_NONE))
        return false;
    if (r & WEFT_SCHED_REQ_EXIT)
        return true;
    return !weft_sched_has_unit(s); /* FINISH */
}

void weft_sched_request(weft_sched *s, uint32_t req)
{
    weft_atomic_fetch_or_seq_cst(&s->request, req);
    for (int i = 0; i < s->num_pools; i++)
        weft_pool_wake_all(s->pools[i]);
    weft_xstream *xs = s->xs; /* a main scheduler's stream: it may sleep (idle.c) */
    if (xs)
        weft_xs_wake(xs);
}

void weft_sched_take_main_slow(weft_xstream *xs, weft_sched *s)
{
    /* again after it ran: back here, this scheduler was resumed by whatever the primary
     * ULT started, and the slot may hold the primary ULT once more (a child-first
     * creation's post_home, core/unit/create.c), which runs before the pools, as it would have come
     * before what that child queued */
    weft_unit *m;
    while ((m = weft_atomic_exchange_acquire(&xs->main_handoff, NULL)) != NULL)
        weft_sched_run_unit(xs, s, m);
}

/* The handle of a main scheduler's ULT (types.h, weft_sched.self_unit): a running,
 * named ULT that cannot be joined, freed, yielded to, migrated or scheduled. */
static weft_unit *sched_self_unit_new(weft_sched *s)
{
    weft_unit *u = aligned_alloc(WEFT_CACHE_LINE, sizeof(weft_unit));
    if (!u)
        return NULL;
    memset(u, 0, sizeof(*u));
    weft_unit_handle_init(u);
    u->flags = WEFT_U_ULT | WEFT_U_NAMED | WEFT_U_MAIN_SCHED;
    u->stack_kind = WEFT_STACK_NONE;
    u->sched = s;
    weft_atomic_store_relaxed(&u->state, WEFT_RUNNING);
    return u;
}

static void sched_self_unit_free(weft_unit *u)
{
    if (u->keys) /* ABT_key_set / ABT_self_set_specific in the scheduler */
        weft_unit_run_key_dtors(u);
    free(u);
}

static int sched_alloc(int num_pools, ABT_pool *pools, bool need_pools, ABT_pool_kind dflt_kind,
                       weft_sched **out)
{
    weft_sched *s = calloc(1, sizeof(*s));
    if (!s)
        return ABT_ERR_MEM;
    size_t np = (size_t)(num_pools > 0 ? num_pools : 1);
    s->pools = calloc(np, sizeof(weft_pool *));
    s->idle_nodes = calloc(np, sizeof(weft_idle_node));
    if (!s->pools || !s->idle_nodes || !(s->self_unit = sched_self_unit_new(s))) {
        free(s->idle_nodes);
        free(s->pools);
        free(s);
        return ABT_ERR_MEM;
    }
    s->num_pools = num_pools;
    for (int i = 0; i < num_pools; i++) {
        weft_pool *p = pools ? weft_pool_from(pools[i]) : NULL;
        if (!p && need_pools) {
            int r = weft_pool_create_builtin(dflt_kind, ABT_POOL_ACCESS_MPMC, true, &p);
            if (r != ABT_SUCCESS) {
                for (int j = 0; j < i; j++)
                    weft_pool_release(s->pools[j]);
                sched_self_unit_free(s->self_unit);
                free(s->idle_nodes);
                free(s->pools);
                free(s);
                return r;
            }
        } else if (!p) {
            for (int j = 0; j < i; j++)
                weft_pool_release(s->pools[j]);
            sched_self_unit_free(s->self_unit);
            free(s->idle_nodes);
            free(s->pools);
            free(s);
            return ABT_ERR_INV_POOL;
        }
        weft_atomic_fetch_add_seq_cst(&p->num_scheds, 1);
        s->pools[i] = p;
    }
    s->event_freq = weft_g.cfg.sched_event_freq;
    s->idle_forever = true; /* may it sleep without a bound when idle (idle.c)? */
    for (int i = 0; i < num_pools; i++)
        if (!(s->pools[i]->caps & WEFT_POOL_CAP_IDLE_WAKE))
            s->idle_forever = false;
    *out = s;
    return ABT_SUCCESS;
}

int weft_sched_create_predef(ABT_sched_predef predef, int num_pools, ABT_pool *pools,
                             ABT_sched_config cfg, bool automatic, weft_sched **out)
{
    ABT_pool_kind kind = ABT_POOL_FIFO;
    switch (predef) {
    case ABT_SCHED_DEFAULT:
    case ABT_SCHED_BASIC: break;
    case ABT_SCHED_BASIC_WAIT: kind = ABT_POOL_FIFO_WAIT; break;
    case ABT_SCHED_PRIO: /* sched/prio.c */
    case ABT_SCHED_RANDWS: /* sched/randws.c */ break;
    default: return ABT_ERR_INV_SCHED_PREDEF;
    }
    if (num_pools < 0 || (num_pools > 0 && pools == NULL && false))
        return ABT_ERR_INV_ARG;
    if (!pools || num_pools == 0) {
        pools = NULL;
        num_pools = predef == ABT_SCHED_PRIO ? WEFT_SCHED_NUM_PRIO : 1;
    }
    weft_sched *s;
    int r = sched_alloc(num_pools, pools, true, kind, &s);
    if (r != ABT_SUCCESS)
        return r;
    int freq = -1, autom = -1;
    weft_sched_config_predef(cfg, &freq, &autom);
    if (freq > 0)
        s->event_freq = (uint32_t)freq;
    s->automatic = autom >= 0 ? autom != 0 : automatic;
    s->predef = predef == ABT_SCHED_DEFAULT ? ABT_SCHED_BASIC : predef;
    s->num_join_pools = s->num_pools; /* join bypass allowed (core/unit/join.c) */
    /* a BASIC loop over one built-in FIFO pool, or a RANDWS loop whose own pool (the
     * first, which it pops before it steals) is one: yields, parks and joins may skip
     * the loop there (core/unit/switch.h, yield.c, join.c) */
    bool basic =
        (s->predef == ABT_SCHED_BASIC || s->predef == ABT_SCHED_BASIC_WAIT) && s->num_pools == 1;
    if ((basic || (s->predef == ABT_SCHED_RANDWS && s->num_pools >= 1)) &&
        weft_pool_can(s->pools[0], WEFT_POOL_CAP_INLINE_FIFO))
        s->bypass_pool = s->pools[0];
    s->def.type = ABT_SCHED_TYPE_ULT;
    s->def.run = predef == ABT_SCHED_PRIO         ? weft_sched_prio_run
                 : predef == ABT_SCHED_RANDWS     ? weft_sched_randws_run
                 : predef == ABT_SCHED_BASIC_WAIT ? weft_sched_basic_wait_run
                                                  : weft_sched_basic_run;
    pthread_mutex_lock(&weft_g.lock);
    weft_registry_add_sched(s);
    pthread_mutex_unlock(&weft_g.lock);
    *out = s;
    return ABT_SUCCESS;
}

int weft_sched_create_user(ABT_sched_def *def, int num_pools, ABT_pool *pools, ABT_sched_config cfg,
                           bool automatic, weft_sched **out)
{
    if (!def || !def->run)
        return ABT_ERR_INV_ARG;
    if (num_pools < 0 || (num_pools > 0 && !pools))
        return ABT_ERR_INV_ARG;
    weft_sched *s;
    int r = sched_alloc(num_pools, pools, true, ABT_POOL_FIFO, &s);
    if (r != ABT_SUCCESS)
        return r;
    int freq = -1, autom = -1;
    weft_sched_config_predef(cfg, &freq, &autom);
    if (freq > 0)
        s->event_freq = (uint32_t)freq;
    s->automatic = autom >= 0 ? autom != 0 : automatic;
    s->predef = -1;
    s->num_join_pools = 0; /* it decides what runs: no join bypass (core/unit/join.c) */
    s->def = *def;
    pthread_mutex_lock(&weft_g.lock);
    weft_registry_add_sched(s);
    pthread_mutex_unlock(&weft_g.lock);
    if (def->init) {
        r = def->init((ABT_sched)s, cfg);
        if (r != ABT_SUCCESS) {
            s->def.free = NULL;
            weft_sched_destroy(s);
            return r;
        }
    }
    *out = s;
    return ABT_SUCCESS;
}

void weft_sched_destroy(weft_sched *s)
{
    if (s->def.free)
        s->def.free((ABT_sched)s);
    pthread_mutex_lock(&weft_g.lock);
    weft_registry_del_sched(s);
    pthread_mutex_unlock(&weft_g.lock);
    for (int i = 0; i < s->num_pools; i++)
        weft_pool_release(s->pools[i]);
    if (s->stack)
        weft_stack_free(NULL, s->stack);
    sched_self_unit_free(s->self_unit);
    free(s->idle_nodes);
    free(s->pools);
    free(s);
}

/* ---------------------------------------------------------------- a main scheduler ends
 * (the loop of a stream: xstream_thread, or sched_entry on the primary stream) */

bool weft_xstream_should_stop(weft_xstream *xs, weft_sched *s)
{
    if (weft_atomic_load_seq_cst(&xs->cancelled))
        return true;
    uint32_t req = weft_atomic_load_seq_cst(&s->request);
    if ((req & WEFT_SCHED_REQ_FINISH) && !weft_sched_has_unit(s))
        return true;
    if (req & WEFT_SCHED_REQ_EXIT) /* an exit only ends this run(); a FINISH stays */
        weft_atomic_fetch_and_seq_cst(&s->request, ~(uint32_t)WEFT_SCHED_REQ_EXIT);
    return false;
}

void weft_sched_retire(weft_sched *s)
{
    s->use = WEFT_SCHED_UNUSED;
    s->xs = NULL;
    weft_atomic_store_seq_cst(&s->request, WEFT_SCHED_REQ_NONE);
    if (s->automatic)
        weft_sched_destroy(s);
}

void weft_xstream_retire_pending(weft_xstream *xs)
{
    weft_sched *r;
    while ((r = xs->sched_retire) != NULL) {
        xs->sched_retire = r->retire_next;
        r->retire_next = NULL;
        weft_sched_retire(r);
    }
}

/* ---------------------------------------------------------------- public API */

WEFT_API int ABT_sched_create(ABT_sched_def *def, int num_pools, ABT_pool *pools,
                              ABT_sched_config config, ABT_sched *newsched)
{
    if (!newsched)
        return ABT_ERR_INV_ARG;
    *newsched = ABT_SCHED_NULL;
    if (!def)
        return ABT_ERR_INV_ARG;
    weft_sched *s;
    int r = weft_sched_create_user(def, num_pools, pools, config, false, &s);
    if (r == ABT_SUCCESS)
        *newsched = (ABT_sched)s;
    return r;
}

WEFT_API int ABT_sched_create_basic(ABT_sched_predef predef, int num_pools, ABT_pool *pools,
                                    ABT_sched_config config, ABT_sched *newsched)
{
    if (!newsched)
        return ABT_ERR_INV_ARG;
    *newsched = ABT_SCHED_NULL;
    weft_sched *s;
    int r = weft_sched_create_predef(predef, num_pools, pools, config, true, &s);
    if (r == ABT_SUCCESS)
        *newsched = (ABT_sched)s;
    return r;
}

WEFT_API int ABT_sched_free(ABT_sched *sched)
{
    if (!sched)
        return ABT_ERR_INV_ARG;
    weft_sched *s = weft_sched_from(*sched);
    if (!s)
        return ABT_ERR_INV_SCHED;
    if (s->use != WEFT_SCHED_UNUSED)
        return ABT_ERR_SCHED;
    weft_sched_destroy(s);
    *sched = ABT_SCHED_NULL;
    return ABT_SUCCESS;
}

WEFT_API int ABT_sched_set_data(ABT_sched sched, void *data)
{
    weft_sched *s = weft_sched_from(sched);
    if (!s)
        return ABT_ERR_INV_SCHED;
    s->data = data;
    return ABT_SUCCESS;
}

WEFT_API int ABT_sched_get_data(ABT_sched sched, void **data)
{
    weft_sched *s = weft_sched_from(sched);
    if (!s)
        return ABT_ERR_INV_SCHED;
    if (!data)
        return ABT_ERR_INV_ARG;
    *data = s->data;
    return ABT_SUCCESS;
}

WEFT_API int ABT_sched_get_num_pools(ABT_sched sched, int *num_pools)
{
    weft_sched *s = weft_sched_from(sched);
    if (!s)
        return ABT_ERR_INV_SCHED;
    if (!num_pools)
        return ABT_ERR_INV_ARG;
    *num_pools = s->num_pools;
    return ABT_SUCCESS;
}

WEFT_API int ABT_sched_get_pools(ABT_sched sched, int max_pools, int idx, ABT_pool *pools)
{
    weft_sched *s = weft_sched_from(sched);
    if (!s)
        return ABT_ERR_INV_SCHED;
    if (idx < 0 || max_pools < 0 || (max_pools > 0 && !pools))
        return ABT_ERR_INV_ARG;
    if (idx + max_pools > s->num_pools)
        return ABT_ERR_SCHED;
    for (int i = 0; i < max_pools; i++)
        pools[i] = WEFT_POOL_HANDLE(s->pools[idx + i]);
    return ABT_SUCCESS;
}

WEFT_API int ABT_sched_get_size(ABT_sched sched, size_t *size)
{
    weft_sched *s = weft_sched_from(sched);
    if (!s)
        return ABT_ERR_INV_SCHED;
    if (!size)
        return ABT_ERR_INV_ARG;
    if (!sched_can_get_size(s))
        return ABT_ERR_POOL;
    size_t n = 0;
    for (int i = 0; i < s->num_pools; i++)
        n += weft_pool_size(s->pools[i]);
    *size = n;
    return ABT_SUCCESS;
}

WEFT_API int ABT_sched_get_total_size(ABT_sched sched, size_t *size)
{
    weft_sched *s = weft_sched_from(sched);
    if (!s)
        return ABT_ERR_INV_SCHED;
    if (!size)
        return ABT_ERR_INV_ARG;
    if (!sched_can_get_size(s))
        return ABT_ERR_POOL;
    *size = sched_total_size(s);
    return ABT_SUCCESS;
}

WEFT_API int ABT_sched_finish(ABT_sched sched)
{
    weft_sched *s = weft_sched_from(sched);
    if (!s)
        return ABT_ERR_INV_SCHED;
    weft_sched_request(s, WEFT_SCHED_REQ_FINISH);
    return ABT_SUCCESS;
}

WEFT_API int ABT_sched_exit(ABT_sched sched)
{
    weft_sched *s = weft_sched_from(sched);
    if (!s)
        return ABT_ERR_INV_SCHED;
    weft_sched_request(s, WEFT_SCHED_REQ_EXIT);
    return ABT_SUCCESS;
}

WEFT_API int ABT_sched_has_to_stop(ABT_sched sched, ABT_bool *stop)
{
    if (!stop)
        return ABT_ERR_INV_ARG;
    *stop = ABT_FALSE;
    weft_sched *s = weft_sched_from(sched);
    if (!s)
        return ABT_ERR_INV_SCHED;
    if (!weft_xs_self())
        return ABT_ERR_INV_XSTREAM;
    *stop = weft_sched_has_to_stop(s) ? ABT_TRUE : ABT_FALSE;
    return ABT_SUCCESS;
}
