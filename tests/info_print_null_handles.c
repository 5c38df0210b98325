/* info_print_null_handles: every ABT_info_print_* routine prints a valid object of its
 * type, and answers a NULL handle with the ABT_ERR_INV_* code of that type (Argobots 1.x):
 * xstream, sched, pool, thread, task, thread_attr, thread_stack, thread_stacks_in_pool. */
#include "test.h"

static void nop(void *arg) {}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    FILE *fp = tmpfile();
    CHECK(fp != NULL);

    ABT_xstream xs;
    ABT_sched sched;
    ABT_pool pool;
    ABT_thread thread;
    ABT_task task;
    ABT_thread_attr attr;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_sched(xs, &sched));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    CHECK_ABT(ABT_thread_create(pool, nop, NULL, ABT_THREAD_ATTR_NULL, &thread));
    CHECK_ABT(ABT_task_create(pool, nop, NULL, &task));
    CHECK_ABT(ABT_thread_attr_create(&attr));

    CHECK_ABT(ABT_info_print_config(fp));
    CHECK_ABT(ABT_info_print_all_xstreams(fp));
    CHECK_ABT(ABT_info_print_xstream(fp, xs));
    CHECK_ABT(ABT_info_print_sched(fp, sched));
    CHECK_ABT(ABT_info_print_pool(fp, pool));
    CHECK_ABT(ABT_info_print_thread(fp, thread));
    CHECK_ABT(ABT_info_print_task(fp, task));
    CHECK_ABT(ABT_info_print_thread_attr(fp, attr));
    CHECK_ABT(ABT_info_print_thread_stack(fp, thread));
    CHECK_ABT(ABT_info_print_thread_stacks_in_pool(fp, pool));
    CHECK(ftell(fp) > 0);

    CHECK_ERR(ABT_info_print_xstream(fp, ABT_XSTREAM_NULL), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_info_print_sched(fp, ABT_SCHED_NULL), ABT_ERR_INV_SCHED);
    CHECK_ERR(ABT_info_print_pool(fp, ABT_POOL_NULL), ABT_ERR_INV_POOL);
    CHECK_ERR(ABT_info_print_thread(fp, ABT_THREAD_NULL), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_info_print_task(fp, ABT_TASK_NULL), ABT_ERR_INV_TASK);
    CHECK_ERR(ABT_info_print_thread_attr(fp, ABT_THREAD_ATTR_NULL), ABT_ERR_INV_THREAD_ATTR);
    CHECK_ERR(ABT_info_print_thread_stack(fp, ABT_THREAD_NULL), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_info_print_thread_stacks_in_pool(fp, ABT_POOL_NULL), ABT_ERR_INV_POOL);
    fclose(fp);

    CHECK_ABT(ABT_thread_attr_free(&attr));
    CHECK_ABT(ABT_thread_free(&thread));
    CHECK_ABT(ABT_task_free(&task));
    CHECK_ABT(ABT_finalize());
    return 0;
}
