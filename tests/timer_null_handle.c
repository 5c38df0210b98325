/* timer_null_handle: every timer routine given ABT_TIMER_NULL (or a pointer to
 * it, for ABT_timer_free) returns ABT_ERR_INV_TIMER and does not write the
 * output; ABT_timer_dup with a NULL source sets the new handle to
 * ABT_TIMER_NULL (1.x). */
#include "test.h"

int main(int argc, char **argv)
{
    CHECK_ABT(ABT_init(argc, argv));

    ABT_timer t = ABT_TIMER_NULL, nt = (ABT_timer)&nt;
    double secs = 42.0;
    CHECK_ERR(ABT_timer_free(&t), ABT_ERR_INV_TIMER);
    CHECK(t == ABT_TIMER_NULL);
    CHECK_ERR(ABT_timer_dup(ABT_TIMER_NULL, &nt), ABT_ERR_INV_TIMER);
    CHECK(nt == ABT_TIMER_NULL);
    CHECK_ERR(ABT_timer_start(ABT_TIMER_NULL), ABT_ERR_INV_TIMER);
    CHECK_ERR(ABT_timer_stop(ABT_TIMER_NULL), ABT_ERR_INV_TIMER);
    CHECK_ERR(ABT_timer_read(ABT_TIMER_NULL, &secs), ABT_ERR_INV_TIMER);
    CHECK(secs == 42.0);
    CHECK_ERR(ABT_timer_stop_and_read(ABT_TIMER_NULL, &secs), ABT_ERR_INV_TIMER);
    CHECK(secs == 42.0);
    CHECK_ERR(ABT_timer_stop_and_add(ABT_TIMER_NULL, &secs), ABT_ERR_INV_TIMER);
    CHECK(secs == 42.0);

    CHECK_ABT(ABT_finalize());
    return 0;
}
