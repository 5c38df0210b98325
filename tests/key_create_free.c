/* key_create_free: ABT_key_create returns distinct keys (with or without a
 * destructor); a fresh key reads NULL in every work unit; ABT_key_set / ABT_key_get
 * round-trip in the main ULT; ABT_key_free sets the handle to ABT_KEY_NULL.  Freeing
 * ABT_KEY_NULL, or set/get with ABT_KEY_NULL, gives ABT_ERR_INV_KEY; key_set/get
 * from an external thread give ABT_ERR_INV_XSTREAM. */
#include "test.h"
#include <pthread.h>

static void dtor(void *v) { (void)v; }

static ABT_key k1;
static void *ext(void *arg)
{
    (void)arg;
    void *v;
    CHECK_ERR(ABT_key_set(k1, (void *)1), ABT_ERR_INV_XSTREAM);
    CHECK_ERR(ABT_key_get(k1, &v), ABT_ERR_INV_XSTREAM);
    return NULL;
}

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));
    ABT_key k2, k3;
    void *v = (void *)1;
    CHECK_ABT(ABT_key_create(NULL, &k1));
    CHECK_ABT(ABT_key_create(dtor, &k2));
    CHECK_ABT(ABT_key_create(dtor, &k3));
    CHECK(k1 != ABT_KEY_NULL && k2 != ABT_KEY_NULL && k3 != ABT_KEY_NULL);
    CHECK(k1 != k2 && k2 != k3 && k1 != k3);

    CHECK_ABT(ABT_key_get(k1, &v));
    CHECK_EQ_PTR(v, NULL);
    CHECK_ABT(ABT_key_set(k1, (void *)0x11));
    CHECK_ABT(ABT_key_set(k2, (void *)0x22));
    CHECK_ABT(ABT_key_get(k1, &v));
    CHECK_EQ_PTR(v, (void *)0x11);
    CHECK_ABT(ABT_key_get(k2, &v));
    CHECK_EQ_PTR(v, (void *)0x22);
    CHECK_ABT(ABT_key_get(k3, &v));
    CHECK_EQ_PTR(v, NULL);
    CHECK_ABT(ABT_key_set(k1, (void *)0x33));
    CHECK_ABT(ABT_key_get(k1, &v));
    CHECK_EQ_PTR(v, (void *)0x33);
    CHECK_ABT(ABT_key_set(k1, NULL));
    CHECK_ABT(ABT_key_set(k2, NULL));
    CHECK_ABT(ABT_key_get(k1, &v));
    CHECK_EQ_PTR(v, NULL);

    pthread_t pt;
    CHECK(pthread_create(&pt, NULL, ext, NULL) == 0);
    CHECK(pthread_join(pt, NULL) == 0);

    CHECK_ERR(ABT_key_set(ABT_KEY_NULL, NULL), ABT_ERR_INV_KEY);
    CHECK_ERR(ABT_key_get(ABT_KEY_NULL, &v), ABT_ERR_INV_KEY);
    ABT_key n = ABT_KEY_NULL;
    CHECK_ERR(ABT_key_free(&n), ABT_ERR_INV_KEY);

    CHECK_ABT(ABT_key_free(&k1));
    CHECK(k1 == ABT_KEY_NULL);
    CHECK_ABT(ABT_key_free(&k2));
    CHECK_ABT(ABT_key_free(&k3));
    CHECK(k2 == ABT_KEY_NULL && k3 == ABT_KEY_NULL);
    CHECK_ABT(ABT_finalize());
    return 0;
}
