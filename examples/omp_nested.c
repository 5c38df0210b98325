/* examples/omp_nested.c - a plain OpenMP program (nested parallel loops) that runs on
 * libweft-omp: build it with gcc -fopenmp, then either link it against libweft-omp
 * (pkg-config weft-omp) or run the libgomp-linked binary with LD_PRELOAD or with the
 * lib/weft-omp/libgomp.so.1 stand-in on LD_LIBRARY_PATH.  Prints the sum and the name
 * of the runtime (OMP_DISPLAY_ENV=true also shows it). */
#include <omp.h>
#include <stdio.h>

int main(void)
{
    long sum = 0;
    omp_set_max_active_levels(2);
#pragma omp parallel for reduction(+ : sum)
    for (int i = 0; i < 100; i++) {
        long row = 0;
#pragma omp parallel for reduction(+ : row)
        for (int j = 0; j < 100; j++)
            row += j;
        sum += row;
    }
    printf("sum %ld (expected 495000), %d threads\n", sum, omp_get_max_threads());
    return sum == 495000 ? 0 : 1;
}
