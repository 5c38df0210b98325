/* tests/blocking_pairs.c - weft_blocking_begin/end: the documented return codes (before
 * ABT_init, an end without a begin), nesting, and the no-ops of external threads and of a
 * tasklet. */
#include "weft_only.h"
#ifndef WEFT_ONLY_SKIPPED
#include <pthread.h>

static void *external(void *arg)
{
    (void)arg;
    CHECK_ABT(weft_blocking_begin());
    CHECK_ABT(weft_blocking_end());
    CHECK_ABT(weft_blocking_end()); /* an external thread keeps no count */
    return NULL;
}

static void tasklet(void *arg)
{
    int *ok = arg;
    CHECK_ABT(weft_blocking_begin());
    CHECK_ABT(weft_blocking_end());
    CHECK_ERR(weft_blocking_end(), ABT_ERR_INV_ARG);
    *ok = 1;
}

int main(int argc, char **argv)
{
    CHECK_ERR(weft_blocking_begin(), ABT_ERR_UNINITIALIZED);
    CHECK_ERR(weft_blocking_end(), ABT_ERR_UNINITIALIZED);
    CHECK_ABT(ABT_init(argc, argv));
    CHECK_ERR(weft_blocking_end(), ABT_ERR_INV_ARG);
    CHECK_ABT(weft_blocking_begin());
    CHECK_ABT(weft_blocking_begin());
    CHECK_ABT(weft_blocking_end());
    CHECK_ABT(weft_blocking_end());
    CHECK_ERR(weft_blocking_end(), ABT_ERR_INV_ARG);

    pthread_t t;
    CHECK(pthread_create(&t, NULL, external, NULL) == 0);
    CHECK(pthread_join(t, NULL) == 0);

    ABT_pool pool;
    CHECK_ABT(ABT_self_get_last_pool(&pool));
    int ok = 0;
    ABT_task task;
    CHECK_ABT(ABT_task_create(pool, tasklet, &ok, &task));
    CHECK_ABT(ABT_task_free(&task));
    CHECK_EQ_INT(ok, 1);
    CHECK_ABT(ABT_finalize());
    CHECK_ERR(weft_blocking_begin(), ABT_ERR_UNINITIALIZED);
    return 0;
}
#endif
