/* Cancellation (OMP_CANCELLATION=true): cancel parallel releases the threads waiting
 * at a cancellation barrier, cancel for ends a loop early, cancel taskgroup discards
 * the group's tasks not yet started. */
#include "omp_test.h"

int main(void)
{
    check_runtime_is_weft();
    CHECK(omp_get_cancellation());
    int after = 0;
#pragma omp parallel num_threads(4)
    {
        if (omp_get_thread_num() == 1) {
#pragma omp cancel parallel
        }
#pragma omp barrier
#pragma omp atomic
        after++;
    }
    CHECK(after < 4);
    long iters = 0;
#pragma omp parallel num_threads(2)
    {
#pragma omp for schedule(dynamic, 1)
        for (int i = 0; i < 1000000; i++) {
            if (i == 10) {
#pragma omp cancel for
            }
#pragma omp cancellation point for
#pragma omp atomic
            iters++;
        }
    }
    CHECK(iters < 1000000);
    int ran = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
#pragma omp taskgroup
    {
#pragma omp task
        {
#pragma omp cancel taskgroup
        }
#pragma omp taskwait
        for (int i = 0; i < 1000; i++) {
#pragma omp task shared(ran)
            {
#pragma omp atomic
                ran++;
            }
        }
    }
    CHECK(ran < 1000);
    return 0;
}
