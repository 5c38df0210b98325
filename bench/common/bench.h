/* bench.h - the one measurement driver of weft's benchmark suite, shared by every
 * program: the weft/Argobots twins over abt.h, the Pthreads, OpenMP (libgomp and
 * libomp) and oneTBB baselines, and bench/sync.c.  Header-only so that the same
 * file serves C programs built by gcc and clang and C++ programs (oneTBB twins).
 *
 * What it holds, top to bottom:
 *   clock and statistics   bench_now_ns, bench_median / min / max, bench_maxrss_kib
 *   the driver             bench_t and bench_init: the common flags (--json, --csv,
 *                          --repeats, --sample-ms, --help) parsed once for everybody
 *   the timing loops       BENCH_CALIBRATE, BENCH_TIMED_LOOP, BENCH_SAMPLES,
 *                          BENCH_MEASURE (a BODY repeated in rounds, inlined) and
 *                          bench_measure_iters (a function that runs K iterations
 *                          itself and returns the time per operation)
 *   output                 bench_result: one JSON line (--json), one CSV row (--csv)
 *   flag helpers           bench_opt / bench_opt_long / bench_opt_list / bench_in_list
 *   workload helpers       bench_rand, bench_pick_fraction
 *
 * How a sample is taken: one warm-up execution, then a calibration picks the number of
 * rounds that fills --sample-ms; each of the --repeats samples times that many rounds
 * and is cut short once it runs past BENCH_CAP_FACTOR times its target (a calibration
 * taken on a quiet machine must not become minutes of run time when other jobs start).
 * A program prints the median (and often min and max) of its samples in its table.
 *
 * Output protocol: with --json every result is one line
 *   {"bench":..., "impl_build":..., <config fields>, "metric":..., "unit":...,
 *    "samples":[...]}
 * and nothing else goes to stdout (bench/run.py reads it).  With --csv every result is
 * one row of bench,impl_build,config,metric,unit,median,min,max,repeats,samples after a
 * header row, config being "key=value;key=value".  Without either a program prints a
 * human-readable table. */
#ifndef WEFT_BENCH_H
#define WEFT_BENCH_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The implementation a binary measures, set by bench/CMakeLists.txt: weft, Argobots,
 * pthread, gomp, libomp, tbb. */
#ifndef BENCH_IMPL_NAME
#define BENCH_IMPL_NAME "?"
#endif

/* Upper bound of --repeats: programs keep their samples in arrays of this size. */
#define BENCH_MAX_REPEATS 256

/* A call that must return 0 (ABT_SUCCESS, GLT's success): otherwise the benchmark `name`
 * (a string literal) stops with the call, its code and the line.  Each benchmark's
 * CHECK(call). */
#define BENCH_CHECK(name, call)                                                        \
    do {                                                                               \
        int rc_ = (call);                                                              \
        if (rc_ != 0) {                                                                \
            fprintf(stderr, name ": %s failed: %d (line %d)\n", #call, rc_, __LINE__); \
            exit(1);                                                                   \
        }                                                                              \
    } while (0)

static inline uint64_t bench_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Peak resident set size of this process, in KiB (Linux reports KiB). */
static inline long bench_maxrss_kib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

/* ---- statistics ------------------------------------------------------- */

static inline int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static inline double bench_median(const double *v, int n)
{
    if (n <= 0)
        return 0.0;
    double *s = (double *)malloc(sizeof(double) * (size_t)n);
    memcpy(s, v, sizeof(double) * (size_t)n);
    qsort(s, (size_t)n, sizeof(double), bench_cmp_double);
    double m = (n & 1) ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
    free(s);
    return m;
}

static inline double bench_min(const double *v, int n)
{
    double m = n > 0 ? v[0] : 0.0;
    for (int i = 1; i < n; i++)
        if (v[i] < m)
            m = v[i];
    return m;
}

static inline double bench_max(const double *v, int n)
{
    double m = n > 0 ? v[0] : 0.0;
    for (int i = 1; i < n; i++)
        if (v[i] > m)
            m = v[i];
    return m;
}

/* ---- command line ------------------------------------------------------ */

typedef struct {
    int argc;
    char **argv;
} bench_args_t;

/* Value of "--name value" or "--name=value"; NULL when absent. */
static inline const char *bench_opt(const bench_args_t *a, const char *name)
{
    size_t len = strlen(name);
    for (int i = 1; i < a->argc; i++) {
        const char *s = a->argv[i];
        if (strncmp(s, name, len) == 0) {
            if (s[len] == '=')
                return s + len + 1;
            if (s[len] == '\0' && i + 1 < a->argc)
                return a->argv[i + 1];
        }
    }
    return NULL;
}

static inline int bench_flag(const bench_args_t *a, const char *name)
{
    for (int i = 1; i < a->argc; i++)
        if (strcmp(a->argv[i], name) == 0)
            return 1;
    return 0;
}

static inline long bench_opt_long(const bench_args_t *a, const char *name, long def)
{
    const char *v = bench_opt(a, name);
    return v ? strtol(v, NULL, 0) : def;
}

static inline double bench_opt_double(const bench_args_t *a, const char *name, double def)
{
    const char *v = bench_opt(a, name);
    return v ? strtod(v, NULL) : def;
}

/* Parses "256,4096" into out[]; returns the count.  def is used when absent. */
static inline int bench_opt_list(const bench_args_t *a, const char *name, const char *def,
                                 long *out, int max)
{
    const char *v = bench_opt(a, name);
    if (!v)
        v = def;
    int n = 0;
    while (*v && n < max) {
        char *end;
        long x = strtol(v, &end, 0);
        if (end == v)
            break;
        out[n++] = x;
        v = end;
        while (*v == ',' || *v == ' ')
            v++;
    }
    return n;
}

/* Whether word occurs in the comma-separated list (or the list is "all"). */
static inline int bench_in_list(const char *list, const char *word)
{
    if (!list || strcmp(list, "all") == 0)
        return 1;
    size_t wl = strlen(word);
    const char *p = list;
    while (*p) {
        const char *e = strchr(p, ',');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        if (l == wl && strncmp(p, word, l) == 0)
            return 1;
        if (!e)
            break;
        p = e + 1;
    }
    return 0;
}

/* ---- the driver: flags every program shares ---------------------------- */

typedef struct {
    bench_args_t args; /* the whole command line, for the program's own flags */
    int json;          /* --json: one JSON line per result, nothing else on stdout */
    int csv;           /* --csv: a header row, then one CSV row per result */
    int machine;       /* json || csv: the program prints no table */
    int repeats;       /* --repeats: samples per configuration, 1..BENCH_MAX_REPEATS */
    double target_ns;  /* --sample-ms: target duration of one sample */
} bench_t;

/* Parses the common flags into b.  --help / -h prints "usage: PROG <usage>", every
 * further line of `usage` (continuation lines start with "PROG" where the program
 * has another mode, written as %s), then the common flags, and exits 0.
 * default_sample_ms is the program's --sample-ms default. */
static inline void bench_init(bench_t *b, int argc, char **argv, double default_sample_ms,
                              const char *usage)
{
    b->args.argc = argc;
    b->args.argv = argv;
    if (bench_flag(&b->args, "--help") || bench_flag(&b->args, "-h")) {
        printf("usage: %s ", argv[0]);
        for (const char *p = usage; *p; p++) {
            if (p[0] == '%' && p[1] == 's') {
                fputs(argv[0], stdout);
                p++;
            } else {
                putchar(*p);
            }
        }
        printf("common options (bench/common/bench.h):\n"
               "  --json          one JSON line per result (read by bench/run.py)\n"
               "  --csv           CSV rows: bench,impl_build,config,metric,unit,median,min,"
               "max,repeats,samples\n"
               "  --repeats N     samples per configuration (default 5, at most %d)\n"
               "  --sample-ms T   target duration of one sample (default %g)\n",
               BENCH_MAX_REPEATS, default_sample_ms);
        exit(0);
    }
    b->json = bench_flag(&b->args, "--json");
    b->csv = !b->json && bench_flag(&b->args, "--csv");
    b->machine = b->json || b->csv;
    long r = bench_opt_long(&b->args, "--repeats", 5);
    b->repeats = r < 1 ? 1 : r > BENCH_MAX_REPEATS ? BENCH_MAX_REPEATS : (int)r;
    b->target_ns = bench_opt_double(&b->args, "--sample-ms", default_sample_ms) * 1e6;
}

/* ---- timing loops ------------------------------------------------------ */

/* How many rounds of an operation that takes round_ns fit in target_ns. */
static inline long bench_rounds_for(double round_ns, double target_ns, long max_rounds)
{
    if (round_ns < 1.0)
        round_ns = 1.0;
    long r = (long)(target_ns / round_ns);
    if (r < 1)
        r = 1;
    if (r > max_rounds)
        r = max_rounds;
    return r;
}

/* A sample is cut short when it runs past this many times its target: a
 * calibration taken while the machine was quiet must not turn into minutes of
 * run time when other jobs start (busy-waiting runtimes on a shared machine
 * lose whole kernel time slices). */
#define BENCH_CAP_FACTOR 5

/* The time after which a sample of target_ns is cut short. */
static inline uint64_t bench_cap_ns(double target_ns)
{
    return (uint64_t)(BENCH_CAP_FACTOR * target_ns);
}

/* BENCH_CALIBRATE: one warm-up execution of BODY, then executions until about
 * a fifth of target_ns has passed; sets reps to the count that fits target_ns. */
#define BENCH_CALIBRATE(target_ns, reps, BODY)                                                    \
    do {                                                                                          \
        {                                                                                         \
            BODY;                                                                                 \
        }                                                                                         \
        uint64_t bc_t0_ = bench_now_ns();                                                         \
        long bc_n_ = 0;                                                                           \
        do {                                                                                      \
            {                                                                                     \
                BODY;                                                                             \
            }                                                                                     \
            bc_n_++;                                                                              \
        } while (bench_now_ns() - bc_t0_ < (uint64_t)((target_ns) / 5) && bc_n_ < 100000000);     \
        (reps) = bench_rounds_for((double)(bench_now_ns() - bc_t0_) / (double)bc_n_, (target_ns), \
                                  100000000);                                                     \
    } while (0)

/* BENCH_TIMED_LOOP: up to reps executions of BODY, in 16 chunks, stopping after
 * a chunk once BENCH_CAP_FACTOR x target_ns has passed; sets done and ns.  For
 * programs that accumulate their own phase times inside BODY. */
#define BENCH_TIMED_LOOP(reps, target_ns, done, ns, BODY)                               \
    do {                                                                                \
        uint64_t tl_t0_ = bench_now_ns();                                               \
        uint64_t tl_cap_ = (uint64_t)((double)BENCH_CAP_FACTOR * (double)(target_ns));  \
        long tl_step_ = (reps) / 16 > 0 ? (reps) / 16 : 1;                              \
        long tl_done_ = 0;                                                              \
        while (tl_done_ < (reps)) {                                                     \
            long tl_end_ = tl_done_ + tl_step_ < (reps) ? tl_done_ + tl_step_ : (reps); \
            for (; tl_done_ < tl_end_; tl_done_++) {                                    \
                BODY;                                                                   \
            }                                                                           \
            if (bench_now_ns() - tl_t0_ > tl_cap_)                                      \
                break;                                                                  \
        }                                                                               \
        (ns) = (double)(bench_now_ns() - tl_t0_);                                       \
        (done) = tl_done_;                                                              \
    } while (0)

/* BENCH_SAMPLE: one sample of `rounds` executions of BODY (a timed loop); stores in
 * out the time per round divided by `per`: per = units of work per round gives ns per
 * unit, per = 1e3 gives microseconds per round. */
#define BENCH_SAMPLE(b, rounds, out, per, BODY)                             \
    do {                                                                    \
        long bs_done_;                                                      \
        double bs_ns_;                                                      \
        BENCH_TIMED_LOOP((rounds), (b)->target_ns, bs_done_, bs_ns_, BODY); \
        (out) = bs_ns_ / ((double)bs_done_ * (double)(per));                \
    } while (0)

/* BENCH_MEASURE: calibrate BODY, then take b->repeats samples of it into out[]
 * (see BENCH_SAMPLE for `per`). */
#define BENCH_MEASURE(b, out, per, BODY)                              \
    do {                                                              \
        long bm_rounds_;                                              \
        BENCH_CALIBRATE((b)->target_ns, bm_rounds_, BODY);            \
        for (int bm_r_ = 0; bm_r_ < (b)->repeats; bm_r_++)            \
            BENCH_SAMPLE((b), bm_rounds_, (out)[bm_r_], (per), BODY); \
    } while (0)

/* A measurement that runs its own loop: executes `iters` iterations (of ops_per_iter
 * operations each) and returns the time per operation in ns.  It should stop early
 * once bench_cap_ns(target) has passed and divide by what it did. */
typedef double (*bench_iters_fn)(void *ctx, long iters);

/* Warm-up of warm_iters, a probe of probe_iters to estimate the time per operation,
 * then b->repeats samples of the iteration count that fills --sample-ms, into out[]. */
static inline void bench_measure_iters(const bench_t *b, bench_iters_fn fn, void *ctx,
                                       long warm_iters, long probe_iters, double ops_per_iter,
                                       double *out)
{
    fn(ctx, warm_iters);
    double per = fn(ctx, probe_iters);
    long iters = bench_rounds_for(per * ops_per_iter, b->target_ns, 100000000);
    for (int r = 0; r < b->repeats; r++)
        out[r] = fn(ctx, iters);
}

/* ---- output ------------------------------------------------------------- */

/* snprintf into a caller buffer, for the fields fragment of bench_result. */
static inline const char *bench_fields(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    return buf;
}

/* Emits one JSON result line.  fields is a preformatted fragment of config fields
 * without braces, e.g. "\"kind\":\"ult\",\"n\":256". */
static inline void bench_emit(const char *bench, const char *fields, const char *metric,
                              const char *unit, const double *samples, int n)
{
    printf("{\"bench\":\"%s\",\"impl_build\":\"%s\",%s%s\"metric\":\"%s\",\"unit\":\"%s\","
           "\"samples\":[",
           bench, BENCH_IMPL_NAME, fields, fields[0] ? "," : "", metric, unit);
    for (int i = 0; i < n; i++)
        printf("%s%.3f", i ? "," : "", samples[i]);
    printf("]}\n");
    fflush(stdout);
}

/* Emits one CSV row (the header row before the first one); the config column is
 * the fields fragment as key=value pairs separated by ';'. */
static inline void bench_emit_csv(const char *bench, const char *fields, const char *metric,
                                  const char *unit, const double *samples, int n)
{
    static int header_done;
    if (!header_done) {
        printf("bench,impl_build,config,metric,unit,median,min,max,repeats,samples\n");
        header_done = 1;
    }
    printf("%s,%s,", bench, BENCH_IMPL_NAME);
    for (const char *p = fields; *p; p++) {
        if (*p == '"')
            continue;
        putchar(*p == ':' ? '=' : *p == ',' ? ';' : *p);
    }
    printf(",%s,%s,%.3f,%.3f,%.3f,%d,", metric, unit, bench_median(samples, n),
           bench_min(samples, n), bench_max(samples, n), n);
    for (int i = 0; i < n; i++)
        printf("%s%.3f", i ? " " : "", samples[i]);
    printf("\n");
    fflush(stdout);
}

/* One result in the format the command line asked for: a JSON line (--json), a
 * CSV row (--csv), or nothing (the program prints its table line itself, when
 * b->machine is 0). */
static inline void bench_result(const bench_t *b, const char *bench, const char *fields,
                                const char *metric, const char *unit, const double *samples, int n)
{
    if (b->json)
        bench_emit(bench, fields, metric, unit, samples, n);
    else if (b->csv)
        bench_emit_csv(bench, fields, metric, unit, samples, n);
}

/* The two results of a peak-memory measurement (--memory modes): maxrss and
 * maxrss_at_start, in KiB. */
static inline void bench_result_maxrss(const bench_t *b, const char *bench, const char *fields,
                                       long rss_kib, long rss_start_kib)
{
    double v[2] = { (double)rss_kib, (double)rss_start_kib };
    bench_result(b, bench, fields, "maxrss", "KiB", &v[0], 1);
    bench_result(b, bench, fields, "maxrss_at_start", "KiB", &v[1], 1);
}

/* ---- workload helpers --------------------------------------------------- */

/* A pseudo-random generator with a fixed seed, so that the same units deviate
 * in every implementation (xorshift64*). */
static inline uint64_t bench_rand(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return x * 0x2545F4914F6CDD1Dull;
}

/* Marks exactly round(n * pct / 100) of n flags, chosen uniformly at random
 * (partial Fisher-Yates over an index permutation). */
static inline void bench_pick_fraction(unsigned char *flags, long n, double pct, uint64_t seed)
{
    long k = (long)(n * pct / 100.0 + 0.5);
    if (k > n)
        k = n;
    long *idx = (long *)malloc(sizeof(long) * (size_t)n);
    for (long i = 0; i < n; i++) {
        idx[i] = i;
        flags[i] = 0;
    }
    uint64_t st = seed ? seed : 0x9E3779B97F4A7C15ull;
    for (long i = 0; i < k; i++) {
        long j = i + (long)(bench_rand(&st) % (uint64_t)(n - i));
        long t = idx[i];
        idx[i] = idx[j];
        idx[j] = t;
        flags[idx[i]] = 1;
    }
    free(idx);
}

#ifdef __cplusplus
}
#endif

#endif /* WEFT_BENCH_H */
