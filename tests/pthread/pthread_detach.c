/* Detached threads (by attribute, by pthread_detach, by themselves) run to the end: detach
 * never cancels; their records are reclaimed (valgrind's leak check). */
#include "pth_test.h"

#include <stdatomic.h>

static atomic_int done;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int expect_ult;

static void finish(void)
{
    pthread_mutex_lock(&lock);
    atomic_fetch_add(&done, 1);
    pthread_cond_signal(&cv);
    pthread_mutex_unlock(&lock);
}

static void *slow(void *arg)
{
    if (expect_ult)
        CHECK(pth_test_is_ult());
    for (int i = 0; i < 20; i++)
        sched_yield(); /* still running when detached */
    finish();
    return arg;
}

static void *self_detach(void *arg)
{
    CHECK_RC(pthread_detach(pthread_self()), 0);
    return slow(arg);
}

int main(void)
{
    expect_ult = pth_test_start();
    int n = 300 / pth_test_scale(), expect = 0;
    pthread_attr_t attr;
    CHECK_RC(pthread_attr_init(&attr), 0);
    CHECK_RC(pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED), 0);
    for (int i = 0; i < n; i++) {
        pthread_t t;
        switch (i % 3) {
        case 0: CHECK_RC(pthread_create(&t, &attr, slow, NULL), 0); break;
        case 1:
            CHECK_RC(pthread_create(&t, NULL, slow, NULL), 0);
            CHECK_RC(pthread_detach(t), 0);
            break;
        case 2: CHECK_RC(pthread_create(&t, NULL, self_detach, NULL), 0); break;
        }
        expect++;
    }
    pthread_attr_destroy(&attr);
    pthread_mutex_lock(&lock);
    while (atomic_load(&done) < expect)
        pthread_cond_wait(&cv, &lock);
    pthread_mutex_unlock(&lock);
    CHECK_EQ_INT(atomic_load(&done), expect);
    printf("%d detached threads ran to the end\n", expect);
    return 0;
}
