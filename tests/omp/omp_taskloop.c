/* taskloop: grainsize, num_tasks, default split, nogroup + taskwait, unsigned loops,
 * and the implicit taskgroup. */
#include "omp_test.h"

#define N 5000
static int hit[N];

int main(void)
{
    check_runtime_is_weft();
    omp_set_num_threads(4);
#pragma omp parallel
#pragma omp single
    {
#pragma omp taskloop grainsize(37)
        for (int i = 0; i < N; i++)
#pragma omp atomic
            hit[i]++;
#pragma omp taskloop num_tasks(7)
        for (int i = N - 1; i >= 0; i--)
#pragma omp atomic
            hit[i]++;
#pragma omp taskloop
        for (unsigned long long u = 0; u < N; u += 1)
#pragma omp atomic
            hit[u]++;
#pragma omp taskloop nogroup
        for (int i = 0; i < N; i += 2)
#pragma omp atomic
            hit[i]++;
#pragma omp taskwait
    }
    for (int i = 0; i < N; i++)
        CHECK_EQ(hit[i], 3 + (i % 2 == 0));
    return 0;
}
