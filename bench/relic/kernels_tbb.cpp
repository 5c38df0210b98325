// bench/relic/kernels_tbb.cpp - the paper's kernels (kernels.h) with oneTBB: at most 2
// threads (global_control), one tbb::task_group reused for every pair: run() one
// instance, compute the other, wait().
#include <tbb/global_control.h>
#include <tbb/task_group.h>

#include "kernels.h"

static tbb::task_group *group;

static void fw_run(void (*body)(void *), void *ctx)
{
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 2);
    tbb::task_group g;
    group = &g;
    body(ctx);
    group = nullptr;
}

static void fw_pair(kern_fn fn, void *a, void *b)
{
    group->run([fn, a] { fn(a); });
    fn(b);
    group->wait();
}
