/* examples/hello.c - the smallest weft (Argobots) program: two streams, ULTs and
 * tasklets, joined.  Builds unchanged against weft or Argobots:
 *   cc hello.c $(pkg-config --cflags --libs argobots)                         */
#include <abt.h>
#include <stdio.h>

static void ult(void *arg)
{
    int rank;
    ABT_self_get_xstream_rank(&rank);
    printf("ULT %d on execution stream %d\n", (int)(intptr_t)arg, rank);
}

static void tasklet(void *arg) { printf("tasklet %d\n", (int)(intptr_t)arg); }

int main(int argc, char **argv)
{
    ABT_init(argc, argv);
    ABT_xstream xs[2];
    ABT_pool pools[2];
    ABT_xstream_self(&xs[0]);
    ABT_xstream_create(ABT_SCHED_NULL, &xs[1]);
    for (int i = 0; i < 2; i++)
        ABT_xstream_get_main_pools(xs[i], 1, &pools[i]);
    ABT_thread units[4];
    for (int i = 0; i < 4; i++) {
        if (i % 2)
            ABT_task_create(pools[i / 2], tasklet, (void *)(intptr_t)i, &units[i]);
        else
            ABT_thread_create(pools[i / 2], ult, (void *)(intptr_t)i, ABT_THREAD_ATTR_NULL,
                              &units[i]);
    }
    for (int i = 0; i < 4; i++)
        ABT_thread_free(&units[i]);
    ABT_xstream_free(&xs[1]);
    ABT_finalize();
    return 0;
}
