/* Parallel regions: team sizes, thread numbers, num_threads and if clauses, more
 * OpenMP threads than streams (each a ULT), GOMP_parallel_start/_end shape, and many
 * regions in a row (the team cache). */
#include "omp_test.h"

int main(void)
{
    check_runtime_is_weft();
    CHECK_EQ(omp_get_max_threads(), 4);
    CHECK(!omp_in_parallel());
    int seen[16] = { 0 }, nt = 0;
#pragma omp parallel
    {
#pragma omp atomic
        seen[omp_get_thread_num()]++;
        if (omp_get_thread_num() == 0)
            nt = omp_get_num_threads();
        CHECK(omp_in_parallel());
        CHECK_EQ(omp_get_level(), 1);
    }
    CHECK_EQ(nt, 4);
    for (int i = 0; i < 4; i++)
        CHECK_EQ(seen[i], 1);
    /* more threads than streams (at most 2 on the CI machine): each is a ULT */
    int sum = 0;
#pragma omp parallel num_threads(12) reduction(+ : sum)
    {
        sum += omp_get_thread_num();
#pragma omp barrier
        sum += 1;
    }
    CHECK_EQ(sum, 66 + 12);
    int one = 0;
#pragma omp parallel if (0)
    one = omp_get_num_threads();
    CHECK_EQ(one, 1);
    int rounds = slow() ? 200 : 5000;
    long total = 0;
    for (int r = 0; r < rounds; r++) {
#pragma omp parallel num_threads(2 + r % 3) reduction(+ : total)
        total += 1;
    }
    long expect = 0;
    for (int r = 0; r < rounds; r++)
        expect += 2 + r % 3;
    CHECK_EQ(total, expect);
    omp_set_num_threads(3);
    int n3 = 0;
#pragma omp parallel
#pragma omp master
    n3 = omp_get_num_threads();
    CHECK_EQ(n3, 3);
    return 0;
}
