/* deviation - the deviation microbenchmark of "Analyzing the performance
 * trade-off in implementing user-level threads" (TPDS 2020, Fig. 9): fork N
 * empty ULTs on one stream and join them, while n randomly chosen ULTs out of
 * N yield once (a "deviation"); D = n / N.
 *
 * Timing mode (Fig. 10 / Fig. 22): N = 4096, ns per fork-join (create + join +
 * free) for D = 0, 1, 5, 10, 25, 50, 100 %.
 * Memory mode (Fig. 24): --memory, N = 65536, one D per process (ru_maxrss is a
 * high-water mark), prints the peak resident set size.
 *
 * Fork-join techniques (weft only, §3-4 and Fig. 16-17, 21-24 of the paper):
 * --fork TECH[,TECH...] | all runs every configuration once per technique,
 * each ULT created with an attribute carrying it (weft_thread_attr_set_fork).
 * TECH is full, full-l, roc, roc-l, c-full, c-full-e, c-roc, c-roc-e (the
 * names of the WEFT_FORK environment variable), ss, ss-l, sc (listed as "not
 * available" while weft refuses them) or tasklet (the reference: ABT_task_*,
 * D = 0 only, since a tasklet cannot yield).  With --fork the timing mode
 * also sweeps --streams 1,2: with 2 streams a second stream runs the
 * scheduler over the primary stream's main pool, so it takes (steals) ULTs
 * and, with the child-first techniques, the queued creator.  Without --fork
 * the output is the one of the Argobots twin (library default technique, one
 * stream).  The Argobots twins (no weft.h) refuse --fork.
 *
 * Peak memory is read from /proc/self/status: VmHWM, after the high-water
 * mark was reset (echo 5 > /proc/self/clear_refs) just before the rounds,
 * and the growth over the VmRSS of that moment; ru_maxrss (the whole life of
 * the process) is printed beside it.  A creation that fails (ABT_ERR_MEM:
 * too many stacks, or vm.max_map_count with guard pages) stops the round and
 * is reported with the number of ULTs created.
 *
 * The units chosen to yield are the same in every implementation (fixed seed).
 * ULT stacks use the library default (16 KiB in Argobots 1.x) unless
 * --stacksize is given.
 *
 * --n 4096 --d 0,1,5,10,25,50,100 [--stacksize BYTES] [--fork TECH|all]
 *         [--streams 1,2]
 * --memory --n 65536 --d 10 [--rounds 2] [--fork TECH]
 * --callgrind TECH --n N --iters I [--d 0] [--streams 1]
 *         no timing: I rounds of N fork-joins, for `valgrind --tool=callgrind`;
 *         instructions per fork-join are the difference of two I
 *         (bench/deviation_techniques.sh, as scripts/insn_counts.sh)
 * and the common flags of bench/common/bench.h (--json, --csv, --repeats 5,
 * --sample-ms 10). */
#include "bench.h"

#include <abt.h>

/* The fork-join techniques exist only in weft (BENCH_WEFT is defined for the
 * programs linked to weft, not for the Argobots twins). */
#if defined(BENCH_WEFT) && defined(__has_include)
#if __has_include(<weft.h>)
#include <weft.h>
#define DEV_HAVE_FORK 1
#endif
#endif

#define CHECK(call) BENCH_CHECK("deviation", call)

static void kernel(void *yield_flag)
{
    if (yield_flag != NULL)
        ABT_thread_yield();
}

static char flag_target; /* any non-NULL address */

static void one_round(ABT_pool pool, ABT_thread_attr attr, long n, const unsigned char *flags,
                      ABT_thread *h)
{
    for (long i = 0; i < n; i++)
        ABT_thread_create(pool, kernel, flags[i] ? (void *)&flag_target : NULL, attr, &h[i]);
    for (long i = 0; i < n; i++)
        ABT_thread_join(h[i]);
    for (long i = 0; i < n; i++)
        ABT_thread_free(&h[i]);
}

/* The reference of the techniques: tasklets (run to completion, never yield). */
static void one_round_tasklet(ABT_pool pool, long n, ABT_thread *h)
{
    for (long i = 0; i < n; i++)
        ABT_task_create(pool, kernel, NULL, &h[i]);
    for (long i = 0; i < n; i++)
        ABT_task_join(h[i]);
    for (long i = 0; i < n; i++)
        ABT_task_free(&h[i]);
}

/* A round that stops at the first failed creation (memory mode): returns how
 * many units were created, *rc the error of the first failure. */
static long one_round_checked(ABT_pool pool, ABT_thread_attr attr, int tasklet, long n,
                              const unsigned char *flags, ABT_thread *h, int *rc)
{
    long created = 0;
    *rc = ABT_SUCCESS;
    for (long i = 0; i < n; i++) {
        int r = tasklet ? ABT_task_create(pool, kernel, NULL, &h[i])
                        : ABT_thread_create(pool, kernel, flags[i] ? (void *)&flag_target : NULL,
                                            attr, &h[i]);
        if (r != ABT_SUCCESS) {
            *rc = r;
            break;
        }
        created++;
    }
    for (long i = 0; i < created; i++)
        tasklet ? ABT_task_join(h[i]) : ABT_thread_join(h[i]);
    for (long i = 0; i < created; i++)
        tasklet ? ABT_task_free(&h[i]) : ABT_thread_free(&h[i]);
    return created;
}

/* ---- techniques ------------------------------------------------------------ */

enum { T_ULT, T_TASKLET };

typedef struct {
    const char *name; /* as the WEFT_FORK environment variable spells it */
    int kind;         /* T_ULT or T_TASKLET */
    int fork;         /* weft_fork_t (T_ULT) */
} tech_t;

static const tech_t techs[] = {
#ifdef DEV_HAVE_FORK
    { "full", T_ULT, WEFT_FORK_FULL },
    { "full-l", T_ULT, WEFT_FORK_FULL_L },
    { "roc", T_ULT, WEFT_FORK_ROC },
    { "roc-l", T_ULT, WEFT_FORK_ROC_L },
    { "ss", T_ULT, WEFT_FORK_SS },
    { "ss-l", T_ULT, WEFT_FORK_SS_L },
    { "sc", T_ULT, WEFT_FORK_SC },
    { "c-full", T_ULT, WEFT_FORK_C_FULL },
    { "c-full-e", T_ULT, WEFT_FORK_C_FULL_E },
    { "c-roc", T_ULT, WEFT_FORK_C_ROC },
    { "c-roc-e", T_ULT, WEFT_FORK_C_ROC_E },
#endif
    { "default", T_ULT, -1 }, /* the library's default technique (no attribute) */
    { "tasklet", T_TASKLET, 0 },
};
#define N_TECHS ((int)(sizeof techs / sizeof techs[0]))

/* The ULT attribute of technique t (NULL technique: the library default), with
 * --stacksize.  Returns ABT_SUCCESS, or the error of weft_thread_attr_set_fork
 * (ABT_ERR_FEATURE_NA: the technique is not built); *attr is then NULL. */
static int make_attr(const tech_t *t, long stacksize, ABT_thread_attr *attr)
{
    *attr = ABT_THREAD_ATTR_NULL;
    if (stacksize <= 0 && (t == NULL || t->kind == T_TASKLET || t->fork < 0))
        return ABT_SUCCESS;
    CHECK(ABT_thread_attr_create(attr));
    if (stacksize > 0)
        CHECK(ABT_thread_attr_set_stacksize(*attr, (size_t)stacksize));
#ifdef DEV_HAVE_FORK
    if (t != NULL && t->kind == T_ULT && t->fork >= 0) {
        int rc = weft_thread_attr_set_fork(*attr, (weft_fork_t)t->fork);
        if (rc != ABT_SUCCESS) {
            ABT_thread_attr_free(attr);
            *attr = ABT_THREAD_ATTR_NULL;
            return rc;
        }
    }
#endif
    return ABT_SUCCESS;
}

static const tech_t *find_tech(const char *name)
{
    for (int i = 0; i < N_TECHS; i++)
        if (strcmp(techs[i].name, name) == 0)
            return &techs[i];
    return NULL;
}

/* Parses --fork into sel[] (indices into techs); exits on an unknown name. */
static int parse_techs(const char *list, int *sel)
{
    int n = 0;
#ifndef DEV_HAVE_FORK
    /* without weft.h only "default" and "tasklet" exist */
    if (strcmp(list, "all") == 0 || !find_tech(list)) {
        fprintf(stderr,
                "deviation (%s): --fork needs weft (weft_thread_attr_set_fork); this "
                "build has no weft.h (only default and tasklet)\n",
                BENCH_IMPL_NAME);
        exit(2);
    }
#endif
    int all = strcmp(list, "all") == 0;
    for (int i = 0; i < N_TECHS; i++) {
        /* "all": the techniques, not "default" again */
        if (all ? techs[i].fork >= 0 || techs[i].kind == T_TASKLET
                : bench_in_list(list, techs[i].name))
            sel[n++] = i;
    }
    /* every name of the list must be known */
    if (strcmp(list, "all") != 0) {
        const char *p = list;
        while (*p) {
            const char *e = strchr(p, ',');
            size_t l = e ? (size_t)(e - p) : strlen(p);
            char w[32];
            snprintf(w, sizeof w, "%.*s", (int)(l < sizeof w ? l : sizeof w - 1), p);
            if (!find_tech(w)) {
                fprintf(stderr,
                        "deviation: unknown --fork technique '%s' (full, full-l, roc, "
                        "roc-l, ss, ss-l, sc, c-full, c-full-e, c-roc, c-roc-e, default, "
                        "tasklet, all)\n",
                        w);
                exit(2);
            }
            if (!e)
                break;
            p = e + 1;
        }
    }
    return n;
}

/* ---- streams ------------------------------------------------------------- */

/* streams == 2: a second stream whose scheduler takes its work from the
 * primary stream's main pool (shared, so it steals from the creator). */
static ABT_xstream start_streams(int streams, ABT_pool pool)
{
    ABT_xstream xs1 = ABT_XSTREAM_NULL;
    if (streams >= 2)
        CHECK(ABT_xstream_create_basic(ABT_SCHED_DEFAULT, 1, &pool, ABT_SCHED_CONFIG_NULL, &xs1));
    return xs1;
}

static void stop_streams(ABT_xstream xs1)
{
    if (xs1 != ABT_XSTREAM_NULL) {
        CHECK(ABT_xstream_join(xs1));
        CHECK(ABT_xstream_free(&xs1));
    }
}

/* ---- memory ---------------------------------------------------------------- */

/* A field of /proc/self/status in KiB ("VmHWM", "VmRSS"); -1 when unreadable. */
static long status_kib(const char *field)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return -1;
    char line[256];
    long v = -1;
    size_t l = strlen(field);
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, field, l) == 0 && line[l] == ':') {
            v = strtol(line + l + 1, NULL, 10);
            break;
        }
    }
    fclose(f);
    return v;
}

/* Resets VmHWM to the current VmRSS (Linux 4.0+); returns 0 on success. */
static int reset_hwm(void)
{
    FILE *f = fopen("/proc/self/clear_refs", "w");
    if (!f)
        return -1;
    int ok = fputs("5", f) >= 0;
    return (fclose(f) == 0 && ok) ? 0 : -1;
}

static int memory_mode(bench_t *b, ABT_pool pool, const tech_t *t, long n, long d, long stacksize,
                       long rss_start)
{
    const char *tname = t ? t->name : "default";
    long rounds = bench_opt_long(&b->args, "--rounds", 2);
    ABT_thread_attr attr;
    int rc = make_attr(t, stacksize, &attr);
    if (rc != ABT_SUCCESS) {
        fprintf(b->machine ? stderr : stdout,
                "deviation --memory (%s): %s: not available (%s: %d)\n", BENCH_IMPL_NAME, tname,
                rc == ABT_ERR_FEATURE_NA ? "ABT_ERR_FEATURE_NA" : "error", rc);
        return 0;
    }
    ABT_thread *h = (ABT_thread *)calloc((size_t)n, sizeof(ABT_thread));
    unsigned char *flags = (unsigned char *)malloc((size_t)n);
    bench_pick_fraction(flags, n, (double)d, 0x5eed);
    /* the arrays are resident before the baseline is read */
    memset(h, 0, (size_t)n * sizeof(ABT_thread));
    int reset = reset_hwm() == 0;
    long rss0 = status_kib("VmRSS");
    long created = n;
    int fail_rc = ABT_SUCCESS;
    for (long k = 0; k < rounds; k++) {
        int r;
        long c = one_round_checked(pool, attr, t && t->kind == T_TASKLET, n, flags, h, &r);
        if (c < created) {
            created = c;
            fail_rc = r;
        }
        if (r != ABT_SUCCESS)
            break;
    }
    long hwm = status_kib("VmHWM");
    long rss = bench_maxrss_kib();
    if (b->machine) {
        char f[192];
        bench_fields(f, sizeof f, "\"d\":%ld,\"n\":%ld,\"fork\":\"%s\",\"created\":%ld", d, n,
                     tname, created);
        bench_result_maxrss(b, "deviation_memory", f, rss, rss_start);
        double v[2] = { (double)hwm, (double)(hwm - rss0) };
        bench_result(b, "deviation_memory", f, "vmhwm", "KiB", &v[0], 1);
        bench_result(b, "deviation_memory", f, "vmhwm_growth", "KiB", &v[1], 1);
    } else {
        printf("deviation --memory (%s): fork %s, N = %ld (%ld created), D = %ld %%: peak RSS "
               "%.1f MiB (VmHWM%s), %.1f MiB over the %.1f MiB before the rounds; ru_maxrss "
               "%.1f MiB (%.1f MiB at start)\n",
               BENCH_IMPL_NAME, tname, n, created, d, hwm / 1024.0,
               reset ? ", reset before the rounds" : ", not reset: clear_refs refused",
               (hwm - rss0) / 1024.0, rss0 / 1024.0, rss / 1024.0, rss_start / 1024.0);
    }
    if (created < n) {
        fprintf(stderr,
                "deviation --memory: fork %s: creating ULT %ld of %ld failed (%s, %d): every "
                "live ULT of this technique holds a stack%s.  Try ABT_STACK_OVERFLOW_CHECK=canary "
                "(no guard-page mapping per stack), a smaller --stacksize, or a higher "
                "vm.max_map_count.\n",
                tname, created + 1, n, fail_rc == ABT_ERR_MEM ? "ABT_ERR_MEM" : "error", fail_rc,
                stacksize > 0 ? "" : " of the default size");
    }
    if (attr != ABT_THREAD_ATTR_NULL)
        ABT_thread_attr_free(&attr);
    free(h);
    free(flags);
    return created < n ? 3 : 0;
}

/* ---- timing ------------------------------------------------------------------ */

/* One technique on one stream count: every D, round-robin samples.  t == NULL:
 * the library default, the output of the original benchmark. */
static void timing(bench_t *b, ABT_pool pool, const tech_t *t, int streams, long n, const long *ds,
                   int nd, const unsigned char *fl, ABT_thread *h, long stacksize)
{
    int repeats = b->repeats;
    ABT_thread_attr attr;
    int rc = make_attr(t, stacksize, &attr);
    if (rc != ABT_SUCCESS) {
        if (!b->machine)
            printf("  %-9s %7d %6s   not available (%s)\n", t->name, streams, "-",
                   rc == ABT_ERR_FEATURE_NA ? "ABT_ERR_FEATURE_NA" : "error");
        else
            fprintf(stderr, "deviation: fork %s: not available (%d)\n", t->name, rc);
        return;
    }
    int tasklet = t != NULL && t->kind == T_TASKLET;
    ABT_xstream xs1 = start_streams(streams, pool);
    long rounds[16];
    int run[16];
    static double v[16][BENCH_MAX_REPEATS];
#define DEV_ROUND(di)                                                   \
    do {                                                                \
        if (tasklet)                                                    \
            one_round_tasklet(pool, n, h);                              \
        else                                                            \
            one_round(pool, attr, n, fl + (size_t)(di) * (size_t)n, h); \
    } while (0)
    /* Samples are taken round-robin over the D values (repeat r of every D,
     * then repeat r + 1), so that a drift of the machine during the run
     * shifts the whole curve instead of bending it. */
    for (int di = 0; di < nd; di++) {
        run[di] = !tasklet || ds[di] == 0; /* a tasklet cannot yield */
        if (run[di])
            BENCH_CALIBRATE(b->target_ns, rounds[di], DEV_ROUND(di));
    }
    for (int r = 0; r < repeats; r++) {
        for (int di = 0; di < nd; di++) {
            if (run[di])
                BENCH_SAMPLE(b, rounds[di], v[di][r], n, DEV_ROUND(di));
        }
    }
#undef DEV_ROUND
    stop_streams(xs1);
    for (int di = 0; di < nd; di++) {
        if (!run[di])
            continue;
        if (b->machine) {
            char f[160];
            if (t == NULL)
                bench_fields(f, sizeof f, "\"d\":%ld,\"n\":%ld", ds[di], n);
            else
                bench_fields(f, sizeof f, "\"d\":%ld,\"n\":%ld,\"fork\":\"%s\",\"streams\":%d",
                             ds[di], n, t->name, streams);
            bench_result(b, "deviation", f, "total", "ns_per_unit", v[di], repeats);
        } else if (t == NULL) {
            printf("  %5ld %9.1f %7.1f %7.1f\n", ds[di], bench_median(v[di], repeats),
                   bench_min(v[di], repeats), bench_max(v[di], repeats));
        } else {
            printf("  %-9s %7d %6ld %9.1f %7.1f %7.1f\n", t->name, streams, ds[di],
                   bench_median(v[di], repeats), bench_min(v[di], repeats),
                   bench_max(v[di], repeats));
        }
        fflush(stdout);
    }
    if (attr != ABT_THREAD_ATTR_NULL)
        ABT_thread_attr_free(&attr);
}

/* --callgrind TECH: iters rounds, no timing, nothing printed. */
static int callgrind_mode(ABT_pool pool, const char *name, long n, long iters, long d, int streams,
                          long stacksize)
{
    int sel[N_TECHS];
    if (parse_techs(name, sel) != 1) {
        fprintf(stderr, "deviation: --callgrind takes one technique\n");
        return 2;
    }
    const tech_t *t = &techs[sel[0]];
    ABT_thread_attr attr;
    int rc = make_attr(t, stacksize, &attr);
    if (rc != ABT_SUCCESS) {
        fprintf(stderr, "deviation: fork %s: not available (%d)\n", t->name, rc);
        return 4;
    }
    ABT_thread *h = (ABT_thread *)calloc((size_t)n, sizeof(ABT_thread));
    unsigned char *flags = (unsigned char *)malloc((size_t)n);
    bench_pick_fraction(flags, n, (double)d, 0x5eed);
    ABT_xstream xs1 = start_streams(streams, pool);
    for (long k = 0; k < iters; k++) {
        if (t->kind == T_TASKLET)
            one_round_tasklet(pool, n, h);
        else
            one_round(pool, attr, n, flags, h);
    }
    stop_streams(xs1);
    if (attr != ABT_THREAD_ATTR_NULL)
        ABT_thread_attr_free(&attr);
    free(h);
    free(flags);
    return 0;
}

int main(int argc, char **argv)
{
    bench_t b;
    bench_init(&b, argc, argv, 10.0,
               "[--n 4096] [--d 0,1,5,10,25,50,100] [--stacksize BYTES]\n"
               "          [--fork TECH[,TECH...]|all] [--streams 1,2]\n"
               "       %s --memory [--n 65536] --d PCT [--rounds 2] [--fork TECH]\n"
               "       %s --callgrind TECH --n N --iters I [--d 0] [--streams 1]\n"
               "TECH (weft only): full full-l roc roc-l ss ss-l sc c-full c-full-e c-roc "
               "c-roc-e tasklet\n");
    const bench_args_t *a = &b.args;
    long rss_start = bench_maxrss_kib();
    int memory = bench_flag(a, "--memory");
    const char *cg = bench_opt(a, "--callgrind");
    const char *fork_s = bench_opt(a, "--fork");
    long n = bench_opt_long(a, "--n", memory ? 65536 : cg ? 256 : 4096);
    long ds[16];
    int nd = bench_opt_list(a, "--d", memory || cg ? "0" : "0,1,5,10,25,50,100", ds, 16);
    long stacksize = bench_opt_long(a, "--stacksize", 0);
    int sel[N_TECHS], nsel = 0;
    if (fork_s)
        nsel = parse_techs(fork_s, sel);

    CHECK(ABT_init(0, NULL));
    ABT_xstream xs;
    ABT_pool pool;
    CHECK(ABT_xstream_self(&xs));
    CHECK(ABT_xstream_get_main_pools(xs, 1, &pool));
    int status = 0;

    if (cg) {
        status = callgrind_mode(pool, cg, n, bench_opt_long(a, "--iters", 10), ds[0],
                                (int)bench_opt_long(a, "--streams", 1), stacksize);
    } else if (memory) {
        if (nsel > 1) {
            fprintf(stderr, "deviation --memory: one technique per process (the peak is a "
                            "high-water mark); bench/deviation_techniques.sh runs them all\n");
            status = 2;
        } else {
            status =
                memory_mode(&b, pool, nsel ? &techs[sel[0]] : NULL, n, ds[0], stacksize, rss_start);
        }
    } else {
        long streams[4];
        int ns = bench_opt_list(a, "--streams", fork_s ? "1,2" : "1", streams, 4);
        ABT_thread *h = (ABT_thread *)calloc((size_t)n, sizeof(ABT_thread));
        unsigned char *fl = (unsigned char *)malloc((size_t)n * (size_t)nd);
        for (int di = 0; di < nd; di++)
            bench_pick_fraction(fl + (size_t)di * n, n, (double)ds[di], 0x5eed);
        if (!fork_s) {
            for (int s = 0; s < ns; s++) {
                if (!b.machine)
                    printf("deviation (%s): N = %ld ULTs forked and joined on %ld stream%s, D %% "
                           "of them yield once\nns per fork-join (create + join + free), median "
                           "of %d\n\n      D   ns/unit     min     max\n",
                           BENCH_IMPL_NAME, n, streams[s], streams[s] > 1 ? "s" : "", b.repeats);
                timing(&b, pool, NULL, (int)streams[s], n, ds, nd, fl, h, stacksize);
            }
        } else {
            if (!b.machine)
                printf("deviation (%s): N = %ld ULTs forked and joined, D %% of them yield once; "
                       "2 streams share the main pool\nns per fork-join (create + join + free), "
                       "median of %d (tasklet: D = 0 only)\n\n"
                       "  technique streams      D   ns/unit     min     max\n",
                       BENCH_IMPL_NAME, n, b.repeats);
            for (int i = 0; i < nsel; i++)
                for (int s = 0; s < ns; s++)
                    timing(&b, pool, &techs[sel[i]], (int)streams[s], n, ds, nd, fl, h, stacksize);
        }
        free(fl);
        free(h);
    }
    CHECK(ABT_finalize());
    return status;
}
