/* info_print_thread_stacks_in_pool: ABT_info_print_thread_stacks_in_pool prints every
 * unit queued in a pool: ULTs that never ran (in a pool no scheduler uses yet) and ULTs
 * suspended in ABT_thread_yield (the primary pool); ABT_POOL_NULL gives
 * ABT_ERR_INV_POOL, and a user-defined pool without p_print_all gives ABT_ERR_POOL. */
#include "stack_dump_test.h"

#define N 8

static volatile int started, release;

static void yielder(void *arg)
{
    started++;
    while (!release)
        CHECK_ABT(ABT_thread_yield());
}

static void nop(void *arg) {}

/* a minimal user pool: one unit at a time is enough here */
static ABT_thread slot = ABT_THREAD_NULL;
static ABT_unit u_create(ABT_pool pool, ABT_thread t) { return (ABT_unit)t; }
static void u_free(ABT_pool pool, ABT_unit unit) {}
static ABT_bool is_empty(ABT_pool pool) { return slot == ABT_THREAD_NULL ? ABT_TRUE : ABT_FALSE; }
static void push(ABT_pool pool, ABT_unit unit, ABT_pool_context ctx) { slot = (ABT_thread)unit; }
static ABT_thread pop(ABT_pool pool, ABT_pool_context ctx)
{
    ABT_thread t = slot;
    slot = ABT_THREAD_NULL;
    return t;
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    ABT_pool main_pool, idle_pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &main_pool));
    CHECK_ABT(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &idle_pool));

    ABT_thread fresh[N], running[2];
    ABT_unit_id fresh_id[N], running_id[2];
    for (int i = 0; i < N; i++) {
        CHECK_ABT(ABT_thread_create(idle_pool, nop, NULL, ABT_THREAD_ATTR_NULL, &fresh[i]));
        CHECK_ABT(ABT_thread_get_id(fresh[i], &fresh_id[i]));
    }
    for (int i = 0; i < 2; i++) {
        CHECK_ABT(ABT_thread_create(main_pool, yielder, NULL, ABT_THREAD_ATTR_NULL, &running[i]));
        CHECK_ABT(ABT_thread_get_id(running[i], &running_id[i]));
    }
    while (started < 2)
        CHECK_ABT(ABT_thread_yield());

    FILE *fp = tmpfile();
    CHECK(fp != NULL);
    CHECK_ABT(ABT_info_print_thread_stacks_in_pool(fp, idle_pool));
    char *out = dump_read(fp);
    for (int i = 0; i < N; i++)
        CHECK(dump_has_id(out, fresh_id[i]));
    free(out);

    rewind(fp);
    CHECK_ABT(ABT_info_print_thread_stacks_in_pool(fp, main_pool));
    out = dump_read(fp);
    for (int i = 0; i < 2; i++)
        CHECK(dump_has_id(out, running_id[i]));
    if (TEST_WEFT)
        CHECK(strstr(out, "<ABT_thread_yield+0x") != NULL);
    free(out);

    CHECK_ERR(ABT_info_print_thread_stacks_in_pool(fp, ABT_POOL_NULL), ABT_ERR_INV_POOL);

    ABT_pool_user_def def;
    ABT_pool upool;
    CHECK_ABT(ABT_pool_user_def_create(u_create, u_free, is_empty, pop, push, &def));
    CHECK_ABT(ABT_pool_create(def, ABT_POOL_CONFIG_NULL, &upool));
    CHECK_ABT(ABT_pool_user_def_free(&def));
    CHECK_ERR(ABT_info_print_thread_stacks_in_pool(fp, upool), ABT_ERR_POOL);
    CHECK_ABT(ABT_pool_free(&upool));
    fclose(fp);

    /* let everything finish: a stream for the idle pool */
    release = 1;
    ABT_xstream xs2;
    CHECK_ABT(
        ABT_xstream_create_basic(ABT_SCHED_DEFAULT, 1, &idle_pool, ABT_SCHED_CONFIG_NULL, &xs2));
    for (int i = 0; i < N; i++)
        CHECK_ABT(ABT_thread_free(&fresh[i]));
    for (int i = 0; i < 2; i++)
        CHECK_ABT(ABT_thread_free(&running[i]));
    CHECK_ABT(ABT_xstream_free(&xs2));
    CHECK_ABT(ABT_finalize());
    return 0;
}
