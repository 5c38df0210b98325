/* yield - context-switch cost: a ping-pong between two ULTs of one stream.
 *   yield     both ULTs loop K times over ABT_thread_yield (through the scheduler)
 *   yield_to  both ULTs loop K times over ABT_thread_yield_to(the other one),
 *             which switches directly without going through the scheduler
 * on 1 stream, and on 2 streams where every stream runs its own pair.
 * ns per yield = loop time / (2 K), median of the samples.
 *
 * Reproduces: Argobots (TPDS 2018) Fig. 8 (yield operation time, yield and
 * yield_to, vs number of execution streams).
 *
 * --ops yield,yield_to --streams 1,2, and the common flags of bench/common/bench.h
 * (--json, --csv, --repeats 5, --sample-ms 10)
 * --pool priv   1 stream only: the primary stream gets a private pool
 * --callgrind yield|yield_to --iters K
 *     no timing: one pair on one stream, exactly K yields per ULT; instructions
 *     per yield are (Ir(K2) - Ir(K1)) / (2 (K2 - K1)). */
#include "bench.h"

#include <abt.h>
#include <stdatomic.h>

#define CHECK(call) BENCH_CHECK("yield", call)

enum { OP_YIELD, OP_YIELD_TO };
static const char *op_name[2] = { "yield", "yield_to" };

typedef struct pair pair_t;
typedef struct {
    pair_t *p;
    int idx;
} member_t;

struct pair {
    ABT_thread t[2];
    member_t m[2];
    atomic_int ready;  /* both handles are known */
    atomic_long limit; /* yields per member; member 0 may lower it (time cap) */
    uint64_t cap_ns;   /* 0: no cap */
    int op;
    uint64_t t0, t1; /* measured by member 0 */
    long count;      /* yields done by member 0 */
};

#define BLOCK 1024

static void member_fn(void *arg)
{
    member_t *m = (member_t *)arg;
    pair_t *p = m->p;
    while (!atomic_load_explicit(&p->ready, memory_order_acquire))
        ABT_thread_yield();
    if (m->idx == 0)
        p->t0 = bench_now_ns();
    /* Blocks of BLOCK yields; the limit is re-read at block boundaries.  The
     * two members strictly alternate, so when member 0 lowers the limit to the
     * end of its next block, both stop at the same count (yield_to needs the
     * other member alive). */
    ABT_thread other = p->t[1 - m->idx];
    long i = 0, lim;
    while (i < (lim = atomic_load_explicit(&p->limit, memory_order_relaxed))) {
        long end = i + BLOCK < lim ? i + BLOCK : lim;
        if (p->op == OP_YIELD) {
            for (; i < end; i++)
                ABT_thread_yield();
        } else {
            for (; i < end; i++)
                ABT_thread_yield_to(other);
        }
        if (m->idx == 0 && p->cap_ns && bench_now_ns() - p->t0 > p->cap_ns && i + BLOCK < lim)
            atomic_store_explicit(&p->limit, i + BLOCK, memory_order_relaxed);
    }
    if (m->idx == 0) {
        p->t1 = bench_now_ns();
        p->count = i;
    }
}

/* Runs one pair per pool in pools[0..npools) with K iterations; returns the
 * mean over pairs of ns per yield. */
static double run_pairs(int op, ABT_pool *pools, int npools, long iters, uint64_t cap_ns)
{
    pair_t pairs[2];
    for (int s = 0; s < npools; s++) {
        pair_t *p = &pairs[s];
        atomic_init(&p->ready, 0);
        atomic_init(&p->limit, iters);
        p->cap_ns = cap_ns;
        p->op = op;
        for (int i = 0; i < 2; i++) {
            p->m[i].p = p;
            p->m[i].idx = i;
            CHECK(ABT_thread_create(pools[s], member_fn, &p->m[i], ABT_THREAD_ATTR_NULL, &p->t[i]));
        }
        atomic_store_explicit(&p->ready, 1, memory_order_release);
    }
    double sum = 0;
    for (int s = 0; s < npools; s++) {
        for (int i = 0; i < 2; i++)
            CHECK(ABT_thread_free(&pairs[s].t[i]));
        sum += (double)(pairs[s].t1 - pairs[s].t0) / (2.0 * (double)pairs[s].count);
    }
    return sum / npools;
}

/* The driver's view of run_pairs: one configuration, K yields per ULT. */
typedef struct {
    int op;
    ABT_pool *pools;
    int npools;
    uint64_t cap_ns;
} pairs_cfg_t;

static double pairs_iters(void *ctx, long iters)
{
    pairs_cfg_t *c = (pairs_cfg_t *)ctx;
    return run_pairs(c->op, c->pools, c->npools, iters, c->cap_ns);
}

int main(int argc, char **argv)
{
    bench_t b;
    bench_init(&b, argc, argv, 10.0,
               "[--ops yield,yield_to] [--streams 1,2] [--pool default|priv]\n"
               "       %s --callgrind yield|yield_to --iters K\n");
    const bench_args_t *a = &b.args;
    CHECK(ABT_init(0, NULL));
    ABT_xstream xs0;
    ABT_pool pools[2];
    CHECK(ABT_xstream_self(&xs0));
    const char *pool_s = bench_opt(a, "--pool");
    int priv = pool_s && strcmp(pool_s, "priv") == 0;
    if (priv) {
        /* private pool on the primary stream (1 stream only) */
        ABT_pool p;
        CHECK(ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_PRIV, ABT_TRUE, &p));
        CHECK(ABT_xstream_set_main_sched_basic(xs0, ABT_SCHED_BASIC, 1, &p));
    }
    CHECK(ABT_xstream_get_main_pools(xs0, 1, &pools[0]));

    const char *cg = bench_opt(a, "--callgrind");
    if (cg) {
        int op = strcmp(cg, "yield_to") == 0 ? OP_YIELD_TO : OP_YIELD;
        run_pairs(op, pools, 1, bench_opt_long(a, "--iters", 1000), 0);
        CHECK(ABT_finalize());
        return 0;
    }

    const char *ops = bench_opt(a, "--ops");
    long streams[4];
    int nstreams = bench_opt_list(a, "--streams", "1,2", streams, 4);
    if (priv) {
        nstreams = 1;
        streams[0] = 1;
    }
    int repeats = b.repeats;

    if (!b.machine)
        printf("yield (%s): ping-pong between two ULTs of a stream, ns per yield "
               "(median of %d)\n\n  op        streams   ns/yield     min     max\n",
               BENCH_IMPL_NAME, repeats);
    for (int si = 0; si < nstreams; si++) {
        int ns = (int)streams[si];
        if (ns < 1 || ns > 2)
            continue;
        ABT_xstream xs1 = ABT_XSTREAM_NULL;
        if (ns == 2) {
            CHECK(ABT_xstream_create(ABT_SCHED_NULL, &xs1));
            CHECK(ABT_xstream_get_main_pools(xs1, 1, &pools[1]));
        }
        for (int op = 0; op < 2; op++) {
            if (!bench_in_list(ops, op_name[op]))
                continue;
            pairs_cfg_t cfg = { op, pools, ns, bench_cap_ns(b.target_ns) };
            double v[BENCH_MAX_REPEATS];
            /* warm-up of 1,000, probe of 20,000; an iteration is 2 yields */
            bench_measure_iters(&b, pairs_iters, &cfg, 1000, 20000, 2.0, v);
            if (b.machine) {
                char f[128];
                bench_fields(f, sizeof f, "\"op\":\"%s\",\"streams\":%d,\"pool\":\"%s\"",
                             op_name[op], ns, priv ? "priv" : "default");
                bench_result(&b, "yield", f, "time", "ns_per_yield", v, repeats);
            } else {
                printf("  %-9s %7d %10.1f %7.1f %7.1f\n", op_name[op], ns, bench_median(v, repeats),
                       bench_min(v, repeats), bench_max(v, repeats));
            }
        }
        if (xs1 != ABT_XSTREAM_NULL) {
            CHECK(ABT_xstream_join(xs1));
            CHECK(ABT_xstream_free(&xs1));
        }
    }
    CHECK(ABT_finalize());
    return 0;
}
