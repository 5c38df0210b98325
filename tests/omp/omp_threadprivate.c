/* threadprivate: gcc makes it TLS, which on weft is per execution stream.  With one
 * OpenMP thread per stream (team size <= streams, the outermost team) every thread
 * has its own copy, copyin works, and values persist between regions. */
#include "omp_test.h"

static int tp = -1;
#pragma omp threadprivate(tp)

int main(void)
{
    check_runtime_is_weft();
    int n = omp_get_num_procs() < 2 ? 1 : 2;
    omp_set_num_threads(n);
    tp = 100;
    int bad = 0;
#pragma omp parallel copyin(tp) reduction(+ : bad)
    {
        if (tp != 100)
            bad++;
        tp = 100 + omp_get_thread_num();
    }
    CHECK_EQ(bad, 0);
#pragma omp parallel reduction(+ : bad)
    {
        if (tp != 100 + omp_get_thread_num())
            bad++;
    }
    CHECK_EQ(bad, 0);
    return 0;
}
