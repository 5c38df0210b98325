/* failinj_thread: ULTs and tasklets under allocation and mmap failure
 * (tests/failinj.h fails each traced call in turn).
 *
 * ABT_thread_create (default and attribute stack size), create_on_xstream, create_to,
 * ABT_task_create / create_on_xstream, revive of both, migration to a second stream's
 * pool, ULT attributes.  Descriptors come from slabs and stacks from arenas, so enough
 * units are made to need more than one of each.  Outputs: the NULL handle after a failed
 * create / create_on_xstream / attr_create / task_create; untouched after a failed
 * create_to (Argobots 1.x).  A ULT whose stack cannot be had when it first runs is retried
 * by its scheduler (docs/design/mem.md): every ULT created must still run exactly once. */
#include "failinj.h"

enum { N = 150 };
static _Atomic int ran;
static void work(void *arg)
{
    atomic_fetch_add(&ran, 1);
    ABT_thread_yield();
}
static void task(void *arg) { atomic_fetch_add(&ran, 1); }

static void program(void)
{
    FI_RETRY(ABT_init(0, NULL));
    int created = 0;
    const int n = N / (test_scale_div() > 1 ? 5 : 1); /* still > one descriptor slab */
    ABT_xstream self, xs2 = ABT_XSTREAM_NULL;
    ABT_pool pool, pool2 = ABT_POOL_NULL;
    FI_MUST(ABT_xstream_self(&self));
    FI_MUST(ABT_xstream_get_main_pools(self, 1, &pool));
    if (FI_OUT_NULL(xs2, ABT_XSTREAM_NULL, ABT_xstream_create(ABT_SCHED_NULL, &xs2)))
        FI_MUST(ABT_xstream_get_main_pools(xs2, 1, &pool2));
    else
        xs2 = ABT_XSTREAM_NULL;

    ABT_thread_attr attr = ABT_THREAD_ATTR_NULL;
    if (FI_OUT_NULL(attr, ABT_THREAD_ATTR_NULL, ABT_thread_attr_create(&attr)))
        FI_MUST(ABT_thread_attr_set_stacksize(attr, 48 * 1024));

    static ABT_thread t[N];
    for (int i = 0; i < n; i++) {
        int ok;
        switch (i % 5) {
        case 0:
            ok = FI_OUT_NULL(t[i], ABT_TASK_NULL, ABT_task_create(pool, task, NULL, &t[i]));
            break;
        case 1:
            ok = FI_OUT_NULL(t[i], ABT_THREAD_NULL,
                             ABT_thread_create(pool, work, NULL, attr, &t[i]));
            break;
        case 2:
            ok = FI_OUT_NULL(t[i], ABT_THREAD_NULL,
                             ABT_thread_create_on_xstream(self, work, NULL, ABT_THREAD_ATTR_NULL,
                                                          &t[i]));
            break;
        case 3:
            ok = FI_OUT_NULL(t[i], ABT_TASK_NULL,
                             ABT_task_create_on_xstream(self, task, NULL, &t[i]));
            break;
        default:
            ok = FI_OUT_NULL(t[i], ABT_THREAD_NULL,
                             ABT_thread_create(pool, work, NULL, ABT_THREAD_ATTR_NULL, &t[i]));
            if (ok && pool2 != ABT_POOL_NULL)
                FI_OK(ABT_thread_migrate_to_pool(t[i], pool2));
            break;
        }
        if (ok)
            created++;
        else
            t[i] = ABT_THREAD_NULL;
    }
    /* create_to: the caller yields to the new ULT */
    ABT_thread to;
    if (FI_OUT_KEEP(to, ABT_thread_create_to(pool, work, NULL, ABT_THREAD_ATTR_NULL, &to))) {
        created++;
        FI_MUST(ABT_thread_free(&to));
    }
    for (int i = 0; i < n; i++)
        if (t[i] != ABT_THREAD_NULL)
            FI_MUST(ABT_thread_join(t[i]));
    /* revive some of them (ULT and tasklet) */
    for (int i = 0; i < 10; i++) {
        if (t[i] == ABT_THREAD_NULL)
            continue;
        int ok = i % 5 == 0 || i % 5 == 3 ? FI_OK(ABT_task_revive(pool, task, NULL, &t[i]))
                                          : FI_OK(ABT_thread_revive(pool, work, NULL, &t[i]));
        if (ok) {
            created++;
            FI_MUST(ABT_thread_join(t[i]));
        }
    }
    for (int i = 0; i < n; i++)
        if (t[i] != ABT_THREAD_NULL)
            FI_MUST(ABT_thread_free(&t[i]));
    if (atomic_load(&ran) != created)
        FI_FAIL("%d units created, %d ran", created, atomic_load(&ran));
    if (attr != ABT_THREAD_ATTR_NULL)
        FI_MUST(ABT_thread_attr_free(&attr));
    if (xs2 != ABT_XSTREAM_NULL) {
        FI_MUST(ABT_xstream_join(xs2));
        FI_MUST(ABT_xstream_free(&xs2));
    }
    FI_MUST(ABT_finalize());
}

int main(void) { return fi_main("failinj_thread", program); }
