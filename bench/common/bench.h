/* bench.h - small helpers shared by every benchmark program of weft's suite:
 * a monotonic clock, sample statistics, command-line parsing and the JSON-lines
 * output the runner (bench/run.py) reads.  Header-only so that the same file
 * serves C programs built by gcc and clang and C++ programs (oneTBB twins).
 *
 * Output protocol: with --json every result is one line
 *   {"bench":..., <config fields>, "metric":..., "unit":..., "samples":[...]}
 * and nothing else goes to stdout.  Without --json a program prints a
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

#ifndef BENCH_IMPL_NAME
#define BENCH_IMPL_NAME "?"
#endif

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

/* BENCH_CALIBRATE: one warm-up execution of BODY, then executions until about
 * a fifth of target_ns has passed; sets reps to the count that fits target_ns. */
#define BENCH_CALIBRATE(target_ns, reps, BODY)                                           \
    do {                                                                                 \
        { BODY; }                                                                        \
        uint64_t bc_t0_ = bench_now_ns();                                                \
        long bc_n_ = 0;                                                                  \
        do {                                                                             \
            { BODY; }                                                                    \
            bc_n_++;                                                                     \
        } while (bench_now_ns() - bc_t0_ < (uint64_t)((target_ns) / 5) && bc_n_ < 100000000); \
        (reps) = bench_rounds_for((double)(bench_now_ns() - bc_t0_) / (double)bc_n_,      \
                                  (target_ns), 100000000);                               \
    } while (0)

/* BENCH_TIMED_LOOP: up to reps executions of BODY, in 16 chunks, stopping after
 * a chunk once BENCH_CAP_FACTOR x target_ns has passed; sets done and ns. */
#define BENCH_TIMED_LOOP(reps, target_ns, done, ns, BODY)                                \
    do {                                                                                 \
        uint64_t tl_t0_ = bench_now_ns();                                                \
        uint64_t tl_cap_ = (uint64_t)((double)BENCH_CAP_FACTOR * (double)(target_ns));  \
        long tl_step_ = (reps) / 16 > 0 ? (reps) / 16 : 1;                              \
        long tl_done_ = 0;                                                               \
        while (tl_done_ < (reps)) {                                                      \
            long tl_end_ = tl_done_ + tl_step_ < (reps) ? tl_done_ + tl_step_ : (reps);  \
            for (; tl_done_ < tl_end_; tl_done_++) {                                     \
                BODY;                                                                    \
            }                                                                            \
            if (bench_now_ns() - tl_t0_ > tl_cap_)                                       \
                break;                                                                   \
        }                                                                                \
        (ns) = (double)(bench_now_ns() - tl_t0_);                                        \
        (done) = tl_done_;                                                               \
    } while (0)

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

/* ---- JSON-lines output ------------------------------------------------- */

/* Emits one result line.  fields is a preformatted fragment of config fields
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

/* snprintf into a caller buffer, for the fields fragment. */
static inline const char *bench_fields(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, size, fmt, ap);
    va_end(ap);
    return buf;
}

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
