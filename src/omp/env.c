/* src/omp/env.c - the environment: OMP_* and GOMP_SPINCOUNT read once at load time
 * into g_env (the initial ICVs); OMP_DISPLAY_ENV printing.
 *
 * A malformed value is reported as libgomp reports it, one line naming the variable
 * ("libweft-omp: Invalid value for environment variable OMP_NUM_THREADS"), and the
 * variable is then ignored (its default stays). */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "omp/rt.h"

struct wo_env g_env;

static void invalid(const char *name)
{
    fprintf(stderr, "libweft-omp: Invalid value for environment variable %s\n", name);
}

static const char *skip_ws(const char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    return s;
}

static bool at_end(const char *s) { return *skip_ws(s) == '\0'; }

/* A non-negative decimal number (min..max); false if malformed. */
static bool parse_ulong(const char *name, const char *s, unsigned long min, unsigned long max,
                        unsigned long *out, const char **rest)
{
    s = skip_ws(s);
    if (!isdigit((unsigned char)*s))
        return false;
    errno = 0;
    char *end;
    unsigned long v = strtoul(s, &end, 10);
    if (errno || v < min || v > max)
        return false;
    *out = v;
    if (rest)
        *rest = end;
    else if (!at_end(end))
        return false;
    (void)name;
    return true;
}

static int parse_bool(const char *name, int def)
{
    const char *s = getenv(name);
    if (!s)
        return def;
    s = skip_ws(s);
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    if (n == 4 && !strncasecmp(s, "true", 4))
        return 1;
    if (n == 5 && !strncasecmp(s, "false", 5))
        return 0;
    invalid(name);
    return def;
}

static void parse_num_threads(void)
{
    const char *s = getenv("OMP_NUM_THREADS");
    if (!s)
        return;
    int vals[64], n = 0;
    const char *p = s;
    for (;;) {
        unsigned long v;
        if (n == 64 || !parse_ulong("OMP_NUM_THREADS", p, 1, INT_MAX, &v, &p))
            goto bad;
        vals[n++] = (int)v;
        p = skip_ws(p);
        if (*p == ',') {
            p++;
            continue;
        }
        if (*p)
            goto bad;
        break;
    }
    g_env.nt_list = malloc((size_t)n * sizeof(int));
    if (!g_env.nt_list)
        return;
    memcpy(g_env.nt_list, vals, (size_t)n * sizeof(int));
    g_env.nt_len = n;
    g_env.icv.nthreads = vals[0];
    g_env.icv.nt_pos = 0;
    return;
bad:
    invalid("OMP_NUM_THREADS");
}

static void parse_schedule(void)
{
    const char *s = getenv("OMP_SCHEDULE");
    if (!s)
        return;
    const char *p = skip_ws(s);
    int mono = 0;
    if (!strncasecmp(p, "monotonic:", 10))
        mono = WO_S_MONOTONIC, p += 10;
    else if (!strncasecmp(p, "nonmonotonic:", 13))
        p += 13;
    p = skip_ws(p);
    static const struct {
        const char *n;
        int k;
    } kinds[] = { { "static", WO_S_STATIC },
                  { "dynamic", WO_S_DYNAMIC },
                  { "guided", WO_S_GUIDED },
                  { "auto", WO_S_AUTO } };
    int kind = -1;
    for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
        size_t l = strlen(kinds[i].n);
        if (!strncasecmp(p, kinds[i].n, l) && !isalpha((unsigned char)p[l])) {
            kind = kinds[i].k;
            p += l;
            break;
        }
    }
    if (kind < 0)
        goto bad;
    long chunk = 0;
    p = skip_ws(p);
    if (*p == ',') {
        unsigned long v;
        if (!parse_ulong("OMP_SCHEDULE", p + 1, 1, LONG_MAX, &v, NULL))
            goto bad;
        chunk = (long)v;
    } else if (*p) {
        goto bad;
    }
    g_env.icv.run_sched = kind | mono;
    g_env.icv.run_chunk = chunk;
    return;
bad:
    invalid("OMP_SCHEDULE");
}

/* A size with an optional B/K/M/G suffix, kilobytes when there is none. */
static void parse_stacksize(void)
{
    const char *s = getenv("OMP_STACKSIZE");
    if (!s)
        s = getenv("GOMP_STACKSIZE");
    if (!s)
        return;
    unsigned long v;
    const char *p;
    if (!parse_ulong("OMP_STACKSIZE", s, 1, ULONG_MAX >> 30, &v, &p))
        goto bad;
    p = skip_ws(p);
    unsigned long mult = 1024;
    switch (tolower((unsigned char)*p)) {
    case '\0': break;
    case 'b': mult = 1, p++; break;
    case 'k': mult = 1024, p++; break;
    case 'm': mult = 1024ul * 1024, p++; break;
    case 'g': mult = 1024ul * 1024 * 1024, p++; break;
    default: goto bad;
    }
    if (!at_end(p))
        goto bad;
    g_env.stacksize = v * mult;
    if (g_env.stacksize < 16384)
        g_env.stacksize = 16384;
    return;
bad:
    invalid("OMP_STACKSIZE");
}

static void parse_spincount(void)
{
    const char *s = getenv("GOMP_SPINCOUNT");
    if (!s)
        return;
    const char *p = skip_ws(s);
    if (!strncasecmp(p, "infinite", 8) || !strncasecmp(p, "infinity", 8)) {
        if (!at_end(p + 8))
            goto bad;
        g_env.spin = UINT64_MAX;
        return;
    }
    unsigned long v;
    if (!parse_ulong("GOMP_SPINCOUNT", p, 0, ULONG_MAX >> 30, &v, &p))
        goto bad;
    p = skip_ws(p);
    uint64_t mult = 1;
    switch (*p) {
    case '\0': break;
    case 'k':
    case 'K': mult = 1000, p++; break;
    case 'M': mult = 1000000, p++; break;
    case 'G': mult = 1000000000, p++; break;
    case 'T': mult = 1000000000000ull, p++; break;
    default: goto bad;
    }
    if (!at_end(p))
        goto bad;
    g_env.spin = (uint64_t)v * mult;
    return;
bad:
    invalid("GOMP_SPINCOUNT");
}

static const char *const bind_names[] = { "false", "true", "primary", "close", "spread" };

static void parse_proc_bind(void)
{
    const char *s = getenv("OMP_PROC_BIND");
    if (!s)
        return;
    int vals[16], n = 0;
    const char *p = skip_ws(s);
    for (;;) {
        int k = -1;
        size_t l = 0;
        for (int i = 0; i < 5; i++) {
            l = strlen(bind_names[i]);
            if (!strncasecmp(p, bind_names[i], l) && !isalpha((unsigned char)p[l])) {
                k = i;
                break;
            }
        }
        if (k < 0 && !strncasecmp(p, "master", 6) && !isalpha((unsigned char)p[6]))
            k = 2, l = 6;
        if (k < 0 || n == 16 || (n > 0 && k < 2))
            goto bad;
        vals[n++] = k;
        p = skip_ws(p + l);
        if (*p == ',') {
            p = skip_ws(p + 1);
            continue;
        }
        if (*p)
            goto bad;
        break;
    }
    if (n > 1 && vals[0] < 2)
        goto bad;
    g_env.icv.bind = vals[0];
    g_env.bind_list = malloc((size_t)n * sizeof(int));
    if (g_env.bind_list) {
        memcpy(g_env.bind_list, vals, (size_t)n * sizeof(int));
        g_env.bind_len = n;
    }
    return;
bad:
    invalid("OMP_PROC_BIND");
}

/* Places: g_env.place_off[i] .. place_off[i + 1] index place i's CPUs in place_cpus.
 * The default (and "threads", "cores": one hardware thread per core is all the kernel
 * tells here without hwloc) is one place per CPU of the process; "sockets",
 * "ll_caches", "numa_domains" give one place with every CPU; an explicit list is
 * {a,b,...} or {lo:len[:stride]} places separated by commas. */
static bool add_place(int *cpus, int ncpus, int *np)
{
    int *off = realloc(g_env.place_off, (size_t)(*np + 2) * sizeof(int));
    if (!off)
        return false;
    g_env.place_off = off;
    int base = *np ? off[*np] : 0;
    int *c = realloc(g_env.place_cpus, (size_t)(base + ncpus) * sizeof(int));
    if (!c)
        return false;
    g_env.place_cpus = c;
    memcpy(c + base, cpus, (size_t)ncpus * sizeof(int));
    off[0] = 0;
    off[*np + 1] = base + ncpus;
    (*np)++;
    return true;
}

static bool parse_place_list(const char *p)
{
    int np = 0;
    for (;;) {
        p = skip_ws(p);
        if (*p++ != '{')
            return false;
        int cpus[1024], n = 0;
        for (;;) {
            unsigned long lo, len = 1, stride = 1;
            if (!parse_ulong("OMP_PLACES", p, 0, 1u << 20, &lo, &p))
                return false;
            p = skip_ws(p);
            if (*p == ':') {
                if (!parse_ulong("OMP_PLACES", p + 1, 1, 1024, &len, &p))
                    return false;
                p = skip_ws(p);
                if (*p == ':') {
                    if (!parse_ulong("OMP_PLACES", p + 1, 1, 1u << 20, &stride, &p))
                        return false;
                    p = skip_ws(p);
                }
            }
            for (unsigned long k = 0; k < len && n < 1024; k++)
                cpus[n++] = (int)(lo + k * stride);
            if (*p == ',') {
                p++;
                continue;
            }
            if (*p++ != '}')
                return false;
            break;
        }
        if (!add_place(cpus, n, &np))
            return false;
        p = skip_ws(p);
        if (*p == ',') {
            p++;
            continue;
        }
        if (*p)
            return false;
        break;
    }
    g_env.nplaces = np;
    return true;
}

static void default_places(bool one_place)
{
    cpu_set_t set;
    int cpus[CPU_SETSIZE], n = 0, np = 0;
    if (sched_getaffinity(0, sizeof(set), &set) == 0) {
        for (int c = 0; c < CPU_SETSIZE; c++)
            if (CPU_ISSET(c, &set))
                cpus[n++] = c;
    } else {
        for (int c = 0; c < g_env.num_procs; c++)
            cpus[n++] = c;
    }
    if (one_place) {
        add_place(cpus, n, &np);
    } else {
        for (int i = 0; i < n; i++)
            add_place(&cpus[i], 1, &np);
    }
    g_env.nplaces = np;
}

static void parse_places(void)
{
    const char *s = getenv("OMP_PLACES");
    if (!s) {
        default_places(false);
        return;
    }
    const char *p = skip_ws(s);
    static const char *const abstract[] = { "threads", "cores", "sockets", "ll_caches",
                                            "numa_domains" };
    for (size_t i = 0; i < sizeof(abstract) / sizeof(abstract[0]); i++) {
        size_t l = strlen(abstract[i]);
        if (!strncasecmp(p, abstract[i], l)) {
            g_env.places = strdup(s);
            default_places(i >= 2);
            return;
        }
    }
    if (!parse_place_list(p)) {
        invalid("OMP_PLACES");
        free(g_env.place_off);
        free(g_env.place_cpus);
        g_env.place_off = NULL;
        g_env.place_cpus = NULL;
        default_places(false);
        return;
    }
    g_env.places = strdup(s);
}

static void parse_int(const char *name, unsigned long min, unsigned long max, int *out)
{
    const char *s = getenv(name);
    if (!s)
        return;
    unsigned long v;
    if (!parse_ulong(name, s, min, max, &v, NULL)) {
        invalid(name);
        return;
    }
    *out = (int)v;
}

/* The stack of an OpenMP thread that is not the initial one: OMP_STACKSIZE when set;
 * else what a thread of libgomp gets, the C library's default thread stack size (glibc:
 * the soft RLIMIT_STACK at the program's start, 2 MiB on x86-64 when that is unlimited),
 * and never less than 1 MiB.  Rounded up to pages (the guard page then sits right below
 * the stack).  ULT stacks are mapped MAP_NORESERVE: only the pages a thread touches cost
 * memory. */
static size_t wo_thread_stack(void)
{
    size_t s = g_env.stacksize;
    if (!s) {
        pthread_attr_t a;
        if (pthread_getattr_default_np(&a) == 0) {
            if (pthread_attr_getstacksize(&a, &s) != 0)
                s = 0;
            pthread_attr_destroy(&a);
        }
        if (s < ((size_t)1 << 20))
            s = (size_t)1 << 20;
    }
    long pg = sysconf(_SC_PAGESIZE);
    size_t page = pg > 0 ? (size_t)pg : 4096;
    if (s <= SIZE_MAX - page)
        s = (s + page - 1) / page * page;
    return s;
}

static const char *const alloc_names[] = { "omp_default_mem_alloc", "omp_large_cap_mem_alloc",
                                           "omp_const_mem_alloc",   "omp_high_bw_mem_alloc",
                                           "omp_low_lat_mem_alloc", "omp_cgroup_mem_alloc",
                                           "omp_pteam_mem_alloc",   "omp_thread_mem_alloc" };

/* OMP_ALLOCATOR: the name of a predefined allocator (handles 1 .. 8), as libgomp takes it. */
static void parse_allocator(void)
{
    g_env.icv.def_alloc = 1; /* omp_default_mem_alloc */
    const char *s = getenv("OMP_ALLOCATOR");
    if (!s)
        return;
    s = skip_ws(s);
    for (unsigned i = 0; i < sizeof(alloc_names) / sizeof(alloc_names[0]); i++) {
        size_t n = strlen(alloc_names[i]);
        if (strncasecmp(s, alloc_names[i], n) == 0 && at_end(s + n)) {
            g_env.icv.def_alloc = i + 1;
            return;
        }
    }
    invalid("OMP_ALLOCATOR");
}

#define SUPPORTED_ACTIVE_LEVELS 255

/* Read the environment: at load time (constructor), before any OpenMP call. */
__attribute__((constructor)) void wo_env_init(void)
{
    cpu_set_t set;
    g_env.num_procs = 1;
    if (sched_getaffinity(0, sizeof(set), &set) == 0)
        g_env.num_procs = CPU_COUNT(&set);
    else {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        g_env.num_procs = c > 0 ? (int)c : 1;
    }
    g_env.icv.nthreads = g_env.num_procs;
    g_env.icv.nt_pos = -1;
    g_env.icv.run_sched = WO_S_DYNAMIC;
    g_env.icv.run_chunk = 1;
    g_env.icv.bind = 0;
    g_env.icv.thread_limit = INT_MAX;
    g_env.wait_policy = -1;
    g_env.spin = 300000;

    parse_num_threads();
    parse_schedule();
    parse_stacksize();
    g_env.thread_stack = wo_thread_stack();
    parse_allocator();
    parse_proc_bind();
    parse_places();
    g_env.icv.dyn = parse_bool("OMP_DYNAMIC", 0);
    int nested = parse_bool("OMP_NESTED", -1);
    g_env.cancel = parse_bool("OMP_CANCELLATION", 0) == 1;
    int levels = -1;
    parse_int("OMP_MAX_ACTIVE_LEVELS", 0, INT_MAX, &levels);
    parse_int("OMP_THREAD_LIMIT", 1, INT_MAX, &g_env.icv.thread_limit);
    parse_int("OMP_MAX_TASK_PRIORITY", 0, INT_MAX, &g_env.max_task_priority);
    parse_int("OMP_DEFAULT_DEVICE", 0, INT_MAX, &g_env.icv.default_device);
    parse_int("OMP_NUM_TEAMS", 1, INT_MAX, &g_env.nteams);
    parse_int("OMP_TEAMS_THREAD_LIMIT", 1, INT_MAX, &g_env.teams_thread_limit);

    if (levels >= 0)
        g_env.max_active_levels = levels;
    else if (nested == 1)
        g_env.max_active_levels = SUPPORTED_ACTIVE_LEVELS;
    else if (nested == 0)
        g_env.max_active_levels = 1;
    else if (g_env.nt_len > 1 || g_env.bind_len > 1)
        g_env.max_active_levels = g_env.nt_len > g_env.bind_len ? g_env.nt_len : g_env.bind_len;
    else
        g_env.max_active_levels = 1;
    if (g_env.max_active_levels > SUPPORTED_ACTIVE_LEVELS)
        g_env.max_active_levels = SUPPORTED_ACTIVE_LEVELS;

    const char *wp = getenv("OMP_WAIT_POLICY");
    if (wp) {
        if (!strcasecmp(skip_ws(wp), "active"))
            g_env.wait_policy = 1;
        else if (!strcasecmp(skip_ws(wp), "passive"))
            g_env.wait_policy = 0;
        else
            invalid("OMP_WAIT_POLICY");
    }
    if (g_env.wait_policy == 1)
        g_env.spin = UINT64_MAX;
    else if (g_env.wait_policy == 0)
        g_env.spin = 0;
    else
        parse_spincount();

    g_env.display_affinity = parse_bool("OMP_DISPLAY_AFFINITY", 0) == 1;
    wo_affinity_env();
    const char *de = getenv("OMP_DISPLAY_ENV");
    if (de) {
        if (!strcasecmp(skip_ws(de), "verbose"))
            g_env.display_env = g_env.display_verbose = true;
        else if (!strcasecmp(skip_ws(de), "true"))
            g_env.display_env = true;
        else if (strcasecmp(skip_ws(de), "false"))
            invalid("OMP_DISPLAY_ENV");
    }
    if (g_env.display_env)
        wo_display_env_print(g_env.display_verbose);
}

static const char *sched_name(int k)
{
    switch (k & ~WO_S_MONOTONIC) {
    case WO_S_STATIC: return "STATIC";
    case WO_S_DYNAMIC: return "DYNAMIC";
    case WO_S_GUIDED: return "GUIDED";
    default: return "AUTO";
    }
}

void wo_display_env_print(bool verbose)
{
    FILE *f = stderr;
    fprintf(f, "\nOPENMP DISPLAY ENVIRONMENT BEGIN\n");
    fprintf(f, "  _OPENMP = '201511'\n");
    fprintf(f, "  [host] RUNTIME = 'weft-omp (OpenMP threads are weft ULTs)'\n");
    fprintf(f, "  [host] OMP_DYNAMIC = '%s'\n", g_env.icv.dyn ? "TRUE" : "FALSE");
    fprintf(f, "  [host] OMP_NESTED = '%s'\n", g_env.max_active_levels > 1 ? "TRUE" : "FALSE");
    fprintf(f, "  [host] OMP_NUM_THREADS = '");
    if (g_env.nt_len)
        for (int i = 0; i < g_env.nt_len; i++)
            fprintf(f, "%s%d", i ? "," : "", g_env.nt_list[i]);
    else
        fprintf(f, "%d", g_env.icv.nthreads);
    fprintf(f, "'\n");
    fprintf(f, "  [host] OMP_SCHEDULE = '%s%s",
            (g_env.icv.run_sched & WO_S_MONOTONIC) ? "MONOTONIC:" : "",
            sched_name(g_env.icv.run_sched));
    if (g_env.icv.run_chunk > 1 || (g_env.icv.run_sched & ~WO_S_MONOTONIC) == WO_S_STATIC)
        fprintf(f, ",%ld", g_env.icv.run_chunk);
    fprintf(f, "'\n");
    fprintf(f, "  [host] OMP_PROC_BIND = '%s'\n", bind_names[g_env.icv.bind % 5]);
    fprintf(f, "  [host] OMP_PLACES = '%s'\n", g_env.places ? g_env.places : "");
    fprintf(f, "  [host] OMP_STACKSIZE = '%zu'\n", g_env.thread_stack);
    fprintf(f, "  [host] OMP_WAIT_POLICY = '%s'\n", g_env.wait_policy == 1 ? "ACTIVE" : "PASSIVE");
    fprintf(f, "  [host] OMP_THREAD_LIMIT = '%d'\n", g_env.icv.thread_limit);
    fprintf(f, "  [host] OMP_MAX_ACTIVE_LEVELS = '%d'\n", g_env.max_active_levels);
    fprintf(f, "  [host] OMP_CANCELLATION = '%s'\n", g_env.cancel ? "TRUE" : "FALSE");
    fprintf(f, "  [host] OMP_DEFAULT_DEVICE = '%d'\n", g_env.icv.default_device);
    fprintf(f, "  [host] OMP_MAX_TASK_PRIORITY = '%d'\n", g_env.max_task_priority);
    uintptr_t da = g_env.icv.def_alloc;
    if (da >= 1 && da <= sizeof(alloc_names) / sizeof(alloc_names[0]))
        fprintf(f, "  [host] OMP_ALLOCATOR = '%s'\n", alloc_names[da - 1]);
    if (verbose) {
        if (g_env.spin == UINT64_MAX)
            fprintf(f, "  [host] GOMP_SPINCOUNT = 'INFINITY'\n");
        else
            fprintf(f, "  [host] GOMP_SPINCOUNT = '%llu'\n", (unsigned long long)g_env.spin);
        fprintf(f, "  [host] WEFT_STREAMS = '%d'\n",
                g_env.nt_len && g_env.nt_list[0] < g_env.num_procs ? g_env.nt_list[0]
                                                                   : g_env.num_procs);
    }
    fprintf(f, "OPENMP DISPLAY ENVIRONMENT END\n");
}
