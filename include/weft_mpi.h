/**
 * @file weft_mpi.h
 * @brief MPI that weft ULTs can block in: libweft-mpi (pkg-config weft-mpi).
 *
 * libweft-mpi is a PMPI interposition layer.  Link it before MPI's own library
 * (`pkg-config --cflags --libs weft-mpi` does), or preload it
 * (`LD_PRELOAD=libweft-mpi.so`), and the blocking MPI calls a weft ULT makes
 * (MPI_Send, MPI_Recv, MPI_Sendrecv, MPI_Wait, MPI_Waitall, MPI_Waitany, MPI_Probe,
 * MPI_Barrier, MPI_Bcast, MPI_Reduce, MPI_Allreduce, MPI_Alltoall, MPI_Gather(v),
 * MPI_Scatter(v), MPI_Allgather(v)) no longer block the ULT's execution stream: each
 * is started in its nonblocking form (PMPI_Isend, PMPI_Ibarrier, ...), the ULT parks,
 * the stream runs other ULTs, and the scheduler loop of the stream polls all the
 * requests its ULTs wait for with one PMPI_Testsome and wakes the ULTs whose requests
 * completed.  A stream with only waiting ULTs keeps polling for a short while after its
 * last completion (200 microseconds), then sleeps in short bounded naps (20 to 100
 * microseconds) instead of spinning.  MPI_Waitany and MPI_Probe are polled one waiter
 * at a time (PMPI_Testany, PMPI_Iprobe) in the same poll.
 *
 * Schedulers.  The polls run in the scheduler loop's event check: the predefined
 * schedulers make it; a user-defined scheduler must call ABT_xstream_check_events (or
 * ABT_sched_has_to_stop) regularly, as Argobots asks of it anyway, or its ULTs waiting in
 * MPI are never woken.
 *
 * Who is parked.  Only a ULT.  A call from an external thread, a tasklet, a scheduler,
 * or made before ABT_init or after ABT_finalize, goes straight to PMPI (see the
 * thread levels below for the one exception).
 *
 * Thread levels.  The layer keeps the program's level: MPI_Init is MPI's own, and
 * MPI_Init_thread asks MPI for the level the program asks, except that FUNNELED is asked
 * as SERIALIZED (so that ULTs of several streams may call MPI one at a time; Open MPI
 * and MPICH do the same work at both levels).  `provided` and MPI_Query_thread answer
 * what MPI gives, never more than the program asked.  With MPI_THREAD_MULTIPLE the layer
 * calls PMPI from every stream without a lock.  Below it, the layer takes no lock either
 * while only the thread that initialised MPI calls MPI (its ULTs on its own stream
 * included): a program whose ULTs never call MPI, or call it from one stream, pays a
 * test and a jump per call.  The first MPI call from any other thread (a ULT of a second
 * stream, another OS thread) switches the layer's lock on for good, once the first thread
 * is out of the MPI call it may be making; from then on the layer serialises the MPI
 * calls it makes itself with that lock: the interposed calls above, the polls, and the
 * nonblocking calls a program typically makes between them (MPI_Isend, MPI_Issend,
 * MPI_Irecv, MPI_Iprobe, MPI_Test, MPI_Testall, MPI_Testany, MPI_Testsome).  Other MPI
 * calls the program makes from several streams at once must take the same lock:
 * weft_mpi_lock / weft_mpi_unlock.  With the lock on, a blocking call from a thread that
 * is not a ULT, made while weft runs, is a nonblocking call plus a test loop that drops
 * the lock between tests (holding it across a blocking call would stop every stream's
 * poll).  The lock is never held while a ULT is parked.  A program initialised with
 * MPI_Init or MPI_THREAD_SINGLE whose ULTs of several streams call MPI breaks the level
 * it chose: the layer serialises the calls and says so once on stderr; such a program
 * asks FUNNELED or more, or runs with WEFT_MPI_THREAD_LEVEL=serialized.
 *
 * Errors.  Every function returns what MPI returned: an MPI error code, passed on
 * unchanged, with the communicator's error handler called by MPI as for the plain
 * call.  A blocking collective or point-to-point call from a ULT returns the error of
 * its nonblocking start, or the completion error of its request.
 *
 * Environment.  WEFT_MPI_BYPASS=1: the layer passes every call straight to PMPI (the
 * "without the layer" of a comparison, with the same binary).  WEFT_MPI_SPIN_US=n: a
 * stream with waiting ULTs does not sleep for n microseconds after its last completion
 * or park (default 200; 0: only the scheduler's own spin), so that a flowing exchange
 * costs no sleep and wake-up per message.  WEFT_MPI_NAP_US=a,b: after that, the naps,
 * from a to b microseconds (default 20,100).  WEFT_MPI_DIRECT_SEND=n: an MPI_Send of at
 * most n bytes (default 1024) from a ULT is PMPI_Send itself: MPI sends it eagerly, so it
 * returns without waiting for a receiver (it cannot hold the stream for another ULT),
 * and it costs half the instructions of PMPI_Isend plus a test; 0 turns this off.
 * WEFT_MPI_POLL_GAP_US=n: while ULTs of a stream wait in MPI, the stream polls MPI
 * between the units it runs (not only every event_freq units or when idle), at most once
 * per n microseconds (default 50; 0: after every unit), so that a transfer needing
 * several progress calls advances while the other ULTs compute.
 * WEFT_MPI_THREAD_LEVEL=single|funneled|serialized|multiple: the least level the layer
 * asks MPI for, whatever the program asks (MPI_Init included); the program still sees
 * its own level.  Unset: no floor.
 *
 * Out of memory.  A ULT that cannot be registered for the poll (its stream's table
 * cannot grow) waits by testing and yielding instead: slower, never wrong. */
#ifndef WEFT_MPI_H_INCLUDED
#define WEFT_MPI_H_INCLUDED

#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define WEFT_MPI_API __attribute__((visibility("default")))
#else
#define WEFT_MPI_API
#endif

#define WEFT_MPI_VERSION "1.0.0" /**< version of libweft-mpi */

/**
 * @brief Wait for a request; a ULT parks while it waits.
 *
 * The MPI_Wait of the layer, callable without interposition (it uses PMPI).  A ULT
 * parks until the request completes (its stream polls it with the others); any other
 * caller waits like PMPI_Wait.  *request becomes MPI_REQUEST_NULL, or stays the same
 * inactive persistent request.
 * @contexts any, after MPI_Init.
 * @retval MPI_SUCCESS
 * @retval other the MPI error of the request, as PMPI_Wait would return it.
 * @undefined waiting from two callers for one request.
 */
int weft_mpi_wait(MPI_Request *request, MPI_Status *status) WEFT_MPI_API;

/**
 * @brief Wait for every request of an array; a ULT parks while it waits.
 *
 * The MPI_Waitall of the layer.  statuses may be MPI_STATUSES_IGNORE.  When one request
 * fails, the others are still waited for, MPI_ERR_IN_STATUS is returned and each
 * status's MPI_ERROR says which failed.
 * @contexts any, after MPI_Init.
 * @retval MPI_SUCCESS
 * @retval MPI_ERR_IN_STATUS a request failed (see statuses)
 * @retval other an invalid argument, as PMPI_Waitall reports it.
 * @undefined a request in the array twice.
 */
int weft_mpi_waitall(int count, MPI_Request requests[], MPI_Status statuses[]) WEFT_MPI_API;

/**
 * @brief Wait for one request of an array; a ULT parks while it waits.
 *
 * The MPI_Waitany of the layer: *index is the index of the completed request, or
 * MPI_UNDEFINED when no request is active.  Exactly one request is completed.
 * @contexts any, after MPI_Init.
 * @retval MPI_SUCCESS
 * @retval other the MPI error of the completed request or of the arguments.
 * @undefined nothing beyond MPI_Waitany's.
 */
int weft_mpi_waitany(int count, MPI_Request requests[], int *index,
                     MPI_Status *status) WEFT_MPI_API;

/**
 * @brief Wait until a matching message can be received; a ULT parks meanwhile.
 *
 * The MPI_Probe of the layer: its stream polls PMPI_Iprobe for it.
 * @contexts any, after MPI_Init.
 * @retval MPI_SUCCESS
 * @retval other an invalid argument, as PMPI_Iprobe reports it.
 * @undefined nothing beyond MPI_Probe's.
 */
int weft_mpi_probe(int source, int tag, MPI_Comm comm, MPI_Status *status) WEFT_MPI_API;

/**
 * @brief Take the layer's MPI lock (below MPI_THREAD_MULTIPLE only).
 *
 * Below MPI_THREAD_MULTIPLE the layer serialises its own MPI calls with this lock once a
 * second thread calls MPI; a program that makes other MPI calls from several streams
 * takes it around them.  Taken from a thread other than the one that initialised MPI, it
 * switches the layer's lock on first.  With MPI_THREAD_MULTIPLE (or before MPI_Init) it
 * does nothing.  Never park a ULT (block on anything) while holding it: the streams'
 * polls need it.
 * @contexts any.
 * @return nothing.
 * @undefined taking it twice in one thread.
 */
void weft_mpi_lock(void) WEFT_MPI_API;

/**
 * @brief Release the lock of weft_mpi_lock.
 * @contexts the thread that holds it.
 * @return nothing.
 * @undefined releasing a lock the caller does not hold.
 */
void weft_mpi_unlock(void) WEFT_MPI_API;

/** Counters of the layer, summed over every stream (weft_mpi_get_stats). */
struct weft_mpi_stats {
    unsigned long long calls;     /**< blocking calls made by ULTs and handled by the layer */
    unsigned long long immediate; /**< of those, complete at the first test (no park) */
    unsigned long long parked;    /**< ULT parks (one per blocking call that waited) */
    unsigned long long polls;     /**< polls that found waiting ULTs on their stream */
    unsigned long long testsome;  /**< PMPI_Testsome calls made by polls */
    unsigned long long completed; /**< requests completed by polls */
    unsigned long long naps;      /**< idle bounds given to a stream with waiting ULTs */
    unsigned long long fallback;  /**< waits that could not register (test and yield) */
    unsigned long long direct;    /**< of the immediate ones, small MPI_Sends made by PMPI_Send */
};

/**
 * @brief Read the layer's counters.
 *
 * A snapshot: counters of other streams are read while they run.
 * @contexts any.
 * @retval MPI_SUCCESS
 * @retval MPI_ERR_ARG stats is NULL.
 * @undefined nothing.
 */
int weft_mpi_get_stats(struct weft_mpi_stats *stats) WEFT_MPI_API;

/**
 * @brief How the layer handles calls: 0 not active (MPI not initialised through it, or
 * WEFT_MPI_BYPASS), 1 ULTs park and the layer takes no lock (MPI_THREAD_MULTIPLE, or
 * below it while only the thread that initialised MPI has called MPI), 2 ULTs park and
 * the layer serialises its MPI calls with its lock (below MULTIPLE, since a second
 * thread called MPI).
 * @contexts any.
 * @return the mode.
 * @undefined nothing.
 */
int weft_mpi_mode(void) WEFT_MPI_API;

#ifdef __cplusplus
}
#endif

#endif
