/**
 * @file weft_pthread.h
 * @brief Call libweft-pthread by its own names, past any other interposer.
 *
 * libweft-pthread runs a Pthreads program's threads as weft ULTs by defining the
 * pthread_* functions ahead of glibc (LD_PRELOAD=libweft-pthread.so, or
 * `pkg-config --libs weft-pthread` at link time); see the README.  A program that also
 * runs under something else that interposes pthread_* and must come first - the
 * AddressSanitizer or ThreadSanitizer runtime - would reach the layer only through that
 * runtime's interceptors, which treat every thread as an OS thread.  Such a program
 * includes this header before any system header (or is compiled with
 * `-include weft_pthread.h`) and links with -lweft-pthread: the functions below are then
 * renamed to their weft_ aliases, which libweft-pthread exports with the same signatures
 * and behaviour.  Nothing else changes: types, constants and the other pthread_*
 * functions (attributes, ...) are glibc's.  Of the blocking calls the layer wraps, only
 * the sleep family (sleep, usleep, nanosleep, clock_nanosleep) is renamed: read, write,
 * poll, wait, ... are also the names of members and methods that a macro would rename,
 * so in such a program they are glibc's and block the caller's stream.
 */
#ifndef WEFT_PTHREAD_H_INCLUDED
#define WEFT_PTHREAD_H_INCLUDED

#define __pthread_register_cancel   weft___pthread_register_cancel
#define __pthread_unregister_cancel weft___pthread_unregister_cancel
#define __pthread_unwind_next       weft___pthread_unwind_next
#define clock_nanosleep             weft_clock_nanosleep
#define fork                        weft_fork
#define nanosleep                   weft_nanosleep
#define pthread_atfork              weft_pthread_atfork
#define pthread_barrier_destroy     weft_pthread_barrier_destroy
#define pthread_barrier_init        weft_pthread_barrier_init
#define pthread_barrier_wait        weft_pthread_barrier_wait
#define pthread_cancel              weft_pthread_cancel
#define pthread_cond_broadcast      weft_pthread_cond_broadcast
#define pthread_cond_clockwait      weft_pthread_cond_clockwait
#define pthread_cond_destroy        weft_pthread_cond_destroy
#define pthread_cond_init           weft_pthread_cond_init
#define pthread_cond_signal         weft_pthread_cond_signal
#define pthread_cond_timedwait      weft_pthread_cond_timedwait
#define pthread_cond_wait           weft_pthread_cond_wait
#define pthread_create              weft_pthread_create
#define pthread_detach              weft_pthread_detach
#define pthread_equal               weft_pthread_equal
#define pthread_exit                weft_pthread_exit
#define pthread_getaffinity_np      weft_pthread_getaffinity_np
#define pthread_getattr_np          weft_pthread_getattr_np
#define pthread_getcpuclockid       weft_pthread_getcpuclockid
#define pthread_getname_np          weft_pthread_getname_np
#define pthread_getschedparam       weft_pthread_getschedparam
#define pthread_getspecific         weft_pthread_getspecific
#define pthread_join                weft_pthread_join
#define pthread_key_create          weft_pthread_key_create
#define pthread_key_delete          weft_pthread_key_delete
#define pthread_kill                weft_pthread_kill
#define pthread_mutex_clocklock     weft_pthread_mutex_clocklock
#define pthread_mutex_consistent    weft_pthread_mutex_consistent
#define pthread_mutex_destroy       weft_pthread_mutex_destroy
#define pthread_mutex_init          weft_pthread_mutex_init
#define pthread_mutex_lock          weft_pthread_mutex_lock
#define pthread_mutex_timedlock     weft_pthread_mutex_timedlock
#define pthread_mutex_trylock       weft_pthread_mutex_trylock
#define pthread_mutex_unlock        weft_pthread_mutex_unlock
#define pthread_once                weft_pthread_once
#define pthread_rwlock_clockrdlock  weft_pthread_rwlock_clockrdlock
#define pthread_rwlock_clockwrlock  weft_pthread_rwlock_clockwrlock
#define pthread_rwlock_destroy      weft_pthread_rwlock_destroy
#define pthread_rwlock_init         weft_pthread_rwlock_init
#define pthread_rwlock_rdlock       weft_pthread_rwlock_rdlock
#define pthread_rwlock_timedrdlock  weft_pthread_rwlock_timedrdlock
#define pthread_rwlock_timedwrlock  weft_pthread_rwlock_timedwrlock
#define pthread_rwlock_tryrdlock    weft_pthread_rwlock_tryrdlock
#define pthread_rwlock_trywrlock    weft_pthread_rwlock_trywrlock
#define pthread_rwlock_unlock       weft_pthread_rwlock_unlock
#define pthread_rwlock_wrlock       weft_pthread_rwlock_wrlock
#define pthread_self                weft_pthread_self
#define pthread_setaffinity_np      weft_pthread_setaffinity_np
#define pthread_setname_np          weft_pthread_setname_np
#define pthread_setschedparam       weft_pthread_setschedparam
#define pthread_setschedprio        weft_pthread_setschedprio
#define pthread_setspecific         weft_pthread_setspecific
#define pthread_sigmask             weft_pthread_sigmask
#define pthread_sigqueue            weft_pthread_sigqueue
#define pthread_spin_destroy        weft_pthread_spin_destroy
#define pthread_spin_init           weft_pthread_spin_init
#define pthread_spin_lock           weft_pthread_spin_lock
#define pthread_spin_trylock        weft_pthread_spin_trylock
#define pthread_spin_unlock         weft_pthread_spin_unlock
#define pthread_timedjoin_np        weft_pthread_timedjoin_np
#define pthread_tryjoin_np          weft_pthread_tryjoin_np
#define sigprocmask                 weft_sigprocmask
#define sched_yield                 weft_sched_yield
#define sleep                       weft_sleep
#define usleep                      weft_usleep

#endif
