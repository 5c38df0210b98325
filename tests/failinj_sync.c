/* failinj_sync: every synchronization object under allocation failure
 * (tests/failinj.h fails each traced call in turn).
 *
 * mutex (plain, with an attribute, recursive), mutex attribute, cond, rwlock, barrier,
 * xstream barrier, eventual (with and without a value), future (with and without a
 * callback) and timer (create, dup), each created, used by the primary ULT and a ULT
 * that contends for it (so waiters block), and freed.  Outputs follow Argobots 1.x: the
 * NULL handle after a failed mutex/cond/rwlock/barrier/xstream_barrier/timer creation
 * or timer dup, untouched after a failed mutex_attr/eventual/future creation. */
#include "failinj.h"

static ABT_mutex mx;
static ABT_cond cv;
static ABT_rwlock rw;
static ABT_barrier bar;
static ABT_eventual ev;
static ABT_future fu;
static int flag;

static void w_mutex(void *a)
{
    FI_MUST(ABT_mutex_lock(mx));
    flag = 1;
    FI_MUST(ABT_cond_signal(cv));
    FI_MUST(ABT_mutex_unlock(mx));
}
static void w_rw(void *a)
{
    FI_MUST(ABT_rwlock_rdlock(rw));
    ABT_thread_yield();
    FI_MUST(ABT_rwlock_unlock(rw));
}
static void w_bar(void *a) { FI_MUST(ABT_barrier_wait(bar)); }
static void w_ev(void *a) { FI_MUST(ABT_eventual_set(ev, &flag, a ? sizeof(int) : 0)); }
static void w_fu(void *a) { FI_MUST(ABT_future_set(fu, a)); }
static void fu_cb(void **vals) { (void)vals; }

/* run f in a ULT on the primary stream; the caller then waits on the object */
static ABT_thread spawn(void (*f)(void *), void *arg)
{
    ABT_xstream self;
    FI_MUST(ABT_xstream_self(&self));
    ABT_thread t;
    if (!FI_OUT_NULL(t, ABT_THREAD_NULL,
                     ABT_thread_create_on_xstream(self, f, arg, ABT_THREAD_ATTR_NULL, &t)))
        return ABT_THREAD_NULL;
    return t;
}

static void program(void)
{
    FI_RETRY(ABT_init(0, NULL));

    ABT_mutex_attr ma;
    ABT_mutex rec = ABT_MUTEX_NULL;
    if (FI_OUT_KEEP(ma, ABT_mutex_attr_create(&ma))) {
        FI_MUST(ABT_mutex_attr_set_recursive(ma, ABT_TRUE));
        if (FI_OUT_NULL(rec, ABT_MUTEX_NULL, ABT_mutex_create_with_attr(ma, &rec))) {
            FI_MUST(ABT_mutex_lock(rec));
            FI_MUST(ABT_mutex_lock(rec));
            FI_MUST(ABT_mutex_unlock(rec));
            FI_MUST(ABT_mutex_unlock(rec));
            FI_MUST(ABT_mutex_free(&rec));
        }
        FI_MUST(ABT_mutex_attr_free(&ma));
    }

    if (FI_OUT_NULL(mx, ABT_MUTEX_NULL, ABT_mutex_create(&mx))) {
        if (FI_OUT_NULL(cv, ABT_COND_NULL, ABT_cond_create(&cv))) {
            flag = 0;
            FI_MUST(ABT_mutex_lock(mx));
            ABT_thread t = spawn(w_mutex, NULL);
            if (t != ABT_THREAD_NULL) {
                while (!flag)
                    FI_MUST(ABT_cond_wait(cv, mx));
            }
            FI_MUST(ABT_mutex_unlock(mx));
            if (t != ABT_THREAD_NULL)
                FI_MUST(ABT_thread_free(&t));
            FI_MUST(ABT_cond_free(&cv));
        }
        FI_MUST(ABT_mutex_free(&mx));
    }

    if (FI_OUT_NULL(rw, ABT_RWLOCK_NULL, ABT_rwlock_create(&rw))) {
        FI_MUST(ABT_rwlock_wrlock(rw));
        ABT_thread t = spawn(w_rw, NULL);
        ABT_thread_yield(); /* the reader blocks */
        FI_MUST(ABT_rwlock_unlock(rw));
        if (t != ABT_THREAD_NULL)
            FI_MUST(ABT_thread_free(&t));
        FI_MUST(ABT_rwlock_free(&rw));
    }

    if (FI_OUT_NULL(bar, ABT_BARRIER_NULL, ABT_barrier_create(2, &bar))) {
        ABT_thread t = spawn(w_bar, NULL);
        if (t != ABT_THREAD_NULL) {
            FI_MUST(ABT_barrier_wait(bar));
            FI_MUST(ABT_thread_free(&t));
        }
        FI_MUST(ABT_barrier_free(&bar));
    }

    ABT_xstream_barrier xb;
    if (FI_OUT_NULL(xb, ABT_XSTREAM_BARRIER_NULL, ABT_xstream_barrier_create(1, &xb))) {
        FI_MUST(ABT_xstream_barrier_wait(xb));
        FI_MUST(ABT_xstream_barrier_free(&xb));
    }

    for (int withval = 0; withval < 2; withval++) {
        if (!FI_OUT_KEEP(ev, ABT_eventual_create(withval ? sizeof(int) : 0, &ev)))
            continue;
        ABT_thread t = spawn(w_ev, (void *)(intptr_t)withval);
        if (t != ABT_THREAD_NULL) {
            void *v;
            FI_MUST(ABT_eventual_wait(ev, &v));
            FI_MUST(ABT_thread_free(&t));
        }
        FI_MUST(ABT_eventual_free(&ev));
    }

    for (int cb = 0; cb < 2; cb++) {
        if (!FI_OUT_KEEP(fu, ABT_future_create(3, cb ? fu_cb : NULL, &fu)))
            continue;
        ABT_thread t[3];
        int n = 0;
        for (; n < 3; n++)
            if ((t[n] = spawn(w_fu, &flag)) == ABT_THREAD_NULL)
                break;
        if (n == 3)
            FI_MUST(ABT_future_wait(fu));
        for (int i = 0; i < n; i++)
            FI_MUST(ABT_thread_free(&t[i]));
        FI_MUST(ABT_future_free(&fu));
    }

    ABT_timer tm, tm2;
    if (FI_OUT_NULL(tm, ABT_TIMER_NULL, ABT_timer_create(&tm))) {
        FI_MUST(ABT_timer_start(tm));
        FI_MUST(ABT_timer_stop(tm));
        if (FI_OUT_NULL(tm2, ABT_TIMER_NULL, ABT_timer_dup(tm, &tm2)))
            FI_MUST(ABT_timer_free(&tm2));
        FI_MUST(ABT_timer_free(&tm));
    }
    double ovh;
    FI_OK(ABT_timer_get_overhead(&ovh));
    FI_MUST(ABT_finalize());
}

int main(void) { return fi_main("failinj_sync", program); }
