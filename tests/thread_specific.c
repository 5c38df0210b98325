/* thread_specific: ABT_thread_set_specific / ABT_thread_get_specific access another
 * work unit's key values: a value set from outside before a ULT runs is seen inside
 * through ABT_key_get and ABT_self_get_specific; a value the ULT sets for itself is
 * visible from outside after the join (before free); unset keys read as NULL;
 * values are per work unit.  Tasklets via ABT_task_set_specific/_get_specific.
 * NULL thread: ABT_ERR_INV_THREAD; NULL key: ABT_ERR_INV_KEY. */
#include "test.h"

static ABT_key k1, k2;
/* What each work unit saw, indexed by the low nibble of its argument. */
static void *in_k1_a[16], *in_k1_b[16], *in_k2[16];

static void func(void *arg)
{
    int i = (int)((intptr_t)arg & 0xf);
    CHECK_ABT(ABT_key_get(k1, &in_k1_a[i]));
    CHECK_ABT(ABT_self_get_specific(k1, &in_k1_b[i]));
    CHECK_ABT(ABT_key_get(k2, &in_k2[i]));
    CHECK_ABT(ABT_self_set_specific(k2, arg));
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK_ABT(ABT_xstream_self(&xs));
    CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
    CHECK_ABT(ABT_key_create(NULL, &k1));
    CHECK_ABT(ABT_key_create(NULL, &k2));
    void *v;

    ABT_thread a, b;
    CHECK_ABT(ABT_thread_create(pool, func, (void *)0xa1, ABT_THREAD_ATTR_NULL, &a));
    CHECK_ABT(ABT_thread_create(pool, func, (void *)0xb2, ABT_THREAD_ATTR_NULL, &b));
    CHECK_ABT(ABT_thread_get_specific(a, k1, &v));
    CHECK_EQ_PTR(v, NULL);
    CHECK_ABT(ABT_thread_set_specific(a, k1, (void *)0x5a));
    CHECK_ABT(ABT_thread_get_specific(a, k1, &v));
    CHECK_EQ_PTR(v, (void *)0x5a);
    CHECK_ABT(ABT_thread_join(a));
    CHECK_EQ_PTR(in_k1_a[1], (void *)0x5a);
    CHECK_EQ_PTR(in_k1_b[1], (void *)0x5a);
    CHECK_EQ_PTR(in_k2[1], NULL);
    CHECK_ABT(ABT_thread_join(b));
    CHECK_EQ_PTR(in_k1_a[2], NULL); /* b never had k1 set */
    CHECK_EQ_PTR(in_k1_b[2], NULL);
    CHECK_ABT(ABT_thread_get_specific(a, k2, &v));
    CHECK_EQ_PTR(v, (void *)0xa1);
    CHECK_ABT(ABT_thread_get_specific(b, k2, &v));
    CHECK_EQ_PTR(v, (void *)0xb2);
    CHECK_ABT(ABT_thread_get_specific(a, k1, &v));
    CHECK_EQ_PTR(v, (void *)0x5a);
    /* Overwrite. */
    CHECK_ABT(ABT_thread_set_specific(a, k1, (void *)0xa3));
    CHECK_ABT(ABT_thread_get_specific(a, k1, &v));
    CHECK_EQ_PTR(v, (void *)0xa3);
    CHECK_ABT(ABT_thread_free(&a));
    CHECK_ABT(ABT_thread_free(&b));

    /* The main ULT's own values are separate from other ULTs'. */
    CHECK_ABT(ABT_key_get(k1, &v));
    CHECK_EQ_PTR(v, NULL);
    ABT_thread self;
    CHECK_ABT(ABT_thread_self(&self));
    CHECK_ABT(ABT_thread_set_specific(self, k1, (void *)0x51));
    CHECK_ABT(ABT_key_get(k1, &v));
    CHECK_EQ_PTR(v, (void *)0x51);

    ABT_task t;
    CHECK_ABT(ABT_task_create(pool, func, (void *)0xc3, &t));
    CHECK_ABT(ABT_task_set_specific(t, k1, (void *)0x5c));
    CHECK_ABT(ABT_task_join(t));
    CHECK_EQ_PTR(in_k1_a[3], (void *)0x5c);
    CHECK_ABT(ABT_task_get_specific(t, k2, &v));
    CHECK_EQ_PTR(v, (void *)0xc3);
    CHECK_ABT(ABT_task_free(&t));

    CHECK_ERR(ABT_thread_set_specific(ABT_THREAD_NULL, k1, NULL), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_get_specific(ABT_THREAD_NULL, k1, &v), ABT_ERR_INV_THREAD);
    CHECK_ERR(ABT_thread_set_specific(self, ABT_KEY_NULL, NULL), ABT_ERR_INV_KEY);
    CHECK_ERR(ABT_thread_get_specific(self, ABT_KEY_NULL, &v), ABT_ERR_INV_KEY);
    CHECK_ERR(ABT_task_get_specific(ABT_TASK_NULL, k1, &v), ABT_ERR_INV_THREAD);

    CHECK_ABT(ABT_key_free(&k1));
    CHECK_ABT(ABT_key_free(&k2));
    CHECK_ABT(ABT_finalize());
    return 0;
}
