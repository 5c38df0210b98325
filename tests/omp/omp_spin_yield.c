/* Busy-waiting team threads beyond the stream count finish: a team of 4 threads on 2
 * streams where threads 0..2 spin on a flag (calling sched_yield in the loop) that thread
 * 3 sets once its part of a `for nowait` is done.  Thread 3 shares a stream with a
 * spinner; sched_yield from a team thread is a ULT yield, so the spinner lets it run. */
#include "omp_test.h"

#include <sched.h>

int main(void)
{
    check_runtime_is_weft();
    int rounds = slow() ? 20 : 200;
    static int a[64];
    for (int r = 0; r < rounds; r++) {
        int flag = 0, seen = 0;
#pragma omp parallel num_threads(4) reduction(+ : seen)
        {
            int me = omp_get_thread_num(), n = omp_get_num_threads();
#pragma omp for schedule(static) nowait
            for (int i = 0; i < 64; i++)
                a[i] = i + r;
            if (me == n - 1) {
                __atomic_store_n(&flag, 1, __ATOMIC_RELEASE);
            } else {
                while (!__atomic_load_n(&flag, __ATOMIC_ACQUIRE))
                    sched_yield();
            }
            seen += __atomic_load_n(&flag, __ATOMIC_ACQUIRE);
        }
        CHECK_EQ(seen, 4);
        for (int i = 0; i < 64; i++)
            CHECK_EQ(a[i], i + r);
    }
    /* outside a team, sched_yield is the system call */
    CHECK_EQ(sched_yield(), 0);
    return 0;
}
