/* critical (unnamed and named), atomic (with the GOMP_atomic_start fallback: long
 * double), simple and nestable locks (+ hints, test), with more threads than streams
 * so holders park and waiters are woken. */
#include "omp_test.h"

static omp_lock_t lk;
static omp_nest_lock_t nlk;

int main(void)
{
    check_runtime_is_weft();
    CHECK_EQ(sizeof(omp_lock_t), 4);
    CHECK_EQ(sizeof(omp_nest_lock_t), 16);
    int n = slow() ? 2000 : 50000;
    long c1 = 0, c2 = 0, c3 = 0, c4 = 0;
    long double ld = 0;
    omp_init_lock(&lk);
    omp_init_nest_lock_with_hint(&nlk, omp_sync_hint_contended);
    int nested_ok = 1;
#pragma omp parallel num_threads(6)
    {
        for (int i = 0; i < n; i++) {
#pragma omp critical
            c1++;
#pragma omp critical(other)
            c2 += 2;
#pragma omp atomic
            ld += 1.0L;
            omp_set_lock(&lk);
            c3++;
            omp_unset_lock(&lk);
            omp_set_nest_lock(&nlk);
            if (omp_test_nest_lock(&nlk) != 2)
                nested_ok = 0;
            c4++;
            omp_unset_nest_lock(&nlk);
            omp_unset_nest_lock(&nlk);
        }
    }
    CHECK_EQ(c1, 6L * n);
    CHECK_EQ(c2, 12L * n);
    CHECK_EQ(c3, 6L * n);
    CHECK_EQ(c4, 6L * n);
    CHECK(ld == (long double)(6L * n));
    CHECK(nested_ok);
    CHECK(omp_test_lock(&lk));
    int other = -1;
#pragma omp parallel num_threads(2)
    if (omp_get_thread_num() == 1)
        other = omp_test_lock(&lk);
    CHECK_EQ(other, 0);
    omp_unset_lock(&lk);
    omp_destroy_lock(&lk);
    omp_destroy_nest_lock(&nlk);
    return 0;
}
