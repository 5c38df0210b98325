/* sections (+ parallel sections), single (nowait, copyprivate), master and masked. */
#include "omp_test.h"

int main(void)
{
    check_runtime_is_weft();
    omp_set_num_threads(3);
    int s[5] = { 0 };
#pragma omp parallel
    {
#pragma omp sections
        {
#pragma omp section
            s[0]++;
#pragma omp section
            s[1]++;
#pragma omp section
            s[2]++;
#pragma omp section
            s[3]++;
#pragma omp section
            s[4]++;
        }
    }
    for (int i = 0; i < 5; i++)
        CHECK_EQ(s[i], 1);
    int a = 0, b = 0;
#pragma omp parallel sections
    {
#pragma omp section
        a = 1;
#pragma omp section
        b = 2;
    }
    CHECK_EQ(a + b, 3);
    int singles = 0, masters = 0, bad = 0;
    int reps = slow() ? 50 : 1000;
#pragma omp parallel
    {
        for (int r = 0; r < reps; r++) {
#pragma omp single
            {
#pragma omp atomic
                singles++;
            }
#pragma omp single nowait
            {
#pragma omp atomic
                singles++;
            }
#pragma omp master
            masters++;
        }
        int v;
#pragma omp single copyprivate(v)
        v = 42 + omp_get_thread_num();
        /* everybody got the value of the thread that ran the single */
        if (v < 42 || v > 44)
#pragma omp atomic
            bad++;
        int w = -1;
#pragma omp masked
        w = omp_get_thread_num();
        if (omp_get_thread_num() == 0 && w != 0)
            bad++;
    }
    CHECK_EQ(singles, 2 * reps);
    CHECK_EQ(masters, reps);
    CHECK_EQ(bad, 0);
    return 0;
}
