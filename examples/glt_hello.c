/* glt_hello.c - a GLT program on weft: one ULT per GLT thread, each adding its rank to a
 * sum under a GLT mutex; every error code is checked.
 *
 *   library build:      cc glt_hello.c $(pkg-config --cflags --libs glt)
 *   header-only build:  cc -DFASTGLT glt_hello.c $(pkg-config --cflags --libs weft)
 *   run:                GLT_NUM_THREADS=4 ./a.out */
#include <stdio.h>
#include <stdlib.h>
#include <glt.h>

#define TRY(call)                                                   \
    do {                                                            \
        int rc_ = (call);                                           \
        if (rc_ != GLT_SUCCESS) {                                   \
            char msg_[64];                                          \
            size_t len_ = sizeof msg_;                              \
            if (glt_get_error_str(rc_, msg_, &len_) != GLT_SUCCESS) \
                snprintf(msg_, sizeof msg_, "error %d", rc_);       \
            fprintf(stderr, "%s failed: %s\n", #call, msg_);        \
            exit(1);                                                \
        }                                                           \
    } while (0)

static GLT_mutex lock;
static int sum;

static void hello(void *arg)
{
    int rank = glt_get_thread_num();
    TRY(glt_mutex_lock(lock));
    sum += rank;
    TRY(glt_mutex_unlock(lock));
    *(int *)arg = rank;
}

int main(int argc, char *argv[])
{
    TRY(glt_init(argc, argv));
    int n = glt_get_num_threads();
    GLT_ult *ults = glt_ult_malloc(n);
    int *ranks = calloc((size_t)n, sizeof(int));
    if (!ults || !ranks)
        return 1;
    TRY(glt_mutex_create(&lock));
    for (int i = 0; i < n; i++)
        TRY(glt_ult_create_to(hello, &ranks[i], &ults[i], i)); /* a ULT on thread i */
    for (int i = 0; i < n; i++) {
        TRY(glt_ult_join(&ults[i]));
        TRY(glt_ult_free(&ults[i]));
        printf("ULT %d ran on GLT thread %d\n", i, ranks[i]);
    }
    TRY(glt_mutex_free(&lock));
    printf("%d threads, sum of ranks %d\n", n, sum);
    free(ults);
    free(ranks);
    TRY(glt_finalize());
    return sum == n * (n - 1) / 2 ? 0 : 1;
}
