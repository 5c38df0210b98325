/* task_get_id: tasklet IDs are distinct from each other and from ULT IDs, stable
 * across queries, and ABT_task_self_id inside equals ABT_task_get_id outside. */
#include "test.h"

#define N 32
static ABT_unit_id inside[N];
static void tfunc(void *arg) { CHECK_ABT(ABT_task_self_id(&inside[(intptr_t)arg])); }
static void ufunc(void *arg) { (void)arg; }

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    ABT_task k[N];
    ABT_thread u;
    ABT_unit_id ids[N], uid, again;
    CHECK_ABT(ABT_thread_create(pool, ufunc, NULL, ABT_THREAD_ATTR_NULL, &u));
    CHECK_ABT(ABT_thread_get_id(u, &uid));
    for (int i = 0; i < N; i++) {
        CHECK_ABT(ABT_task_create(pool, tfunc, (void *)(intptr_t)i, &k[i]));
        CHECK_ABT(ABT_task_get_id(k[i], &ids[i]));
        CHECK(ids[i] != uid);
        for (int j = 0; j < i; j++)
            CHECK(ids[i] != ids[j]);
    }
    for (int i = 0; i < N; i++) {
        CHECK_ABT(ABT_task_join(k[i]));
        CHECK_EQ_INT(inside[i], ids[i]);
        CHECK_ABT(ABT_task_get_id(k[i], &again));
        CHECK_EQ_INT(again, ids[i]);
        CHECK_ABT(ABT_task_free(&k[i]));
    }
    CHECK_ABT(ABT_thread_free(&u));
    CHECK_ABT(ABT_finalize());
    return 0;
}
