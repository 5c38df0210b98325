/* bench/relic/kernels_omp.c - the paper's kernels (kernels.h) with OpenMP tasks, built
 * twice: GCC + libgomp (kernels_gomp) and Clang + LLVM libomp (kernels_libomp).  One
 * parallel region of 2 threads for the whole run; the single thread runs the driver, one
 * instance is `#pragma omp task`, the other runs inline, then `#pragma omp taskwait`.
 * Bind the threads with OMP_PROC_BIND / OMP_PLACES (bench/relic/run.py does). */
#include <omp.h>

#include "kernels.h"

static void fw_run(void (*body)(void *), void *ctx)
{
#pragma omp parallel num_threads(2)
#pragma omp single
    body(ctx);
}

static void fw_pair(kern_fn fn, void *a, void *b)
{
#pragma omp task firstprivate(fn, a)
    fn(a);
    fn(b);
#pragma omp taskwait
}
