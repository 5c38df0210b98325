/* bench/relic/kernels.h - the Relic paper's evaluation (Los and Petushkov, sections IV, V
 * and VII), one driver for every framework: six graph kernels (BC, BFS, CC by
 * Shiloach-Vishkin, PR, SSSP, TC) on a Kronecker graph of 32 nodes and degree 4, and JSON
 * parsing of a small document with RapidJSON; two instances of a kernel run in parallel
 * (one submitted as a task, one run by the submitting thread, then a wait), against the
 * two run one after the other in one thread (serial).  Plus the round trip of an empty
 * task: submit + wait, in ns.
 *
 * A framework's program defines, after including this file:
 *   fw_run(body, ctx)    set the framework up, run body(ctx) where fw_pair may be called
 *   fw_pair(fn, a, b)    fn(a) as a task of the framework, fn(b) here, wait for the task
 *   FW_NAME              its name in the results (also BENCH_IMPL_NAME)
 * and this file supplies main().  Written in the common subset of C11 and C++17 so that
 * the oneTBB program compiles it too.
 *
 * Output (one JSON line per result, bench/common/bench.h's format):
 *   {"bench":"relic_kernels","impl_build":FW,"kernel":K,"metric":"serial_ns"|"parallel_ns",
 *    "unit":"ns","samples":[...]}   time of one pair of instances, per sample
 *   {"bench":"relic_roundtrip","impl_build":FW,"metric":"roundtrip_ns",...}
 * bench/relic/run.py turns them into speedups, geometric means and the figures.
 *
 * The kernels follow the serial GAP Benchmark Suite algorithms (written here): BFS
 * top-down from one source; BC by Brandes from one source; CC by Shiloach-Vishkin
 * (hooking + shortcutting); PR pull-based, damping 0.85, at most 20 iterations or an L1
 * change under 1e-4; SSSP by Dijkstra with a binary heap on integer weights 1..255; TC by
 * ordered adjacency-list intersection.  The graph follows Graph500: scale 5 (32 nodes),
 * edge factor 4, initiator A=0.57 B=0.19 C=0.19, vertices permuted, symmetrized, self
 * loops and duplicates dropped. */
#ifndef RELIC_BENCH_KERNELS_H
#define RELIC_BENCH_KERNELS_H

#include "bench.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef FW_NAME
#define FW_NAME BENCH_IMPL_NAME
#endif

typedef void (*kern_fn)(void *);
static void fw_run(void (*body)(void *), void *ctx);
static void fw_pair(kern_fn fn, void *a, void *b);

#ifdef __cplusplus
extern "C" {
#endif
/* bench/relic/json_parse.cpp: parse buf (RapidJSON, not in situ); returns the number of
 * values in the document, -1 on a parse error, -2 without RapidJSON. */
long relic_bench_json_parse(const char *buf, size_t len);
#ifdef __cplusplus
}
#endif

/* ---- the graph ------------------------------------------------------------------- */

#define KR_SCALE  5
#define KR_N      (1 << KR_SCALE)
#define KR_DEGREE 4

typedef struct {
    int n, m; /* nodes, directed arcs (2 per undirected edge) */
    int off[KR_N + 1];
    int adj[2 * KR_N * KR_DEGREE];
    int w[2 * KR_N * KR_DEGREE]; /* SSSP weights, symmetric */
} graph_t;

static int kr_cmp_pair(const void *x, const void *y)
{
    const int *a = (const int *)x, *b = (const int *)y;
    if (a[0] != b[0])
        return a[0] - b[0];
    return a[1] - b[1];
}

static void kr_generate(graph_t *g, uint64_t seed)
{
    const double A = 0.57, B = 0.19, C = 0.19;
    const int ne = KR_N * KR_DEGREE;
    static int arcs[2 * KR_N * KR_DEGREE][3];
    int perm[KR_N], na = 0;
    uint64_t st = seed;
    for (int i = 0; i < KR_N; i++)
        perm[i] = i;
    for (int i = KR_N - 1; i > 0; i--) {
        int j = (int)(bench_rand(&st) % (uint64_t)(i + 1));
        int t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    for (int e = 0; e < ne; e++) {
        int u = 0, v = 0;
        for (int bit = 0; bit < KR_SCALE; bit++) {
            double r = (double)(bench_rand(&st) >> 11) * (1.0 / 9007199254740992.0);
            int ub = r >= A + B, vb = (r >= A && r < A + B) || r >= A + B + C;
            u |= ub << bit;
            v |= vb << bit;
        }
        u = perm[u];
        v = perm[v];
        if (u == v)
            continue;
        int wt = 1 + (int)(bench_rand(&st) % 255);
        arcs[na][0] = u, arcs[na][1] = v, arcs[na][2] = wt, na++;
        arcs[na][0] = v, arcs[na][1] = u, arcs[na][2] = wt, na++;
    }
    qsort(arcs, (size_t)na, sizeof arcs[0], kr_cmp_pair);
    g->n = KR_N;
    g->m = 0;
    memset(g->off, 0, sizeof g->off);
    for (int i = 0; i < na; i++) {
        if (i > 0 && arcs[i][0] == arcs[i - 1][0] && arcs[i][1] == arcs[i - 1][1])
            continue; /* duplicate: keep the first weight (both directions
                         sorted alike, so the pair stays symmetric) */
        g->adj[g->m] = arcs[i][1];
        g->w[g->m] = arcs[i][2];
        g->off[arcs[i][0] + 1]++;
        g->m++;
    }
    for (int i = 0; i < KR_N; i++)
        g->off[i + 1] += g->off[i];
    /* make the weights of (u,v) and (v,u) equal: take the (min,max) direction's */
    for (int u = 0; u < KR_N; u++)
        for (int k = g->off[u]; k < g->off[u + 1]; k++) {
            int v = g->adj[k];
            if (v < u)
                for (int q = g->off[v]; q < g->off[v + 1]; q++)
                    if (g->adj[q] == u)
                        g->w[k] = g->w[q];
        }
}

/* ---- an instance: its own graph and buffers -------------------------------------- */

#define JSON_MAX 2048

typedef struct {
    graph_t g;
    int source;
    int parent[KR_N], queue[KR_N], depth[KR_N], comp[KR_N];
    double sigma[KR_N], delta[KR_N], score[KR_N], contrib[KR_N], next[KR_N];
    int dist[KR_N], heap_node[2 * KR_N * KR_DEGREE + KR_N], heap_key[2 * KR_N * KR_DEGREE + KR_N];
    long result;
    double fresult;
    char json[JSON_MAX];
    size_t json_len;
} inst_t;

/* BFS, top-down from source; result: sum of depths of reached nodes. */
static void k_bfs(void *p)
{
    inst_t *I = (inst_t *)p;
    const graph_t *g = &I->g;
    for (int i = 0; i < g->n; i++)
        I->parent[i] = -1, I->depth[i] = -1;
    int head = 0, tail = 0;
    I->parent[I->source] = I->source;
    I->depth[I->source] = 0;
    I->queue[tail++] = I->source;
    long sum = 0;
    while (head < tail) {
        int u = I->queue[head++];
        sum += I->depth[u];
        for (int k = g->off[u]; k < g->off[u + 1]; k++) {
            int v = g->adj[k];
            if (I->parent[v] < 0) {
                I->parent[v] = u;
                I->depth[v] = I->depth[u] + 1;
                I->queue[tail++] = v;
            }
        }
    }
    I->result = sum + tail;
}

/* BC, Brandes from one source; fresult: the sum of the scores. */
static void k_bc(void *p)
{
    inst_t *I = (inst_t *)p;
    const graph_t *g = &I->g;
    for (int i = 0; i < g->n; i++)
        I->sigma[i] = 0, I->delta[i] = 0, I->depth[i] = -1, I->score[i] = 0;
    int head = 0, tail = 0, s = I->source;
    I->sigma[s] = 1;
    I->depth[s] = 0;
    I->queue[tail++] = s;
    while (head < tail) { /* queue[] in BFS order doubles as the stack */
        int u = I->queue[head++];
        for (int k = g->off[u]; k < g->off[u + 1]; k++) {
            int v = g->adj[k];
            if (I->depth[v] < 0) {
                I->depth[v] = I->depth[u] + 1;
                I->queue[tail++] = v;
            }
            if (I->depth[v] == I->depth[u] + 1)
                I->sigma[v] += I->sigma[u];
        }
    }
    for (int i = tail - 1; i >= 0; i--) {
        int u = I->queue[i];
        for (int k = g->off[u]; k < g->off[u + 1]; k++) {
            int v = g->adj[k];
            if (I->depth[v] == I->depth[u] + 1)
                I->delta[u] += I->sigma[u] / I->sigma[v] * (1.0 + I->delta[v]);
        }
        if (u != s)
            I->score[u] += I->delta[u];
    }
    double sum = 0, mx = 0;
    for (int i = 0; i < g->n; i++)
        if (I->score[i] > mx)
            mx = I->score[i];
    for (int i = 0; i < g->n; i++)
        sum += mx > 0 ? I->score[i] / mx : 0; /* normalized, as GAP */
    I->fresult = sum;
}

/* CC by Shiloach-Vishkin; result: the number of components. */
static void k_cc(void *p)
{
    inst_t *I = (inst_t *)p;
    const graph_t *g = &I->g;
    int *comp = I->comp;
    for (int i = 0; i < g->n; i++)
        comp[i] = i;
    int change = 1;
    while (change) {
        change = 0;
        for (int u = 0; u < g->n; u++)
            for (int k = g->off[u]; k < g->off[u + 1]; k++) {
                int v = g->adj[k];
                int cu = comp[u], cv = comp[v];
                if (cu < cv && cv == comp[cv]) {
                    comp[cv] = cu;
                    change = 1;
                }
            }
        for (int n = 0; n < g->n; n++)
            while (comp[n] != comp[comp[n]])
                comp[n] = comp[comp[n]];
    }
    long c = 0;
    for (int i = 0; i < g->n; i++)
        c += comp[i] == i;
    I->result = c;
}

/* PR, pull-based; fresult: the sum of the scores. */
static void k_pr(void *p)
{
    inst_t *I = (inst_t *)p;
    const graph_t *g = &I->g;
    const double d = 0.85, base = (1.0 - d) / g->n;
    for (int i = 0; i < g->n; i++)
        I->score[i] = 1.0 / g->n;
    for (int it = 0; it < 20; it++) {
        for (int i = 0; i < g->n; i++) {
            int deg = g->off[i + 1] - g->off[i];
            I->contrib[i] = deg ? I->score[i] / deg : 0;
        }
        double err = 0;
        for (int u = 0; u < g->n; u++) {
            double in = 0;
            for (int k = g->off[u]; k < g->off[u + 1]; k++)
                in += I->contrib[g->adj[k]];
            double old = I->score[u];
            I->score[u] = base + d * in;
            err += fabs(I->score[u] - old);
        }
        if (err < 1e-4)
            break;
    }
    double sum = 0;
    for (int i = 0; i < g->n; i++)
        sum += I->score[i];
    I->fresult = sum;
}

/* SSSP by Dijkstra (binary heap, lazy deletion); result: the sum of distances reached. */
static void k_sssp(void *p)
{
    inst_t *I = (inst_t *)p;
    const graph_t *g = &I->g;
    int *hk = I->heap_key, *hn = I->heap_node, hs = 0;
    for (int i = 0; i < g->n; i++)
        I->dist[i] = INT32_MAX;
    I->dist[I->source] = 0;
    hk[0] = 0, hn[0] = I->source, hs = 1;
    while (hs > 0) {
        int du = hk[0], u = hn[0];
        hs--;
        int k = hk[hs], nd = hn[hs], i = 0; /* sift the last one down from the root */
        for (;;) {
            int c = 2 * i + 1;
            if (c >= hs)
                break;
            if (c + 1 < hs && hk[c + 1] < hk[c])
                c++;
            if (hk[c] >= k)
                break;
            hk[i] = hk[c], hn[i] = hn[c], i = c;
        }
        if (hs > 0)
            hk[i] = k, hn[i] = nd;
        if (du > I->dist[u])
            continue;
        for (int e = g->off[u]; e < g->off[u + 1]; e++) {
            int v = g->adj[e], dv = du + g->w[e];
            if (dv < I->dist[v]) {
                I->dist[v] = dv;
                int j = hs++; /* sift up */
                while (j > 0 && hk[(j - 1) / 2] > dv) {
                    hk[j] = hk[(j - 1) / 2], hn[j] = hn[(j - 1) / 2];
                    j = (j - 1) / 2;
                }
                hk[j] = dv, hn[j] = v;
            }
        }
    }
    long sum = 0;
    for (int i = 0; i < g->n; i++)
        if (I->dist[i] != INT32_MAX)
            sum += I->dist[i];
    I->result = sum;
}

/* TC, ordered: u < v < w, sorted adjacency intersection; result: the triangles. */
static void k_tc(void *p)
{
    inst_t *I = (inst_t *)p;
    const graph_t *g = &I->g;
    long count = 0;
    for (int u = 0; u < g->n; u++)
        for (int k = g->off[u]; k < g->off[u + 1]; k++) {
            int v = g->adj[k];
            if (v <= u)
                continue;
            int a = g->off[u], ae = g->off[u + 1], b = g->off[v], be = g->off[v + 1];
            while (a < ae && b < be) {
                int x = g->adj[a], y = g->adj[b];
                if (x < y)
                    a++;
                else if (y < x)
                    b++;
                else {
                    if (x > v)
                        count++;
                    a++, b++;
                }
            }
        }
    I->result = count;
}

/* A small document: a widget description, the shape of the paper's sample (nested
 * objects, strings, numbers, about 600 bytes). */
static const char json_doc[] =
    "{\"widget\": {\n"
    "    \"debug\": \"on\",\n"
    "    \"window\": {\"title\": \"Relic Sample Widget\", \"name\": \"main_window\",\n"
    "               \"width\": 640, \"height\": 480},\n"
    "    \"image\": {\"src\": \"images/logo.png\", \"name\": \"logo\", \"hOffset\": 250,\n"
    "              \"vOffset\": 250, \"alignment\": \"center\"},\n"
    "    \"text\": {\"data\": \"Click Here\", \"size\": 36, \"style\": \"bold\",\n"
    "             \"name\": \"text1\", \"hOffset\": 250, \"vOffset\": 100,\n"
    "             \"alignment\": \"center\",\n"
    "             \"onMouseUp\": \"sun1.opacity = (sun1.opacity / 100) * 90;\"},\n"
    "    \"tags\": [\"ui\", \"sample\", \"widget\", 1, 2.5, true, null]\n"
    "}}\n";

static void k_json(void *p)
{
    inst_t *I = (inst_t *)p;
    I->result = relic_bench_json_parse(I->json, I->json_len);
}

struct kernel {
    const char *name;
    kern_fn fn;
};

static const struct kernel kernels[] = {
    { "BC", k_bc },     { "BFS", k_bfs }, { "CC_SV", k_cc },  { "PR", k_pr },
    { "SSSP", k_sssp }, { "TC", k_tc },   { "JSON", k_json },
};
#define NKERNELS ((int)(sizeof kernels / sizeof kernels[0]))

static void inst_init(inst_t *I)
{
    memset(I, 0, sizeof *I);
    kr_generate(&I->g, 0x5EEDull);
    I->source = 0;
    for (int u = 0; u < I->g.n; u++) /* GAP picks a source with edges */
        if (I->g.off[u + 1] > I->g.off[u]) {
            I->source = u;
            break;
        }
    I->json_len = sizeof json_doc - 1;
    memcpy(I->json, json_doc, I->json_len + 1);
}

/* ---- the driver ------------------------------------------------------------------ */

struct driver {
    bench_args_t args;
    long iters, repeats, rt_iters;
    const char *which;
    int json;
    int failed;
};

static void empty_task(void *p) { (void)p; }

/* The submitter's thread, for the "where did the empty task run" pass. */
static pthread_t rt_submitter;
static long rt_remote; /* empty tasks run by another thread than the submitter */

static void where_task(void *p)
{
    (void)p;
    if (!pthread_equal(pthread_self(), rt_submitter))
        rt_remote++; /* read after the wait: ordered by the framework */
}

static void emit(struct driver *d, const char *bench, const char *kernel, const char *metric,
                 const double *v, int n)
{
    char fields[128];
    if (kernel)
        snprintf(fields, sizeof fields, "\"kernel\":\"%s\"", kernel);
    else
        fields[0] = '\0';
    if (d->json)
        bench_emit(bench, fields, metric, "ns", v, n);
}

static void driver_body(void *ctx)
{
    struct driver *d = (struct driver *)ctx;
    static inst_t a, b, ref;
    static double ser[BENCH_MAX_REPEATS], par[BENCH_MAX_REPEATS];
    int reps = (int)d->repeats;
    if (!d->json)
        printf("%-8s %-6s %12s %12s %8s\n", FW_NAME, "kernel", "serial ns", "parallel ns",
               "speedup");
    for (int k = 0; k < NKERNELS; k++) {
        const struct kernel *K = &kernels[k];
        if (!bench_in_list(d->which, K->name))
            continue;
        inst_init(&a);
        inst_init(&b);
        inst_init(&ref);
        K->fn(&ref);
        if (K->fn == k_json && ref.result == -2) {
            fprintf(stderr,
                    "%s: JSON skipped: built without RapidJSON "
                    "(apt-get install rapidjson-dev)\n",
                    FW_NAME);
            continue;
        }
        /* Correctness: the parallel pair computes what the serial one does. */
        fw_pair(K->fn, &a, &b);
        if (a.result != ref.result || b.result != ref.result || a.fresult != ref.fresult ||
            b.fresult != ref.fresult) {
            fprintf(stderr, "%s: %s: wrong result (%ld %ld vs %ld)\n", FW_NAME, K->name, a.result,
                    b.result, ref.result);
            d->failed = 1;
        }
        for (int r = 0; r < reps; r++) { /* serial and parallel samples interleaved */
            uint64_t t0 = bench_now_ns();
            for (long i = 0; i < d->iters; i++) {
                K->fn(&a);
                K->fn(&b);
            }
            uint64_t t1 = bench_now_ns();
            for (long i = 0; i < d->iters; i++)
                fw_pair(K->fn, &a, &b);
            uint64_t t2 = bench_now_ns();
            ser[r] = (double)(t1 - t0) / (double)d->iters;
            par[r] = (double)(t2 - t1) / (double)d->iters;
        }
        emit(d, "relic_kernels", K->name, "serial_ns", ser, reps);
        emit(d, "relic_kernels", K->name, "parallel_ns", par, reps);
        if (!d->json) {
            double s = bench_median(ser, reps), p = bench_median(par, reps);
            printf("%-8s %-6s %12.1f %12.1f %+7.1f%%\n", FW_NAME, K->name, s, p,
                   (s / p - 1.0) * 100.0);
        }
    }
    if (bench_in_list(d->which, "roundtrip")) {
        for (long i = 0; i < 1000; i++)
            fw_pair(empty_task, NULL, NULL);
        for (int r = 0; r < reps; r++) {
            /* --rt-iters round trips, or fewer once 50 ms passed (a slow framework) */
            uint64_t t0 = bench_now_ns(), t = t0;
            long i = 0;
            while (i < d->rt_iters) {
                for (long j = 0; j < 100 && i < d->rt_iters; j++, i++)
                    fw_pair(empty_task, NULL, NULL);
                t = bench_now_ns();
                if (t - t0 > 50000000u)
                    break;
            }
            par[r] = (double)(t - t0) / (double)i;
        }
        emit(d, "relic_roundtrip", NULL, "roundtrip_ns", par, reps);
        if (!d->json)
            printf("%-8s empty task submit+wait round trip: %.1f ns (median)\n", FW_NAME,
                   bench_median(par, reps));
        /* Untimed: how often the task really ran on the other thread.  A framework whose
         * waiting thread runs its own task (work stealing; Relic's relic_wait takes back
         * a task the assistant has not claimed) has a short round trip without any
         * hand-off. */
        rt_submitter = pthread_self();
        rt_remote = 0;
        const long nwhere = 10000;
        for (long i = 0; i < nwhere; i++)
            fw_pair(where_task, NULL, NULL);
        double frac = (double)rt_remote / (double)nwhere;
        if (d->json) {
            char fields[64];
            snprintf(fields, sizeof fields, "\"tasks\":%ld", nwhere);
            bench_emit("relic_roundtrip", fields, "remote_fraction", "1", &frac, 1);
        } else {
            printf("%-8s empty tasks run by the other thread: %.1f%%\n", FW_NAME, frac * 100);
        }
    }
}

int main(int argc, char **argv)
{
    struct driver d;
    memset(&d, 0, sizeof d);
    d.args.argc = argc;
    d.args.argv = argv;
    if (bench_flag(&d.args, "--help")) {
        printf("usage: %s [--json] [--iters N (105)] [--repeats R (31)] [--rt-iters N (20000)]\n"
               "       [--kernels BC,BFS,CC_SV,PR,SSSP,TC,JSON,roundtrip (all)]\n",
               argv[0]);
        return 0;
    }
    d.json = bench_flag(&d.args, "--json");
    d.iters = bench_opt_long(&d.args, "--iters", 105);
    d.repeats = bench_opt_long(&d.args, "--repeats", 31);
    d.rt_iters = bench_opt_long(&d.args, "--rt-iters", 20000);
    d.which = bench_opt(&d.args, "--kernels");
    if (!d.which)
        d.which = "all";
    if (d.repeats < 1 || d.repeats > BENCH_MAX_REPEATS || d.iters < 1 || d.rt_iters < 1) {
        fprintf(stderr, "bad --repeats/--iters/--rt-iters\n");
        return 2;
    }
    fw_run(driver_body, &d);
    return d.failed;
}

#endif
