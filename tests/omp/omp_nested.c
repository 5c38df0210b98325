/* Nested parallel regions three levels deep (OMP_NESTED=true, OMP_NUM_THREADS=2):
 * levels, active levels, ancestors and team sizes, every inner thread a ULT; and
 * max-active-levels cutting nesting off. */
#include "omp_test.h"

int main(void)
{
    check_runtime_is_weft();
    CHECK(omp_get_nested());
    int count = 0, bad = 0;
#pragma omp parallel num_threads(2)
    {
        int a = omp_get_thread_num();
#pragma omp parallel num_threads(3)
        {
            int b = omp_get_thread_num();
#pragma omp parallel num_threads(4)
            {
#pragma omp atomic
                count++;
                if (omp_get_level() != 3 || omp_get_active_level() != 3)
                    bad++;
                if (omp_get_ancestor_thread_num(1) != a || omp_get_ancestor_thread_num(2) != b)
                    bad++;
                if (omp_get_team_size(1) != 2 || omp_get_team_size(2) != 3 ||
                    omp_get_team_size(3) != 4 || omp_get_num_threads() != 4)
                    bad++;
                if (omp_get_ancestor_thread_num(0) != 0 || omp_get_ancestor_thread_num(4) != -1)
                    bad++;
#pragma omp barrier
            }
        }
    }
    CHECK_EQ(bad, 0);
    CHECK_EQ(count, 24);
    /* nested parallel for, repeated */
    long s = 0;
    int reps = slow() ? 20 : 300;
    for (int r = 0; r < reps; r++) {
#pragma omp parallel for reduction(+ : s)
        for (int i = 0; i < 8; i++) {
            long inner = 0;
#pragma omp parallel for reduction(+ : inner)
            for (int j = 0; j < 100; j++)
                inner += j;
            s += inner;
        }
    }
    CHECK_EQ(s, (long)reps * 8 * 4950);
    omp_set_max_active_levels(1);
    int inner_n = 0;
#pragma omp parallel num_threads(2)
#pragma omp parallel num_threads(2)
    {
        if (omp_get_thread_num() == 0)
#pragma omp atomic write
            inner_n = omp_get_num_threads();
    }
    CHECK_EQ(inner_n, 1);
    return 0;
}
