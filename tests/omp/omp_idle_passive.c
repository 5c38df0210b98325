/* OMP_WAIT_POLICY=passive: after parallel work, an idle program's streams sleep:
 * under 10 ms of CPU per second of idleness (process CPU time over 0.5 s).  The
 * measurement is skipped under WEFT_TEST_SLOW (sanitizers, valgrind). */
#include "omp_test.h"

#include <sys/resource.h>
#include <time.h>

static double cpu_s(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
           (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
}

int main(void)
{
    check_runtime_is_weft();
    long s = 0;
#pragma omp parallel for reduction(+ : s)
    for (int i = 0; i < 1000000; i++)
        s += i % 7;
    CHECK(s > 0);
    if (slow())
        return 77;
    double c0 = cpu_s(), w0 = omp_get_wtime();
    struct timespec ts = { 0, 500 * 1000 * 1000 };
    nanosleep(&ts, NULL);
    double used = cpu_s() - c0, wall = omp_get_wtime() - w0;
    double per_s = used / wall;
    printf("idle CPU: %.3f ms/s\n", per_s * 1e3);
    CHECK(per_s < 0.010);
    return 0;
}
