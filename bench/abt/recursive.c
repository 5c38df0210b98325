/* recursive - recursive divide-and-conquer with ULTs on 1 and 2 streams: does a program
 * written the Cilk way scale, and with which fork-join technique?  (Issue 17: "recursive
 * divide-and-conquer (fib, N-Queens, UTS-like trees) must scale on 2 streams".)
 *
 * Three programs, each spawning a ULT per call down to a cut-off, below which a call
 * computes serially:
 *   fib       fib(n) creates a ULT for fib(n-1), computes fib(n-2) itself, joins
 *             (--fib 30, --fib-cutoff 12: serial below fib(12));
 *   nqueens   every safe square of a row is a ULT for the rest of the board; a node
 *             joins its children (--queens 11, serial for the last --queens-cutoff 4
 *             rows);
 *   uts       an unbalanced tree in the style of UTS's binomial trees: the root has
 *             --uts-root 2000 children, every other node 8 children with probability
 *             0.12 (else none), drawn from a hash of its id, so the tree is the same
 *             in every run and implementation; a node joins its children (every node
 *             is a ULT).
 * Each execution runs in a root ULT that the primary ULT creates and joins, and is checked
 * against its serial result.  The second stream runs the default
 * scheduler over the primary stream's main pool, so it takes queued children
 * (parent-first) or a creator queued while its child runs (child-first).  Time per
 * execution (ms, median of --repeats after one warm-up) on 1 and on 2 streams, and the
 * speedup t(1) / t(2).
 *
 * --fork TECH[,TECH...]|all (weft only, weft_thread_attr_set_fork per ULT): full,
 * full-l, roc, roc-l, ss, ss-l, sc, c-full, c-full-e, c-roc, c-roc-e, or default (no
 * attribute: the library's technique; the only one of the Argobots twin).
 *
 * --programs fib,nqueens,uts --streams 1,2 --fork default, and the common flags of
 * bench/common/bench.h (--json, --csv, --repeats 5). */
#include "bench.h"
#include "recursive_kernels.h"

#include <abt.h>

#if defined(BENCH_WEFT) && defined(__has_include)
#if __has_include(<weft.h>)
#include <weft.h>
#define REC_HAVE_FORK 1
#endif
#endif

#define CHECK(call) BENCH_CHECK("recursive", call)

static ABT_pool g_pools[2]; /* --sched randws: one per stream; shared: g_pools[0] twice */
static ABT_thread_attr g_attr = ABT_THREAD_ATTR_NULL; /* the technique, or NULL */
static int g_fib_cutoff, g_queens_cutoff;
static long g_uts_root;

/* The pool a ULT creates into: its stream's (randws), or the one shared pool. */
static ABT_pool my_pool(void)
{
    int rank = 0;
    CHECK(ABT_self_get_xstream_rank(&rank));
    return g_pools[rank & 1];
}

/* ---- fib ------------------------------------------------------------------ */

static void fib_ult(void *arg)
{
    fib_job *j = (fib_job *)arg;
    if (j->n < g_fib_cutoff) {
        j->r = fib_serial(j->n);
        return;
    }
    fib_job a = { j->n - 1, 0 }, b = { j->n - 2, 0 };
    ABT_thread t;
    CHECK(ABT_thread_create(my_pool(), fib_ult, &a, g_attr, &t));
    fib_ult(&b);
    CHECK(ABT_thread_join(t));
    CHECK(ABT_thread_free(&t));
    j->r = a.r + b.r;
}

/* ---- N-Queens (bit masks: columns and both diagonals taken) ------------------- */

#define MAX_QUEENS 16

static void nq_ult(void *arg)
{
    nq_job *j = (nq_job *)arg;
    if (j->n - j->row <= g_queens_cutoff) {
        j->count = nq_serial(j->n, j->row, j->cols, j->d1, j->d2);
        return;
    }
    nq_job kids[MAX_QUEENS];
    ABT_thread th[MAX_QUEENS];
    int k = 0;
    uint32_t all = (1u << j->n) - 1, free_ = all & ~(j->cols | j->d1 | j->d2);
    ABT_pool pool = my_pool();
    while (free_) {
        uint32_t bit = free_ & -free_;
        free_ &= free_ - 1;
        kids[k] = (nq_job){
            j->n, j->row + 1, j->cols | bit, ((j->d1 | bit) << 1) & all, (j->d2 | bit) >> 1, 0
        };
        CHECK(ABT_thread_create(pool, nq_ult, &kids[k], g_attr, &th[k]));
        k++;
    }
    long c = 0;
    for (int i = 0; i < k; i++) {
        CHECK(ABT_thread_join(th[i]));
        CHECK(ABT_thread_free(&th[i]));
        c += kids[i].count;
    }
    j->count = c;
}

/* ---- UTS-like binomial tree ---------------------------------------------------- */

#define UTS_M 8
#define UTS_Q 0.12

/* children of a non-root node */
static int uts_children(uint64_t id)
{
    return (double)(mix64(id) >> 11) * 0x1.0p-53 < UTS_Q ? UTS_M : 0;
}

static uint64_t uts_child_id(uint64_t id, int i) { return mix64(id * 31 + (uint64_t)i + 1); }

static long uts_serial(uint64_t id)
{
    long c = 1;
    int k = uts_children(id);
    for (int i = 0; i < k; i++)
        c += uts_serial(uts_child_id(id, i));
    return c;
}

typedef struct {
    uint64_t id;
    long count;
} uts_job;

static void uts_ult(void *arg)
{
    uts_job *j = (uts_job *)arg;
    int k = uts_children(j->id);
    uts_job kids[UTS_M];
    ABT_thread th[UTS_M];
    ABT_pool pool = k ? my_pool() : ABT_POOL_NULL;
    for (int i = 0; i < k; i++) {
        kids[i] = (uts_job){ uts_child_id(j->id, i), 0 };
        CHECK(ABT_thread_create(pool, uts_ult, &kids[i], g_attr, &th[i]));
    }
    long c = 1;
    for (int i = 0; i < k; i++) {
        CHECK(ABT_thread_join(th[i]));
        CHECK(ABT_thread_free(&th[i]));
        c += kids[i].count;
    }
    j->count = c;
}

/* The root: its children as ULTs, joined. */
static long uts_run(uts_job *kids, ABT_thread *th)
{
    for (long i = 0; i < g_uts_root; i++) {
        kids[i] = (uts_job){ uts_child_id(0, (int)i), 0 };
        CHECK(ABT_thread_create(my_pool(), uts_ult, &kids[i], g_attr, &th[i]));
    }
    long c = 1;
    for (long i = 0; i < g_uts_root; i++) {
        CHECK(ABT_thread_join(th[i]));
        CHECK(ABT_thread_free(&th[i]));
        c += kids[i].count;
    }
    return c;
}

/* ---- techniques ------------------------------------------------------------------ */

typedef struct {
    const char *name;
    int fork; /* weft_fork_t, -1: the library default (no attribute) */
} tech_t;

static const tech_t techs[] = {
    { "default", -1 },
#ifdef REC_HAVE_FORK
    { "full", WEFT_FORK_FULL },
    { "full-l", WEFT_FORK_FULL_L },
    { "roc", WEFT_FORK_ROC },
    { "roc-l", WEFT_FORK_ROC_L },
    { "ss", WEFT_FORK_SS },
    { "ss-l", WEFT_FORK_SS_L },
    { "sc", WEFT_FORK_SC },
    { "c-full", WEFT_FORK_C_FULL },
    { "c-full-e", WEFT_FORK_C_FULL_E },
    { "c-roc", WEFT_FORK_C_ROC },
    { "c-roc-e", WEFT_FORK_C_ROC_E },
#endif
};
#define N_TECHS ((int)(sizeof techs / sizeof techs[0]))

static const char *tech_names =
    "default, full, full-l, roc, roc-l, ss, ss-l, sc, c-full, c-full-e, c-roc, c-roc-e, all";

/* ---- the driver -------------------------------------------------------------------- */

enum { P_FIB, P_NQUEENS, P_UTS, N_PROGRAMS };
static const char *prog_name[N_PROGRAMS] = { "fib", "nqueens", "uts" };

typedef struct {
    int fib_n, queens_n;
    long expect[N_PROGRAMS];
    uts_job *uts_kids;
    ABT_thread *uts_th;
} work_t;

typedef struct {
    int p;
    const work_t *w;
    long result;
} root_job;

/* The root of an execution, a ULT of its own: run on the primary ULT, its continuation
 * could not be taken by another stream (the primary ULT stays on the primary stream in
 * weft), and a child-first root would keep its children's creator from being stolen. */
static void root_ult(void *arg)
{
    root_job *r = (root_job *)arg;
    const work_t *w = r->w;
    switch (r->p) {
    case P_FIB: {
        fib_job j = { w->fib_n, 0 };
        fib_ult(&j);
        r->result = j.r;
        break;
    }
    case P_NQUEENS: {
        nq_job j = { w->queens_n, 0, 0, 0, 0, 0 };
        nq_ult(&j);
        r->result = j.count;
        break;
    }
    default: r->result = uts_run(w->uts_kids, w->uts_th); break;
    }
}

/* One execution of program p: its root ULT (the library's default technique) created
 * and joined from the primary ULT; its result. */
static long run_once(int p, const work_t *w)
{
    root_job r = { p, w, -1 };
    ABT_thread t;
    CHECK(ABT_thread_create(g_pools[0], root_ult, &r, ABT_THREAD_ATTR_NULL, &t));
    CHECK(ABT_thread_join(t));
    CHECK(ABT_thread_free(&t));
    return r.result;
}

/* ms per execution: one warm-up, then `repeats` timed executions, each checked. */
static void measure(const bench_t *b, int p, const work_t *w, double *ms)
{
    for (int r = -1; r < b->repeats; r++) {
        uint64_t t0 = bench_now_ns();
        long v = run_once(p, w);
        uint64_t t1 = bench_now_ns();
        if (v != w->expect[p]) {
            fprintf(stderr, "recursive: %s gave %ld, expected %ld\n", prog_name[p], v,
                    w->expect[p]);
            exit(3);
        }
        if (r >= 0)
            ms[r] = (double)(t1 - t0) * 1e-6;
    }
}

/* streams == 2: the second stream, with the same kind of scheduler as the primary's. */
static ABT_xstream start_second(int streams, int randws)
{
    ABT_xstream x = ABT_XSTREAM_NULL;
    if (streams >= 2) {
        if (randws) {
            ABT_pool mine[2] = { g_pools[1], g_pools[0] }; /* its own first, then steals */
            CHECK(ABT_xstream_create_basic(ABT_SCHED_RANDWS, 2, mine, ABT_SCHED_CONFIG_NULL, &x));
        } else {
            CHECK(ABT_xstream_create_basic(ABT_SCHED_DEFAULT, 1, &g_pools[0], ABT_SCHED_CONFIG_NULL,
                                           &x));
        }
    }
    return x;
}

static void stop_second(ABT_xstream x)
{
    if (x != ABT_XSTREAM_NULL) {
        CHECK(ABT_xstream_join(x));
        CHECK(ABT_xstream_free(&x));
    }
}

int main(int argc, char **argv)
{
    bench_t b;
    bench_init(&b, argc, argv, 0.0,
               "[--programs fib,nqueens,uts] [--streams 1,2] [--fork TECH[,TECH...]|all]\n"
               "          [--sched randws|shared]\n"
               "          [--fib 30] [--fib-cutoff 12] [--queens 11] [--queens-cutoff 4]\n"
               "          [--uts-root 2000]\n"
               "TECH: default (the library's technique; the only one of the Argobots twin),\n"
               "      and with weft full full-l roc roc-l ss ss-l sc c-full c-full-e c-roc "
               "c-roc-e\n");
    const bench_args_t *a = &b.args;
    const char *progs = bench_opt(a, "--programs");
    const char *fork_s = bench_opt(a, "--fork");
    if (!fork_s)
        fork_s = "default";
    long streams[4];
    int ns = bench_opt_list(a, "--streams", "1,2", streams, 4);
    work_t w;
    w.fib_n = (int)bench_opt_long(a, "--fib", 30);
    g_fib_cutoff = (int)bench_opt_long(a, "--fib-cutoff", 12);
    w.queens_n = (int)bench_opt_long(a, "--queens", 11);
    g_queens_cutoff = (int)bench_opt_long(a, "--queens-cutoff", 4);
    g_uts_root = bench_opt_long(a, "--uts-root", 2000);
    if (w.fib_n < 2 || w.fib_n > 45 || g_fib_cutoff < 2 || w.queens_n < 1 ||
        w.queens_n > MAX_QUEENS || g_queens_cutoff < 0 || g_uts_root < 1) {
        fprintf(stderr,
                "recursive: --fib 2..45, --fib-cutoff >= 2, --queens 1..%d, "
                "--queens-cutoff >= 0, --uts-root >= 1\n",
                MAX_QUEENS);
        return 2;
    }
    int sel[N_TECHS], nsel = 0;
    for (int i = 0; i < N_TECHS; i++)
        if (bench_in_list(fork_s, techs[i].name))
            sel[nsel++] = i;
    /* every name asked for must exist here */
    for (const char *p = fork_s; strcmp(fork_s, "all") != 0 && *p;) {
        const char *e = strchr(p, ',');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        int found = 0;
        for (int i = 0; i < N_TECHS; i++)
            found |= strlen(techs[i].name) == l && strncmp(techs[i].name, p, l) == 0;
        if (!found) {
            fprintf(stderr, "recursive (%s): unknown or unavailable --fork '%.*s' (%s)\n",
                    BENCH_IMPL_NAME, (int)l, p, tech_names);
            return 2;
        }
        p = e ? e + 1 : p + l;
    }

    w.expect[P_FIB] = fib_serial(w.fib_n);
    w.expect[P_NQUEENS] = nq_serial(w.queens_n, 0, 0, 0, 0);
    w.expect[P_UTS] = 1;
    for (long i = 0; i < g_uts_root; i++)
        w.expect[P_UTS] += uts_serial(uts_child_id(0, (int)i));
    w.uts_kids = (uts_job *)malloc((size_t)g_uts_root * sizeof(uts_job));
    w.uts_th = (ABT_thread *)malloc((size_t)g_uts_root * sizeof(ABT_thread));
    if (!w.uts_kids || !w.uts_th) {
        fprintf(stderr, "recursive: out of memory\n");
        return 1;
    }

    const char *sched_s = bench_opt(a, "--sched");
    int randws = !sched_s || strcmp(sched_s, "randws") == 0;
    if (sched_s && !randws && strcmp(sched_s, "shared") != 0) {
        fprintf(stderr, "recursive: --sched randws or shared\n");
        return 2;
    }
    CHECK(ABT_init(0, NULL));
    ABT_xstream xs;
    CHECK(ABT_xstream_self(&xs));
    if (randws) {
        /* a pool per stream, each scheduler popping its own and stealing from the other's
         * (ABT_SCHED_RANDWS); the primary stream's too */
        for (int i = 0; i < 2; i++)
            CHECK(
                ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &g_pools[i]));
        CHECK(ABT_xstream_set_main_sched_basic(xs, ABT_SCHED_RANDWS, 2, g_pools));
    } else {
        CHECK(ABT_xstream_get_main_pools(xs, 1, &g_pools[0]));
        g_pools[1] = g_pools[0];
    }
    if (!b.machine)
        printf("recursive (%s): fib(%d) [serial below %d], %d-queens [serial for the last %d "
               "rows], UTS-like tree of %ld nodes\n(root %ld children, %d children with "
               "probability %.2f); %s; ms per execution, median of %d\n\n"
               "  program  technique streams        ms     min     max  speedup\n",
               BENCH_IMPL_NAME, w.fib_n, g_fib_cutoff, w.queens_n, g_queens_cutoff, w.expect[P_UTS],
               g_uts_root, UTS_M, UTS_Q,
               randws ? "a pool per stream, ABT_SCHED_RANDWS (steals)"
                      : "one pool shared by the streams",
               b.repeats);
    for (int p = 0; p < N_PROGRAMS; p++) {
        if (progs && !bench_in_list(progs, prog_name[p]))
            continue;
        for (int ti = 0; ti < nsel; ti++) {
            const tech_t *t = &techs[sel[ti]];
            g_attr = ABT_THREAD_ATTR_NULL;
#ifdef REC_HAVE_FORK
            if (t->fork >= 0) {
                CHECK(ABT_thread_attr_create(&g_attr));
                CHECK(weft_thread_attr_set_fork(g_attr, (weft_fork_t)t->fork));
            }
#endif
            double one = 0;
            for (int s = 0; s < ns; s++) {
                double ms[BENCH_MAX_REPEATS];
                ABT_xstream x = start_second((int)streams[s], randws);
                measure(&b, p, &w, ms);
                stop_second(x);
                double med = bench_median(ms, b.repeats);
                if (streams[s] == 1)
                    one = med;
                char f[160];
                bench_result(&b, "recursive",
                             bench_fields(f, sizeof f,
                                          "\"program\":\"%s\",\"fork\":\"%s\",\"sched\":\"%s\","
                                          "\"streams\":%ld",
                                          prog_name[p], t->name, randws ? "randws" : "shared",
                                          streams[s]),
                             "time", "ms", ms, b.repeats);
                if (!b.machine) {
                    printf("  %-8s %-9s %7ld %9.2f %7.2f %7.2f", prog_name[p], t->name, streams[s],
                           med, bench_min(ms, b.repeats), bench_max(ms, b.repeats));
                    if (streams[s] > 1 && one > 0)
                        printf("  %7.2f", one / med);
                    printf("\n");
                    fflush(stdout);
                }
            }
            if (g_attr != ABT_THREAD_ATTR_NULL)
                CHECK(ABT_thread_attr_free(&g_attr));
        }
    }
    CHECK(ABT_finalize());
    free(w.uts_kids);
    free(w.uts_th);
    return 0;
}
