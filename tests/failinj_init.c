/* failinj_init: ABT_init and ABT_finalize under allocation, mmap and pthread_create
 * failure (tests/failinj.h fails each traced call in turn).
 *
 * A failed ABT_init returns ABT_ERR_MEM (or ABT_ERR_SYS for a refused thread), leaves
 * the runtime uninitialized and nothing allocated, and a second ABT_init then succeeds.
 * The runtime is then used a little (a ULT on the primary stream, so the primary
 * stream's first stack is taken) and finalized; ABT_finalize must succeed and free
 * everything.  The same with ABT_init called twice (nested) and a second life after the
 * first ABT_finalize. */
#include "failinj.h"

static void nop(void *arg) { (void)arg; }

static void use_runtime(void)
{
    ABT_xstream self;
    ABT_pool pool;
    FI_MUST(ABT_xstream_self(&self));
    FI_MUST(ABT_xstream_get_main_pools(self, 1, &pool));
    ABT_thread t;
    if (FI_OUT_NULL(t, ABT_THREAD_NULL,
                    ABT_thread_create(pool, nop, NULL, ABT_THREAD_ATTR_NULL, &t)))
        FI_MUST(ABT_thread_free(&t));
}

static void program(void)
{
    for (int life = 0; life < 2; life++) {
        if (!FI_OK(ABT_init(0, NULL))) {
            if (ABT_initialized() != ABT_ERR_UNINITIALIZED)
                FI_FAIL("ABT_init failed but ABT_initialized() says initialized");
            /* a burst of failures ends: retrying must eventually succeed */
            FI_RETRY(ABT_init(0, NULL));
        }
        FI_MUST(ABT_initialized());
        use_runtime();
        FI_MUST(ABT_init(0, NULL)); /* nested: counts one more finalize */
        FI_MUST(ABT_finalize());
        FI_MUST(ABT_initialized());
        FI_MUST(ABT_finalize());
        if (ABT_initialized() != ABT_ERR_UNINITIALIZED)
            FI_FAIL("still initialized after the last ABT_finalize");
    }
}

int main(void) { return fi_main("failinj_init", program); }
