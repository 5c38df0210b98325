/* src/omp/affinity.c - affinity display (omp_display_affinity, omp_capture_affinity,
 * OMP_AFFINITY_FORMAT, OMP_DISPLAY_AFFINITY) and omp_pause_resource.
 *
 * An OpenMP thread is a ULT: its native thread and its CPU set are those of the stream
 * that runs it now (a ULT never changes stream once started: team.c). */
#define _GNU_SOURCE
#include <ctype.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "omp/rt.h"

static char *format; /* NULL: the default */
static const char default_format[] = "level %L thread %i affinity %A";

static const char *cur_format(void) { return format ? format : default_format; }

WO_API void omp_set_affinity_format(const char *f)
{
    char *n = f ? strdup(f) : NULL;
    if (f && !n)
        return;
    free(format);
    format = n;
}

WO_API size_t omp_get_affinity_format(char *buf, size_t size)
{
    const char *f = cur_format();
    size_t len = strlen(f);
    if (buf && size) {
        size_t n = len < size - 1 ? len : size - 1;
        memcpy(buf, f, n);
        buf[n] = '\0';
    }
    return len;
}

struct out {
    char *buf;
    size_t size, len;
};

static void put(struct out *o, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++, o->len++)
        if (o->buf && o->len + 1 < o->size)
            o->buf[o->len] = s[i];
}

static void cpus(char *s, size_t n)
{
    cpu_set_t set;
    s[0] = '\0';
    if (sched_getaffinity(0, sizeof(set), &set) != 0)
        return;
    size_t len = 0;
    for (int c = 0; c < CPU_SETSIZE; c++) {
        if (!CPU_ISSET(c, &set))
            continue;
        int e = c;
        while (e + 1 < CPU_SETSIZE && CPU_ISSET(e + 1, &set))
            e++;
        int w = e > c ? snprintf(s + len, n - len, "%s%d-%d", len ? "," : "", c, e)
                      : snprintf(s + len, n - len, "%s%d", len ? "," : "", c);
        if (w < 0 || (size_t)w >= n - len)
            break;
        len += (size_t)w;
        c = e;
    }
}

static size_t render(char *buf, size_t size, const char *f)
{
    wo_thr *me = wo_self();
    wo_thr *root = me;
    while (root->parent)
        root = root->parent;
    struct out o = { buf, size, 0 };
    static const struct {
        char c;
        const char *name;
    } fields[] = { { 't', "team_num" },       { 'T', "num_teams" },   { 'L', "nesting_level" },
                   { 'n', "thread_num" },     { 'N', "num_threads" }, { 'a', "ancestor_tnum" },
                   { 'H', "host" },           { 'P', "process_id" },  { 'i', "native_thread_id" },
                   { 'A', "thread_affinity" } };
    for (const char *p = f; *p;) {
        if (*p != '%') {
            put(&o, p++, 1);
            continue;
        }
        p++;
        if (*p == '%') {
            put(&o, p++, 1);
            continue;
        }
        char pad = 0;
        if (*p == '0' || *p == '.')
            pad = *p++;
        int width = 0;
        while (isdigit((unsigned char)*p))
            width = width * 10 + (*p++ - '0');
        char c = 0;
        if (*p == '{') {
            const char *e = strchr(p, '}');
            if (!e)
                break;
            for (size_t k = 0; k < sizeof(fields) / sizeof(fields[0]); k++)
                if (strlen(fields[k].name) == (size_t)(e - p - 1) &&
                    !strncmp(p + 1, fields[k].name, (size_t)(e - p - 1)))
                    c = fields[k].c;
            p = e + 1;
        } else if (*p) {
            c = *p++;
        }
        char v[256];
        switch (c) {
        case 't': snprintf(v, sizeof(v), "%u", root->team_num); break;
        case 'T': snprintf(v, sizeof(v), "%u", root->num_teams ? root->num_teams : 1); break;
        case 'L': snprintf(v, sizeof(v), "%u", me->level); break;
        case 'n': snprintf(v, sizeof(v), "%u", me->tid); break;
        case 'N': snprintf(v, sizeof(v), "%u", me->team ? me->team->nthreads : 1); break;
        case 'a': snprintf(v, sizeof(v), "%d", me->parent ? (int)me->parent->tid : -1); break;
        case 'H':
            if (gethostname(v, sizeof(v)) != 0)
                strcpy(v, "?");
            v[sizeof(v) - 1] = '\0';
            break;
        case 'P': snprintf(v, sizeof(v), "%d", (int)getpid()); break;
        case 'i': snprintf(v, sizeof(v), "%d", (int)gettid()); break;
        case 'A': cpus(v, sizeof(v)); break;
        default: snprintf(v, sizeof(v), "<unknown %c>", c ? c : '?'); break;
        }
        size_t len = strlen(v);
        if ((int)len < width) {
            char tmp[512];
            int w = pad ? snprintf(tmp, sizeof(tmp), "%*s", width, v)
                        : snprintf(tmp, sizeof(tmp), "%-*s", width, v);
            if (pad == '0') /* right-justified with leading zeros */
                for (int k = 0; k < width - (int)len && k < (int)sizeof(tmp); k++)
                    tmp[k] = '0';
            put(&o, tmp, (size_t)(w > 0 ? w : 0));
        } else {
            put(&o, v, len);
        }
    }
    if (buf && size)
        buf[o.len < size ? o.len : size - 1] = '\0';
    return o.len;
}

WO_API size_t omp_capture_affinity(char *buf, size_t size, const char *f)
{
    return render(buf, size, f && *f ? f : cur_format());
}

WO_API void omp_display_affinity(const char *f)
{
    char line[1024];
    render(line, sizeof(line), f && *f ? f : cur_format());
    fprintf(stderr, "%s\n", line);
}

/* OMP_DISPLAY_AFFINITY=true: each thread of a region shows itself when it starts. */
void wo_affinity_auto(void)
{
    if (g_env.display_affinity)
        omp_display_affinity(NULL);
}

void wo_affinity_env(void)
{
    const char *f = getenv("OMP_AFFINITY_FORMAT");
    if (f)
        omp_set_affinity_format(f);
}

/* Pause: give back what idle teams hold (the caller's cached teams).  The streams stay:
 * idle, they sleep and cost no CPU. */
WO_API int omp_pause_resource(int kind, int device)
{
    if ((kind != 1 && kind != 2) || (device != 0 && device != -1))
        return -1;
    wo_thr *me = wo_self();
    if (me->active_level > 0)
        return -1; /* not inside an active parallel region */
    wo_team_free(me->child);
    me->child = NULL;
    return 0;
}

WO_API int omp_pause_resource_all(int kind) { return omp_pause_resource(kind, 0); }
