/* The rest of the omp_* host API: allocators (traits, pool_size with null fallback,
 * alignment, calloc/realloc), host teams (GOMP_teams_reg), a target region run on the
 * host, the omp_target_* memory routines, affinity capture, pause. */
#include "omp_test.h"

#include <stdint.h>

int main(void)
{
    check_runtime_is_weft();
    /* allocators */
    omp_alloctrait_t traits[] = { { omp_atk_alignment, 256 },
                                  { omp_atk_pool_size, 4096 },
                                  { omp_atk_fallback, omp_atv_null_fb } };
    omp_allocator_handle_t a = omp_init_allocator(omp_default_mem_space, 3, traits);
    CHECK(a != omp_null_allocator);
    void *p = omp_alloc(1000, a);
    CHECK(p && ((uintptr_t)p & 255) == 0);
    /* 1000 and 3500 bytes, each charged 280 more (header and alignment): over the pool */
    void *q = omp_alloc(3500, a); /* null fallback */
    CHECK(q == NULL);
    omp_free(p, a);
    q = omp_alloc(3500, a);
    CHECK(q != NULL);
    omp_free(q, a);
    int *z = omp_calloc(100, sizeof(int), omp_default_mem_alloc);
    CHECK(z);
    for (int i = 0; i < 100; i++)
        CHECK_EQ(z[i], 0);
    z[99] = 7;
    z = omp_realloc(z, 1000 * sizeof(int), omp_default_mem_alloc, omp_default_mem_alloc);
    CHECK(z && z[99] == 7);
    omp_free(z, omp_default_mem_alloc);
    void *al = omp_aligned_alloc(64, 10, omp_null_allocator);
    CHECK(al && ((uintptr_t)al & 63) == 0);
    omp_free(al, omp_null_allocator);
    omp_destroy_allocator(a);
    CHECK_EQ(omp_get_default_allocator(), omp_default_mem_alloc);
    /* host teams: every team runs once, with its number */
    int seen[8] = { 0 }, nteams = 0;
#pragma omp teams num_teams(4)
    {
        seen[omp_get_team_num()]++;
        if (omp_get_team_num() == 0)
            nteams = omp_get_num_teams();
    }
    CHECK_EQ(nteams, 4);
    for (int i = 0; i < 4; i++)
        CHECK_EQ(seen[i], 1);
    /* a target region runs on the host */
    int on_host = 0, fp = 5, sum = 0;
#pragma omp target map(tofrom : on_host, sum) firstprivate(fp)
    {
        on_host = omp_is_initial_device();
        fp += 1;
#pragma omp parallel for reduction(+ : sum) num_threads(2)
        for (int i = 0; i < 100; i++)
            sum += i;
    }
    CHECK_EQ(on_host, 1);
    CHECK_EQ(fp, 5); /* firstprivate: the region had its own copy */
    CHECK_EQ(sum, 4950);
    /* target memory on the host */
    int dev = omp_get_initial_device();
    int *d = omp_target_alloc(16 * sizeof(int), dev);
    int src[16];
    for (int i = 0; i < 16; i++)
        src[i] = i;
    CHECK(d);
    CHECK_EQ(omp_target_memcpy(d, src, sizeof(src), 0, 0, dev, dev), 0);
    CHECK_EQ(d[15], 15);
    int m2[4][4] = { { 0 } };
    size_t vol[2] = { 2, 2 }, off0[2] = { 1, 1 }, offs[2] = { 0, 0 }, dims[2] = { 4, 4 };
    CHECK_EQ(omp_target_memcpy_rect(m2, d, sizeof(int), 2, vol, off0, offs, dims, dims, dev, dev),
             0);
    CHECK_EQ(m2[1][1], 0);
    CHECK_EQ(m2[1][2], 1);
    CHECK_EQ(m2[2][1], 4);
    CHECK_EQ(m2[2][2], 5);
    CHECK(omp_target_is_present(d, dev));
    omp_target_free(d, dev);
    /* affinity capture */
    char buf[256];
    size_t n = 0;
#pragma omp parallel num_threads(2)
    if (omp_get_thread_num() == 1)
        n = omp_capture_affinity(buf, sizeof(buf), "%04n|%N|%L|%{thread_num}");
    CHECK_EQ(n, strlen("0001|2|1|1"));
    CHECK(strcmp(buf, "0001|2|1|1") == 0);
    omp_set_affinity_format("x%Ly");
    CHECK_EQ(omp_get_affinity_format(buf, sizeof(buf)), 4);
    CHECK(strcmp(buf, "x%Ly") == 0);
    CHECK_EQ(omp_pause_resource_all(omp_pause_soft), 0);
    int after = 0;
#pragma omp parallel num_threads(2) reduction(+ : after)
    after += 1;
    CHECK_EQ(after, 2);
    return 0;
}
