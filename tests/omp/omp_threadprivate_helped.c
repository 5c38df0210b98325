/* threadprivate stays per OpenMP thread when a member's share runs as a stand-in on
 * another stream (ctest runs it with WEFT_OMP_HELP_NS=0: a waiting thread helps as soon
 * as it sees a share nobody started).  2 threads on 2 streams: each writes its number
 * into the threadprivate variable, checks it after a barrier and at the next region
 * (values persist between regions of the same size), and copyin hands the master's value
 * to every thread. */
#include "omp_test.h"

static int tp = -1;
#pragma omp threadprivate(tp)

int main(void)
{
    check_runtime_is_weft();
    int n = omp_get_num_procs() < 2 ? 1 : 2;
    omp_set_num_threads(n);
    int rounds = slow() ? 200 : 3000, bad = 0;
    for (int r = 0; r < rounds; r++) {
#pragma omp parallel reduction(+ : bad)
        {
            int me = omp_get_thread_num();
            if (r > 0 && tp != 1000 * r + me - 1000)
                bad++;
            tp = 1000 * r + me;
#pragma omp barrier
            if (tp != 1000 * r + me)
                bad++;
        }
        CHECK_EQ(bad, 0);
    }
    tp = 7;
#pragma omp parallel copyin(tp) reduction(+ : bad)
    {
        if (tp != 7)
            bad++;
        tp = 7 + omp_get_thread_num();
#pragma omp barrier
        if (tp != 7 + omp_get_thread_num())
            bad++;
    }
    CHECK_EQ(bad, 0);
    CHECK_EQ(tp, 7);
    return 0;
}
