/* src/mpi/init.c - the life of libweft-mpi: MPI_Init / MPI_Init_thread / MPI_Finalize /
 * MPI_Query_thread, the thread level it works at, its lock and its environment.
 *
 * The level asked of MPI is the program's own, but FUNNELED becomes SERIALIZED (ULTs of
 * several streams may then call MPI one at a time; Open MPI 4.1 takes the same internal
 * locks at both levels, MPICH none at either) and WEFT_MPI_THREAD_LEVEL may set a floor.
 * MPI_Init is PMPI_Init itself (MPI's own default level) unless that floor is set.  The
 * program sees MPI's answer, never more than it asked when the layer asked more
 * (wm_g.reported: `provided`, MPI_Query_thread).
 *
 * The lock (layer.h).  With MULTIPLE there is none.  Below it the lock is off while only
 * the owner - the thread that initialised MPI - calls MPI through the layer: its calls
 * from outside a stream go straight to MPI, those from its stream (its ULTs, its polls)
 * only count themselves in wm_g.owner_inside.  The first call from any other thread
 * (wm_lock_on) switches the lock on for good: it sets WM_LK_ON, makes every thread of the
 * process execute a full memory barrier (membarrier(2) PRIVATE_EXPEDITED, registered at
 * start; without it the owner's count is a seq_cst RMW instead), then waits for the count
 * to drop to 0.  The owner re-reads the mode after raising its count, so either it sees
 * ON and takes the mutex, or the newcomer sees its count and waits: never both in MPI.
 * The owner's blocking calls from outside a stream are not counted (the newcomer would
 * wait for a receive its own send may be the answer to): they are the program's own
 * calls under its own level's rules.
 *
 * MPI initialised without passing through here (PMPI_Init called by a library, the layer
 * linked after MPI) is noticed at the first interposed call (wm_route_slow), which starts
 * the layer at the level MPI reports, with the caller as the owner. */
#define _GNU_SOURCE
#include <linux/membarrier.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "mpi/layer.h"

/* WM_DISABLED: the layer could not start (no poll hook slot): everything passes through. */
#define WM_DISABLED 3

struct wm_global wm_g = {
    .phase = WM_OFF,
    .nap_min_ns = 20000,
    .nap_max_ns = 100000,
    .spin_ns = 200000,
    .poll_gap_ns = 50000,
    .direct_send = 1024,
    .lock = PTHREAD_MUTEX_INITIALIZER,
};
__thread char wm_mark;

__attribute__((noinline)) const void *wm_self_mark_reload(void)
{
    __asm__ volatile("" ::: "memory"); /* not a const function: read at every call */
    return &wm_mark;
}
static pthread_mutex_t start_lock = PTHREAD_MUTEX_INITIALIZER;

static bool env_on(const char *name)
{
    const char *b = getenv(name);
    return b && *b && strcmp(b, "0") != 0;
}

/* WEFT_MPI_THREAD_LEVEL=single|funneled|serialized|multiple: the least level the layer asks
 * MPI for (a program calling MPI_Init whose ULTs of several streams call MPI sets it to
 * serialized); unset: no floor. */
static int level_floor(void)
{
    static const struct {
        const char *name;
        int level;
    } names[] = { { "single", MPI_THREAD_SINGLE },
                  { "funneled", MPI_THREAD_FUNNELED },
                  { "serialized", MPI_THREAD_SERIALIZED },
                  { "multiple", MPI_THREAD_MULTIPLE } };
    const char *e = getenv("WEFT_MPI_THREAD_LEVEL");
    if (!e || !*e)
        return MPI_THREAD_SINGLE;
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (strcmp(e, names[i].name) == 0)
            return names[i].level;
    fprintf(stderr,
            "weft-mpi: WEFT_MPI_THREAD_LEVEL=\"%s\" ignored (want single, funneled, "
            "serialized or multiple)\n",
            e);
    return MPI_THREAD_SINGLE;
}

/* The level the layer asks MPI for when the program asks `required`. */
static int level_to_ask(int required)
{
    if (env_on("WEFT_MPI_BYPASS") || required < MPI_THREAD_SINGLE || required > MPI_THREAD_MULTIPLE)
        return required; /* MPI reports a bad level itself */
    int ask = required == MPI_THREAD_FUNNELED ? MPI_THREAD_SERIALIZED : required;
    int floor = level_floor();
    return ask < floor ? floor : ask;
}

/* WEFT_MPI_NAP_US="min,max" (microseconds, 1..100000, min <= max); bad values keep the
 * defaults with a warning. */
static void read_spin(void)
{
    const char *e = getenv("WEFT_MPI_SPIN_US");
    if (!e || !*e)
        return;
    char *end;
    unsigned long v = strtoul(e, &end, 10);
    if (*end || v > 1000000) {
        fprintf(stderr, "weft-mpi: WEFT_MPI_SPIN_US=\"%s\" ignored (want 0..1000000)\n", e);
        return;
    }
    wm_g.spin_ns = v * 1000u;
}

/* WEFT_MPI_POLL_GAP_US: the least time between two between-units polls (progress.c);
 * 0: a poll after every unit. */
static void read_gap(void)
{
    const char *e = getenv("WEFT_MPI_POLL_GAP_US");
    if (!e || !*e)
        return;
    char *end;
    unsigned long v = strtoul(e, &end, 10);
    if (*end || v > 1000000) {
        fprintf(stderr, "weft-mpi: WEFT_MPI_POLL_GAP_US=\"%s\" ignored (want 0..1000000)\n", e);
        return;
    }
    wm_g.poll_gap_ns = v * 1000u;
}

static void read_direct(void)
{
    const char *e = getenv("WEFT_MPI_DIRECT_SEND");
    if (!e || !*e)
        return;
    char *end;
    long v = strtol(e, &end, 10);
    if (*end || v < 0 || v > (1L << 20)) {
        fprintf(stderr, "weft-mpi: WEFT_MPI_DIRECT_SEND=\"%s\" ignored (want 0..1048576)\n", e);
        return;
    }
    wm_g.direct_send = v;
}

static void read_nap(void)
{
    const char *e = getenv("WEFT_MPI_NAP_US");
    if (!e || !*e)
        return;
    unsigned a = 0, b = 0;
    if (sscanf(e, "%u,%u", &a, &b) != 2 || a < 1 || b < a || b > 100000) {
        fprintf(stderr,
                "weft-mpi: WEFT_MPI_NAP_US=\"%s\" ignored (want min,max in us, "
                "1 <= min <= max <= 100000)\n",
                e);
        return;
    }
    wm_g.nap_min_ns = a * 1000u;
    wm_g.nap_max_ns = b * 1000u;
}

/* Start the layer (the lock off, the caller its owner); `reported` is the level the
 * program sees. */
static void start(int provided, int reported)
{
    pthread_mutex_lock(&start_lock);
    if (atomic_load_explicit(&wm_g.phase, memory_order_relaxed) == WM_OFF) {
        wm_g.bypass = env_on("WEFT_MPI_BYPASS");
        wm_g.level = provided;
        wm_g.reported = reported;
        wm_g.raised = reported != provided;
        wm_g.owner = wm_self_mark();
        int lm = WM_LK_NONE;
        if (!wm_g.bypass && provided < MPI_THREAD_MULTIPLE) {
            lm = WM_LK_OWNER;
            wm_g.owner_fence =
                syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) != 0;
        }
        read_nap();
        read_spin();
        read_gap();
        read_direct();
        int phase = WM_ACTIVE;
        if (!wm_g.bypass && !wm_progress_start()) {
            fprintf(stderr, "weft-mpi: no free poll hook in weft: MPI calls from ULTs will "
                            "block their stream\n");
            phase = WM_DISABLED;
            lm = WM_LK_NONE; /* everything passes through */
        }
        atomic_store_explicit(&wm_g.lockmode, lm, memory_order_relaxed);
        atomic_store_explicit(&wm_g.direct, lm == WM_LK_NONE ? WM_DIRECT_ALL : wm_g.owner,
                              memory_order_relaxed);
        atomic_store_explicit(&wm_g.phase, phase, memory_order_release);
    }
    pthread_mutex_unlock(&start_lock);
}

void wm_start(int provided) { start(provided, provided); }

void wm_lock_on(void)
{
    pthread_mutex_lock(&wm_g.lock);
    if (atomic_load_explicit(&wm_g.lockmode, memory_order_relaxed) == WM_LK_OWNER) {
        atomic_store_explicit(&wm_g.direct, NULL, memory_order_relaxed);
        atomic_store_explicit(&wm_g.lockmode, WM_LK_ON, memory_order_seq_cst);
        if (!wm_g.owner_fence &&
            syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) != 0 &&
            syscall(SYS_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0) != 0)
            fprintf(stderr, "weft-mpi: membarrier failed: the MPI lock may go on while the "
                            "first thread is in MPI\n");
        /* the owner's PMPI call in progress, if any, ends; its next call takes the mutex,
         * which is held here until then */
        while (atomic_load_explicit(&wm_g.owner_inside, memory_order_acquire) != 0)
            sched_yield();
        if (wm_g.level < MPI_THREAD_SERIALIZED)
            fprintf(stderr,
                    "weft-mpi: MPI runs at MPI_THREAD_%s but a second thread calls it (a ULT "
                    "of another stream?): the layer serialises the calls, which this level does "
                    "not allow; ask MPI_THREAD_FUNNELED or more, or set "
                    "WEFT_MPI_THREAD_LEVEL=serialized\n",
                    wm_g.level == MPI_THREAD_SINGLE ? "SINGLE" : "FUNNELED");
    }
    pthread_mutex_unlock(&wm_g.lock);
}

enum wm_route wm_route_slow(void)
{
    int ph = atomic_load_explicit(&wm_g.phase, memory_order_acquire);
    if (ph == WM_OFF) {
        int init = 0, fin = 0;
        if (PMPI_Initialized(&init) != MPI_SUCCESS || !init ||
            PMPI_Finalized(&fin) != MPI_SUCCESS || fin)
            return WM_DIRECT; /* MPI reports the misuse itself */
        int provided = MPI_THREAD_SINGLE;
        if (PMPI_Query_thread(&provided) != MPI_SUCCESS)
            return WM_DIRECT;
        wm_start(provided);
        ph = atomic_load_explicit(&wm_g.phase, memory_order_acquire);
    }
    return ph == WM_ACTIVE ? wm_route() : WM_DIRECT;
}

enum wm_route wm_route_other(void)
{
    ABT_unit_type t;
    int e = ABT_self_get_type(&t);
    if (e == ABT_SUCCESS && t == ABT_UNIT_TYPE_THREAD)
        return WM_ULT;
    int m = atomic_load_explicit(&wm_g.lockmode, memory_order_relaxed);
    if (m == WM_LK_NONE)
        return WM_DIRECT;
    if (m == WM_LK_OWNER) {
        if (wm_g.owner != wm_self_mark())
            wm_lock_on(); /* a second thread */
        else if (!weft_face_self_on_stream())
            return WM_DIRECT; /* the owner outside a stream: MPI's own call (see above) */
        else
            return WM_SPIN; /* a tasklet or scheduler of the owner's stream: counted tests */
    }
    return e == ABT_ERR_UNINITIALIZED ? WM_LOCKED : WM_SPIN;
}

/* The level the program sees for `required` when the layer asked `ask` and MPI gave
 * `got`: MPI's answer, but no more than the program asked if the layer asked more. */
static int level_reported(int required, int ask, int got)
{
    return ask != required && got > required ? required : got;
}

int MPI_Init(int *argc, char ***argv)
{
    int ask = level_to_ask(MPI_THREAD_SINGLE);
    int rc, got = MPI_THREAD_SINGLE;
    if (ask == MPI_THREAD_SINGLE) { /* MPI's own MPI_Init, its own default level */
        rc = PMPI_Init(argc, argv);
        if (rc == MPI_SUCCESS && PMPI_Query_thread(&got) != MPI_SUCCESS)
            got = MPI_THREAD_SINGLE;
        if (rc == MPI_SUCCESS)
            start(got, got);
    } else {
        rc = PMPI_Init_thread(argc, argv, ask, &got);
        if (rc == MPI_SUCCESS)
            start(got, level_reported(MPI_THREAD_SINGLE, ask, got));
    }
    return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    int ask = level_to_ask(required);
    int got = MPI_THREAD_SINGLE;
    int rc = PMPI_Init_thread(argc, argv, ask, &got);
    int reported = level_reported(required, ask, got);
    if (provided)
        *provided = reported;
    if (rc == MPI_SUCCESS)
        start(got, reported);
    return rc;
}

int MPI_Query_thread(int *provided)
{
    int rc = PMPI_Query_thread(provided);
    if (rc == MPI_SUCCESS && provided &&
        atomic_load_explicit(&wm_g.phase, memory_order_acquire) != WM_OFF && wm_g.raised)
        *provided = wm_g.reported;
    return rc;
}

int MPI_Finalize(void)
{
    /* From here no poll calls MPI (a correct program has no request left to wait for). */
    atomic_store_explicit(&wm_g.phase, WM_FINALIZED, memory_order_release);
    return PMPI_Finalize();
}

static __thread bool user_holds; /* this thread took the lock through weft_mpi_lock */

void weft_mpi_lock(void)
{
    if (atomic_load_explicit(&wm_g.phase, memory_order_acquire) != WM_ACTIVE)
        return;
    int m = atomic_load_explicit(&wm_g.lockmode, memory_order_relaxed);
    if (m == WM_LK_NONE)
        return;
    if (m == WM_LK_OWNER && wm_g.owner != wm_self_mark())
        wm_lock_on(); /* the program calls MPI from a second thread */
    /* the owner takes the mutex even while the lock is off: a second thread's wm_lock_on
     * then waits for the program's call in it */
    pthread_mutex_lock(&wm_g.lock);
    user_holds = true;
}

void weft_mpi_unlock(void)
{
    if (user_holds) {
        user_holds = false;
        pthread_mutex_unlock(&wm_g.lock);
    }
}

int weft_mpi_mode(void)
{
    if (atomic_load_explicit(&wm_g.phase, memory_order_acquire) != WM_ACTIVE || wm_g.bypass)
        return 0;
    return atomic_load_explicit(&wm_g.lockmode, memory_order_relaxed) == WM_LK_ON ? 2 : 1;
}
