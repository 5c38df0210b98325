/* thread_join_many_chain: ABT_thread_join_many joins like a loop of ABT_thread_join, in
 * list order, whatever the units do.  weft chains fresh ULTs (each one that finishes
 * starts the next itself); the chain must end correctly at every kind of list entry:
 *   - fresh ULTs of the caller's pool (chained), among them ones that yield, block on a
 *     mutex held by the joiner's helper and resume, or create and join ULTs of their own;
 *   - a tasklet, a ULT in another stream's pool, a ULT that already finished;
 *   - an invalid handle in the middle: ABT_ERR_INV_THREAD after joining those before it,
 *     none after it joined;
 *   - the caller itself in the list: ABT_ERR_INV_THREAD.
 * Every unit runs exactly once and the JOIN tool event is reported once per joined unit. */
#define TEST_NO_LIFECYCLE 1 /* registers its own tool callback */
#include "test.h"

#define N 64

static int ran[N];
static ABT_mutex mtx;

typedef struct {
    int idx, kind;
} arg_t;

enum { PLAIN, YIELDS, BLOCKS, NESTS };

static void leaf(void *p) { (*(int *)p)++; }

static void body(void *p)
{
    arg_t *a = p;
    if (a->kind == YIELDS) {
        ABT_thread_yield();
        ABT_thread_yield();
    } else if (a->kind == BLOCKS) {
        CHECK_ABT(ABT_mutex_lock(mtx));
        CHECK_ABT(ABT_mutex_unlock(mtx));
    } else if (a->kind == NESTS) {
        int x = 0;
        ABT_pool pool;
        CHECK_ABT(ABT_self_get_last_pool(&pool));
        ABT_thread kids[3];
        for (int i = 0; i < 3; i++)
            CHECK_ABT(ABT_thread_create(pool, leaf, &x, ABT_THREAD_ATTR_NULL, &kids[i]));
        CHECK_ABT(ABT_thread_join_many(3, kids));
        CHECK_ABT(ABT_thread_free_many(3, kids));
        CHECK_EQ_INT(x, 3);
    }
    ran[a->idx]++; /* our pool's ULTs all run on the primary stream: no race */
}

static void unlock_body(void *p)
{
    (void)p;
    CHECK_ABT(ABT_mutex_unlock(mtx));
}

static void task_body(void *p)
{
    arg_t *a = p;
    __atomic_fetch_add(&ran[a->idx], 1, __ATOMIC_RELAXED);
}

static void other_body(void *p)
{
    arg_t *a = p;
    __atomic_fetch_add(&ran[a->idx], 1, __ATOMIC_RELAXED);
}

static int joins;
static void tool_cb(ABT_thread thread, ABT_xstream xs, uint64_t event, ABT_tool_context ctx,
                    void *user_arg)
{
    (void)thread, (void)xs, (void)ctx, (void)user_arg;
    if (event == ABT_TOOL_EVENT_THREAD_JOIN)
        __atomic_fetch_add(&joins, 1, __ATOMIC_RELAXED);
}

static arg_t args[N];
static ABT_thread list[N];

static void main_ult(void *p)
{
    ABT_pool *pools = p; /* [0] ours, [1] the other stream's */
    memset(ran, 0, sizeof ran);
    /* 1. all fresh ULTs of our pool, some deviating */
    for (int i = 0; i < N; i++) {
        args[i] = (arg_t){ i, i % 7 == 3    ? YIELDS
                              : i % 11 == 5 ? BLOCKS
                              : i % 13 == 7 ? NESTS
                                            : PLAIN };
        CHECK_ABT(ABT_thread_create(pools[0], body, &args[i], ABT_THREAD_ATTR_NULL, &list[i]));
    }
    CHECK_ABT(ABT_mutex_lock(mtx)); /* the BLOCKS ones park until we unlock (below) */
    ABT_thread unlocker;
    CHECK_ABT(ABT_thread_create(pools[0], unlock_body, NULL, ABT_THREAD_ATTR_NULL, &unlocker));
    /* the unlocker runs after list[0..]: the mutex is released while the chain runs */
    CHECK_ABT(ABT_thread_join_many(N, list));
    for (int i = 0; i < N; i++)
        CHECK_EQ_INT(ran[i], 1);
    CHECK_ABT(ABT_thread_free(&unlocker));
    CHECK_ABT(ABT_thread_free_many(N, list));

    /* 2. a mixed list: fresh, tasklet, other stream's ULT, finished, fresh... */
    memset(ran, 0, sizeof ran);
    for (int i = 0; i < 12; i++) {
        args[i] = (arg_t){ i, PLAIN };
        if (i == 3)
            CHECK_ABT(ABT_task_create(pools[0], task_body, &args[i], (ABT_task *)&list[i]));
        else if (i == 5)
            CHECK_ABT(
                ABT_thread_create(pools[1], other_body, &args[i], ABT_THREAD_ATTR_NULL, &list[i]));
        else
            CHECK_ABT(ABT_thread_create(pools[0], body, &args[i], ABT_THREAD_ATTR_NULL, &list[i]));
    }
    CHECK_ABT(ABT_thread_join(list[8])); /* already finished when the list reaches it */
    joins = 0;
    int tool_ok =
        ABT_tool_register_thread_callback(tool_cb, ABT_TOOL_EVENT_THREAD_JOIN, NULL) == ABT_SUCCESS;
    CHECK_ABT(ABT_thread_join_many(12, list));
    if (tool_ok) {
        CHECK_ABT(ABT_tool_register_thread_callback(NULL, ABT_TOOL_EVENT_THREAD_NONE, NULL));
        CHECK_EQ_INT(joins, 12); /* one JOIN per entry, as a loop of ABT_thread_join */
    }
    for (int i = 0; i < 12; i++)
        CHECK_EQ_INT(ran[i], 1);
    CHECK_ABT(ABT_thread_free_many(12, list));

    /* 3. an invalid handle in the middle; the units after it are not joined by the call */
    memset(ran, 0, sizeof ran);
    for (int i = 0; i < 6; i++) {
        args[i] = (arg_t){ i, PLAIN };
        CHECK_ABT(ABT_thread_create(pools[0], body, &args[i], ABT_THREAD_ATTR_NULL, &list[i]));
    }
    ABT_thread saved = list[3];
    list[3] = ABT_THREAD_NULL;
    CHECK_ERR(ABT_thread_join_many(6, list), ABT_ERR_INV_THREAD);
    for (int i = 0; i < 3; i++)
        CHECK_EQ_INT(ran[i], 1);
    list[3] = saved;
    CHECK_ABT(ABT_thread_join_many(3, &list[3]));
    CHECK_ABT(ABT_thread_free_many(6, list));
    for (int i = 0; i < 6; i++)
        CHECK_EQ_INT(ran[i], 1);

    /* 4. the caller in its own list */
    ABT_thread me;
    CHECK_ABT(ABT_self_get_thread(&me));
    args[0] = (arg_t){ 0, PLAIN };
    CHECK_ABT(ABT_thread_create(pools[0], body, &args[0], ABT_THREAD_ATTR_NULL, &list[0]));
    list[1] = me;
    CHECK_ERR(ABT_thread_join_many(2, list), ABT_ERR_INV_THREAD);
    CHECK_ABT(ABT_thread_free(&list[0]));
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    CHECK_ABT(ABT_mutex_create(&mtx));
    ABT_xstream xs;
    ABT_pool pools[2];
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs));
    ABT_xstream self;
    CHECK_ABT(ABT_xstream_self(&self));
    CHECK_ABT(ABT_xstream_get_main_pools(self, 1, &pools[0]));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pools[1]));
    /* as a ULT of the primary stream's pool (a chain needs a ULT joiner), twice: the
     * second time the stacks come from the cache */
    for (int round = 0; round < 2; round++) {
        ABT_thread m;
        CHECK_ABT(ABT_thread_create(pools[0], main_ult, pools, ABT_THREAD_ATTR_NULL, &m));
        CHECK_ABT(ABT_thread_free(&m));
    }
    CHECK_ABT(ABT_xstream_free(&xs));
    CHECK_ABT(ABT_mutex_free(&mtx));
    CHECK_ABT(ABT_finalize());
    return 0;
}
