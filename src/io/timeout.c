/* src/io/timeout.c - per-caller time-outs (weft_io_set_timeout): per ULT an ABT key, per
 * OS thread otherwise. */
#include "io/op.h"

#include <pthread.h>

#include <abt.h>

#include "weft_io.h"

static _Atomic int timeouts_used;   /* no call looks a limit up before the first set */
static ABT_key tkey = ABT_KEY_NULL; /* made once, under tkey_lock; read with acquire */
static pthread_mutex_t tkey_lock = PTHREAD_MUTEX_INITIALIZER;
static __thread int os_timeout = -1;

WEFT_API int weft_io_get_timeout(void)
{
    if (!weft_atomic_load_acquire(&timeouts_used))
        return -1;
    if (!weft_face_self_ult())
        return os_timeout;
    void *v = NULL;
    ABT_key k = weft_atomic_load_acquire(&tkey);
    if (k == ABT_KEY_NULL || ABT_key_get(k, &v) != ABT_SUCCESS || !v)
        return -1;
    return (int)((intptr_t)v - 2);
}

WEFT_API int weft_io_set_timeout(int timeout_ms)
{
    if (timeout_ms < -1) {
        errno = EINVAL;
        return -1;
    }
    int prev = weft_io_get_timeout();
    if (!weft_face_self_ult()) {
        os_timeout = timeout_ms;
    } else {
        ABT_key k = weft_atomic_load_acquire(&tkey);
        int rc = ABT_SUCCESS;
        if (k == ABT_KEY_NULL) {
            pthread_mutex_lock(&tkey_lock);
            k = weft_atomic_load_acquire(&tkey);
            if (k == ABT_KEY_NULL && (rc = ABT_key_create(NULL, &k)) == ABT_SUCCESS)
                weft_atomic_store_release(&tkey, k);
            pthread_mutex_unlock(&tkey_lock);
        }
        if (rc != ABT_SUCCESS ||
            ABT_key_set(k, (void *)(intptr_t)(timeout_ms + 2)) != ABT_SUCCESS) {
            errno = ENOMEM;
            return -1;
        }
    }
    weft_atomic_store_release(&timeouts_used, 1);
    return prev;
}
