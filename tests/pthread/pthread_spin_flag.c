/* tests/pthread/pthread_spin_flag.c - four threads, three of which spin (no call that could
 * switch them) on a flag that the fourth sets: with fewer streams than threads, the
 * spinners would hold every stream forever; the layer's time slice (WEFT_PTHREAD_PREEMPT_US)
 * hands a held stream's waiting threads to a spare, so the setter runs and all finish. */
#include "pth_test.h"

#include <stdatomic.h>
#include <stdint.h>

static _Atomic int flag, done;

static void *spin(void *arg)
{
    (void)arg;
    while (!atomic_load(&flag)) {
    }
    atomic_fetch_add(&done, 1);
    return NULL;
}

static void *set(void *arg)
{
    (void)arg;
    atomic_store(&flag, 1);
    return NULL;
}

int main(void)
{
    pth_test_start();
    alarm(120); /* a hang fails instead (SIGALRM's default action) */
    for (int round = 0; round < 3; round++) {
        atomic_store(&flag, 0);
        atomic_store(&done, 0);
        pthread_t t[4];
        for (int i = 0; i < 3; i++)
            CHECK_RC(pthread_create(&t[i], NULL, spin, NULL), 0);
        CHECK_RC(pthread_create(&t[3], NULL, set, NULL), 0);
        for (int i = 0; i < 4; i++)
            CHECK_RC(pthread_join(t[i], NULL), 0);
        CHECK_EQ_INT(atomic_load(&done), 3);
    }
    printf("3 spinners and their setter finished, 3 rounds\n");
    return 0;
}
