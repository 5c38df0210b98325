/* src/mpi/init.c - the life of libweft-mpi: MPI_Init / MPI_Init_thread / MPI_Finalize,
 * the thread level it works at, its lock and its environment.
 *
 * A program asking for less than MPI_THREAD_MULTIPLE gets at least SERIALIZED from MPI
 * (several streams may then call MPI one at a time, under wm_g.lock); with MULTIPLE the
 * layer takes no lock.  MPI initialised without passing through here (PMPI_Init called
 * by a library, the layer linked after MPI) is noticed at the first interposed call
 * (wm_route_slow), which starts the layer at the level MPI reports. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
static pthread_mutex_t start_lock = PTHREAD_MUTEX_INITIALIZER;

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

void wm_start(int provided)
{
    pthread_mutex_lock(&start_lock);
    if (atomic_load_explicit(&wm_g.phase, memory_order_relaxed) == WM_OFF) {
        const char *b = getenv("WEFT_MPI_BYPASS");
        wm_g.bypass = b && *b && strcmp(b, "0") != 0;
        wm_g.serialize = provided < MPI_THREAD_MULTIPLE;
        read_nap();
        read_spin();
        read_gap();
        read_direct();
        int phase = WM_ACTIVE;
        if (!wm_g.bypass && !wm_progress_start()) {
            fprintf(stderr, "weft-mpi: no free poll hook in weft: MPI calls from ULTs will "
                            "block their stream\n");
            phase = WM_DISABLED;
        }
        atomic_store_explicit(&wm_g.phase, phase, memory_order_release);
    }
    pthread_mutex_unlock(&start_lock);
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
    if (!wm_g.serialize)
        return WM_DIRECT;
    return e == ABT_ERR_UNINITIALIZED ? WM_LOCKED : WM_SPIN;
}

int MPI_Init(int *argc, char ***argv)
{
    int provided = MPI_THREAD_SINGLE;
    int rc = PMPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &provided);
    if (rc == MPI_SUCCESS)
        wm_start(provided);
    return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    int ask = required;
    if (ask >= MPI_THREAD_SINGLE && ask < MPI_THREAD_SERIALIZED)
        ask = MPI_THREAD_SERIALIZED; /* several streams may call MPI, one at a time */
    int got = MPI_THREAD_SINGLE;
    int rc = PMPI_Init_thread(argc, argv, ask, &got);
    if (provided)
        *provided = got;
    if (rc == MPI_SUCCESS)
        wm_start(got);
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
    if (atomic_load_explicit(&wm_g.phase, memory_order_acquire) == WM_ACTIVE && wm_g.serialize) {
        pthread_mutex_lock(&wm_g.lock);
        user_holds = true;
    }
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
    return wm_g.serialize ? 2 : 1;
}
