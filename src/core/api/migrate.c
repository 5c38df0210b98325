/* src/core/api/migrate.c - moving work units between pools (ABT_thread_migrate_*).
 *
 * A unit waiting in a pool is moved at once: taken out under the pool lock and pushed to
 * the target.  A unit that is running or blocked gets a pending target (unit->migr_to);
 * the move happens the next time it is put into a pool (after a yield, or when woken),
 * on the stream that puts it there, and the migration callback runs then. */
#include "core/unit/unit.h"
#include "core/stream/xstream.h"

static int migrate_to_pool(weft_unit *u, weft_pool *p)
{
    if ((u->flags & WEFT_U_MAIN) || !(u->flags & WEFT_U_MIGRATABLE) ||
        weft_atomic_load_acquire(&u->joiner) == WEFT_JOIN_DONE)
        return ABT_ERR_INV_THREAD;
    if (u->pool == p)
        return ABT_ERR_MIGRATION_TARGET;
    weft_pool *from = u->pool;
    if (from && weft_pool_remove(from, u) == ABT_SUCCESS) {
        int r = weft_pool_bind(p, u); /* a user pool's unit: may fail */
        if (r != ABT_SUCCESS) {
            weft_pool_push(from, u); /* stays where it was */
            return r;
        }
        weft_atomic_store_relaxed_plain(&u->pool, p); /* a joiner may read it (core/unit/join.c) */
        weft_tool_event(u, WEFT_TOOL_EVENT_MIGRATE);  /* the tracer's, never a tool's */
        if (u->migr_cb)
            u->migr_cb(weft_unit_handle(u), u->migr_cb_arg);
        weft_pool_push_ctx(p, u, ABT_POOL_CONTEXT_OP_THREAD_MIGRATE);
        return ABT_SUCCESS;
    }
    weft_atomic_store_release(&u->migr_to, p);
    return ABT_SUCCESS;
}

WEFT_API int ABT_thread_migrate_to_pool(ABT_thread thread, ABT_pool pool)
{
    weft_unit *u = weft_unit_from(thread);
    if (!u)
        return ABT_ERR_INV_THREAD;
    weft_pool *p = weft_pool_from(pool);
    if (!p)
        return ABT_ERR_INV_POOL;
    return migrate_to_pool(u, p);
}

WEFT_API int ABT_thread_migrate_to_sched(ABT_thread thread, ABT_sched sched)
{
    weft_unit *u = weft_unit_from(thread);
    if (!u)
        return ABT_ERR_INV_THREAD;
    weft_sched *s = weft_sched_from(sched);
    if (!s)
        return ABT_ERR_INV_SCHED;
    if (s->num_pools < 1)
        return ABT_ERR_MIGRATION_TARGET;
    return migrate_to_pool(u, s->pools[0]);
}

WEFT_API int ABT_thread_migrate_to_xstream(ABT_thread thread, ABT_xstream xstream)
{
    weft_unit *u = weft_unit_from(thread);
    if (!u)
        return ABT_ERR_INV_THREAD;
    weft_xstream *xs = weft_xstream_from(xstream);
    if (!xs)
        return ABT_ERR_INV_XSTREAM;
    if (weft_atomic_load_seq_cst(&xs->state) == WEFT_XS_TERMINATED)
        return ABT_ERR_INV_XSTREAM;
    return migrate_to_pool(u, xs->main_sched->pools[0]);
}

/* Move to some other stream: the next running one after the unit's last stream. */
WEFT_API int ABT_thread_migrate(ABT_thread thread)
{
    weft_unit *u = weft_unit_from(thread);
    if (!u)
        return ABT_ERR_INV_THREAD;
    weft_pool *target = NULL;
    pthread_mutex_lock(&weft_g.lock);
    int max = weft_g.rank_cap;
    int start = u->xs ? u->xs->rank : 0;
    for (int i = 1; i <= max && !target; i++) {
        weft_xstream *xs = weft_g.by_rank[(start + i) % max];
        if (xs && weft_atomic_load_seq_cst(&xs->state) != WEFT_XS_TERMINATED &&
            xs->main_sched->pools[0] != u->pool)
            target = xs->main_sched->pools[0];
    }
    pthread_mutex_unlock(&weft_g.lock);
    if (!target)
        return ABT_ERR_MIGRATION_NA;
    return migrate_to_pool(u, target);
}
