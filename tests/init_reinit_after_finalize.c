/* init_reinit_after_finalize: after the outermost ABT_finalize the runtime can
 * be initialized again, several times, and is fully functional each time
 * (secondary execution streams and ULTs work in every cycle). */
#include "test.h"
#include <stdatomic.h>

static atomic_int ran;

static void work(void *arg) { atomic_fetch_add(&ran, *(int *)arg); }

int main(int argc, char **argv)
{
    for (int cycle = 0; cycle < 3; cycle++) {
        CHECK_ERR(ABT_initialized(), ABT_ERR_UNINITIALIZED);
        CHECK_ABT(ABT_init(argc, argv));
        CHECK_ABT(ABT_initialized());

        int num;
        CHECK_ABT(ABT_xstream_get_num(&num));
        CHECK_EQ_INT(num, 1); /* nothing left over from the previous cycle */

        ABT_xstream xs;
        ABT_pool pool;
        ABT_thread t;
        int inc = cycle + 1;
        atomic_store(&ran, 0);
        CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs));
        CHECK_ABT(ABT_xstream_get_main_pools(xs, 1, &pool));
        CHECK_ABT(ABT_thread_create(pool, work, &inc, ABT_THREAD_ATTR_NULL, &t));
        CHECK_ABT(ABT_thread_free(&t));
        CHECK_EQ_INT(atomic_load(&ran), inc);
        CHECK_ABT(ABT_xstream_free(&xs));

        ABT_bool is_primary = ABT_FALSE;
        ABT_xstream self;
        CHECK_ABT(ABT_xstream_self(&self));
        CHECK_ABT(ABT_xstream_is_primary(self, &is_primary));
        CHECK_EQ_INT(is_primary, ABT_TRUE);

        CHECK_ABT(ABT_finalize());
        CHECK_ERR(ABT_initialized(), ABT_ERR_UNINITIALIZED);
    }
    return 0;
}
