/* glt_util_key: the util/timer and key modules: thread rank and count, wall clock, a
 * timer measuring a sleep-free busy interval (only that it is positive and ordered, no
 * timing claim), keys whose values are per work unit and whose destructor runs when a ULT
 * ends; failure paths (NULL timer, freed key). */
#include "glt_test.h"

static GLT_key key;
static int destroyed;
static void dtor(void *v) { __atomic_fetch_add(&destroyed, 1, __ATOMIC_RELAXED); }

static void keyed(void *arg)
{
    void *v = (void *)&v;
    CHECK_ABT(glt_key_get(key, &v));
    CHECK(v == NULL); /* a new unit starts with NULL */
    CHECK_ABT(glt_key_set(key, arg));
    glt_yield();
    CHECK_ABT(glt_key_get(key, &v));
    CHECK(v == arg); /* its own value, whatever ran meanwhile */
}

static void rank_of(void *arg) { *(int *)arg = glt_get_thread_num(); }

int main(int argc, char **argv)
{
    CHECK_ABT(glt_init(argc, argv));
    int n = glt_get_num_threads();
    CHECK(n >= 1);
    CHECK_EQ_INT(glt_get_thread_num(), 0);
    int r = -1;
    GLT_ult u;
    CHECK_ABT(glt_ult_create_to(rank_of, &r, &u, n - 1));
    CHECK_ABT(glt_ult_free(&u));
    CHECK_EQ_INT(r, n - 1);

    double w0 = glt_get_wtime();
    GLT_timer t;
    CHECK_ABT(glt_timer_create(&t));
    CHECK_ABT(glt_timer_start(t));
    volatile double x = 0;
    while (glt_get_wtime() == w0)
        x += 1;
    CHECK_ABT(glt_timer_stop(t));
    double secs = -1;
    CHECK_ABT(glt_timer_get_secs(t, &secs));
    CHECK(secs > 0.0);
    CHECK(glt_get_wtime() >= w0);
    CHECK_ABT(glt_timer_free(&t));
    CHECK(t == ABT_TIMER_NULL);
    CHECK_ERR(glt_timer_start(ABT_TIMER_NULL), ABT_ERR_INV_TIMER);
    CHECK(glt_timer_get_secs(ABT_TIMER_NULL, &secs) != ABT_SUCCESS);

    CHECK_ABT(glt_key_create(dtor, &key));
    int vals[6];
    GLT_ult h[6];
    for (int i = 0; i < 6; i++)
        CHECK_ABT(glt_ult_create_to(keyed, &vals[i], &h[i], i % n));
    for (int i = 0; i < 6; i++)
        CHECK_ABT(glt_ult_free(&h[i]));
    CHECK_EQ_INT(destroyed, 6);
    CHECK_ABT(glt_key_set(key, &vals[0])); /* the primary ULT has values too */
    void *v = NULL;
    CHECK_ABT(glt_key_get(key, &v));
    CHECK(v == &vals[0]);
    CHECK_ABT(glt_key_set(key, NULL));
    CHECK_ABT(glt_key_free(&key));
    CHECK(key == ABT_KEY_NULL);
    CHECK_ERR(glt_key_set(key, v), ABT_ERR_INV_KEY);
    CHECK_ERR(glt_key_get(key, &v), ABT_ERR_INV_KEY);
    CHECK_ABT(glt_finalize());
    printf("glt_util_key (%s): ok\n", GLT_TEST_BUILD);
    return 0;
}
