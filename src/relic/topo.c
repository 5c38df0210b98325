/* src/relic/topo.c - placing a Relic's assistant (the policy is in topo.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <ctype.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "relic/topo.h"

#define NCPU CPU_SETSIZE

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static int held[NCPU]; /* Relic main threads and assistants per CPU (reg_lock) */

bool rl_parse_cpulist(const char *s, bool *set, int n)
{
    memset(set, 0, sizeof(bool) * (size_t)n);
    while (*s && *s != '\n') {
        char *end;
        if (!isdigit((unsigned char)*s))
            return false;
        long a = strtol(s, &end, 10), b = a;
        s = end;
        if (*s == '-') {
            if (!isdigit((unsigned char)s[1]))
                return false;
            b = strtol(s + 1, &end, 10);
            s = end;
        }
        if (b < a)
            return false;
        for (long c = a; c <= b && c < n; c++)
            set[c] = true;
        if (*s == ',')
            s++;
        else if (*s && *s != '\n')
            return false;
    }
    return true;
}

/* The first line of a sysfs file of cpu<cpu>/topology, NULL-free: "" when unreadable. */
static void topo_read(int cpu, const char *what, char *buf, size_t len)
{
    char path[128];
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, what);
    buf[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    if (!fgets(buf, (int)len, f))
        buf[0] = '\0';
    fclose(f);
}

static int topo_package(int cpu)
{
    char buf[32];
    topo_read(cpu, "physical_package_id", buf, sizeof buf);
    return buf[0] ? atoi(buf) : -1;
}

/* The best allowed CPU other than m; lower cost is better:
 * (held by a Relic) > (other package) > (not an SMT sibling of m, then distance to m). */
static int pick_locked(int m, const cpu_set_t *allowed)
{
    static bool sib[NCPU]; /* reg_lock */
    char buf[512];
    memset(sib, 0, sizeof sib);
    int pkg_m = -1;
    if (m >= 0 && m < NCPU) {
        topo_read(m, "thread_siblings_list", buf, sizeof buf);
        if (!buf[0] || !rl_parse_cpulist(buf, sib, NCPU))
            memset(sib, 0, sizeof sib);
        pkg_m = topo_package(m);
    }
    int best = -1;
    long best_cost = 0;
    for (int c = 0; c < NCPU; c++) {
        if (c == m || !CPU_ISSET(c, allowed))
            continue;
        long cost = sib[c] ? 0 : 1 + labs((long)c - (m < 0 ? 0 : m));
        if (pkg_m >= 0 && topo_package(c) != pkg_m)
            cost += 1L << 20;
        if (held[c])
            cost += 1L << 30;
        if (best < 0 || cost < best_cost)
            best = c, best_cost = cost;
    }
    return best;
}

/* The CPUs the assistant may use: the caller's own mask, unless the caller is pinned to a
 * single CPU (the recommended set-up for a main thread), then every online CPU (a CPU the
 * cgroup refuses makes pthread_create fail, and the caller retries unpinned). */
static void allowed_cpus(cpu_set_t *set)
{
    CPU_ZERO(set);
    if (sched_getaffinity(0, sizeof *set, set) == 0 && CPU_COUNT(set) > 1)
        return;
    char buf[512];
    static bool online[NCPU]; /* reg_lock */
    FILE *f = fopen("/sys/devices/system/cpu/online", "r");
    bool ok = f && fgets(buf, sizeof buf, f) && rl_parse_cpulist(buf, online, NCPU);
    if (f)
        fclose(f);
    if (!ok)
        return; /* keep the caller's mask */
    CPU_ZERO(set);
    for (int c = 0; c < NCPU; c++)
        if (online[c])
            CPU_SET(c, set);
}

void rl_place_pick(struct rl_place *pl)
{
    cpu_set_t allowed;
    pl->main_cpu = sched_getcpu();
    pl->cpu = -1;

    pthread_mutex_lock(&reg_lock);
    allowed_cpus(&allowed);
    pl->single_cpu = CPU_COUNT(&allowed) <= 1;
    const char *env = getenv("RELIC_ASSISTANT_CPU");
    if (env && *env) {
        int c = atoi(env);
        pl->cpu = c >= 0 && c < NCPU ? c : -1;
    } else if (!pl->single_cpu) {
        pl->cpu = pick_locked(pl->main_cpu, &allowed);
    }
    if (pl->cpu >= 0 && pl->cpu == pl->main_cpu)
        pl->single_cpu = true; /* both on one CPU: neither side may spin */
    if (pl->main_cpu >= 0 && pl->main_cpu < NCPU)
        held[pl->main_cpu]++;
    if (pl->cpu >= 0)
        held[pl->cpu]++;
    pthread_mutex_unlock(&reg_lock);
}

void rl_place_release(const struct rl_place *pl)
{
    pthread_mutex_lock(&reg_lock);
    if (pl->main_cpu >= 0 && pl->main_cpu < NCPU)
        held[pl->main_cpu]--;
    if (pl->cpu >= 0)
        held[pl->cpu]--;
    pthread_mutex_unlock(&reg_lock);
}
