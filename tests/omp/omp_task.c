/* Tasks: 100,000 tasks from a single thread (and from every thread), taskwait, if(0),
 * final / omp_in_final (included tasks), untied and mergeable accepted, priority,
 * taskgroup waiting for descendants, taskyield, and recursive fibonacci. */
#include "omp_test.h"

static long fib(int n)
{
    if (n < 2)
        return n;
    long a, b;
#pragma omp task shared(a) if (n > 12)
    a = fib(n - 1);
#pragma omp task shared(b) if (n > 12)
    b = fib(n - 2);
#pragma omp taskwait
    return a + b;
}

int main(void)
{
    check_runtime_is_weft();
    omp_set_num_threads(4);
    int n = slow() ? 10000 : 100000;
    long done = 0;
#pragma omp parallel
#pragma omp single
    {
        for (int i = 0; i < n; i++) {
#pragma omp task priority(i % 3) untied
            {
#pragma omp atomic
                done++;
            }
        }
#pragma omp taskwait
        CHECK_EQ(done, n);
    }
    done = 0;
#pragma omp parallel
    {
        for (int i = 0; i < n / 4; i++) {
#pragma omp task mergeable
            {
#pragma omp atomic
                done++;
            }
        }
    }
    CHECK_EQ(done, (long)(n / 4) * 4);
    int in_final = -1, child_final = -1, undeferred = 0;
#pragma omp parallel
#pragma omp single
    {
        int x = 0;
#pragma omp task if (0) shared(x)
        x = 1;
        undeferred = x; /* the if(0) task completed before the encountering task went on */
#pragma omp task final(1) shared(in_final, child_final)
        {
            in_final = omp_in_final();
#pragma omp task shared(child_final)
            child_final = omp_in_final();
        }
#pragma omp taskwait
    }
    CHECK_EQ(undeferred, 1);
    CHECK_EQ(in_final, 1);
    CHECK_EQ(child_final, 1);
    long grand = 0;
#pragma omp parallel
#pragma omp single
    {
#pragma omp taskgroup
        {
            for (int i = 0; i < 50; i++) {
#pragma omp task shared(grand)
                {
                    for (int j = 0; j < 20; j++) {
#pragma omp task shared(grand)
                        {
#pragma omp taskyield
#pragma omp atomic
                            grand++;
                        }
                    }
                }
            }
        }
        CHECK_EQ(grand, 1000); /* the group waited for the grandchildren too */
    }
    long f = 0;
    int fn = slow() ? 18 : 24;
#pragma omp parallel
#pragma omp single
    f = fib(fn);
    long e0 = 0, e1 = 1;
    for (int i = 0; i < fn; i++) {
        long t = e0 + e1;
        e0 = e1;
        e1 = t;
    }
    CHECK_EQ(f, e0);
    /* tasks outside any region run at once */
    int outside = 0;
#pragma omp task shared(outside)
    outside = 7;
#pragma omp taskwait
    CHECK_EQ(outside, 7);
    return 0;
}
