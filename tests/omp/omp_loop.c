/* Worksharing loops: every schedule (static with and without chunk, dynamic, guided,
 * runtime, auto; monotonic and nonmonotonic), signed and unsigned long long, downward
 * loops, ordered, nowait, lastprivate, reductions, and the combined parallel for. */
#include "omp_test.h"

#define N 10007
static int hit[N];

static void reset(void) { memset(hit, 0, sizeof(hit)); }
static void all_once(void)
{
    for (int i = 0; i < N; i++)
        CHECK_EQ(hit[i], 1);
}

int main(void)
{
    check_runtime_is_weft();
    omp_set_num_threads(4);
#define PRAGMA(x) _Pragma(#x)
#define LOOP(...)                                  \
    reset();                                       \
    PRAGMA(omp parallel for schedule(__VA_ARGS__)) \
    for (int i = 0; i < N; i++) {                  \
        PRAGMA(omp atomic)                         \
        hit[i]++;                                  \
    }                                              \
    all_once();
    LOOP(static)
    LOOP(static, 3)
    LOOP(dynamic)
    LOOP(dynamic, 17)
    LOOP(guided)
    LOOP(guided, 5)
    LOOP(auto)
    LOOP(runtime)
    LOOP(monotonic : dynamic, 4)
    LOOP(nonmonotonic : guided, 2)
    omp_set_schedule(omp_sched_static, 9);
    LOOP(runtime)
    omp_set_schedule(omp_sched_guided, 0);
    LOOP(runtime)
    int k;
    omp_sched_t kind;
    omp_get_schedule(&kind, &k);
    CHECK_EQ(kind, omp_sched_guided);
    /* downward, stride 3, unsigned long long, inside one region with nowait */
    unsigned long long usum = 0;
    long dsum = 0, last = -1;
#pragma omp parallel
    {
#pragma omp for schedule(dynamic, 5) reduction(+ : dsum) nowait
        for (long i = 1000; i > -1000; i -= 3)
            dsum += i;
#pragma omp for schedule(guided) reduction(+ : usum)
        for (unsigned long long u = 5; u < 100000ULL; u += 7)
            usum += u;
#pragma omp for schedule(static, 7) lastprivate(last)
        for (long i = 0; i < 1000; i++)
            last = i;
    }
    long de = 0;
    for (long i = 1000; i > -1000; i -= 3)
        de += i;
    unsigned long long ue = 0;
    for (unsigned long long u = 5; u < 100000ULL; u += 7)
        ue += u;
    CHECK_EQ(dsum, de);
    CHECK(usum == ue);
    CHECK_EQ(last, 999);
    /* ull downward */
    unsigned long long dn = 0;
#pragma omp parallel for schedule(dynamic, 3) reduction(+ : dn)
    for (unsigned long long u = 1000; u > 10; u -= 2)
        dn += u;
    unsigned long long dne = 0;
    for (unsigned long long u = 1000; u > 10; u -= 2)
        dne += u;
    CHECK(dn == dne);
    /* ordered: iterations enter in order */
    int order[300], pos = 0;
#pragma omp parallel for ordered schedule(dynamic, 2)
    for (int i = 0; i < 300; i++) {
#pragma omp ordered
        order[pos++] = i;
    }
    for (int i = 0; i < 300; i++)
        CHECK_EQ(order[i], i);
    pos = 0;
#pragma omp parallel for ordered schedule(static)
    for (int i = 0; i < 300; i++) {
#pragma omp ordered
        order[pos++] = i;
    }
    for (int i = 0; i < 300; i++)
        CHECK_EQ(order[i], i);
    /* empty loops */
    int any = 0;
#pragma omp parallel for schedule(dynamic)
    for (int i = 0; i < 0; i++)
        any = 1;
    CHECK_EQ(any, 0);
    /* orphaned loop outside any region */
    reset();
#pragma omp for schedule(dynamic, 3)
    for (int i = 0; i < N; i++)
        hit[i]++;
    all_once();
    return 0;
}
