/* Doacross loops: ordered(1) and ordered(2) with depend(sink) / depend(source); each
 * iteration checks that the iterations it depends on have completed before it runs. */
#include "omp_test.h"

#define N 400
#define M 60
static int done1[N];
static int done2[N][M];

int main(void)
{
    check_runtime_is_weft();
    omp_set_num_threads(4);
    int bad = 0;
#pragma omp parallel for ordered(1) schedule(dynamic, 3) reduction(+ : bad)
    for (int i = 0; i < N; i++) {
#pragma omp ordered depend(sink : i - 1)
        if (i > 0 && !__atomic_load_n(&done1[i - 1], __ATOMIC_ACQUIRE))
            bad++;
        __atomic_store_n(&done1[i], 1, __ATOMIC_RELEASE);
#pragma omp ordered depend(source)
    }
    CHECK_EQ(bad, 0);
#pragma omp parallel for ordered(2) schedule(static, 1) reduction(+ : bad)
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++) {
#pragma omp ordered depend(sink : i - 1, j) depend(sink : i, j - 1)
            if (i > 0 && !__atomic_load_n(&done2[i - 1][j], __ATOMIC_ACQUIRE))
                bad++;
            if (j > 0 && !__atomic_load_n(&done2[i][j - 1], __ATOMIC_ACQUIRE))
                bad++;
            __atomic_store_n(&done2[i][j], 1, __ATOMIC_RELEASE);
#pragma omp ordered depend(source)
        }
    CHECK_EQ(bad, 0);
    unsigned long long ubad = 0;
    static int done3[N];
#pragma omp parallel for ordered(1) schedule(guided) reduction(+ : ubad)
    for (unsigned long long u = 0; u < N; u++) {
#pragma omp ordered depend(sink : u - 1)
        if (u > 0 && !__atomic_load_n(&done3[u - 1], __ATOMIC_ACQUIRE))
            ubad++;
        __atomic_store_n(&done3[u], 1, __ATOMIC_RELEASE);
#pragma omp ordered depend(source)
    }
    CHECK(ubad == 0);
    return 0;
}
