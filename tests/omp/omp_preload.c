/* An unmodified gcc -fopenmp program linked against the system libgomp, run with
 * LD_PRELOAD=libweft-omp.so (set by ctest): the preloaded runtime answers every OpenMP
 * call and the results match.  Not registered in sanitizer builds (their runtime must
 * be the first object loaded, so the preload order breaks). */
#include "omp_test.h"

int main(void)
{
    check_runtime_is_weft();
    long s = 0;
    int nt = 0;
#pragma omp parallel reduction(+ : s)
    {
#pragma omp single
        nt = omp_get_num_threads();
#pragma omp for schedule(dynamic, 3)
        for (int i = 0; i < 10000; i++)
            s += i;
    }
    CHECK_EQ(s, 49995000L);
    CHECK(nt >= 1);
    long t = 0;
#pragma omp parallel
#pragma omp single
    for (int i = 0; i < 1000; i++) {
#pragma omp task shared(t)
        {
#pragma omp atomic
            t++;
        }
    }
    CHECK_EQ(t, 1000);
    return 0;
}
