/* OpenMP 5 allocators with a pool: a block is charged its size plus a 32-byte header
 * (plus alignment - 8 bytes for an alignment over 8), as libgomp charges it, so two
 * 1 MiB blocks in a 2 MiB pool: exactly one fits, in every memory space (high-bandwidth
 * too: host memory).  omp_free gives the charge back; the fallbacks (null_fb,
 * default_mem_fb, allocator_fb, abort_fb in a child process); the alignment trait and
 * omp_aligned_alloc; omp_calloc and omp_realloc in a pool; traits and memory spaces
 * that are refused; a block that does not fit never makes a concurrent one fail; the
 * default allocator, one per task, first OMP_ALLOCATOR's (a second run sets it). */
#include "omp_test.h"

#include <signal.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#define MiB ((size_t)1 << 20)
#define HDR 32 /* the charge of a block over its size (default alignment) */

static omp_allocator_handle_t make(omp_memspace_handle_t ms, size_t pool, uintptr_t fb,
                                   omp_allocator_handle_t fb_data, size_t align)
{
    omp_alloctrait_t t[4];
    int n = 0;
    if (pool)
        t[n++] = (omp_alloctrait_t){ omp_atk_pool_size, pool };
    if (fb)
        t[n++] = (omp_alloctrait_t){ omp_atk_fallback, fb };
    if (fb_data)
        t[n++] = (omp_alloctrait_t){ omp_atk_fb_data, (uintptr_t)fb_data };
    if (align)
        t[n++] = (omp_alloctrait_t){ omp_atk_alignment, align };
    return omp_init_allocator(ms, n, t);
}

static int fits(size_t size, omp_allocator_handle_t a)
{
    void *p = omp_alloc(size, a);
    omp_free(p, a);
    return p != NULL;
}

/* abort_fb: the child dies of SIGABRT after a message naming the fallback. */
static void abort_fallback(void)
{
    int fd[2];
    CHECK(pipe(fd) == 0);
    fflush(NULL);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        close(fd[0]);
        dup2(fd[1], 2);
        omp_allocator_handle_t a = make(omp_default_mem_space, 4096, omp_atv_abort_fb, 0, 0);
        if (!a)
            _exit(3);
        void *p = omp_alloc(4096 - HDR, a); /* fits */
        if (!p)
            _exit(4);
        omp_alloc(1, a); /* does not */
        _exit(0);
    }
    close(fd[1]);
    char err[1024];
    size_t n = 0;
    ssize_t got;
    while (n < sizeof(err) - 1 && (got = read(fd[0], err + n, sizeof(err) - 1 - n)) > 0)
        n += (size_t)got;
    err[n] = '\0';
    close(fd[0]);
    int status;
    CHECK(waitpid(pid, &status, 0) == pid);
    if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGABRT ||
        !strstr(err, "out of memory allocating 1 bytes") || !strstr(err, "omp_atv_abort_fb")) {
        fprintf(stderr, "abort_fb: status %#x, stderr:\n%s\n", status, err);
        exit(1);
    }
}

static void pools_in_every_space(void)
{
    static const omp_memspace_handle_t spaces[] = { omp_default_mem_space, omp_large_cap_mem_space,
                                                    omp_const_mem_space, omp_high_bw_mem_space,
                                                    omp_low_lat_mem_space };
    for (size_t k = 0; k < sizeof(spaces) / sizeof(spaces[0]); k++) {
        omp_allocator_handle_t a = make(spaces[k], 2 * MiB, omp_atv_null_fb, 0, 0);
        CHECK(a != omp_null_allocator);
        void *p = omp_alloc(MiB, a), *q = omp_alloc(MiB, a);
        CHECK(p != NULL);
        CHECK(q == NULL);
        memset(p, 1, MiB);
        CHECK(!fits(MiB, a));
        omp_free(p, a);
        p = omp_alloc(MiB, a); /* the pool has it back */
        CHECK(p != NULL);
        omp_free(p, a);
        CHECK(!fits(2 * MiB, a));
        CHECK(fits(2 * MiB - HDR, a));
        CHECK(!fits(2 * MiB - HDR + 1, a));
        /* many small blocks: exactly pool / (size + HDR) fit */
        enum { SMALL = 4064 };
        void *blk[600];
        int got = 0;
        while (got < 600 && (blk[got] = omp_alloc(SMALL, a)) != NULL)
            got++;
        CHECK_EQ(got, (int)(2 * MiB / (SMALL + HDR)));
        for (int i = 0; i < got; i++)
            omp_free(blk[i], a);
        CHECK(fits(2 * MiB - HDR, a));
        omp_destroy_allocator(a);
    }
    CHECK(make((omp_memspace_handle_t)5, 4096, omp_atv_null_fb, 0, 0) == omp_null_allocator);
    CHECK(make((omp_memspace_handle_t)-1, 0, 0, 0, 0) == omp_null_allocator);
}

static void traits(void)
{
    static const struct {
        omp_alloctrait_key_t key;
        uintptr_t value;
        int ok;
    } cases[] = {
        { omp_atk_alignment, 3, 0 },
        { omp_atk_alignment, 0, 0 },
        { omp_atk_alignment, 4096, 1 },
        { omp_atk_fallback, 99, 0 },
        { omp_atk_fallback, omp_atv_null_fb, 1 },
        { omp_atk_pinned, omp_atv_true, 0 },
        { omp_atk_pinned, omp_atv_false, 1 },
        { omp_atk_sync_hint, 99, 0 },
        { omp_atk_sync_hint, omp_atv_private, 1 },
        { omp_atk_access, omp_atv_thread, 1 },
        { omp_atk_access, omp_atv_null_fb, 0 },
        { omp_atk_partition, omp_atv_blocked, 1 },
        { omp_atk_partition, omp_atv_all, 0 },
        { (omp_alloctrait_key_t)99, 0, 0 },
        { omp_atk_pool_size, omp_atv_default, 1 },
    };
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        omp_alloctrait_t t = { cases[k].key, cases[k].value };
        omp_allocator_handle_t a = omp_init_allocator(omp_default_mem_space, 1, &t);
        if ((a != omp_null_allocator) != cases[k].ok) {
            fprintf(stderr, "trait %d = %#lx: handle %#lx, expected %s\n", (int)cases[k].key,
                    (unsigned long)cases[k].value, (unsigned long)a,
                    cases[k].ok ? "one" : "omp_null_allocator");
            exit(1);
        }
        if (a) {
            CHECK(fits(100, a));
            omp_destroy_allocator(a);
        }
    }
    /* pool_size 0: nothing fits */
    omp_alloctrait_t z[2] = { { omp_atk_pool_size, 0 }, { omp_atk_fallback, omp_atv_null_fb } };
    omp_allocator_handle_t a = omp_init_allocator(omp_default_mem_space, 2, z);
    CHECK(a != omp_null_allocator);
    CHECK(!fits(1, a));
    omp_destroy_allocator(a);
}

static void fallbacks(void)
{
    /* default_mem_fb, given or by default: the block comes from the default allocator
     * and charges nothing to the pool */
    for (int given = 0; given < 2; given++) {
        omp_allocator_handle_t a =
            make(omp_default_mem_space, 4096, given ? omp_atv_default_mem_fb : 0, 0, 512);
        CHECK(a != omp_null_allocator);
        char *big = omp_alloc(MiB, a);
        CHECK(big != NULL);
        CHECK(((uintptr_t)big & 511) == 0); /* the alignment trait still holds */
        memset(big, 2, MiB);
        CHECK(fits(4096 - HDR - (512 - 8), a));
        omp_free(big, a);
        void *full = omp_alloc(4096 - HDR - (512 - 8), a); /* the whole pool */
        CHECK(full != NULL);
        void *more = omp_alloc(1, a); /* falls back */
        CHECK(more != NULL && ((uintptr_t)more & 511) == 0);
        omp_free(more, a);
        omp_free(full, a);
        CHECK(fits(4096 - HDR - (512 - 8), a));
        omp_destroy_allocator(a);
    }
    /* allocator_fb: what does not fit goes to fb_data's pool; freed, it returns there */
    omp_allocator_handle_t b = make(omp_default_mem_space, 2 * MiB, omp_atv_null_fb, 0, 0);
    omp_allocator_handle_t a = make(omp_default_mem_space, 4096, omp_atv_allocator_fb, b, 0);
    CHECK(b != omp_null_allocator && a != omp_null_allocator);
    void *small = omp_alloc(1000, a); /* a's pool */
    void *p = omp_alloc(MiB, a);      /* b's pool */
    void *q = omp_alloc(MiB, a);      /* neither */
    CHECK(small && p && !q);
    CHECK(!fits(MiB, b));
    omp_free(p, omp_null_allocator);
    CHECK(fits(2 * MiB - HDR, b));
    void *rest = omp_alloc(4096 - (1000 + HDR) - HDR, a); /* the rest of a's pool */
    CHECK(rest != NULL);
    CHECK(fits(2 * MiB - HDR, b)); /* b gave nothing to it */
    omp_free(rest, a);
    omp_free(small, a);
    omp_destroy_allocator(a);
    /* allocator_fb without fb_data: the default allocator */
    a = make(omp_default_mem_space, 4096, omp_atv_allocator_fb, 0, 0);
    CHECK(a != omp_null_allocator);
    CHECK(fits(MiB, a));
    omp_destroy_allocator(a);
    omp_destroy_allocator(b);
}

static void alignment(void)
{
    /* every block is aligned at least as malloc aligns */
    omp_allocator_handle_t a = make(omp_default_mem_space, 4096, omp_atv_null_fb, 0, 0);
    for (size_t s = 1; s < 100; s += 7) {
        void *p = omp_alloc(s, a), *q = omp_alloc(s, omp_default_mem_alloc);
        CHECK(p && q);
        CHECK(((uintptr_t)p % alignof(max_align_t)) == 0);
        CHECK(((uintptr_t)q % alignof(max_align_t)) == 0);
        omp_free(p, a);
        omp_free(q, omp_default_mem_alloc);
    }
    omp_destroy_allocator(a);
    /* the alignment trait: aligned, and charged alignment - 8 more */
    a = make(omp_default_mem_space, 8192, omp_atv_null_fb, 0, 4096);
    CHECK(a != omp_null_allocator);
    CHECK(fits(8192 - HDR - (4096 - 8), a));
    CHECK(!fits(8192 - HDR - (4096 - 8) + 1, a));
    for (int i = 0; i < 20; i++) {
        char *p = omp_alloc(100, a);
        CHECK(p && ((uintptr_t)p & 4095) == 0);
        p[99] = 1;
        omp_free(p, a);
    }
    omp_destroy_allocator(a);
    /* omp_aligned_alloc over the allocator's alignment: the larger one wins */
    a = make(omp_default_mem_space, 4096, omp_atv_null_fb, 0, 64);
    char *p = omp_aligned_alloc(256, 100, a);
    CHECK(p && ((uintptr_t)p & 255) == 0);
    omp_free(p, a);
    p = omp_aligned_alloc(16, 100, a); /* the allocator's 64 */
    CHECK(p && ((uintptr_t)p & 63) == 0);
    omp_free(p, a);
    void *m = omp_aligned_alloc(256, 4096 - HDR - (256 - 8), a);
    CHECK(m != NULL);
    omp_free(m, a);
    CHECK(omp_aligned_alloc(256, 4096 - HDR - (256 - 8) + 1, a) == NULL);
    CHECK(omp_aligned_alloc(3, 10, a) == NULL); /* not a power of two */
    omp_destroy_allocator(a);
}

static void calloc_realloc(void)
{
    omp_allocator_handle_t a = make(omp_default_mem_space, 4096, omp_atv_null_fb, 0, 0);
    for (int r = 0; r < 3; r++) {
        unsigned char *c = omp_calloc(10, 400, a);
        CHECK(c != NULL);
        for (int i = 0; i < 4000; i++)
            CHECK_EQ(c[i], 0);
        memset(c, 0xff, 4000);
        CHECK(omp_calloc(1, 100, a) == NULL); /* 4000 + HDR held */
        omp_free(c, a);
    }
    CHECK(omp_calloc(2, 4096, a) == NULL);
    volatile size_t huge = SIZE_MAX / 2;
    CHECK(omp_calloc(huge, 3, a) == NULL); /* n * size overflows */
    void *c = omp_calloc(1, 4096 - HDR, a);
    CHECK(c != NULL);
    omp_free(c, a);
    omp_destroy_allocator(a);

    a = make(omp_default_mem_space, 4096, omp_atv_null_fb, 0, 0);
    /* growing within the pool needs room for the growth only */
    unsigned char *p = omp_alloc(1500, a);
    CHECK(p);
    for (int i = 0; i < 1500; i++)
        p[i] = (unsigned char)i;
    p = omp_realloc(p, 3000, a, a);
    CHECK(p);
    for (int i = 0; i < 1500; i++)
        CHECK_EQ(p[i], (unsigned char)i);
    CHECK(fits(4096 - 3000 - 2 * HDR, a));
    CHECK(!fits(4096 - 3000 - 2 * HDR + 1, a));
    /* does not fit: NULL, and the block stays as it was */
    CHECK(omp_realloc(p, 5000, a, a) == NULL);
    for (int i = 0; i < 1500; i++)
        CHECK_EQ(p[i], (unsigned char)i);
    CHECK(fits(4096 - 3000 - 2 * HDR, a));
    /* shrinking; then allocator omp_null_allocator: the block's own */
    p = omp_realloc(p, 100, omp_null_allocator, omp_null_allocator);
    CHECK(p);
    for (int i = 0; i < 100; i++)
        CHECK_EQ(p[i], (unsigned char)i);
    CHECK(fits(4096 - 100 - 2 * HDR, a));
    /* to another allocator: the pool gets its charge back */
    p = omp_realloc(p, 200, omp_default_mem_alloc, a);
    CHECK(p);
    for (int i = 0; i < 100; i++)
        CHECK_EQ(p[i], (unsigned char)i);
    CHECK(fits(4096 - HDR, a));
    /* and back, then size 0 frees */
    p = omp_realloc(p, 4096 - HDR, a, omp_default_mem_alloc);
    CHECK(p && p[99] == 99);
    CHECK(!fits(1, a));
    CHECK(omp_realloc(p, 0, a, a) == NULL);
    CHECK(fits(4096 - HDR, a));
    p = omp_realloc(NULL, 10, a, a); /* NULL: an allocation */
    CHECK(p);
    omp_free(p, a);
    omp_destroy_allocator(a);
}

/* Thread 0 keeps asking for blocks that can never fit while the others take and give
 * back blocks that always fit: none of theirs may fail. */
static void concurrent(void)
{
    enum { SMALL = 96, PER = 4, ROUNDS = 20000 };
    int nthr = 4;
    size_t pool = (size_t)(nthr - 1) * PER * (SMALL + HDR);
    omp_allocator_handle_t a = make(omp_default_mem_space, pool, omp_atv_null_fb, 0, 0);
    CHECK(a != omp_null_allocator);
    int rounds = slow() ? ROUNDS / 20 : ROUNDS;
    long failed = 0, big_ok = 0, team = 0;
#pragma omp parallel num_threads(nthr) reduction(+ : failed, big_ok, team)
    {
        team++;
        if (omp_get_thread_num() == 0) {
            for (int r = 0; r < rounds * PER; r++) {
                void *b = omp_alloc(pool - HDR + 1, a); /* never fits */
                if (b) {
                    big_ok++;
                    omp_free(b, a);
                }
            }
        } else {
            void *blk[PER];
            for (int r = 0; r < rounds; r++) {
                for (int i = 0; i < PER; i++)
                    if (!(blk[i] = omp_alloc(SMALL, a)))
                        failed++;
                for (int i = 0; i < PER; i++)
                    omp_free(blk[i], a);
            }
        }
    }
    CHECK_EQ(team, nthr);
    CHECK_EQ(failed, 0);
    CHECK_EQ(big_ok, 0);
    CHECK(fits(pool - HDR, a)); /* every charge came back */
    omp_destroy_allocator(a);
}

/* def-allocator-var: OMP_ALLOCATOR's at first, one per task, inherited by the tasks and
 * the implicit tasks a task makes; omp_null_allocator in a call means it. */
static void default_allocator(void)
{
    const char *env = getenv("OMP_ALLOCATOR");
    omp_allocator_handle_t first = env && !strcmp(env, "omp_low_lat_mem_alloc")
                                       ? omp_low_lat_mem_alloc
                                       : omp_default_mem_alloc;
    CHECK_EQ(omp_get_default_allocator(), first);
    omp_allocator_handle_t p = make(omp_default_mem_space, 4096, omp_atv_null_fb, 0, 0);
    CHECK(p != omp_null_allocator);
    omp_set_default_allocator(p);
    CHECK_EQ(omp_get_default_allocator(), p);
    CHECK(fits(4096 - HDR, omp_null_allocator));
    CHECK(!fits(4096 - HDR + 1, omp_null_allocator)); /* p's pool, null fallback */
    long inherited = 0, own = 0, in_task = 0;
#pragma omp parallel num_threads(4) reduction(+ : inherited, own, in_task)
    {
        inherited += omp_get_default_allocator() == p;
        if (omp_get_thread_num() == 1)
            omp_set_default_allocator(omp_large_cap_mem_alloc);
#pragma omp barrier
        own += omp_get_default_allocator() ==
               (omp_get_thread_num() == 1 ? omp_large_cap_mem_alloc : p);
        if (omp_get_thread_num() == 0) {
            long t = 0;
#pragma omp task shared(t)
            {
                t += omp_get_default_allocator() == p;
                omp_set_default_allocator(omp_thread_mem_alloc);
                t += omp_get_default_allocator() == omp_thread_mem_alloc;
            }
#pragma omp taskwait
            in_task = t == 2 && omp_get_default_allocator() == p;
        }
    }
    CHECK_EQ(inherited, 4);
    CHECK_EQ(own, 4);
    CHECK_EQ(in_task, 1);
    CHECK_EQ(omp_get_default_allocator(), p);
    omp_set_default_allocator(omp_null_allocator); /* back to omp_default_mem_alloc */
    CHECK_EQ(omp_get_default_allocator(), omp_default_mem_alloc);
    CHECK(fits(MiB, omp_null_allocator));
    omp_destroy_allocator(p);
}

int main(void)
{
    check_runtime_is_weft();
    abort_fallback(); /* first: no parallel region yet, nothing running but this thread */
    pools_in_every_space();
    traits();
    fallbacks();
    alignment();
    calloc_realloc();
    concurrent();
    default_allocator();
    return 0;
}
