/* src/omp/task.c - explicit tasks: GOMP_task, taskwait (+ depend), taskyield,
 * taskgroup, dependences.
 *
 * Where tasks run.  A deferred task goes to the queue of the thread that made it (or,
 * released by its last predecessor, of the thread that completed that one).  A thread
 * pushes and pops its own queue at the head (LIFO, so a recursive program expands
 * depth-first and its queue stays short); a thread with nothing of its own steals the
 * oldest task of another thread's queue, so the tasks of one producer spread over the
 * team's streams.  Team threads run queued tasks on their own ULT's stack, as plain
 * calls, when they wait: in a barrier (any task), in taskwait (children of the waiting
 * task), at the end of a taskgroup (tasks of the group).  So a task that never blocks
 * costs no stack and no context switch (a task record on the heap, its data copied per
 * gcc's cpyfn/arg_size/arg_align); a task that blocks (a lock, a nested wait) blocks the
 * OpenMP thread's ULT, whose stream runs other ULTs meanwhile, and a task that waits for
 * its children runs them (or others' work) in that wait.  Tasks are tied to the thread
 * that starts them (an untied task is run as tied: allowed).  A task generated outside
 * any team, or in a team of one, or inside a final task, runs at once in the
 * encountering thread (included), which also satisfies every dependence (its siblings
 * all completed); so does an undeferred task without dependences (if(0), or throttled:
 * TASK_THROTTLE tasks already in the creator's queue).  Such a task lives on the
 * encountering thread's stack, no copy of its data unless gcc gave a copy function
 * (GOMP_task's short path: no copy function, no dependences), and waits for its
 * deferred children before it returns (they reference it).
 *
 * Lifetime.  refs = 1 while unfinished + 1 per unfinished child (children reference
 * their parent to count down `children`) + 1 per entry of the parent's dependence table
 * that names it.  The last unref frees it.  Implicit tasks live in wo_thr and are never
 * freed; their dependence tables are freed when the region ends.
 *
 * Dependences.  The parent's table maps an address to its last writer (out, inout,
 * mutexinoutset - the latter ordered like inout) and the readers (in) since.  A new
 * task depends on the last writer (in), or on the readers since, else the last writer
 * (out).  npred starts at 1 (a guard held while the dependences are registered);
 * add_pred links the new task into a predecessor's successor list under the
 * predecessor's lock unless it has finished.  A finishing task takes its successor list
 * under its lock and decrements each successor's npred; the one that reaches 0 queues
 * it.  Only the parent's thread touches the table (children are created by their
 * parent), so the table itself needs no lock. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "omp/rt.h"

enum {
    F_UNTIED = 1 << 0,
    F_FINAL = 1 << 1,
    F_MERGEABLE = 1 << 2,
    F_DEPEND = 1 << 3,
    F_PRIORITY = 1 << 4,
    F_UP = 1 << 8,
    F_GRAINSIZE = 1 << 9,
    F_IF = 1 << 10,
    F_NOGROUP = 1 << 11,
    F_REDUCTION = 1 << 12,
    F_DETACH = 1 << 13,
};
enum { DEP_IN = 1, DEP_OUT = 2, DEP_INOUT = 3, DEP_MUTEXINOUTSET = 4 };

struct dep_entry {
    struct dep_entry *next;
    void *addr;
    wo_task *last_out;
    wo_task **readers;
    int nreaders, cap;
};

struct wo_deps {
    struct dep_entry **b;
    size_t nb, n;
};

static void oom(const char *what)
{
    fprintf(stderr, "libweft-omp: out of memory (%s)\n", what);
    abort();
}

/* ---- task memory: blocks recycled per thread ----
 * A task is often made by one thread and freed by another (glibc's malloc would then
 * contend on an arena lock).  A block of TASK_BLOCK bytes belongs to the thread that
 * allocated it (home): whoever frees it pushes it onto home's blk_remote stack (one CAS;
 * the stack is only ever emptied whole, by home's exchange, so no ABA); home allocates
 * from its own list, refilled from blk_remote when empty, keeping BLOCKS_KEPT blocks at
 * most and freeing the rest. */

#define BLOCKS_KEPT 4096

/* A thread with this many tasks queued runs the next one at once (undeferred): the
 * queues and the memory of a task-producing loop stay bounded, and a task run at once
 * costs a call, not a queue round trip.  Per queue; with 2 threads the team's total
 * matches libgomp's 64 x threads (its count is team-wide). */
#define TASK_THROTTLE 64

static void *block_get(wo_thr *me)
{
    void *b = me->blk_local;
    if (!b) {
        b = weft_atomic_exchange_acquire(&me->blk_remote, NULL);
        void *p = b;
        for (unsigned n = 1; p && n < BLOCKS_KEPT; n++)
            p = *(void **)p;
        if (p) { /* more than BLOCKS_KEPT: free the tail */
            void *rest = *(void **)p;
            *(void **)p = NULL;
            while (rest) {
                void *nx = *(void **)rest;
                free(rest);
                rest = nx;
            }
        }
    }
    if (b) {
        me->blk_local = *(void **)b;
        return b;
    }
    return malloc(TASK_BLOCK);
}

static void block_put(wo_thr *home, void *b)
{
    void *old = weft_atomic_load_relaxed(&home->blk_remote);
    do
        *(void **)b = old;
    while (!weft_atomic_cas_weak_release(&home->blk_remote, &old, b));
}

static wo_task *task_alloc(wo_thr *me, size_t size)
{
    if (me->team && size <= TASK_BLOCK) {
        wo_task *t = block_get(me);
        if (t) {
            t->pooled = true;
            t->home = me;
        }
        return t;
    }
    wo_task *t = malloc(size);
    if (t) {
        t->pooled = false;
        t->home = NULL;
    }
    return t;
}

static void task_release(wo_task *t)
{
    if (t->pooled)
        block_put(t->home, t);
    else
        free(t);
}

void wo_task_blocks_free(wo_team *team)
{
    for (unsigned i = 0; i < 2 * team->cap; i++) {
        wo_thr *th = i < team->cap ? &team->thr[i] : team->dock[i - team->cap].sthr;
        if (!th)
            continue;
        void *b = th->blk_local;
        th->blk_local = NULL;
        for (int pass = 0; pass < 2; pass++) {
            while (b) {
                void *n = *(void **)b;
                free(b);
                b = n;
            }
            b = weft_atomic_exchange_acquire(&th->blk_remote, NULL);
        }
    }
}

static void task_unref(wo_task *t)
{
    if (t->implicit)
        return;
    if (weft_atomic_fetch_sub_acq_rel(&t->refs, 1) == 1) {
        free(t->succ);
        task_release(t);
    }
}

static void task_ref(wo_task *t)
{
    if (!t->implicit)
        weft_atomic_fetch_add_relaxed(&t->refs, 1);
}

void wo_task_free_deps(wo_task *t)
{
    struct wo_deps *d = t->deps;
    if (!d)
        return;
    t->deps = NULL;
    for (size_t i = 0; i < d->nb; i++) {
        for (struct dep_entry *e = d->b[i]; e;) {
            struct dep_entry *n = e->next;
            if (e->last_out)
                task_unref(e->last_out);
            for (int k = 0; k < e->nreaders; k++)
                task_unref(e->readers[k]);
            free(e->readers);
            free(e);
            e = n;
        }
    }
    free(d->b);
    free(d);
}

static size_t hash_addr(void *a, size_t nb)
{
    uintptr_t h = (uintptr_t)a;
    h ^= h >> 4;
    h *= 0x9e3779b97f4a7c15ull;
    return (size_t)(h >> 20) & (nb - 1);
}

static struct dep_entry *dep_lookup(wo_task *parent, void *addr)
{
    struct wo_deps *d = parent->deps;
    if (!d) {
        d = calloc(1, sizeof(*d));
        if (!d)
            oom("dependence table");
        d->nb = 64;
        d->b = calloc(d->nb, sizeof(*d->b));
        if (!d->b)
            oom("dependence table");
        parent->deps = d;
    }
    size_t h = hash_addr(addr, d->nb);
    for (struct dep_entry *e = d->b[h]; e; e = e->next)
        if (e->addr == addr)
            return e;
    if (d->n >= 2 * d->nb) { /* grow */
        size_t nb = d->nb * 4;
        struct dep_entry **b = calloc(nb, sizeof(*b));
        if (!b)
            oom("dependence table");
        for (size_t i = 0; i < d->nb; i++) {
            for (struct dep_entry *e = d->b[i]; e;) {
                struct dep_entry *n = e->next;
                size_t k = hash_addr(e->addr, nb);
                e->next = b[k];
                b[k] = e;
                e = n;
            }
        }
        free(d->b);
        d->b = b;
        d->nb = nb;
        h = hash_addr(addr, nb);
    }
    struct dep_entry *e = calloc(1, sizeof(*e));
    if (!e)
        oom("dependence entry");
    e->addr = addr;
    e->next = d->b[h];
    d->b[h] = e;
    d->n++;
    return e;
}

/* t waits for p unless p has finished. */
static void add_pred(wo_task *p, wo_task *t)
{
    if (p == t)
        return;
    weft_spin_lock(&p->lock);
    if (!p->finished) {
        if (p->nsucc == p->succ_cap) {
            int cap = p->succ_cap ? p->succ_cap * 2 : 4;
            wo_task **s = realloc(p->succ, (size_t)cap * sizeof(*s));
            if (!s) {
                weft_spin_unlock(&p->lock);
                oom("successor list");
            }
            p->succ = s;
            p->succ_cap = cap;
        }
        p->succ[p->nsucc++] = t;
        weft_atomic_fetch_add_relaxed(&t->npred, 1);
    }
    weft_spin_unlock(&p->lock);
}

static void dep_add(wo_task *parent, wo_task *t, void *addr, int type)
{
    struct dep_entry *e = dep_lookup(parent, addr);
    if (type == DEP_IN) {
        if (e->last_out)
            add_pred(e->last_out, t);
        if (e->nreaders == e->cap) {
            int cap = e->cap ? e->cap * 2 : 4;
            wo_task **r = realloc(e->readers, (size_t)cap * sizeof(*r));
            if (!r)
                oom("dependence readers");
            e->readers = r;
            e->cap = cap;
        }
        task_ref(t);
        e->readers[e->nreaders++] = t;
        return;
    }
    if (e->nreaders) {
        for (int k = 0; k < e->nreaders; k++) {
            add_pred(e->readers[k], t);
            task_unref(e->readers[k]);
        }
        e->nreaders = 0;
    } else if (e->last_out) {
        add_pred(e->last_out, t);
    }
    if (e->last_out)
        task_unref(e->last_out);
    task_ref(t);
    e->last_out = t;
}

static void deps_register(wo_task *parent, wo_task *t, void **depend)
{
    size_t ndeps, nout, nmutex = 0, nin, base;
    if (depend[0]) { /* OpenMP 4.5 layout: count, out count, addresses (out first) */
        ndeps = (size_t)(uintptr_t)depend[0];
        nout = (size_t)(uintptr_t)depend[1];
        nin = ndeps - nout;
        base = 2;
    } else { /* 5.0 layout: 0, count, out, mutexinoutset, in, addresses, depobjs */
        ndeps = (size_t)(uintptr_t)depend[1];
        nout = (size_t)(uintptr_t)depend[2];
        nmutex = (size_t)(uintptr_t)depend[3];
        nin = (size_t)(uintptr_t)depend[4];
        base = 5;
    }
    for (size_t i = 0; i < ndeps; i++) {
        void *addr = depend[base + i];
        int type;
        if (i < nout)
            type = DEP_OUT;
        else if (i < nout + nmutex)
            type = DEP_MUTEXINOUTSET;
        else if (i < nout + nmutex + nin)
            type = DEP_IN;
        else { /* a depobj: {address, kind} */
            void **obj = addr;
            addr = obj[0];
            type = (int)(uintptr_t)obj[1] == DEP_IN ? DEP_IN : DEP_OUT;
        }
        dep_add(parent, t, addr, type);
    }
}

/* ---- queues: one per thread, stolen from by the others ---- */

/* Queue t on thread q of its team (q pushes and pops there at the head). */
static void enqueue(wo_thr *q, wo_task *t)
{
    weft_spin_lock(&q->q_lock);
    t->prev = NULL;
    t->next = q->q_head;
    if (q->q_head)
        q->q_head->prev = t;
    else
        q->q_tail = t;
    q->q_head = t;
    weft_atomic_fetch_add_seq_cst(&q->q_len, 1);
    weft_spin_unlock(&q->q_lock);
    wo_team_wake_sc(q->team);
}

bool wo_tasks_queued(wo_team *t)
{
    for (unsigned i = 0; i < t->nthreads; i++)
        if (weft_atomic_load_seq_cst(&t->thr[i].q_len) > 0)
            return true;
    return false;
}

static bool task_fits(const wo_task *t, const wo_task *parent, const wo_taskgroup *group)
{
    return (!parent || t->parent == parent) && (!group || t->group == group);
}

/* Take a task from q's queue that fits the filter: from the head (q's own, the newest,
 * depth-first) or the tail (a thief: the oldest, the biggest share of a recursion).
 * Looks at 256 tasks at most. */
static wo_task *dequeue(wo_thr *q, bool own, wo_task *parent, wo_taskgroup *group)
{
    if (weft_atomic_load_relaxed(&q->q_len) == 0)
        return NULL;
    weft_spin_lock(&q->q_lock);
    wo_task *t = own ? q->q_head : q->q_tail, *found = NULL;
    for (int n = 0; t && n < 256; n++, t = own ? t->next : t->prev) {
        if (task_fits(t, parent, group)) {
            found = t;
            break;
        }
    }
    if (found) {
        if (found->prev)
            found->prev->next = found->next;
        else
            q->q_head = found->next;
        if (found->next)
            found->next->prev = found->prev;
        else
            q->q_tail = found->prev;
        weft_atomic_fetch_sub_relaxed(&q->q_len, 1);
    }
    weft_spin_unlock(&q->q_lock);
    return found;
}

static void task_finish(wo_task *t, wo_thr *by);

static void task_run(wo_thr *me, wo_task *t)
{
    wo_task *prev = me->task;
    wo_team *team = me->team;
    t->thr = me;
    me->task = t;
    bool skip = (team && (weft_atomic_load_acquire(&team->cancelled) & 1)) ||
                (t->group && weft_atomic_load_acquire(&t->group->cancelled));
    if (!skip && t->fn)
        t->fn(t->data);
    me->task = prev;
    /* without a detach event, pending is 1 and only this thread counts it down */
    if (!t->linked || weft_atomic_fetch_sub_acq_rel(&t->pending, 1) == 1)
        task_finish(t, me);
}

/* An unfiltered steal (a thread in a barrier) takes half of q's queue at once, from the
 * tail, up to STEAL_MAX: the oldest is returned, the others go to the thief's own queue.
 * One round trip on the victim's lock per batch instead of per task, so a lone producer
 * and its consumers stop sharing that line for every task. */
#define STEAL_MAX 32

static wo_task *steal_half(wo_thr *me, wo_thr *q)
{
    if (weft_atomic_load_relaxed(&q->q_len) == 0)
        return NULL;
    weft_spin_lock(&q->q_lock);
    long len = weft_atomic_load_relaxed(&q->q_len);
    long k = (len + 1) / 2;
    if (k > STEAL_MAX)
        k = STEAL_MAX;
    wo_task *last = q->q_tail, *first = last; /* the batch: first .. last, oldest last */
    for (long i = 1; i < k && first; i++)
        first = first->prev;
    if (!first) { /* shorter than q_len said: cannot be (both change under q_lock) */
        weft_spin_unlock(&q->q_lock);
        return NULL;
    }
    q->q_tail = first->prev;
    if (first->prev)
        first->prev->next = NULL;
    else
        q->q_head = NULL;
    weft_atomic_fetch_sub_relaxed(&q->q_len, k);
    weft_spin_unlock(&q->q_lock);
    /* run the oldest (last) now; queue first .. last->prev on our own queue */
    if (first != last) {
        wo_task *rest_tail = last->prev;
        first->prev = NULL;
        rest_tail->next = NULL;
        weft_spin_lock(&me->q_lock);
        rest_tail->next = me->q_head;
        if (me->q_head)
            me->q_head->prev = rest_tail;
        else
            me->q_tail = rest_tail;
        me->q_head = first;
        weft_atomic_fetch_add_seq_cst(&me->q_len, k - 1);
        weft_spin_unlock(&me->q_lock);
    }
    last->prev = last->next = NULL;
    return last;
}

bool wo_task_run_one(wo_thr *me, wo_task *parent, wo_taskgroup *group)
{
    wo_team *team = me->team;
    if (!team)
        return false;
    wo_task *t = dequeue(me, true, parent, group);
    if (!t) {
        unsigned n = team->nthreads;
        bool any = !parent && !group;
        for (unsigned k = 1; k < n && !t; k++) {
            wo_thr *q = &team->thr[(me->tid + k) % n];
            t = any ? steal_half(me, q) : dequeue(q, false, parent, group);
        }
    }
    if (!t)
        return false;
    task_run(me, t);
    return true;
}

/* The task is complete (body done, and its detach event fulfilled): any thread; `by`
 * is the team's thread that completed it (its queue gets the successors), or NULL. */
static void task_finish(wo_task *t, wo_thr *by)
{
    wo_team *team = t->team;
    wo_task_free_deps(t);
    wo_task **succ = NULL;
    int nsucc = 0;
    if (t->linked) { /* a task without dependences is nobody's predecessor */
        weft_spin_lock(&t->lock);
        t->finished = true;
        succ = t->succ;
        nsucc = t->nsucc;
        t->succ = NULL;
        t->nsucc = t->succ_cap = 0;
        weft_spin_unlock(&t->lock);
    } else {
        t->finished = true;
    }
    wo_thr *q = by && by->team == team ? by : team ? &team->thr[0] : NULL;
    for (int i = 0; i < nsucc; i++)
        if (weft_atomic_fetch_sub_acq_rel(&succ[i]->npred, 1) == 1)
            enqueue(q, succ[i]);
    free(succ);
    /* The parent (an implicit task, or an undeferred one on its thread's stack, which
     * returns once `children` reads 0) and the group (freed by taskgroup_end once `count`
     * reads 0) are not touched after their counter's decrement: only a heap parent,
     * which our reference keeps alive, is unreferenced afterwards. */
    bool wake = false;
    wo_task *p = t->parent;
    bool p_heap = !p->implicit;
    if (weft_atomic_fetch_sub_acq_rel(&p->children, 1) == 1)
        wake = true;
    if (t->group && weft_atomic_fetch_sub_acq_rel(&t->group->count, 1) == 1)
        wake = true;
    if (p_heap)
        task_unref(p);
    task_unref(t);
    if (team) {
        if (weft_atomic_fetch_sub_acq_rel(&team->ntasks, 1) == 1)
            wake = true;
        if (wake)
            wo_team_wake(team);
    }
}

static wo_taskgroup *cur_group(wo_task *k) { return k->tg_open ? k->tg_open : k->group; }

static bool children_done(void *a)
{
    wo_task *t = a;
    return weft_atomic_load_acquire(&t->children) == 0;
}

static bool task_complete(void *a)
{
    wo_task *t = a;
    weft_spin_lock(&t->lock);
    bool f = t->finished;
    weft_spin_unlock(&t->lock);
    return f;
}

static bool preds_done(void *a)
{
    wo_task *t = a;
    return weft_atomic_load_acquire(&t->npred) == 1;
}

void wo_task_create(wo_thr *me, void (*fn)(void *), void *data, void (*cpyfn)(void *, void *),
                    long arg_size, long arg_align, bool if_clause, unsigned flags, void **depend,
                    int priority, void *range, size_t range_size, void *detach)
{
    (void)priority; /* a hint; max-task-priority-var is 0 unless set, and order is free */
    wo_task *parent = me->task;
    wo_team *team = me->team;
    /* a detachable task outside a team of several threads runs undeferred */
    bool included = (!team || team->nthreads == 1 || parent->final) && !(flags & F_DETACH);
    if ((flags & F_DETACH) && (!team || team->nthreads == 1))
        if_clause = false;
    /* Throttle: with many tasks already queued, run this one now, in this thread (it is
     * undeferred; without dependences nothing holds it), as libgomp does.  Keeps the
     * queue and the memory of a task-producing loop bounded. */
    bool deps = depend && (flags & F_DEPEND);
    if (!included && !deps && weft_atomic_load_relaxed(&me->q_len) > TASK_THROTTLE)
        if_clause = false;
    if (included || (!if_clause && !deps && !(flags & F_DETACH))) {
        /* run now, in this thread, on this stack: included (every sibling before it has
         * completed), or undeferred without dependences */
        char *buf = NULL;
        void *arg = data;
        if (cpyfn || range) {
            if (arg_align < 1)
                arg_align = 1;
            buf = malloc((size_t)arg_size + (size_t)arg_align);
            if (!buf)
                oom("task data");
            arg =
                (void *)(((uintptr_t)buf + (uintptr_t)arg_align - 1) & ~((uintptr_t)arg_align - 1));
            if (cpyfn)
                cpyfn(arg, data);
            else
                memcpy(arg, data, (size_t)arg_size);
            if (range)
                memcpy(arg, range, range_size);
        }
        wo_task tk;
        memset(&tk, 0, sizeof(tk));
        tk.implicit = true; /* on this stack: never freed */
        tk.parent = parent;
        tk.group = cur_group(parent);
        tk.icv = parent->icv;
        tk.thr = me;
        tk.team = team;
        tk.final = (flags & F_FINAL) || parent->final;
        me->task = &tk;
        fn(arg);
        /* its deferred children reference it: it stays until they have finished */
        if (!children_done(&tk))
            wo_wait(me, children_done, &tk, true, &tk, NULL);
        me->task = parent;
        wo_task_free_deps(&tk);
        free(buf);
        return;
    }
    if (arg_align < 1)
        arg_align = 1;
    size_t off = (sizeof(wo_task) + (size_t)arg_align - 1) & ~((size_t)arg_align - 1);
    wo_task *t = task_alloc(me, off + (size_t)arg_size);
    if (!t)
        oom("task");
    bool pooled = t->pooled;
    wo_thr *home = t->home;
    memset(t, 0, sizeof(*t));
    t->pooled = pooled;
    t->home = home;
    t->fn = fn;
    t->data = (char *)t + off;
    if (cpyfn)
        cpyfn(t->data, data);
    else if (arg_size)
        memcpy(t->data, data, (size_t)arg_size);
    if (range)
        memcpy(t->data, range, range_size);
    t->parent = parent;
    t->group = cur_group(parent);
    t->final = (flags & F_FINAL) != 0;
    t->icv = parent->icv;
    t->refs = 1;
    t->npred = 1;
    t->team = team;
    t->pending = 1;
    if ((flags & F_DETACH) && detach) {
        t->pending = 2;
        t->linked = true;
        *(uintptr_t *)detach = (uintptr_t)t;
    }
    task_ref(parent);
    weft_atomic_fetch_add_relaxed(&parent->children, 1);
    if (t->group)
        weft_atomic_fetch_add_relaxed(&t->group->count, 1);
    weft_atomic_fetch_add_relaxed(&team->ntasks, 1);
    if (deps) {
        t->linked = true;
        deps_register(parent, t, depend);
    }
    if (!if_clause) {
        /* undeferred: wait for the predecessors here, then run it in this thread */
        if (!preds_done(t))
            wo_wait(me, preds_done, t, true, NULL, NULL);
        weft_atomic_store_relaxed(&t->npred, 0);
        bool detached = (flags & F_DETACH) && detach;
        if (detached) /* it completes when its event is fulfilled: keep it meanwhile */
            task_ref(t);
        task_run(me, t);
        if (detached) {
            if (!task_complete(t))
                wo_wait(me, task_complete, t, true, NULL, NULL);
            task_unref(t);
        }
        return;
    }
    if (!deps) { /* no predecessor: nobody else counts npred */
        weft_atomic_store_relaxed(&t->npred, 0);
        enqueue(me, t);
    } else if (weft_atomic_fetch_sub_acq_rel(&t->npred, 1) == 1) {
        enqueue(me, t);
    }
}

/* The common undeferred case, kept short: no copy function (gcc's data block is used in
 * place, as the task runs before GOMP_task returns), no dependences, no detach; the task
 * is included (no team of several, a final parent), if(0), or throttled.  Its record
 * lives on this stack with only the fields a task's constructs read set. */
static inline __attribute__((always_inline)) bool
task_fast(wo_thr *me, void (*fn)(void *), void *data, bool if_clause, unsigned flags)
{
    wo_task *parent = me->task;
    wo_team *team = me->team;
    if (if_clause && team && team->nthreads > 1 && !parent->final &&
        weft_atomic_load_relaxed(&me->q_len) <= TASK_THROTTLE)
        return false;
    /* Only what a running task's constructs read: an included task is never queued, run
     * through task_run, finished by task_finish, referenced (implicit), nor anyone's
     * predecessor (it has no dependences), so its links, body, counters other than
     * children, lock and successor list stay unset. */
    wo_task tk;
    tk.parent = parent;
    tk.group = cur_group(parent);
    tk.tg_open = NULL;
    tk.thr = me;
    tk.team = team;
    weft_atomic_store_relaxed(&tk.children, 0);
    tk.implicit = true; /* on this stack: never freed */
    tk.final = (flags & F_FINAL) || parent->final;
    tk.deps = NULL;
    tk.icv = parent->icv;
    me->task = &tk;
    fn(data);
    /* its deferred children reference it: it stays until they have finished */
    if (WEFT_UNLIKELY(!children_done(&tk)))
        wo_wait(me, children_done, &tk, true, &tk, NULL);
    me->task = parent;
    if (WEFT_UNLIKELY(tk.deps != NULL))
        wo_task_free_deps(&tk);
    return true;
}

WO_API void GOMP_task(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *), long arg_size,
                      long arg_align, bool if_clause, unsigned flags, void **depend, int priority,
                      void *detach)
{
    wo_thr *me = wo_self();
    if (!cpyfn && !(flags & (F_DEPEND | F_DETACH)) && task_fast(me, fn, data, if_clause, flags))
        return;
    wo_task_create(me, fn, data, cpyfn, arg_size, arg_align, if_clause, flags, depend, priority,
                   NULL, 0, detach);
}

WO_API void GOMP_taskwait(void)
{
    wo_thr *me = wo_self();
    wo_task *t = me->task;
    if (children_done(t))
        return;
    wo_wait(me, children_done, t, true, t, NULL);
}

static void nothing(void *a) { (void)a; }

WO_API void GOMP_taskwait_depend(void **depend)
{
    /* an empty undeferred task with these dependences: it starts once they are met */
    wo_task_create(wo_self(), nothing, NULL, NULL, 0, 1, false, F_DEPEND, depend, 0, NULL, 0, NULL);
}

WO_API void GOMP_taskyield(void)
{
    /* A tied task stays on its thread; let the ULTs that share this stream run. */
    wo_yield();
}

WO_API void GOMP_taskgroup_start(void)
{
    wo_thr *me = wo_self();
    wo_taskgroup *g = calloc(1, sizeof(*g));
    if (!g)
        oom("taskgroup");
    g->prev = me->task->tg_open;
    me->task->tg_open = g;
}

static bool group_done(void *a)
{
    wo_taskgroup *g = a;
    return weft_atomic_load_acquire(&g->count) == 0;
}

WO_API void GOMP_taskgroup_end(void)
{
    wo_thr *me = wo_self();
    wo_task *t = me->task;
    wo_taskgroup *g = t->tg_open;
    if (!g)
        return;
    if (!group_done(g))
        wo_wait(me, group_done, g, true, NULL, g);
    t->tg_open = g->prev;
    free(g);
}

/* The event of a detached task: the task completes once its body has returned too. */
WO_API void omp_fulfill_event(uintptr_t event)
{
    wo_task *t = (wo_task *)event;
    if (!t)
        return;
    wo_team *team = t->team;
    if (weft_atomic_fetch_sub_acq_rel(&t->pending, 1) == 1)
        task_finish(t, NULL);
    else if (team)
        wo_team_wake(team);
}
