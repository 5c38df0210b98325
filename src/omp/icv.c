/* src/omp/icv.c - the omp_* routines of gcc 12's omp.h for the host: team and thread
 * queries, ICV setters and getters, places, devices (the host is the only device),
 * timing.  Queries read the caller's wo_thr (team.c: per ULT, not per OS thread);
 * setters change the ICVs of the current task, as the specification says. */
#define _GNU_SOURCE
#include <limits.h>
#include <sched.h>
#include <time.h>

#include "omp/rt.h"

WO_API void omp_set_num_threads(int n)
{
    struct wo_icv *icv = &wo_self()->task->icv;
    icv->nthreads = n > 0 ? n : 1;
    icv->nt_pos = -1;
}
WO_API int omp_get_num_threads(void)
{
    wo_thr *me = wo_self();
    return me->team ? (int)me->team->nthreads : 1;
}
WO_API int omp_get_thread_num(void) { return (int)wo_self()->tid; }
WO_API int omp_get_max_threads(void)
{
    const struct wo_icv *icv = &wo_self()->task->icv;
    int n = icv->nthreads > 0 ? icv->nthreads : 1;
    return n > icv->thread_limit ? icv->thread_limit : n;
}
WO_API int omp_get_num_procs(void) { return g_env.num_procs; }
WO_API int omp_in_parallel(void) { return wo_self()->active_level > 0; }
WO_API void omp_set_dynamic(int v) { wo_self()->task->icv.dyn = v != 0; }
WO_API int omp_get_dynamic(void) { return wo_self()->task->icv.dyn; }
WO_API void omp_set_nested(int v)
{
    if (v)
        g_env.max_active_levels = g_env.max_active_levels > 1 ? g_env.max_active_levels : 255;
    else
        g_env.max_active_levels = 1;
}
WO_API int omp_get_nested(void) { return g_env.max_active_levels > 1; }
WO_API void omp_set_schedule(int kind, int chunk)
{
    struct wo_icv *icv = &wo_self()->task->icv;
    int k = kind & ~WO_S_MONOTONIC;
    if (k < WO_S_STATIC || k > WO_S_AUTO)
        return; /* not an omp_sched_t: ignored (implementation-defined kinds: none) */
    icv->run_sched = kind;
    icv->run_chunk = chunk < 1 ? (k == WO_S_STATIC ? 0 : 1) : chunk;
}
WO_API void omp_get_schedule(int *kind, int *chunk)
{
    const struct wo_icv *icv = &wo_self()->task->icv;
    *kind = icv->run_sched;
    *chunk = (int)icv->run_chunk;
}
WO_API int omp_get_thread_limit(void) { return wo_self()->task->icv.thread_limit; }
WO_API void omp_set_max_active_levels(int n)
{
    if (n >= 0)
        g_env.max_active_levels = n > 255 ? 255 : n;
}
WO_API int omp_get_max_active_levels(void) { return g_env.max_active_levels; }
WO_API int omp_get_supported_active_levels(void) { return 255; }
WO_API int omp_get_level(void) { return (int)wo_self()->level; }
WO_API int omp_get_active_level(void) { return (int)wo_self()->active_level; }

static wo_thr *ancestor(int level)
{
    wo_thr *t = wo_self();
    if (level < 0 || (unsigned)level > t->level)
        return NULL;
    while (t && t->level > (unsigned)level)
        t = t->parent;
    return t;
}
WO_API int omp_get_ancestor_thread_num(int level)
{
    wo_thr *t = ancestor(level);
    return t ? (int)t->tid : -1;
}
WO_API int omp_get_team_size(int level)
{
    wo_thr *t = ancestor(level);
    if (!t)
        return -1;
    return t->team ? (int)t->team->nthreads : 1;
}
WO_API int omp_in_final(void) { return wo_self()->task->final; }
WO_API int omp_get_cancellation(void) { return g_env.cancel; }
WO_API int omp_get_max_task_priority(void) { return g_env.max_task_priority; }

/* ---- affinity: places are one CPU each (or what OMP_PLACES listed) ---- */
WO_API int omp_get_proc_bind(void) { return wo_self()->task->icv.bind; }
/* Places exist when the program asked for binding (OMP_PROC_BIND) or gave OMP_PLACES. */
static bool places_on(void) { return g_env.places || (g_env.bind_len > 0 && g_env.icv.bind != 0); }
WO_API int omp_get_num_places(void) { return places_on() ? g_env.nplaces : 0; }
WO_API int omp_get_place_num_procs(int place)
{
    if (place < 0 || place >= omp_get_num_places())
        return 0;
    return g_env.place_off[place + 1] - g_env.place_off[place];
}
WO_API void omp_get_place_proc_ids(int place, int *ids)
{
    if (place < 0 || place >= omp_get_num_places() || !ids)
        return;
    for (int k = g_env.place_off[place]; k < g_env.place_off[place + 1]; k++)
        ids[k - g_env.place_off[place]] = g_env.place_cpus[k];
}
/* The place the caller is bound to: its stream's CPU set lies within it; else -1. */
WO_API int omp_get_place_num(void)
{
    int n = omp_get_num_places();
    cpu_set_t set;
    if (!n || sched_getaffinity(0, sizeof(set), &set) != 0)
        return -1;
    for (int p = 0; p < n; p++) {
        int in = 0;
        for (int k = g_env.place_off[p]; k < g_env.place_off[p + 1]; k++)
            in += g_env.place_cpus[k] < CPU_SETSIZE && CPU_ISSET(g_env.place_cpus[k], &set);
        if (in == CPU_COUNT(&set))
            return p;
    }
    return -1;
}
WO_API int omp_get_partition_num_places(void) { return omp_get_num_places(); }
WO_API void omp_get_partition_place_nums(int *nums)
{
    int n = omp_get_num_places();
    for (int i = 0; i < n && nums; i++)
        nums[i] = i;
}

/* ---- devices: only the host ---- */
WO_API void omp_set_default_device(int d) { wo_self()->task->icv.default_device = d < 0 ? 0 : d; }
WO_API int omp_get_default_device(void) { return wo_self()->task->icv.default_device; }
WO_API int omp_get_num_devices(void) { return 0; }
WO_API int omp_get_num_teams(void)
{
    wo_thr *t = wo_self();
    while (t->parent) /* the league is a property of the initial thread */
        t = t->parent;
    return t->num_teams ? (int)t->num_teams : 1;
}
WO_API int omp_get_team_num(void)
{
    wo_thr *t = wo_self();
    while (t->parent)
        t = t->parent;
    return (int)t->team_num;
}
WO_API void omp_set_num_teams(int n)
{
    if (n > 0)
        g_env.nteams = n;
}
WO_API int omp_get_max_teams(void) { return g_env.nteams > 0 ? g_env.nteams : g_env.num_procs; }
WO_API void omp_set_teams_thread_limit(int n)
{
    if (n > 0)
        g_env.teams_thread_limit = n;
}
WO_API int omp_get_teams_thread_limit(void) { return g_env.teams_thread_limit; }
WO_API int omp_is_initial_device(void) { return 1; }
WO_API int omp_get_initial_device(void) { return 0; }
WO_API int omp_get_device_num(void) { return 0; }

/* ---- time ---- */
WO_API double omp_get_wtime(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
WO_API double omp_get_wtick(void)
{
    struct timespec ts;
    clock_getres(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

WO_API void omp_display_env(int verbose) { wo_display_env_print(verbose != 0); }
