/* src/omp/team.c - the runtime under the OpenMP face: streams, pools, thread identity.
 *
 * Streams.  The first construct that needs threads (wo_rt_init) starts weft if nobody
 * did: ABT_init, then one pool per stream and N - 1 more streams, N = the outermost
 * OMP_NUM_THREADS value capped at the number of CPUs (one stream per core, never more
 * streams than the outermost team has threads).  Each stream runs a BASIC_WAIT scheduler
 * over its own pool: an idle stream sleeps in the kernel.  Thread i of a team made on
 * stream s goes to pool (s + i) % N, and a ULT that parks is woken into the pool it came
 * from, so an OpenMP thread's ULT never changes OS thread once started (gcc's
 * threadprivate is TLS: see docs); a share nobody started may run on a stand-in ULT of
 * another stream (parallel.c, help-first), which carries the share's TLS values.  If the program
 * started weft itself (abt.h and OpenMP mixed), teams go to the calling stream's main pool.
 *
 * Identity.  wo_key (ABT_key, no destructor) holds the calling ULT's identity cell, an
 * wo_thr * naming the OpenMP thread it is now (rt.h: a master entering or leaving a
 * team rewrites the cell; the key is set once per ULT, and the (unit, cell) pair is
 * cached per OS thread); external OS threads use the TLS variable wo_tls_cur.  A ULT
 * without a value (the primary ULT after a foreign ABT_init, a user ULT) gets an initial
 * thread of its own, made on first use and owned through own_key (destructor: free);
 * the initial thread is its own cell.  The OS thread that runs ABT_init here keeps its
 * initial thread: the primary ULT's cell is that of the OS thread's initial thread.
 *
 * The executable's TLS (gcc's threadprivate): its size is found once
 * (dl_iterate_phdr: the first object is the executable), each OS thread's block on first
 * use (dlpi_tls_data, the calling thread's block); a stand-in copies member values in and
 * out of that block (rt.h, wo_tls_swap). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* dl_iterate_phdr */
#endif
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <weft.h>

#include "omp/rt.h"

ABT_key wo_key = ABT_KEY_NULL;
static ABT_key own_key = ABT_KEY_NULL;
_Atomic int wo_rt_state; /* 0 not started, 1 starting, 2 running, 3 finalized */
__thread wo_thr *wo_tls_cur;
_Atomic uint64_t wo_id_gen;
__thread struct wo_id_cache wo_tls_id __attribute__((tls_model("initial-exec")));
static __thread wo_thr *tls_initial;

__attribute__((visibility("hidden"))) ABT_pool *wo_pools;
__attribute__((visibility("hidden"))) ABT_thread_attr wo_thread_attr = ABT_THREAD_ATTR_NULL;
__attribute__((visibility("hidden"))) int wo_npools;
static ABT_xstream *streams;
static bool own_runtime;
__attribute__((visibility("hidden"))) bool wo_join_workers; /* !own_runtime */
static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;

/* Help-first: how long a share stays unstarted before a waiting team thread runs it
 * (WEFT_OMP_HELP_NS, in ns; unset or `off`: off, and always off when the program started
 * weft: its pools are its own).  Opt-in: tests/omp/omp_parallel hangs in about 1 run of
 * 12 with it on (not understood yet, see docs/design/omp.md). */
__attribute__((visibility("hidden"))) uint64_t wo_help_ns = UINT64_MAX;

size_t wo_tls_size;
__thread struct wo_tls_swap *wo_tls_swap_cur __attribute__((tls_model("initial-exec")));
static __thread void *tls_block __attribute__((tls_model("initial-exec")));
static __thread bool tls_block_known __attribute__((tls_model("initial-exec")));

struct tls_find {
    size_t memsz, filesz;
    const void *image;
    void *data;
};

/* dl_iterate_phdr's callback: the first object is the executable; stop there. */
static int tls_find_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
    struct tls_find *f = arg;
    if (size < offsetof(struct dl_phdr_info, dlpi_tls_data) + sizeof(void *))
        return 1;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_TLS) {
            f->memsz = ph->p_memsz;
            f->filesz = ph->p_filesz;
            f->image = (const void *)(info->dlpi_addr + ph->p_vaddr);
            f->data = info->dlpi_tls_data;
        }
    }
    return 1;
}

void *wo_tls_block(void)
{
    if (!tls_block_known) {
        struct tls_find f = { 0, 0, NULL, NULL };
        dl_iterate_phdr(tls_find_cb, &f);
        tls_block = f.memsz ? f.data : NULL;
        tls_block_known = true;
    }
    return tls_block;
}

void wo_tls_in(struct wo_tls_swap *s)
{
    void *b = wo_tls_block();
    memcpy(s->save, b, wo_tls_size);
    memcpy(b, s->home, wo_tls_size);
    wo_tls_swap_cur = s;
}

void wo_tls_out(struct wo_tls_swap *s)
{
    void *b = wo_tls_block();
    memcpy(s->home, b, wo_tls_size);
    memcpy(b, s->save, wo_tls_size);
    wo_tls_swap_cur = NULL;
}

void *_Atomic *wo_stream_tls;

/* A ULT on each stream records that stream's block of the executable's TLS. */
static void tls_record(void *arg)
{
    weft_atomic_store_release(&wo_stream_tls[(intptr_t)arg], wo_tls_block());
}

static void tls_init(void)
{
    struct tls_find f = { 0, 0, NULL, NULL };
    dl_iterate_phdr(tls_find_cb, &f);
    if (f.memsz && f.data) {
        wo_tls_size = f.memsz;
    }
}

void wo_thr_init(wo_thr *t, wo_team *team, unsigned tid, wo_thr *parent, const struct wo_icv *icv)
{
    /* everything before ws and the queue: the queue stays (it is empty, and a thief of
     * the same team may be reading its length) */
    wo_team *keep = t->child;
    memset(t, 0, offsetof(wo_thr, ws));
    t->child = keep;
    t->team = team;
    t->tid = tid;
    t->parent = parent;
    t->task = &t->itask;
    t->itask.implicit = true;
    t->itask.thr = t;
    t->itask.icv = *icv;
    t->itask.refs = 1;
    weft_atomic_store_relaxed(&t->ws, team ? &team->ws_head : NULL);
}

/* Free what an initial thread holds besides itself (its orphaned construct). */
void wo_thr_drop_lone(wo_thr *t)
{
    wo_ws *w = t->lone;
    if (w) {
        free(w->mem);
        free(w->posted);
        free(w->dims);
        free(w);
        t->lone = NULL;
    }
}

/* Destructor of an initial thread made on first use (OS thread exit, ULT free). */
static void initial_free(void *p)
{
    wo_id_changed(); /* its unit ends: no cache may keep its cell */
    wo_thr_drop_lone(p);
    free(p);
}

static wo_thr *initial_new(void)
{
    wo_thr *t = calloc(1, sizeof(*t));
    if (!t) {
        fprintf(stderr, "libweft-omp: out of memory for an initial thread\n");
        abort();
    }
    wo_thr_init(t, NULL, 0, NULL, &g_env.icv);
    t->ident = t; /* the cell of the unit that owns it: it is that unit's identity */
    return t;
}

/* The initial thread of an OS thread (static storage per thread, freed at its exit). */
static pthread_key_t os_key;
static pthread_once_t os_once = PTHREAD_ONCE_INIT;
static void os_key_make(void) { pthread_key_create(&os_key, initial_free); }

static wo_thr *os_initial(void)
{
    if (!tls_initial) {
        tls_initial = initial_new();
        pthread_once(&os_once, os_key_make);
        pthread_setspecific(os_key, tls_initial);
    }
    return tls_initial;
}

/* An external thread (no unit): its initial thread, or the wo_thr it was given. */
wo_thr *wo_self_slow(void)
{
    if (!wo_tls_cur)
        wo_tls_cur = os_initial();
    return wo_tls_cur;
}

/* The cell given to the ULT that started the face under a program's own ABT_init: that
 * ULT may end without our knowing, so its (unit, cell) is never cached. */
static wo_thr **nocache_cell;

wo_thr **wo_self_lookup(void)
{
    if (weft_atomic_load_acquire(&wo_rt_state) != 2)
        return NULL;
    uint64_t gen = weft_atomic_load_acquire(&wo_id_gen);
    void *v = NULL;
    if (ABT_self_get_specific(wo_key, &v) != ABT_SUCCESS)
        return NULL; /* not a unit */
    if (!v) {
        /* a ULT with no OpenMP identity yet: a foreign ULT gets an initial thread, which
         * is also its cell (freed with the ULT, through own_key) */
        wo_thr *t = NULL;
        if (ABT_self_get_specific(own_key, (void **)&t) != ABT_SUCCESS || !t) {
            t = initial_new();
            ABT_self_set_specific(own_key, t);
        }
        v = &t->ident;
        ABT_self_set_specific(wo_key, v);
    }
    const void *u = weft_face_self_unit();
    if (u && v != (void *)nocache_cell) {
        wo_tls_id.unit = u;
        wo_tls_id.gen = gen;
        wo_tls_id.cell = v;
    }
    return v;
}

void wo_set_self(wo_thr *t)
{
    wo_thr **cell = wo_self_cell();
    if (cell)
        *cell = t;
    else
        wo_tls_cur = t;
}

static void setenv_default(const char *name, const char *value)
{
    if (!getenv(name))
        setenv(name, value, 0);
}

static void init_fail(const char *what, int err)
{
    fprintf(stderr, "libweft-omp: %s failed (weft error %d)\n", what, err);
    abort();
}

/* Threads of a team larger than the streams share them, and one may spin waiting for
 * another of its stream (a flag, an ad-hoc barrier): it must not hold the stream for good.
 * The first such team gives the pools a time slice (WEFT_OMP_PREEMPT_US, 2 ms; 0: none;
 * WEFT_PREEMPT in the environment sets weft's own for every pool instead): a thread that
 * holds its stream that long while others wait has them handed to a spare OS thread
 * (weft_pool_set_preempt, weft.h).  The pools are MPMC so that a spare may pop them. */
void wo_preempt_on(void)
{
    static _Atomic int done;
    if (weft_atomic_load_relaxed(&done) || weft_atomic_exchange_acq_rel(&done, 1))
        return;
    const char *global = getenv("WEFT_PREEMPT");
    if (global && *global)
        return;
    const char *v = getenv("WEFT_OMP_PREEMPT_US");
    unsigned long us = 2000;
    if (v && *v) {
        char *end;
        unsigned long x = strtoul(v, &end, 10);
        if (!*end && x <= WEFT_PREEMPT_MAX_US)
            us = x;
    }
    for (int i = 0; us && i < wo_npools; i++)
        weft_pool_set_preempt(wo_pools[i], (unsigned)us);
}

/* Start weft (or join the program's weft).  Idempotent; any thread. */
void wo_rt_init(void)
{
    if (weft_atomic_load_acquire(&wo_rt_state) == 2)
        return;
    pthread_mutex_lock(&init_lock);
    if (weft_atomic_load_acquire(&wo_rt_state) == 2) {
        pthread_mutex_unlock(&init_lock);
        return;
    }
    wo_thr *caller = wo_self(); /* before the switch: the OS thread's initial thread */
    own_runtime = ABT_initialized() != ABT_SUCCESS;
    wo_join_workers = !own_runtime;
    if (own_runtime) {
        /* ULT stacks: the workers' (g_env.thread_stack: OMP_STACKSIZE, else the C
         * library's thread stack; OpenMP code keeps arrays on the stack, weft's 16 KiB
         * default is for fine-grained ULTs), so that theirs are default-size stacks
         * (weft's caches).  Idle streams: passive = no spin before sleeping, active =
         * spin long. */
        char buf[32];
        snprintf(buf, sizeof(buf), "%zu", g_env.thread_stack);
        setenv_default("ABT_THREAD_STACKSIZE", buf);
        /* OMP_PROC_BIND (other than false) or OMP_PLACES binds the streams: stream r to
         * place r (an explicit OMP_PLACES list has Argobots' ABT_SET_AFFINITY syntax),
         * or to the r-th CPU for the abstract names ("yes": not a list, the default
         * lists).  weft's CPU binding is off by default (WEFT_ENABLE_AFFINITY): on. */
        bool bind = (g_env.icv.bind != 0 && g_env.bind_len > 0) || g_env.places;
        if (bind) {
            const char *pl = g_env.places;
            setenv_default("WEFT_ENABLE_AFFINITY", "1");
            setenv_default("ABT_SET_AFFINITY", pl && strchr(pl, '{') ? pl : "yes");
        }
        int n = g_env.nt_len > 0 ? g_env.nt_list[0] : g_env.num_procs;
        if (g_env.wait_policy == 0) {
            setenv_default("ABT_SCHED_SPIN_NSEC", "0");
        } else {
            /* like libgomp's threads, an idle stream stays awake a while for the next
             * region (0.3 ms by default, 0.1 s under OMP_WAIT_POLICY=active), every
             * stream of the team at once */
            setenv_default("ABT_SCHED_SPIN_NSEC", g_env.wait_policy == 1 ? "100000000" : "300000");
            snprintf(buf, sizeof(buf), "%d", n);
            setenv_default("ABT_SCHED_MAX_SPINNERS", buf);
        }
    }
    int err = ABT_init(0, NULL);
    if (err != ABT_SUCCESS)
        init_fail("ABT_init", err);
    /* Worker ULTs get the OpenMP threads' stack (g_env.thread_stack): when weft-omp
     * started weft, whatever ABT_THREAD_STACKSIZE says; when the program did, only if
     * OMP_STACKSIZE is set, else the program's default ULT stack.  There the workers are
     * joined at each region's end (wo_team_end), and a stack of another size than the
     * default is mapped and unmapped each time: five times the cost of a region of 4
     * threads (wo_thread_attr stays ABT_THREAD_ATTR_NULL: the default). */
    if (wo_thread_attr == ABT_THREAD_ATTR_NULL && (own_runtime || g_env.stacksize)) {
        if ((err = ABT_thread_attr_create(&wo_thread_attr)) != ABT_SUCCESS)
            init_fail("ABT_thread_attr_create", err);
        if ((err = ABT_thread_attr_set_stacksize(wo_thread_attr, g_env.thread_stack)) !=
            ABT_SUCCESS) {
            fprintf(stderr,
                    "libweft-omp: a stack of %zu bytes (OMP_STACKSIZE) is more than a weft "
                    "ULT can have\n",
                    g_env.thread_stack);
            abort();
        }
    }
    tls_init();
    if (own_runtime) {
        const char *h = getenv("WEFT_OMP_HELP_NS");
        wo_help_ns = !h || !*h || !strcmp(h, "off") ? UINT64_MAX : strtoull(h, NULL, 10);
    }
    if ((err = ABT_key_create(NULL, &wo_key)) != ABT_SUCCESS ||
        (err = ABT_key_create(initial_free, &own_key)) != ABT_SUCCESS)
        init_fail("ABT_key_create", err);
    if (own_runtime) {
        int n = g_env.nt_len > 0 ? g_env.nt_list[0] : g_env.num_procs;
        if (n > g_env.num_procs)
            n = g_env.num_procs;
        if (n < 1)
            n = 1;
        wo_pools = calloc((size_t)n, sizeof(ABT_pool));
        streams = calloc((size_t)n, sizeof(ABT_xstream));
        if (!wo_pools || !streams)
            init_fail("allocating the stream table", ABT_ERR_MEM);
        for (int i = 0; i < n; i++) {
            err =
                ABT_pool_create_basic(ABT_POOL_FIFO, ABT_POOL_ACCESS_MPMC, ABT_TRUE, &wo_pools[i]);
            if (err != ABT_SUCCESS)
                init_fail("ABT_pool_create_basic", err);
        }
        ABT_xstream_self(&streams[0]);
        err = ABT_xstream_set_main_sched_basic(streams[0], ABT_SCHED_BASIC, 1, &wo_pools[0]);
        if (err != ABT_SUCCESS)
            init_fail("ABT_xstream_set_main_sched_basic", err);
        for (int i = 1; i < n; i++) {
            err = ABT_xstream_create_basic(ABT_SCHED_BASIC, 1, &wo_pools[i], ABT_SCHED_CONFIG_NULL,
                                           &streams[i]);
            if (err != ABT_SUCCESS)
                init_fail("ABT_xstream_create_basic", err);
        }
        wo_npools = n;
        wo_stream_tls = calloc((size_t)n, sizeof(*wo_stream_tls));
        if (!wo_stream_tls)
            init_fail("allocating the stream table", ABT_ERR_MEM);
        if (wo_tls_size) {
            weft_atomic_store_release(&wo_stream_tls[0], wo_tls_block());
            for (int i = 1; i < n; i++)
                if ((err = ABT_thread_create(wo_pools[i], tls_record, (void *)(intptr_t)i,
                                             ABT_THREAD_ATTR_NULL, NULL)) != ABT_SUCCESS)
                    init_fail("ABT_thread_create", err);
        }
    } else {
        wo_pools = calloc(1, sizeof(ABT_pool));
        ABT_xstream xs;
        if (!wo_pools || ABT_xstream_self(&xs) != ABT_SUCCESS ||
            ABT_xstream_get_main_pools(xs, 1, wo_pools) != ABT_SUCCESS)
            init_fail("finding the calling stream's pool", ABT_ERR_INV_XSTREAM);
        wo_npools = 1;
    }
    /* The caller is now a ULT (the primary one if it started weft): it keeps its
     * OpenMP identity, in the cell of its OS thread's initial thread (which lives as long
     * as the OS thread). */
    wo_thr *base = os_initial();
    base->ident = caller;
    ABT_self_set_specific(wo_key, &base->ident);
    if (!own_runtime)
        nocache_cell = &base->ident;
    wo_id_changed();
    weft_atomic_store_release(&wo_rt_state, 2);
    pthread_mutex_unlock(&init_lock);
}

/* Free a cached team and, recursively, the teams its threads cached. */
void wo_team_free(wo_team *t)
{
    if (!t)
        return;
    wo_team_dismiss(t);
    for (unsigned i = 0; i < t->cap; i++) {
        wo_team_free(t->thr[i].child);
        if (t->dock[i].sthr)
            wo_team_free(t->dock[i].sthr->child);
    }
    wo_ws *w = t->ws_head.next;
    while (w) {
        wo_ws *n = w->next;
        free(w->posted);
        free(w->dims);
        free(w);
        w = n;
    }
    for (w = t->ws_free; w;) {
        wo_ws *n = w->next;
        free(w->posted);
        free(w->dims);
        free(w);
        w = n;
    }
    free(weft_atomic_load_relaxed(&t->ws_mem_kept));
    wo_task_blocks_free(t);
    for (unsigned i = 0; i < t->cap; i++)
        free(t->dock[i].sthr);
    free(t->dock);
    free(t);
}

/* At exit, on the thread that started weft (the primary ULT): stop the streams. */
__attribute__((destructor)) static void wo_rt_fini(void)
{
    if (weft_atomic_load_acquire(&wo_rt_state) != 2 || !own_runtime)
        return;
    ABT_bool primary = ABT_FALSE;
    if (ABT_self_on_primary_xstream(&primary) != ABT_SUCCESS || !primary)
        return;
    wo_thr *me = wo_self();
    if (me->team) /* exit() inside a parallel region: leave everything as it is */
        return;
    wo_team_free(me->child);
    me->child = NULL;
    for (int i = 1; i < wo_npools; i++) {
        ABT_xstream_join(streams[i]);
        ABT_xstream_free(&streams[i]);
    }
    weft_atomic_store_release(&wo_rt_state, 3);
    wo_id_changed();
    ABT_key_free(&wo_key);
    ABT_key_free(&own_key);
    ABT_thread_attr_free(&wo_thread_attr);
    ABT_finalize();
    free(streams);
    free(wo_pools);
    free(wo_stream_tls);
}
