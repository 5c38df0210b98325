/* epcc_omp - EPCC-style synchronization overheads of an OpenMP runtime, built once by
 * gcc -fopenmp and run on any runtime that provides the GOMP ABI (libgomp, LLVM libomp
 * and libweft-omp through LD_PRELOAD: bench/omp/run_runtimes.sh).  For each construct,
 * the time of one inner repetition (construct + a short delay) minus the time of the
 * delay alone, in microseconds: parallel, for, barrier, single, critical, reduction,
 * task (creation + execution of one task per thread per repetition).  T = --threads.
 * Prints one line per construct: "<name> <overhead_us>", the median of --repeats. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile double sink;
static int delay_len = 10;

static void delay(int n)
{
    double a = 0;
    for (int i = 0; i < n; i++)
        a += i * 0.5;
    if (a < 0)
        sink = a;
}

static double now(void) { return omp_get_wtime(); }

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

typedef void (*kernel_fn)(int T, int reps);

static void k_ref(int T, int reps)
{
    for (int i = 0; i < reps; i++)
        delay(delay_len);
}
static void k_parallel(int T, int reps)
{
    for (int i = 0; i < reps; i++) {
#pragma omp parallel num_threads(T)
        delay(delay_len);
    }
}
static void k_for(int T, int reps)
{
#pragma omp parallel num_threads(T)
    for (int i = 0; i < reps; i++) {
#pragma omp for schedule(static)
        for (int j = 0; j < T; j++)
            delay(delay_len);
    }
}
static void k_barrier(int T, int reps)
{
#pragma omp parallel num_threads(T)
    for (int i = 0; i < reps; i++) {
        delay(delay_len);
#pragma omp barrier
    }
}
static void k_single(int T, int reps)
{
#pragma omp parallel num_threads(T)
    for (int i = 0; i < reps; i++) {
#pragma omp single
        delay(delay_len);
    }
}
static void k_critical(int T, int reps)
{
#pragma omp parallel num_threads(T)
    for (int i = 0; i < reps / T; i++) {
#pragma omp critical
        delay(delay_len);
    }
}
static void k_reduction(int T, int reps)
{
    int s = 0;
    for (int i = 0; i < reps; i++) {
#pragma omp parallel num_threads(T) reduction(+ : s)
        {
            delay(delay_len);
            s += 1;
        }
    }
    if (s < 0)
        sink = s;
}
static void k_task(int T, int reps)
{
#pragma omp parallel num_threads(T)
    for (int i = 0; i < reps / T; i++) {
#pragma omp task
        delay(delay_len);
    }
}

static double measure(kernel_fn k, int T, int reps, int repeats)
{
    double *t = malloc(sizeof(double) * (size_t)repeats);
    k(T, reps / 10 + 1); /* warm-up */
    for (int r = 0; r < repeats; r++) {
        double t0 = now();
        k(T, reps);
        t[r] = (now() - t0) / reps * 1e6;
    }
    qsort(t, (size_t)repeats, sizeof(double), cmp);
    double m = t[repeats / 2];
    free(t);
    return m;
}

int main(int argc, char **argv)
{
    int T = 2, reps = 20000, repeats = 5;
    const char *only = NULL;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--threads"))
            T = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--reps"))
            reps = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--repeats"))
            repeats = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--only"))
            only = argv[i + 1];
    }
    static const struct {
        const char *name;
        kernel_fn k;
    } ks[] = { { "parallel", k_parallel }, { "for", k_for },           { "barrier", k_barrier },
               { "single", k_single },     { "critical", k_critical }, { "reduction", k_reduction },
               { "task", k_task } };
    double ref = measure(k_ref, T, reps, repeats);
    for (size_t i = 0; i < sizeof(ks) / sizeof(ks[0]); i++) {
        if (only && !strstr(only, ks[i].name))
            continue;
        double v = measure(ks[i].k, T, reps, repeats);
        printf("%-10s %8.3f us\n", ks[i].name, v - ref);
        fflush(stdout);
    }
    return 0;
}
