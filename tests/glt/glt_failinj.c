/* glt_failinj: glt_init, the create paths, malleability and glt_finalize under
 * allocation, mmap and pthread_create failure (tests/failinj.h fails each of weft's
 * traced calls in turn, in a forked child per failure point).  A failed glt_init
 * returns weft's code (ABT_ERR_MEM, or ABT_ERR_SYS for a refused stream thread) and
 * leaves nothing: no team, weft not initialised, every block, mapping and thread of weft
 * released (failinj checks); a second glt_init then succeeds.  Creation sets the NULL
 * handle on error; a thread that cannot be revived stays disabled and a retry revives
 * it; glt_finalize frees everything.  GLT_NUM_THREADS=2 from ctest.  Skipped under the
 * sanitizers (failinj.h). */
/* failinj.h needs _GNU_SOURCE (dladdr, dl_iterate_phdr) before any system header; the
 * same (empty) definition as its own */
#define _GNU_SOURCE
#include <glt.h>
#undef CHECK
#define TEST_NO_LIFECYCLE 1
#include "failinj.h"

static void nop(void *arg) { (void)arg; }

static void program(void)
{
    int lives = getenv("WEFT_TEST_SLOW") ? 1 : 2; /* valgrind: every child is slow */
    for (int life = 0; life < lives; life++) {
        if (!FI_OK(glt_init(0, NULL))) {
            if (glt_get_team() != NULL || glt_get_num_threads() >= 0)
                FI_FAIL("glt_init failed but left a team");
            if (ABT_initialized() != ABT_ERR_UNINITIALIZED)
                FI_FAIL("glt_init failed but left weft initialised");
            FI_RETRY(glt_init(0, NULL));
        }
        int n = glt_get_num_threads();
        if (n != 2)
            FI_FAIL("expected 2 GLT threads, got %d", n);
        GLT_ult u;
        GLT_tasklet t;
        for (int i = 0; i < n; i++) {
            if (FI_OUT_NULL(u, ABT_THREAD_NULL, glt_ult_create_to(nop, NULL, &u, i)))
                FI_MUST(glt_ult_free(&u));
            if (FI_OUT_NULL(t, ABT_TASK_NULL, glt_tasklet_create_to(nop, NULL, &t, i)))
                FI_MUST(glt_tasklet_free(&t));
        }
        if (FI_OUT_NULL(u, ABT_THREAD_NULL, glt_ult_create(nop, NULL, &u)))
            FI_MUST(glt_ult_free(&u));
        FI_MUST(glt_thread_disable_id(1));
        FI_RETRY(glt_thread_enable_id(1));
        if (FI_OUT_NULL(u, ABT_THREAD_NULL, glt_ult_create_to(nop, NULL, &u, 1)))
            FI_MUST(glt_ult_free(&u));
        FI_MUST(glt_finalize());
        if (ABT_initialized() != ABT_ERR_UNINITIALIZED)
            FI_FAIL("still initialised after glt_finalize");
    }
}

int main(void) { return fi_main("glt_failinj", program); }
