/* tests/omp/omp_test.h - helpers of the OpenMP face's tests: CHECK prints both sides,
 * slow() scales work down under WEFT_TEST_SLOW, and every test first makes sure it runs
 * on libweft-omp, with no libgomp in the process. */
#ifndef OMP_TEST_H
#define OMP_TEST_H
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_EQ(a, b)                                                                          \
    do {                                                                                        \
        long long _a = (long long)(a), _b = (long long)(b);                                     \
        if (_a != _b) {                                                                         \
            fprintf(stderr, "%s:%d: %s == %lld, expected %s == %lld\n", __FILE__, __LINE__, #a, \
                    _a, #b, _b);                                                                \
            exit(1);                                                                            \
        }                                                                                       \
    } while (0)
#define CHECK(c)                                                            \
    do {                                                                    \
        if (!(c)) {                                                         \
            fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #c); \
            exit(1);                                                        \
        }                                                                   \
    } while (0)

static inline int slow(void) { return getenv("WEFT_TEST_SLOW") != NULL; }

static int lib_seen(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    int *flags = data;
    if (strstr(info->dlpi_name, "libgomp"))
        flags[0] = 1;
    if (strstr(info->dlpi_name, "libweft-omp"))
        flags[1] = 1;
    return 0;
}

/* The OpenMP runtime of this process is libweft-omp and libgomp is not loaded. */
static inline void check_runtime_is_weft(void)
{
    int flags[2] = { 0, 0 };
    dl_iterate_phdr(lib_seen, flags);
    Dl_info info;
    void *sym = dlsym(RTLD_DEFAULT, "omp_get_thread_num");
    CHECK(sym && dladdr(sym, &info) && strstr(info.dli_fname, "weft-omp"));
    if (!getenv("OMP_TEST_PRELOAD")) {
        CHECK(!flags[0]);
    }
    CHECK(flags[1]);
}
#endif
