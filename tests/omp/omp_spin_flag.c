/* Busy-waiting team threads beyond the stream count finish without calling anything: a
 * team of 4 threads on 2 streams where threads 0..2 spin on a flag (a bare load loop) that
 * thread 3 sets.  A spinner that holds its stream, with thread 3 queued behind it, has the
 * stream's work handed to a spare OS thread once its time slice (WEFT_OMP_PREEMPT_US) is
 * over, so thread 3 runs.  A hang fails the test (alarm). */
#include "omp_test.h"

#include <unistd.h>

int main(void)
{
    check_runtime_is_weft();
    alarm(120);
    int rounds = slow() ? 5 : 50;
    for (int r = 0; r < rounds; r++) {
        int flag = 0, seen = 0;
#pragma omp parallel num_threads(4) reduction(+ : seen)
        {
            if (omp_get_thread_num() == omp_get_num_threads() - 1) {
                __atomic_store_n(&flag, 1, __ATOMIC_RELEASE);
            } else {
                while (!__atomic_load_n(&flag, __ATOMIC_ACQUIRE)) {
                }
            }
            seen += __atomic_load_n(&flag, __ATOMIC_ACQUIRE);
        }
        CHECK_EQ(seen, 4);
    }
    return 0;
}
