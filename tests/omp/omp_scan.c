/* reduction(inscan) with scan inclusive / exclusive: combined parallel for and for
 * inside a region, with and without simd, sum and max, several trip counts (none, fewer
 * than the threads, not a multiple of them), back-to-back scans in one region, a scan
 * followed by other constructs, an orphaned scan loop (in a region and outside any), and
 * lastprivate(conditional) (it uses the same team memory, GOMP_loop_start's and
 * GOMP_sections2_start's `mem`).  Every result is checked
 * against a serial computation.  Run with OMP_NUM_THREADS 1, 2 and 4 (CMakeLists.txt);
 * gcc rejects a schedule clause with inscan, so every loop is static whatever
 * OMP_SCHEDULE says (one registration sets it). */
#include "omp_test.h"

/* gcc warns about its own private copy of a lastprivate(conditional) sections variable. */
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#define NMAX 10007
static long a[NMAX], out[NMAX], out2[NMAX], ref[NMAX];
static const int sizes[] = { 0, 1, 3, 7, 64, 1000, NMAX };
#define PRAGMA(x) _Pragma(#x)

static void fill(int n, unsigned seed)
{
    for (int i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        a[i] = (long)((seed >> 16) % 1000) - 300;
    }
}

static void ref_sum(int n, int inclusive)
{
    long s = 0;
    for (int i = 0; i < n; i++) {
        if (inclusive) {
            s += a[i];
            ref[i] = s;
        } else {
            ref[i] = s;
            s += a[i];
        }
    }
}

static void check_out(const long *o, int n, const char *what)
{
    for (int i = 0; i < n; i++) {
        if (o[i] != ref[i]) {
            fprintf(stderr, "%s, n=%d, threads=%d: out[%d] = %ld, expected %ld\n", what, n,
                    omp_get_max_threads(), i, o[i], ref[i]);
            exit(1);
        }
    }
}

static long total(int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += a[i];
    return s;
}

/* The four combinations of combined/orphaned and simd for one kind of scan. */
#define SCAN_INCL(head)                           \
    do {                                          \
        PRAGMA(omp head reduction(inscan, + : x)) \
        for (int i = 0; i < n; i++) {             \
            x += a[i];                            \
            PRAGMA(omp scan inclusive(x))         \
            out[i] = x;                           \
        }                                         \
    } while (0)
#define SCAN_EXCL(head)                           \
    do {                                          \
        PRAGMA(omp head reduction(inscan, + : x)) \
        for (int i = 0; i < n; i++) {             \
            out[i] = x;                           \
            PRAGMA(omp scan exclusive(x))         \
            x += a[i];                            \
        }                                         \
    } while (0)

static void sums(int n)
{
    static const char *names[] = { "parallel for", "parallel for simd", "for in parallel",
                                   "for simd in parallel" };
    for (int incl = 0; incl < 2; incl++) {
        ref_sum(n, incl);
        for (int form = 0; form < 4; form++) {
            long x = 0;
            memset(out, 0x5a, sizeof(out));
            switch (form * 2 + incl) {
            case 0: SCAN_EXCL(parallel for);
                break;
            case 1: SCAN_INCL(parallel for);
                break;
            case 2: SCAN_EXCL(parallel for simd);
                break;
            case 3: SCAN_INCL(parallel for simd);
                break;
            case 4:
#pragma omp parallel
                SCAN_EXCL(for);
                break;
            case 5:
#pragma omp parallel
                SCAN_INCL(for);
                break;
            case 6:
#pragma omp parallel
                SCAN_EXCL(for simd);
                break;
            case 7:
#pragma omp parallel
                SCAN_INCL(for simd);
                break;
            }
            char what[64];
            snprintf(what, sizeof(what), "%s %s", names[form], incl ? "inclusive" : "exclusive");
            check_out(out, n, what);
            if (x != total(n)) {
                fprintf(stderr, "%s, n=%d: x = %ld, expected %ld\n", what, n, x, total(n));
                exit(1);
            }
        }
    }
}

/* Two scans back to back in one region (nowait: the second's memory is made while the
 * first's may still be in use), a max scan, then a single and a barrier. */
static void one_region(int n)
{
    long x = 0, y = 0, m = -1000000, singles = 0;
#pragma omp parallel num_threads(3)
    {
#pragma omp for reduction(inscan, + : x) nowait
        for (int i = 0; i < n; i++) {
            x += a[i];
#pragma omp scan inclusive(x)
            out[i] = x;
        }
#pragma omp for simd reduction(inscan, + : y) reduction(inscan, max : m)
        for (int i = 0; i < n; i++) {
            out2[i] = y;
            ref[i] = m;
#pragma omp scan exclusive(y, m)
            y += a[i];
            m = a[i] > m ? a[i] : m;
        }
#pragma omp single
        singles++;
    }
    long *mx = malloc(sizeof(long) * (n ? n : 1));
    CHECK(mx);
    memcpy(mx, ref, sizeof(long) * n);
    ref_sum(n, 1);
    check_out(out, n, "first of two scans");
    ref_sum(n, 0);
    check_out(out2, n, "second of two scans");
    long mm = -1000000;
    for (int i = 0; i < n; i++) {
        CHECK_EQ(mx[i], mm);
        mm = a[i] > mm ? a[i] : mm;
    }
    free(mx);
    CHECK_EQ(x, total(n));
    CHECK_EQ(y, total(n));
    CHECK_EQ(m, mm);
    CHECK_EQ(singles, 1);
}

/* An orphaned scan loop: called outside any region (its thread is a team of one) and
 * from every thread of a region. */
static long gx;
static void orphaned_scan(int n)
{
#pragma omp for reduction(inscan, + : gx)
    for (int i = 0; i < n; i++) {
        gx += a[i];
#pragma omp scan inclusive(gx)
        out[i] = gx;
    }
}

static void orphaned(int n)
{
    ref_sum(n, 1);
    for (int r = 0; r < 2; r++) {
        gx = 0;
        memset(out, 0x5a, sizeof(out));
        if (r == 0) {
            orphaned_scan(n);
        } else {
#pragma omp parallel
            orphaned_scan(n);
        }
        check_out(out, n, r == 0 ? "orphaned scan outside a region" : "orphaned scan");
        CHECK_EQ(gx, total(n));
    }
}

/* lastprivate(conditional:) keeps each thread's last assignment in the team memory. */
static void conditional(int n)
{
    int last = -1, lastsec = -1, want = -1;
    for (int i = 0; i < n; i++)
        if (a[i] > 500)
            want = i;
#pragma omp parallel
    {
#pragma omp for lastprivate(conditional : last)
        for (int i = 0; i < n; i++)
            if (a[i] > 500)
                last = i;
#pragma omp sections lastprivate(conditional : lastsec)
        {
#pragma omp section
            {
                if (n > 0)
                    lastsec = 1;
            }
#pragma omp section
            {
                if (n > 1000)
                    lastsec = 2;
            }
        }
    }
    CHECK_EQ(last, want);
    CHECK_EQ(lastsec, n > 1000 ? 2 : n > 0 ? 1 : -1);
}

int main(void)
{
    check_runtime_is_weft();
    int rounds = slow() ? 2 : 10;
    for (int r = 0; r < rounds; r++) {
        for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
            int n = sizes[k];
            fill(n, (unsigned)(r * 31 + k));
            sums(n);
            one_region(n);
            orphaned(n);
            conditional(n);
        }
    }
    return 0;
}
