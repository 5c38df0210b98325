/* stale_xstream_barrier: a copy of an execution-stream barrier handle kept after
 * ABT_xstream_barrier_free is refused with ABT_ERR_INV_XSTREAM_BARRIER by wait and free,
 * also when a new two-party barrier took its memory (a lone wait would block); the new
 * barrier still needs both arrivals. */
#include "stale_test.h"

#include <pthread.h>

static ABT_xstream_barrier g_bar;
static void *arrive(void *arg)
{
    (void)arg;
    CHECK_ABT(ABT_xstream_barrier_wait(g_bar));
    return NULL;
}

int main(int argc, char **argv)
{
    stale_watchdog();
    CHECK_ABT(ABT_init(argc, argv));
    ABT_xstream_barrier b, stale, b2;
    CHECK_ABT(ABT_xstream_barrier_create(2, &b));
    stale = b;
    CHECK_ABT(ABT_xstream_barrier_free(&b));
    CHECK_ABT(ABT_xstream_barrier_create(2, &b2));
    STALE_STEP("xstream_barrier: stale handle, memory reused by a 2-party barrier");
    CHECK_ERR(ABT_xstream_barrier_wait(stale), ABT_ERR_INV_XSTREAM_BARRIER);
    ABT_xstream_barrier copy = stale;
    CHECK_ERR(ABT_xstream_barrier_free(&copy), ABT_ERR_INV_XSTREAM_BARRIER);
    g_bar = b2;
    pthread_t th;
    CHECK(pthread_create(&th, NULL, arrive, NULL) == 0);
    STALE_STEP("xstream_barrier: the new barrier");
    CHECK_ABT(ABT_xstream_barrier_wait(b2));
    CHECK(pthread_join(th, NULL) == 0);
    CHECK_ABT(ABT_xstream_barrier_free(&b2));
    CHECK_ABT(ABT_finalize());
    return 0;
}
