/* thread_create_many: ABT_thread_create_many creates one ULT per (pool, func, arg)
 * triple; with a NULL output list the ULTs are unnamed (run and are freed
 * automatically); ABT_thread_join_many / ABT_thread_free_many wait for and release a
 * list, setting each handle to ABT_THREAD_NULL.  A NULL arg_list passes NULL args.
 * An attribute carrying a user stack is rejected with ABT_ERR_INV_THREAD_ATTR. */
#include "test.h"
#include <stdatomic.h>

#define N 16
static atomic_int hits[N];
static atomic_int unnamed_runs;
static atomic_int null_arg_runs;

static void func_a(void *arg) { atomic_fetch_add(&hits[(int)(intptr_t)arg], 1); }
static void func_b(void *arg) { atomic_fetch_add(&hits[(int)(intptr_t)arg], 100); }
static void func_unnamed(void *arg)
{
    (void)arg;
    atomic_fetch_add(&unnamed_runs, 1);
}
static void func_null_arg(void *arg)
{
    if (arg == NULL)
        atomic_fetch_add(&null_arg_runs, 1);
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));

    ABT_pool pools[N];
    void (*funcs[N])(void *);
    void *args[N];
    ABT_thread threads[N];
    for (int i = 0; i < N; i++) {
        pools[i] = pool;
        funcs[i] = (i % 2) ? func_b : func_a;
        args[i] = (void *)(intptr_t)i;
        threads[i] = ABT_THREAD_NULL;
    }
    CHECK_ABT(ABT_thread_create_many(N, pools, funcs, args, ABT_THREAD_ATTR_NULL, threads));
    for (int i = 0; i < N; i++)
        CHECK(threads[i] != ABT_THREAD_NULL);
    for (int i = 0; i < N; i++)
        for (int j = i + 1; j < N; j++)
            CHECK(threads[i] != threads[j]);
    CHECK_ABT(ABT_thread_join_many(N, threads));
    for (int i = 0; i < N; i++) {
        ABT_thread_state st;
        CHECK_ABT(ABT_thread_get_state(threads[i], &st));
        CHECK_EQ_INT(st, ABT_THREAD_STATE_TERMINATED);
        CHECK_EQ_INT(atomic_load(&hits[i]), (i % 2) ? 100 : 1);
    }
    CHECK_ABT(ABT_thread_free_many(N, threads));
    for (int i = 0; i < N; i++)
        CHECK(threads[i] == ABT_THREAD_NULL);

    /* free_many without a prior join also waits. */
    CHECK_ABT(ABT_thread_create_many(N, pools, funcs, args, ABT_THREAD_ATTR_NULL, threads));
    CHECK_ABT(ABT_thread_free_many(N, threads));
    for (int i = 0; i < N; i++) {
        CHECK(threads[i] == ABT_THREAD_NULL);
        CHECK_EQ_INT(atomic_load(&hits[i]), (i % 2) ? 200 : 2);
    }

    /* NULL arg_list: every ULT gets NULL. */
    for (int i = 0; i < N; i++)
        funcs[i] = func_null_arg;
    CHECK_ABT(ABT_thread_create_many(N, pools, funcs, NULL, ABT_THREAD_ATTR_NULL, threads));
    CHECK_ABT(ABT_thread_free_many(N, threads));
    CHECK_EQ_INT(atomic_load(&null_arg_runs), N);

    /* Unnamed: NULL output list.  Wait by yielding the main ULT. */
    for (int i = 0; i < N; i++)
        funcs[i] = func_unnamed;
    CHECK_ABT(ABT_thread_create_many(N, pools, funcs, args, ABT_THREAD_ATTR_NULL, NULL));
    while (atomic_load(&unnamed_runs) < N)
        CHECK_ABT(ABT_thread_yield());
    CHECK_EQ_INT(atomic_load(&unnamed_runs), N);

    /* An attribute with a user-provided stack cannot be shared by many ULTs. */
    ABT_thread_attr attr;
    static char stack[65536] __attribute__((aligned(64)));
    CHECK_ABT(ABT_thread_attr_create(&attr));
    CHECK_ABT(ABT_thread_attr_set_stack(attr, stack, sizeof(stack)));
    CHECK_ERR(ABT_thread_create_many(N, pools, funcs, args, attr, threads),
              ABT_ERR_INV_THREAD_ATTR);
    CHECK_ABT(ABT_thread_attr_free(&attr));
    CHECK_EQ_INT(atomic_load(&unnamed_runs), N);

    /* Zero ULTs is a no-op. */
    CHECK_ABT(ABT_thread_create_many(0, pools, funcs, args, ABT_THREAD_ATTR_NULL, threads));
    CHECK_ABT(ABT_thread_join_many(0, threads));
    CHECK_ABT(ABT_thread_free_many(0, threads));

    CHECK_ABT(ABT_finalize());
    return 0;
}
