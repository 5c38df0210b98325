/* relic.h - Relic: extremely fine-grained tasking for one main thread and its assistant.
 *
 * The model (Los and Petushkov, "Exploring Fine-grained Task Parallelism on Simultaneous
 * Multithreading Cores"): a *main* thread submits tasks of a fraction of a microsecond to a
 * few microseconds; one *assistant* thread, created by Relic and pinned to the SMT sibling
 * of the main thread's core, runs them.  Only the main thread submits and waits; the
 * assistant runs the tasks, and so does the main thread inside relic_wait for the tasks the
 * assistant has not taken yet (rather than idle while one waits to be handed over).  The
 * queue is a ring of 128 one-cache-line slots with one producer; a hand-off moves one
 * line, and a task the waiting thread takes back moves none.  Tasks cannot submit tasks
 * (no recursion), and there is no work stealing.
 *
 * Two ways to hold a Relic:
 *   - bound to the calling OS thread: relic_init / relic_finalize / relic_submit /
 *     relic_wait / relic_wake_up_hint / relic_sleep_hint.  Each OS thread may own one.
 *     A weft execution stream is an OS thread: a ULT or tasklet running on it uses the
 *     stream's Relic (see "With weft" below).
 *   - an explicit handle: relic_create / relic_destroy / relic_submit_on / relic_wait_on /
 *     relic_wake_up_hint_on / relic_sleep_hint_on, for a program that wants several, or
 *     for a weft ULT that may move between streams.
 *
 * Order and completion.  Tasks submitted to one Relic run one at a time in submission
 * order: each starts after the previous one finished and sees what it wrote, whichever
 * thread runs it.  A task runs on the assistant, or on the main thread inside relic_wait
 * (relic_wait takes, in order, the tasks the assistant has not claimed yet, and waits for
 * the one the assistant runs); a task must not depend on the thread it runs on.  A submit
 * that finds the ring full runs the task inline, in the caller, before returning (it never
 * blocks and never drops a task; that task is not ordered with the queued ones).
 * relic_wait returns once every task submitted before it has finished; everything those
 * tasks wrote is then visible to the caller.  Inside a task, on either thread, every Relic
 * call returns RELIC_ERR_ASSISTANT (the hints do nothing).
 *
 * Waiting and sleeping.  An idle assistant spins (with `pause`) for a bounded time, then
 * sleeps on a futex until the next submit.  relic_wake_up_hint says "a parallel section is
 * coming": the assistant is woken now and spins without bound until relic_sleep_hint,
 * which lets it sleep as soon as it is idle (it still runs what is submitted later, after a
 * futex wake-up).  relic_wait spins while the tasks run, and sleeps on a futex after a
 * bounded spin.  Environment: RELIC_SPIN_US (bounded spin, default 1000 microseconds),
 * RELIC_ASSISTANT_CPU (a CPU number for every assistant, or -1: do not pin).
 *
 * Placement.  At creation the assistant is pinned to an SMT sibling of the CPU the main
 * thread runs on (/sys/devices/system/cpu/cpuN/topology/thread_siblings_list) that the
 * process may use and no other assistant holds; without one, to the nearest other allowed
 * CPU of the same package, preferring CPUs no assistant holds; with a single allowed CPU it
 * is not pinned and both sides sleep instead of spinning.  The main thread is not pinned:
 * that is the application's choice (pin it if it may move).
 *
 * With weft.  Coarse work scheduled by weft can be split into fine tasks by Relic inside
 * it: call relic_init on a stream (from a ULT or tasklet on it, or before the stream runs
 * work), then relic_submit / relic_wait from units on that stream.  The thread-bound API
 * belongs to the OS thread, so a batch (the submits before one relic_wait) must be waited
 * by the unit that opened it, on the same stream: a ULT that yields or blocks between
 * relic_submit and relic_wait may resume on another stream.  relic_wait from a unit other
 * than the one that opened the pending batch returns RELIC_ERR_THREAD.  A ULT that must
 * yield inside a batch, or that may migrate, creates an explicit handle instead: a handle
 * created by a weft unit belongs to that unit wherever it runs (the producer side follows
 * it; weft's hand-off between streams orders its memory), and its assistant stays where it
 * was pinned.
 *
 * Errors.  Functions return RELIC_SUCCESS (0) or one of the RELIC_ERR_* codes below; the
 * hints return nothing and ignore misuse.  relic_strerror names a code. */
#ifndef RELIC_H_INCLUDED
#define RELIC_H_INCLUDED

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define RELIC_API __attribute__((visibility("default")))
#else
#define RELIC_API
#endif

#define RELIC_VERSION "1.0.0"

/* The number of tasks the ring holds; a submit beyond it runs the task inline. */
#define RELIC_RING_SIZE 128

#define RELIC_SUCCESS       0
#define RELIC_ERR_NOT_INIT  1 /* the calling thread has no Relic (relic_init not called) */
#define RELIC_ERR_ALREADY   2 /* relic_init on a thread that already has one */
#define RELIC_ERR_ASSISTANT 3 /* called from inside a task (assistant or waiting thread) */
#define RELIC_ERR_THREAD    4 /* the caller does not own the Relic or the pending batch */
#define RELIC_ERR_INVALID   5 /* a NULL task function or handle */
#define RELIC_ERR_MEM       6 /* out of memory */
#define RELIC_ERR_SYS       7 /* the assistant thread could not be created */

/* A Relic: one ring and one assistant thread. */
typedef struct relic *relic_t;

/* ---- bound to the calling thread -------------------------------------------------- */

/*
 * relic_init - give the calling thread a Relic and start its assistant.
 *
 * Contexts: any thread that is not an assistant.  Errors: RELIC_ERR_ALREADY (this thread
 * has one), RELIC_ERR_ASSISTANT, RELIC_ERR_MEM, RELIC_ERR_SYS.
 */
int relic_init(void) RELIC_API;

/*
 * relic_finalize - wait for the pending tasks, stop the assistant and free the Relic of the
 * calling thread.  The thread may call relic_init again afterwards.
 *
 * Contexts: the thread that called relic_init.  Errors: RELIC_ERR_NOT_INIT,
 * RELIC_ERR_ASSISTANT, RELIC_ERR_THREAD (a batch opened by another weft unit is pending).
 * Undefined: a thread that exits without relic_finalize leaks its assistant.
 */
int relic_finalize(void) RELIC_API;

/*
 * relic_submit - run fn(arg) on the assistant, after the tasks submitted before it.  On a
 * full ring fn(arg) runs here, before relic_submit returns.
 *
 * Contexts: the thread that called relic_init (any weft unit on that stream).  Errors:
 * RELIC_ERR_INVALID (fn NULL), RELIC_ERR_NOT_INIT, RELIC_ERR_ASSISTANT.  Undefined: a task
 * that calls relic_wait or relic_finalize of its own Relic.
 */
int relic_submit(void (*fn)(void *), void *arg) RELIC_API;

/*
 * relic_wait - return once every task submitted to the calling thread's Relic has finished;
 * runs here, in order, those the assistant has not claimed yet.
 *
 * Contexts: the thread that called relic_init; with weft, the unit that opened the batch.
 * Errors: RELIC_ERR_NOT_INIT, RELIC_ERR_ASSISTANT, RELIC_ERR_THREAD (the pending batch was
 * opened by another weft unit).  Undefined: a weft ULT that moved to another stream with a
 * Relic of its own between relic_submit and relic_wait (it waits for that stream's tasks).
 */
int relic_wait(void) RELIC_API;

/* relic_wake_up_hint - a parallel section follows: wake the assistant, keep it spinning. */
void relic_wake_up_hint(void) RELIC_API;

/* relic_sleep_hint - the parallel section is over: the assistant may sleep once idle. */
void relic_sleep_hint(void) RELIC_API;

/* relic_self - the calling thread's Relic (for the *_on functions), NULL without one. */
relic_t relic_self(void) RELIC_API;

/* ---- explicit handles ------------------------------------------------------------- */

/*
 * relic_create - a new Relic owned by the caller: the calling weft unit (ULT or tasklet)
 * if the caller is one, else the calling OS thread.  Its assistant is placed from the CPU
 * the caller runs on now.
 *
 * Errors: RELIC_ERR_INVALID (out NULL), RELIC_ERR_ASSISTANT, RELIC_ERR_MEM, RELIC_ERR_SYS;
 * *out is NULL on error.
 */
int relic_create(relic_t *out) RELIC_API;

/*
 * relic_destroy - wait for the pending tasks, stop the assistant, free the Relic.
 *
 * Contexts: the owner.  Errors: RELIC_ERR_INVALID (r NULL, or the Relic of relic_init:
 * use relic_finalize), RELIC_ERR_THREAD (not the owner), RELIC_ERR_ASSISTANT.
 */
int relic_destroy(relic_t r) RELIC_API;

/* relic_submit_on / relic_wait_on - relic_submit and relic_wait on a handle.  Contexts:
 * the owner.  Errors: RELIC_ERR_INVALID (r or fn NULL), RELIC_ERR_THREAD (not the owner, or
 * a pending batch of the thread-bound Relic opened by another unit), RELIC_ERR_ASSISTANT. */
int relic_submit_on(relic_t r, void (*fn)(void *), void *arg) RELIC_API;
int relic_wait_on(relic_t r) RELIC_API;

/* The hints on a handle.  Contexts: the owner (other callers are ignored). */
void relic_wake_up_hint_on(relic_t r) RELIC_API;
void relic_sleep_hint_on(relic_t r) RELIC_API;

/* relic_assistant_cpu - the CPU the assistant is pinned to, -1 if it is not pinned. */
int relic_assistant_cpu(relic_t r) RELIC_API;

/* relic_strerror - the name of a RELIC_* code ("RELIC_ERR_THREAD"), "unknown" otherwise. */
const char *relic_strerror(int err) RELIC_API;

#ifdef __cplusplus
}
#endif

#endif
