/* glt_nested: GLT's nested create/join pattern from every thread at once, in the layout
 * chosen by the environment (ctest registers it for the GLT layout with shared pools and
 * for GLTO): one outer ULT per thread creates units here (glt_ult_create /
 * glt_tasklet_create, through the per-thread pool cache) and on its own thread
 * (glt_ult_create_to(glt_get_thread_num())), yields in between, joins and frees them;
 * every unit runs exactly once, over several rounds. */
#include "glt_test.h"

#define MAXT  8
#define INNER 64
static int counts[MAXT][INNER];

static void bump(void *arg) { __atomic_fetch_add((int *)arg, 1, __ATOMIC_RELAXED); }

static void outer(void *arg)
{
    int t = (int)(intptr_t)arg;
    GLT_ult u[INNER];
    GLT_tasklet k[INNER];
    for (int i = 0; i < INNER; i++) {
        int *c = &counts[t][i];
        switch (i % 3) {
        case 0: CHECK_ABT(glt_ult_create(bump, c, &u[i])); break;
        case 1: CHECK_ABT(glt_tasklet_create(bump, c, &k[i])); break;
        default: CHECK_ABT(glt_ult_create_to(bump, c, &u[i], glt_get_thread_num())); break;
        }
        if (i % 16 == 15)
            glt_yield(); /* may resume on another thread: the cache must still be right */
    }
    for (int i = 0; i < INNER; i++) {
        if (i % 3 == 1) {
            CHECK_ABT(glt_tasklet_join(&k[i]));
            CHECK_ABT(glt_tasklet_free(&k[i]));
        } else {
            CHECK_ABT(glt_ult_join(&u[i]));
            CHECK_ABT(glt_ult_free(&u[i]));
        }
    }
}

int main(int argc, char **argv)
{
    CHECK_ABT(glt_init(argc, argv));
    int n = glt_get_num_threads();
    CHECK(n >= 1 && n <= MAXT);
    int rounds = getenv("WEFT_TEST_SLOW") ? 5 : 400; /* TSan: ~1 ms per ULT fiber */
    for (int r = 0; r < rounds; r++) {
        GLT_ult o[MAXT];
        for (int t = 0; t < n; t++)
            CHECK_ABT(glt_ult_create_to(outer, (void *)(intptr_t)t, &o[t], t));
        for (int t = 0; t < n; t++) {
            CHECK_ABT(glt_ult_join(&o[t]));
            CHECK_ABT(glt_ult_free(&o[t]));
        }
    }
    for (int t = 0; t < n; t++)
        for (int i = 0; i < INNER; i++)
            CHECK_EQ_INT(counts[t][i], rounds);
    CHECK_ABT(glt_finalize());
    printf("glt_nested (%s, %s layout, %d threads, %d rounds): ok\n", GLT_TEST_BUILD,
           getenv("GLTO_NUM_THREADS") ? "GLTO" : "GLT", n, rounds);
    return 0;
}
