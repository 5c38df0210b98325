/* src/core/sched/poll_hook.c - the registry of completion pollers (core/sched/poll_hook.h). */
#include "core/sched/poll_hook.h"

#include "arch/spinlock.h"
#include "core/runtime.h"

_Atomic int weft_poll_hooks_n;
const struct weft_poll_hook *_Atomic weft_poll_hooks[WEFT_POLL_HOOKS_MAX];
static weft_spinlock add_lock;

int weft_poll_hook_add(const struct weft_poll_hook *h)
{
    int rc = 0;
    weft_spin_lock(&add_lock);
    int n = weft_atomic_load_relaxed(&weft_poll_hooks_n);
    bool have = false;
    for (int i = 0; i < n; i++)
        have |= weft_atomic_load_relaxed(&weft_poll_hooks[i]) == h;
    if (!have) {
        if (n == WEFT_POLL_HOOKS_MAX) {
            rc = -1;
        } else {
            weft_atomic_store_relaxed(&weft_poll_hooks[n], h);
            weft_atomic_store_release(&weft_poll_hooks_n, n + 1); /* publishes the slot */
        }
    }
    weft_spin_unlock(&add_lock);
    return rc;
}

bool weft_poll_hooks_run_slow(int n)
{
    bool woke = false;
    for (int i = 0; i < n; i++) {
        const struct weft_poll_hook *h = weft_atomic_load_relaxed(&weft_poll_hooks[i]);
        if (h->poll)
            woke |= h->poll();
    }
    return woke;
}

uint64_t weft_poll_hooks_idle_ns(void)
{
    uint64_t t = UINT64_MAX;
    int n = weft_atomic_load_acquire(&weft_poll_hooks_n);
    for (int i = 0; i < n; i++) {
        const struct weft_poll_hook *h = weft_atomic_load_relaxed(&weft_poll_hooks[i]);
        if (h->idle_ns) {
            uint64_t b = h->idle_ns();
            if (b < t)
                t = b;
        }
    }
    return t;
}

bool weft_poll_hooks_sleep(_Atomic uint32_t *word, uint64_t timeout_ns)
{
    int n = weft_atomic_load_acquire(&weft_poll_hooks_n);
    for (int i = 0; i < n; i++) {
        const struct weft_poll_hook *h = weft_atomic_load_relaxed(&weft_poll_hooks[i]);
        if (h->sleep && h->sleep(word, timeout_ns))
            return true;
    }
    return false;
}

void weft_poll_hooks_cancel(struct weft_unit *u)
{
    int n = weft_atomic_load_acquire(&weft_poll_hooks_n);
    for (int i = 0; i < n; i++) {
        const struct weft_poll_hook *h = weft_atomic_load_relaxed(&weft_poll_hooks[i]);
        if (h->cancel)
            h->cancel(u);
    }
}

bool weft_poll_hook_eager(bool on)
{
    weft_xstream *xs = weft_xs_self();
    if (!xs)
        return false;
    if (on)
        xs->poll_eager++;
    else if (xs->poll_eager > 0) /* a face's flag outlived an ABT_finalize: no underflow */
        xs->poll_eager--;
    return true;
}

void weft_poll_hooks_run_eager(void)
{
    int n = weft_atomic_load_acquire(&weft_poll_hooks_n);
    for (int i = 0; i < n; i++) {
        const struct weft_poll_hook *h = weft_atomic_load_relaxed(&weft_poll_hooks[i]);
        if (h->poll_eager)
            h->poll_eager();
        else if (h->poll)
            h->poll();
    }
}
