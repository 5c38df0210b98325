/* src/omp/device.c - the host as the only device: the teams construct, target regions
 * (host fallback), target data directives, and the error directive.
 *
 * Teams.  GOMP_teams_reg runs a league of num_teams initial threads: team 0 on the
 * encountering ULT, the others as ULTs spread over the streams (they may not
 * synchronize with each other, so any interleaving is right), each with its own initial
 * wo_thr (team_num, num_teams; thread-limit-var from the clause).  Inside a target
 * region gcc instead loops on GOMP_teams4, which runs the teams one after the other on
 * the calling thread.
 *
 * Target.  There is no offload device: GOMP_target_ext runs the region's function on
 * the host (the initial device) as a new initial thread, with the host addresses; a
 * firstprivate aggregate gets a private copy first, as on a device.  Data directives
 * have nothing to move. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "omp/rt.h"

struct league {
    void (*fn)(void *);
    void *data;
    wo_thr *ident; /* the member ULT's identity cell */
    wo_thr thr;
};

static void league_member(void *arg)
{
    struct league *l = arg;
    l->ident = &l->thr;
    ABT_self_set_specific(wo_key, &l->ident);
    l->fn(l->data);
    wo_task_free_deps(&l->thr.itask);
    ABT_self_set_specific(wo_key, NULL);
    wo_id_changed(); /* this unit ends: no cache may keep its cell */
}

static unsigned default_teams(void)
{
    return g_env.nteams > 0 ? (unsigned)g_env.nteams : (unsigned)g_env.num_procs;
}

WO_API void GOMP_teams_reg(void (*fn)(void *), void *data, unsigned num_teams,
                           unsigned thread_limit, unsigned flags)
{
    wo_rt_init();
    wo_thr *me = wo_self();
    if (num_teams == 0)
        num_teams = default_teams();
    if (thread_limit == 0 && g_env.teams_thread_limit > 0)
        thread_limit = (unsigned)g_env.teams_thread_limit;
    struct league *l = calloc(num_teams, sizeof(*l));
    if (!l) {
        fprintf(stderr, "libweft-omp: out of memory for a league of %u teams\n", num_teams);
        abort();
    }
    int rank = 0;
    if (wo_npools > 1 && ABT_self_get_xstream_rank(&rank) != ABT_SUCCESS)
        rank = 0;
    struct wo_icv icv = me->task->icv;
    if (thread_limit)
        icv.thread_limit = (int)thread_limit;
    for (unsigned i = 0; i < num_teams; i++) {
        l[i].fn = fn;
        l[i].data = data;
        wo_thr_init(&l[i].thr, NULL, 0, NULL, &icv);
        l[i].thr.team_num = i;
        l[i].thr.num_teams = num_teams;
    }
    for (unsigned i = 1; i < num_teams; i++) {
        ABT_pool pool = wo_pools[((unsigned)rank + i) % (unsigned)wo_npools];
        int err = ABT_thread_create(pool, league_member, &l[i], wo_thread_attr, &l[i].thr.ult);
        if (err != ABT_SUCCESS) {
            fprintf(stderr, "libweft-omp: cannot create team %u (weft error %d)\n", i, err);
            abort();
        }
    }
    wo_set_self(&l[0].thr);
    fn(data);
    wo_task_free_deps(&l[0].thr.itask);
    wo_set_self(me);
    struct wo_tls_swap *s = wo_off_cpu();
    for (unsigned i = 1; i < num_teams; i++)
        ABT_thread_free(&l[i].thr.ult);
    wo_on_cpu(s);
    for (unsigned i = 0; i < num_teams; i++) {
        wo_team_free(l[i].thr.child);
        wo_thr_drop_lone(&l[i].thr);
    }
    free(l);
}

/* Inside a (host) target region: run the teams in turn on this thread. */
WO_API bool GOMP_teams4(unsigned num_teams_low, unsigned num_teams_high, unsigned thread_limit,
                        bool first)
{
    wo_thr *me = wo_self();
    if (first) {
        unsigned n = num_teams_high ? num_teams_high : default_teams();
        if (num_teams_low > n)
            n = num_teams_low;
        me->num_teams = n;
        me->team_num = 0;
        if (thread_limit)
            me->task->icv.thread_limit = (int)thread_limit;
        return true;
    }
    if (++me->team_num < me->num_teams)
        return true;
    me->team_num = 0;
    me->num_teams = 0;
    return false;
}

WO_API void GOMP_teams(unsigned num_teams, unsigned thread_limit)
{
    wo_thr *me = wo_self();
    me->num_teams = 1; /* one team per host target region */
    me->team_num = 0;
    if (thread_limit)
        me->task->icv.thread_limit = (int)thread_limit;
}

/* ---- target regions on the host ---- */

enum { MAP_FIRSTPRIVATE = 0x0c, MAP_FIRSTPRIVATE_INT = 0x0d };

static void run_on_host(void (*fn)(void *), size_t mapnum, void **hostaddrs, size_t *sizes,
                        unsigned short *kinds)
{
    wo_thr *me = wo_self();
    void **addrs = hostaddrs;
    char *copies = NULL;
    size_t total = 0;
    for (size_t i = 0; kinds && i < mapnum; i++)
        if ((kinds[i] & 0xff) == MAP_FIRSTPRIVATE)
            total += sizes[i] + ((size_t)1 << (kinds[i] >> 8));
    if (total) {
        addrs = malloc(mapnum * sizeof(void *));
        copies = malloc(total);
        if (!addrs || !copies) {
            fprintf(stderr, "libweft-omp: out of memory for a target region\n");
            abort();
        }
        char *p = copies;
        for (size_t i = 0; i < mapnum; i++) {
            addrs[i] = hostaddrs[i];
            if ((kinds[i] & 0xff) != MAP_FIRSTPRIVATE || !hostaddrs[i])
                continue;
            size_t align = (size_t)1 << (kinds[i] >> 8);
            p = (char *)(((uintptr_t)p + align - 1) & ~(uintptr_t)(align - 1));
            memcpy(p, hostaddrs[i], sizes[i]);
            addrs[i] = p;
            p += sizes[i];
        }
    }
    /* the region starts a new initial thread on the (host) device */
    wo_thr *init = calloc(1, sizeof(*init));
    if (!init) {
        fprintf(stderr, "libweft-omp: out of memory for a target region\n");
        abort();
    }
    wo_thr_init(init, NULL, 0, NULL, &me->task->icv);
    wo_set_self(init);
    fn(addrs);
    wo_set_self(me);
    wo_task_free_deps(&init->itask);
    wo_team_free(init->child);
    wo_thr_drop_lone(init);
    free(init);
    if (addrs != hostaddrs)
        free(addrs);
    free(copies);
}

WO_API void GOMP_target_ext(int device, void (*fn)(void *), size_t mapnum, void **hostaddrs,
                            size_t *sizes, unsigned short *kinds, unsigned int flags, void **depend,
                            void **args)
{
    if (depend)
        GOMP_taskwait_depend(depend);
    run_on_host(fn, mapnum, hostaddrs, sizes, kinds);
}

WO_API void GOMP_target(int device, void (*fn)(void *), const void *unused, size_t mapnum,
                        void **hostaddrs, size_t *sizes, unsigned char *kinds)
{
    run_on_host(fn, mapnum, hostaddrs, sizes, NULL);
}

/* Data directives: the data is already where the region runs. */
WO_API void GOMP_target_data(int device, const void *unused, size_t mapnum, void **hostaddrs,
                             size_t *sizes, unsigned char *kinds)
{
}
WO_API void GOMP_target_data_ext(int device, size_t mapnum, void **hostaddrs, size_t *sizes,
                                 unsigned short *kinds)
{
}
WO_API void GOMP_target_end_data(void) {}
WO_API void GOMP_target_update(int device, const void *unused, size_t mapnum, void **hostaddrs,
                               size_t *sizes, unsigned char *kinds)
{
}
WO_API void GOMP_target_update_ext(int device, size_t mapnum, void **hostaddrs, size_t *sizes,
                                   unsigned short *kinds, unsigned int flags, void **depend)
{
    if (depend)
        GOMP_taskwait_depend(depend);
}
WO_API void GOMP_target_enter_exit_data(int device, size_t mapnum, void **hostaddrs, size_t *sizes,
                                        unsigned short *kinds, unsigned int flags, void **depend)
{
    if (depend)
        GOMP_taskwait_depend(depend);
}

/* ---- the error directive at execution time ---- */

WO_API void GOMP_warning(const char *msg, size_t len)
{
    if (msg)
        fprintf(stderr, "libweft-omp: error directive encountered: %.*s\n", (int)len, msg);
    else
        fprintf(stderr, "libweft-omp: error directive encountered\n");
}

WO_API void GOMP_error(const char *msg, size_t len)
{
    if (msg)
        fprintf(stderr, "libweft-omp: fatal error: error directive encountered: %.*s\n", (int)len,
                msg);
    else
        fprintf(stderr, "libweft-omp: fatal error: error directive encountered\n");
    exit(EXIT_FAILURE);
}
