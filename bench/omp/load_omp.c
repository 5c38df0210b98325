/* load_omp - the two figures of issue 35's OpenMP Done-when, for a loaded machine: the
 * cost of a nested 2x2 `parallel for` (an outer parallel for of T iterations, each a
 * parallel for of T iterations) and of an empty `parallel` region, T = --threads (2),
 * in microseconds of wall time per construct, --runs runs (7) of about --seconds (1 s)
 * each.  Built once by gcc -fopenmp and run on any runtime with the GOMP ABI (libgomp,
 * LLVM libomp, libweft-omp through LD_PRELOAD: bench/omp/run_runtimes.sh --load N).
 * Prints "<figure> <run> <us>" per run, then "<figure> max <us>". */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile int sink;

static void nested(int T)
{
#pragma omp parallel for num_threads(T) schedule(static)
    for (int i = 0; i < T; i++) {
#pragma omp parallel for num_threads(T) schedule(static)
        for (int j = 0; j < T; j++)
            sink = i + j;
    }
}

static void region(int T)
{
#pragma omp parallel num_threads(T)
    sink = 1;
}

/* Repeat f for about `sec` seconds (batches of 64); the wall time per call in us. */
static double run(void (*f)(int), int T, double sec)
{
    long n = 0;
    double t0 = omp_get_wtime(), t;
    do {
        for (int k = 0; k < 64; k++)
            f(T);
        n += 64;
        t = omp_get_wtime();
    } while (t - t0 < sec);
    return (t - t0) / (double)n * 1e6;
}

int main(int argc, char **argv)
{
    int T = 2, runs = 7;
    double sec = 1.0;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--threads"))
            T = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--runs"))
            runs = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--seconds"))
            sec = atof(argv[i + 1]);
    }
    static const struct {
        const char *name;
        void (*f)(int);
    } fig[] = { { "nested_2x2", nested }, { "parallel", region } };
    for (size_t k = 0; k < 2; k++) {
        fig[k].f(T); /* warm-up: the team exists */
        double worst = 0;
        for (int r = 1; r <= runs; r++) {
            double us = run(fig[k].f, T, sec);
            if (us > worst)
                worst = us;
            printf("%s %d %.3f\n", fig[k].name, r, us);
            fflush(stdout);
        }
        printf("%s max %.3f\n", fig[k].name, worst);
        fflush(stdout);
    }
    return 0;
}
