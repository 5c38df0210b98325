/* src/core/stream/affinity.c - ABT_SET_AFFINITY: a recursive-descent parser for the CPU-list
 * grammar of affinity.h, and the mapping from ranks to CPU sets. */
#define _GNU_SOURCE
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/stream/affinity.h"

#define MAX_IDS (1 << 20) /* a list longer than this is taken as a typo */

/* ---------------------------------------------------------------- parser */

struct vec {
    int *v;
    int n, cap;
};

static bool vec_push(struct vec *a, int x)
{
    if (a->n == a->cap) {
        if (a->cap >= MAX_IDS)
            return false;
        int nc = a->cap ? a->cap * 2 : 16;
        int *nv = realloc(a->v, (size_t)nc * sizeof(int));
        if (!nv)
            return false;
        a->v = nv;
        a->cap = nc;
    }
    a->v[a->n++] = x;
    return true;
}

struct parser {
    const char *p;
    struct vec ids, off; /* output: the lists, flattened */
    struct vec cur;      /* the <es-id-list> being read */
};

static void skip_ws(struct parser *ps)
{
    while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')
        ps->p++;
}

static bool accept(struct parser *ps, char c)
{
    skip_ws(ps);
    if (*ps->p != c)
        return false;
    ps->p++;
    return true;
}

/* <integer>: optional sign, digits; no overflow past int */
static bool integer(struct parser *ps, long *out)
{
    skip_ws(ps);
    const char *q = ps->p;
    bool neg = false;
    if (*q == '+' || *q == '-') {
        neg = *q == '-';
        q++;
    }
    if (*q < '0' || *q > '9')
        return false;
    long v = 0;
    while (*q >= '0' && *q <= '9') {
        v = v * 10 + (*q - '0');
        if (v > INT_MAX)
            return false;
        q++;
    }
    ps->p = q;
    *out = neg ? -v : v;
    return true;
}

/* [ ":" <num> [ ":" <stride> ] ] */
static bool num_stride(struct parser *ps, long *num, long *stride)
{
    *num = 1;
    *stride = 1;
    if (!accept(ps, ':'))
        return true;
    if (!integer(ps, num) || *num <= 0 || *num > MAX_IDS)
        return false;
    if (accept(ps, ':') && !integer(ps, stride))
        return false;
    return true;
}

static bool add_id(struct vec *a, long id)
{
    return id >= INT_MIN && id <= INT_MAX && vec_push(a, (int)id);
}

/* <es-id-list> into ps->cur */
static bool es_id_list(struct parser *ps)
{
    ps->cur.n = 0;
    long id, num, stride;
    if (!accept(ps, '{')) {
        if (!integer(ps, &id))
            return false;
        return add_id(&ps->cur, id);
    }
    do {
        if (!integer(ps, &id) || !num_stride(ps, &num, &stride))
            return false;
        for (long k = 0; k < num; k++)
            if (!add_id(&ps->cur, id + stride * k))
                return false;
    } while (accept(ps, ','));
    return accept(ps, '}');
}

/* <interval>: num lists, each the current one shifted by k * stride */
static bool interval(struct parser *ps)
{
    long num, stride;
    if (!es_id_list(ps) || !num_stride(ps, &num, &stride))
        return false;
    for (long k = 0; k < num; k++) {
        for (int i = 0; i < ps->cur.n; i++)
            if (!add_id(&ps->ids, (long)ps->cur.v[i] + stride * k))
                return false;
        if (!vec_push(&ps->off, ps->ids.n))
            return false;
    }
    return true;
}

int weft_affinity_parse(const char *s, int **ids, int **off)
{
    if (!s)
        return 0;
    struct parser ps = { .p = s };
    bool ok = vec_push(&ps.off, 0);
    if (ok) {
        do
            ok = interval(&ps);
        while (ok && accept(&ps, ','));
    }
    skip_ws(&ps);
    ok = ok && *ps.p == '\0' && ps.off.n > 1;
    free(ps.cur.v);
    if (!ok) {
        free(ps.ids.v);
        free(ps.off.v);
        return 0;
    }
    if (!ps.ids.v) /* cannot happen: every list has an id */
        ps.ids.v = malloc(sizeof(int));
    *ids = ps.ids.v;
    *off = ps.off.v;
    return ps.off.n - 1;
}

/* ---------------------------------------------------------------- configuration */

/* Argobots' "false" of ABT_SET_AFFINITY: "0" is not one (it is a CPU list) */
static bool is_false(const char *v)
{
    static const char *no[] = { "n", "no", "false", "off" };
    for (size_t i = 0; i < sizeof(no) / sizeof(*no); i++)
        if (!strcasecmp(v, no[i]))
            return true;
    return false;
}

void weft_affinity_config(struct weft_config *c, const char *v)
{
    c->affinity_list = NULL;
    c->affinity_off = NULL;
    c->affinity_len = 0;
    c->affinity_init = NULL;
    c->affinity_ninit = 0;
    c->set_affinity = false;
    if (!c->affinity)
        return; /* no binding at all: ABT_SET_AFFINITY is ignored */
    /* the CPUs this process may use now: what list ids index, and the reset value */
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) == 0) {
        int n = CPU_COUNT(&set);
        c->affinity_init = n > 0 ? malloc((size_t)n * sizeof(int)) : NULL;
        for (int i = 0, k = 0; c->affinity_init && i < CPU_SETSIZE && k < n; i++)
            if (CPU_ISSET(i, &set))
                c->affinity_init[k++] = i;
        c->affinity_ninit = c->affinity_init ? n : 0;
    }
    if (v && is_false(v))
        return;
    /* unset or a list; no CPU set to index (or a malformed list) means the default lists */
    c->set_affinity = c->affinity_ninit > 0;
    if (v && c->set_affinity)
        c->affinity_len = weft_affinity_parse(v, &c->affinity_list, &c->affinity_off);
}

void weft_affinity_config_free(struct weft_config *c)
{
    free(c->affinity_list);
    free(c->affinity_off);
    free(c->affinity_init);
    c->affinity_list = NULL;
    c->affinity_off = NULL;
    c->affinity_init = NULL;
    c->affinity_len = 0;
    c->affinity_ninit = 0;
}

static int rem(long a, int b)
{
    long r = a % b;
    return (int)(r < 0 ? r + b : r);
}

bool weft_affinity_rank_set(int rank, cpu_set_t *set)
{
    const struct weft_config *c = &weft_g.cfg;
    int n = c->affinity_ninit;
    CPU_ZERO(set);
    if (n <= 0 || rank < 0)
        return false;
    if (c->affinity_len <= 0) {
        CPU_SET(c->affinity_init[rank % n], set);
        return true;
    }
    int l = rank % c->affinity_len;
    for (int i = c->affinity_off[l]; i < c->affinity_off[l + 1]; i++)
        CPU_SET(c->affinity_init[rem(c->affinity_list[i], n)], set);
    return true;
}

void weft_affinity_initial_set(cpu_set_t *set)
{
    const struct weft_config *c = &weft_g.cfg;
    CPU_ZERO(set);
    for (int i = 0; i < c->affinity_ninit; i++)
        CPU_SET(c->affinity_init[i], set);
    if (c->affinity_ninit == 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        for (long i = 0; i < n && i < CPU_SETSIZE; i++)
            CPU_SET((int)i, set);
    }
}

void weft_affinity_finalize(void)
{
    weft_xstream *xs = weft_g.primary;
    if (!xs || (!weft_g.cfg.set_affinity && xs->num_affinity == 0))
        return;
    cpu_set_t set;
    weft_affinity_initial_set(&set);
    pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}
