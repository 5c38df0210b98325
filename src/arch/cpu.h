/* src/arch/cpu.h - small machine facts and OS primitives the core needs: CPU relax,
 * cache-line size, monotonic and wall clocks, futex wait/wake, affinity.  All inline; the
 * per-architecture choice of the relax instruction is the only #if here. */
#ifndef WEFT_ARCH_CPU_H
#define WEFT_ARCH_CPU_H

#include <errno.h>
#include <linux/futex.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "arch/compiler.h"

#define WEFT_CACHE_LINE 64

static inline void weft_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __asm__ __volatile__("pause" ::: "memory");
#elif defined(__aarch64__)
    __asm__ __volatile__("yield" ::: "memory");
#else
    __asm__ __volatile__("" ::: "memory");
#endif
}

/* Monotonic time in nanoseconds (internal deadlines). */
static inline uint64_t weft_clock_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* A cheap, monotonic tick counter for time stamps taken on hot paths (the tracer,
 * core/tool/trace.c), converted to nanoseconds later against weft_clock_ns: the TSC on x86-64
 * (invariant on the CPUs weft targets), the virtual counter on AArch64, else the
 * monotonic clock itself. */
static inline uint64_t weft_ticks(void)
{
#if defined(__x86_64__)
    uint32_t lo, hi;
    __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
    return ((uint64_t)hi << 32) | lo;
#elif defined(__aarch64__)
    uint64_t v;
    __asm__ __volatile__("mrs %0, cntvct_el0" : "=r"(v));
    return v;
#else
    return weft_clock_ns();
#endif
}

/* Wall-clock seconds, CLOCK_REALTIME, as ABT_get_wtime documents. */
static inline double weft_wtime(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1.0e-9;
}

/* Sleep while *addr == val, at most timeout_ns (0 = no limit).  Spurious returns happen:
 * callers re-check their condition.  Returns -ETIMEDOUT when the time ran out. */
static inline int weft_futex_wait(_Atomic uint32_t *addr, uint32_t val, uint64_t timeout_ns)
{
    struct timespec ts, *tp = NULL;
    if (timeout_ns) {
        ts.tv_sec = (time_t)(timeout_ns / 1000000000u);
        ts.tv_nsec = (long)(timeout_ns % 1000000000u);
        tp = &ts;
    }
    long r = syscall(SYS_futex, (void *)addr, FUTEX_WAIT_PRIVATE, val, tp, NULL, 0);
    return r == -1 ? -errno : 0;
}

static inline void weft_futex_wake(_Atomic uint32_t *addr, int n)
{
    syscall(SYS_futex, (void *)addr, FUTEX_WAKE_PRIVATE, n, NULL, NULL, 0);
}

#endif
