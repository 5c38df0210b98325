/* A team whose member's stream is blocked finishes the other members' shares: 4 threads
 * on 2 streams (threads 1 and 3 share stream 1).  The first of them to start on another
 * OS thread than the master's blocks that OS thread in the kernel (nanosleep, 200 ms at a
 * time) until the other one's share is done, which only another stream can run then: a
 * waiting team thread (the master at the region's end) runs it as a stand-in.  Generous
 * bound: 50 sleeps (10 s) of a blocked stream before the test fails. */
#include "omp_test.h"

#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static void block_os_thread_ms(int ms)
{
    struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
    while (nanosleep(&ts, &ts) != 0) {
    }
}

int main(void)
{
    check_runtime_is_weft();
    if (omp_get_num_procs() < 2) {
        printf("one CPU: one stream, nothing to test\n");
        return 0;
    }
    long master_tid = syscall(SYS_gettid);
    int rounds = slow() ? 2 : 6;
#pragma omp parallel num_threads(4)
    { /* warm-up: the team's worker ULTs exist and their streams run */
    }
    for (int r = 0; r < rounds; r++) {
        int blocker = -1, done_other = 0, sleeps = 0, ran = 0;
#pragma omp parallel num_threads(4) reduction(+ : ran)
        {
            int me = omp_get_thread_num();
            ran++;
            if (me == 1 || me == 3) {
                int none = -1;
                if (syscall(SYS_gettid) != master_tid &&
                    __atomic_compare_exchange_n(&blocker, &none, me, 0, __ATOMIC_ACQ_REL,
                                                __ATOMIC_ACQUIRE)) {
                    while (!__atomic_load_n(&done_other, __ATOMIC_ACQUIRE) && sleeps < 50) {
                        block_os_thread_ms(200);
                        sleeps++;
                    }
                } else {
                    __atomic_store_n(&done_other, 1, __ATOMIC_RELEASE);
                }
            }
        }
        CHECK_EQ(ran, 4);
        CHECK_EQ(done_other, 1);
        if (sleeps >= 50) {
            fprintf(stderr, "round %d: the other member did not run while its stream was blocked\n",
                    r);
            return 1;
        }
    }
    return 0;
}
