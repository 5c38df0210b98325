/* gdb_ults: the gdb script (tools/gdb/weft.py, loaded by gdb's auto-load from the build
 * tree's copy, laid out as the installed one) lists every ULT of a program with ULTs in
 * every state on 2 streams, live and from a core file, and unwinds parked ones.
 *
 * Run without arguments it is the driver: it runs gdb in batch mode on itself with the
 * argument "target DIR".  The target makes, on the primary stream (pool of rank 0): the
 * primary ULT (running), a ULT that yields (ready), one waiting on an eventual three calls
 * deep (blocked), one joining a ULT that runs on the other stream (blocked), one suspended
 * (suspended), one that joins a fresh child (which runs on its joiner's stack and waits on
 * the eventual: both blocked; the child's stack is "borrowed", the joiner's backtrace
 * goes through the child's), one created and never run (created); on stream 1, a ULT
 * that spins (running).  It writes the expected table (id, state, stream, function) and
 * a gdb command file (weft ults, weft bt of each, weft streams, weft pools), then stops
 * with SIGTRAP.  gdb sources that file, takes a core (gcore) and kills it; a second gdb
 * sources it again on the core file.  Each output must list exactly those ULTs with
 * those ids, states, streams and functions, and the backtraces of the parked ones must
 * show their frames by name, with arguments (this test is built with -g).
 * WEFT_TEST_GCORE=1 takes the gcore way.  Skipped when gdb is not installed (scripts install it),
 * or cannot trace here. */
#define _GNU_SOURCE
#define TEST_NO_LIFECYCLE
#include <abt.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child_test.h"
#include "test.h"

/* ThreadSanitizer builds do not lend stacks (tests/fork_lend.c): the checks of the lend
 * are skipped there */
#if defined(__SANITIZE_THREAD__)
#define NO_LEND 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define NO_LEND 1
#endif
#endif
#ifndef NO_LEND
#define NO_LEND 0
#endif

#ifndef WEFT_GDB_AUTOLOAD_DIR
#error "tests/CMakeLists.txt defines WEFT_GDB_AUTOLOAD_DIR"
#endif

/* ------------------------------------------------------------------ the target */

static ABT_eventual ev;
static atomic_int stop_spin, spinning, yields;

__attribute__((noinline)) static void spin_fn(void *arg)
{
    atomic_store(&spinning, 1);
    while (!atomic_load(&stop_spin))
        ;
}

__attribute__((noinline)) static void ready_fn(void *arg)
{
    for (;;) {
        atomic_fetch_add(&yields, 1);
        ABT_thread_yield();
    }
}

__attribute__((noinline)) static int wait_deep(int depth, const char *why)
{
    volatile int here = depth * 10;
    if (depth > 0)
        return wait_deep(depth - 1, why) + here;
    ABT_eventual_wait(ev, NULL);
    return here;
}

__attribute__((noinline)) static void blocked_fn(void *arg) { wait_deep(3, "eventual"); }

__attribute__((noinline)) static void joiner_fn(void *arg)
{
    ABT_thread t = *(ABT_thread *)arg;
    ABT_thread_join(t);
}

__attribute__((noinline)) static void suspend_fn(void *arg) { ABT_self_suspend(); }

__attribute__((noinline)) static void lent_child_fn(void *arg) { wait_deep(1, "lent"); }

static ABT_thread lent_child;
__attribute__((noinline)) static void lender_fn(void *arg)
{
    ABT_pool pool = arg;
    ABT_thread_create(pool, lent_child_fn, NULL, ABT_THREAD_ATTR_NULL, &lent_child);
    ABT_thread_join(lent_child);
}

__attribute__((noinline)) static void created_fn(void *arg) {}

static int state_of(ABT_thread t)
{
    ABT_thread_state s;
    ABT_thread_get_state(t, &s);
    return (int)s;
}

static int target(const char *dir, int dump)
{
    char path[4096];
    CHECK_ABT(ABT_init(0, NULL));
    ABT_xstream xs1;
    ABT_pool p0, p1;
    CHECK_ABT(ABT_xstream_create(ABT_SCHED_NULL, &xs1));
    ABT_xstream self;
    CHECK_ABT(ABT_self_get_xstream(&self));
    CHECK_ABT(ABT_xstream_get_main_pools(self, 1, &p0));
    CHECK_ABT(ABT_xstream_get_main_pools(xs1, 1, &p1));
    CHECK_ABT(ABT_eventual_create(0, &ev));

    ABT_thread spin, ready, blocked, joiner, susp, lender, created, me;
    CHECK_ABT(ABT_thread_create(p1, spin_fn, NULL, ABT_THREAD_ATTR_NULL, &spin));
    while (!atomic_load(&spinning))
        ABT_thread_yield();
    CHECK_ABT(ABT_thread_create(p0, ready_fn, NULL, ABT_THREAD_ATTR_NULL, &ready));
    CHECK_ABT(ABT_thread_create(p0, blocked_fn, NULL, ABT_THREAD_ATTR_NULL, &blocked));
    CHECK_ABT(ABT_thread_create(p0, joiner_fn, &spin, ABT_THREAD_ATTR_NULL, &joiner));
    CHECK_ABT(ABT_thread_create(p0, suspend_fn, NULL, ABT_THREAD_ATTR_NULL, &susp));
    /* a joiner whose stack has room for its child's: the child runs on it (lent) */
    ABT_thread_attr big;
    CHECK_ABT(ABT_thread_attr_create(&big));
    CHECK_ABT(ABT_thread_attr_set_stacksize(big, 1 << 20));
    CHECK_ABT(ABT_thread_create(p0, lender_fn, p0, big, &lender));
    CHECK_ABT(ABT_thread_attr_free(&big));
    for (int i = 0; i < 100000; i++) {
        if (state_of(blocked) == ABT_THREAD_STATE_BLOCKED &&
            state_of(joiner) == ABT_THREAD_STATE_BLOCKED &&
            state_of(susp) == ABT_THREAD_STATE_BLOCKED &&
            state_of(lender) == ABT_THREAD_STATE_BLOCKED && lent_child != ABT_THREAD_NULL &&
            state_of(lent_child) == ABT_THREAD_STATE_BLOCKED && atomic_load(&yields) > 2)
            break;
        ABT_thread_yield();
    }
    CHECK(state_of(lent_child) == ABT_THREAD_STATE_BLOCKED);
    CHECK_ABT(ABT_thread_create(p0, created_fn, NULL, ABT_THREAD_ATTR_NULL, &created));
    CHECK_ABT(ABT_self_get_thread(&me));

    struct {
        ABT_thread t;
        const char *state, *fn;
        int stream;
    } ex[] = {
        { me, "running", "(primary)", 0 },        { spin, "running", "spin_fn", 1 },
        { ready, "ready", "ready_fn", 0 },        { blocked, "blocked", "blocked_fn", 0 },
        { joiner, "blocked", "joiner_fn", 0 },    { susp, "suspended", "suspend_fn", 0 },
        { lender, "blocked", "lender_fn", 0 },    { lent_child, "blocked", "lent_child_fn", 0 },
        { created, "created", "created_fn", -1 },
    };
    snprintf(path, sizeof(path), "%s/expect", dir);
    FILE *e = fopen(path, "w");
    snprintf(path, sizeof(path), "%s/cmds", dir);
    FILE *c = fopen(path, "w");
    CHECK(e && c);
    fprintf(c, "weft ults\nweft streams\nweft pools\n");
    for (size_t i = 0; i < sizeof(ex) / sizeof(ex[0]); i++) {
        ABT_unit_id id;
        CHECK_ABT(ABT_thread_get_id(ex[i].t, &id));
        fprintf(e, "%llu %s %d %s\n", (unsigned long long)id, ex[i].state, ex[i].stream, ex[i].fn);
        fprintf(c, "echo ==bt %llu\\n\nweft bt %llu\n", (unsigned long long)id,
                (unsigned long long)id);
    }
    fprintf(c, "echo ==ults blocked\\n\nweft ults --state blocked\n");
    fprintf(c, "echo ==ults func\\n\nweft ults --func ^lent\n");
    fprintf(c, "echo ==end\\n\n");
    fclose(e);
    fclose(c);
    if (dump) { /* a core file from the kernel, in dir */
        struct rlimit rl = { RLIM_INFINITY, RLIM_INFINITY };
        setrlimit(RLIMIT_CORE, &rl);
        prctl(PR_SET_DUMPABLE, 1);
        if (chdir(dir) != 0)
            return 1;
        abort();
    }
    raise(SIGTRAP); /* gdb takes over; it kills the process */
    return 1;
}

/* ------------------------------------------------------------------ the driver */

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *b = malloc(cap);
    size_t r;
    while (b && (r = fread(b + n, 1, cap - n - 1, f)) > 0) {
        n += r;
        if (n + 1 == cap) {
            char *nb = realloc(b, cap *= 2);
            if (!nb) {
                free(b);
                b = NULL;
                break;
            }
            b = nb;
        }
    }
    fclose(f);
    if (b)
        b[n] = 0;
    return b;
}

/* Run argv with stdout and stderr into `out`; the exit status, -1 if it could not run. */
static int run(char *const argv[], const char *out)
{
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0) {
        child_dies_with_parent(parent);
        FILE *o = freopen(out, "w", stdout);
        if (!o || dup2(1, 2) < 0)
            _exit(126);
        execvp(argv[0], argv);
        _exit(127);
    }
    int st;
    if (pid < 0 || waitpid(pid, &st, 0) != pid)
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* The section of `out` between "==NAME" and the next "==" line. */
static char *section(const char *out, const char *name)
{
    char mark[128];
    snprintf(mark, sizeof(mark), "==%s\n", name);
    const char *s = strstr(out, mark);
    if (!s)
        return NULL;
    s += strlen(mark);
    const char *end = strstr(s, "\n==");
    size_t n = end ? (size_t)(end - s) + 1 : strlen(s);
    char *r = malloc(n + 1);
    memcpy(r, s, n);
    r[n] = 0;
    return r;
}

/* A line of `weft ults` for id: its words. */
static int ults_line(const char *out, unsigned long long id, char st[32], char stream[16],
                     char fn[128])
{
    char key[32];
    snprintf(key, sizeof(key), "\n%llu ", id);
    const char *l = strstr(out, key);
    if (!l)
        return 0;
    char pool[16];
    return sscanf(l + 1, "%*s %31s %15s %15s %127s", st, stream, pool, fn) == 4;
}

static int check_output(const char *what, const char *out, const char *expect, int *nults)
{
    int bad = 0;
    char *ults = strstr(out, "ID ") ? strdup(strstr(out, "ID ") - 1) : NULL;
    if (!ults) {
        fprintf(stderr, "%s: no `weft ults` table\n", what);
        return 1;
    }
    char *endt = strstr(ults, " ULTs\n");
    if (endt)
        endt[6] = 0;
    const char *e = expect;
    int n = 0;
    while (*e) {
        unsigned long long id;
        char st[32], fn[128], gst[32], gstream[16], gfn[128];
        int stream, used;
        if (sscanf(e, "%llu %31s %d %127s%n", &id, st, &stream, fn, &used) != 4)
            break;
        e += used;
        while (*e == '\n')
            e++;
        n++;
        if (!ults_line(ults, id, gst, gstream, gfn)) {
            fprintf(stderr, "%s: ULT %llu (%s) not listed\n", what, id, fn);
            bad = 1;
            continue;
        }
        if (!strcmp(fn, "lent_child_fn") && !NO_LEND) {
            char key[32];
            snprintf(key, sizeof(key), "\n%llu ", id);
            const char *l = strstr(ults, key), *nl = l ? strchr(l + 1, '\n') : NULL;
            const char *b = l ? strstr(l, " borrowed") : NULL;
            if (!b || (nl && b > nl)) {
                fprintf(stderr, "%s: ULT %llu is not shown on a borrowed stack\n", what, id);
                bad = 1;
            }
        }
        char want_stream[16];
        snprintf(want_stream, sizeof(want_stream), "%d", stream);
        if (strcmp(gst, st) || (stream >= 0 && strcmp(gstream, want_stream)) ||
            (stream < 0 && strcmp(gstream, "-")) || strcmp(gfn, fn)) {
            fprintf(stderr, "%s: ULT %llu: got %s stream %s %s, expected %s stream %d %s\n", what,
                    id, gst, gstream, gfn, st, stream, fn);
            bad = 1;
        }
        /* a parked ULT's backtrace names its frames */
        char name[32];
        snprintf(name, sizeof(name), "bt %llu", id);
        char *bt = section(out, name);
        if (!bt) {
            fprintf(stderr, "%s: no output of weft bt %llu\n", what, id);
            bad = 1;
            continue;
        }
        const char *need[4] = { NULL };
        if (!strcmp(fn, "blocked_fn")) {
            need[0] = "wait_deep (depth=0";
            need[1] = "wait_deep (depth=3";
            need[2] = "blocked_fn";
        } else if (!strcmp(fn, "lent_child_fn") && NO_LEND) {
            need[0] = "wait_deep (depth=1";
            need[1] = "lent_child_fn (";
        } else if (!strcmp(fn, "lender_fn") && NO_LEND) {
            need[0] = "lender_fn (";
        } else if (!strcmp(fn, "lent_child_fn")) {
            need[0] = "wait_deep (depth=1";
            need[1] = "lent_child_fn (";
            need[2] = "lender_fn ("; /* the joiner's frames lie beneath, on the same stack */
        } else if (!strcmp(fn, "lender_fn")) {
            need[0] = "its stack is lent to ULT";
            need[1] = "lender_fn (";
        } else if (!strcmp(st, "blocked") || !strcmp(st, "suspended") || !strcmp(st, "ready") ||
                   !strcmp(fn, "spin_fn")) {
            need[0] = fn;
        } else if (!strcmp(st, "created")) {
            need[0] = "not started yet";
        }
        for (int k = 0; need[k]; k++)
            if (!strstr(bt, need[k])) {
                fprintf(stderr, "%s: weft bt %llu lacks \"%s\":\n%s", what, id, need[k], bt);
                bad = 1;
            }
        if (strstr(bt, "Backtrace stopped") && strcmp(st, "running")) {
            fprintf(stderr, "%s: weft bt %llu: unwinding failed:\n%s", what, id, bt);
            bad = 1;
        }
        free(bt);
    }
    char count[32];
    snprintf(count, sizeof(count), "\n%d ULTs\n", n);
    if (!strstr(ults, count)) {
        fprintf(stderr, "%s: expected exactly %d ULTs:\n%s", what, n, ults);
        bad = 1;
    }
    char *blk = section(out, "ults blocked");
    if (!blk || !strstr(blk, "\n4 ULTs\n") || strstr(blk, "ready_fn")) {
        fprintf(stderr, "%s: weft ults --state blocked:\n%s", what, blk ? blk : "(none)");
        bad = 1;
    }
    free(blk);
    char *lent = section(out, "ults func");
    if (!lent || !strstr(lent, "\n1 ULT\n") || !strstr(lent, "lent_child_fn")) {
        fprintf(stderr, "%s: weft ults --func ^lent:\n%s", what, lent ? lent : "(none)");
        bad = 1;
    }
    free(lent);
    if (!strstr(out, "stream 0 (primary, running)") || !strstr(out, "stream 1 (secondary")) {
        fprintf(stderr, "%s: weft streams lacks a stream\n", what);
        bad = 1;
    }
    if (!strstr(out, "pool ") || !strstr(out, "ready=1")) {
        fprintf(stderr, "%s: weft pools lacks the ready ULT's pool\n", what);
        bad = 1;
    }
    *nults = n;
    free(ults);
    return bad;
}

static int driver(const char *self)
{
    if (system("gdb --version >/dev/null 2>&1") != 0)
        TEST_SKIP("gdb is not installed (apt-get install gdb)");
    /* the default fork-join technique: the lend checked below is its (WEFT_FORK=sc lends
     * otherwise; the rest holds for every technique) */
    unsetenv("WEFT_FORK");
    char dir[] = "/tmp/weft_gdb_XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char core[4200], cmds[4200], out1[4200], out2[4200], expect[4200], src_cmds[4300];
    char ex_run_cmds[4300], gcore[4300], safe[4300], scripts[4300];
    snprintf(core, sizeof(core), "%s/core", dir);
    snprintf(cmds, sizeof(cmds), "%s/cmds", dir);
    snprintf(out1, sizeof(out1), "%s/live.out", dir);
    snprintf(out2, sizeof(out2), "%s/core.out", dir);
    snprintf(expect, sizeof(expect), "%s/expect", dir);
    snprintf(src_cmds, sizeof(src_cmds), "source %s", cmds);
    snprintf(ex_run_cmds, sizeof(ex_run_cmds), "%s", src_cmds);
    snprintf(gcore, sizeof(gcore), "gcore %s", core);
    snprintf(safe, sizeof(safe), "set auto-load safe-path %s", WEFT_GDB_AUTOLOAD_DIR);
    snprintf(scripts, sizeof(scripts), "set auto-load scripts-directory %s", WEFT_GDB_AUTOLOAD_DIR);

    char *live[] = { "gdb",       "-nx",        "-batch",
                     "-iex",      safe,         "-iex",
                     scripts,     "-iex",       "set debuginfod enabled off",
                     "-ex",       "run",        "-ex",
                     ex_run_cmds, "-ex",        "kill",
                     "--args",    (char *)self, "target",
                     dir,         NULL };
    int rc = run(live, out1);
    char *o1 = slurp(out1);
    char *ex = slurp(expect);
    if (!ex) {
        if (o1 && (strstr(o1, "ptrace") || strstr(o1, "Operation not permitted")))
            TEST_SKIP("gdb cannot trace processes here: %s", o1);
        TEST_FAIL("the target did not reach its stop (gdb exit %d):\n%s", rc, o1 ? o1 : "");
    }
    if (!o1 || !strstr(o1, "==end"))
        TEST_FAIL("gdb on the live process failed (exit %d):\n%s", rc, o1 ? o1 : "");
    int n1 = 0, n2 = 0;
    int bad = check_output("live", o1, ex, &n1);
    if (bad)
        fprintf(stderr, "--- live gdb output ---\n%s", o1);
    free(ex);
    unlink(expect);

    /* The core: the kernel's (abort with RLIMIT_CORE raised, core_pattern naming a file in
     * the working directory), else gdb's gcore of the stopped target.  gcore reads each
     * mapping whole and loses the stack arenas that hold guard markers (Linux 6.13), so
     * the target runs without guard pages there (ABT_STACK_OVERFLOW_CHECK=none). */
    char pattern[256] = "";
    FILE *cp = fopen("/proc/sys/kernel/core_pattern", "r");
    if (cp) {
        if (!fgets(pattern, sizeof(pattern), cp))
            pattern[0] = 0;
        fclose(cp);
    }
    core[0] = 0;
    if (pattern[0] && pattern[0] != '|' && pattern[0] != '/' && !getenv("WEFT_TEST_GCORE")) {
        char *dump[] = { (char *)self, "dump", dir, NULL };
        char dout[4300];
        snprintf(dout, sizeof(dout), "%s/dump.out", dir);
        run(dump, dout);
        unlink(dout);
        DIR *d = opendir(dir);
        struct dirent *de;
        while (d && (de = readdir(d)))
            if (!strncmp(de->d_name, "core", 4))
                snprintf(core, sizeof(core), "%s/%s", dir, de->d_name);
        if (d)
            closedir(d);
    }
    if (!core[0]) {
        snprintf(core, sizeof(core), "%s/gcore", dir);
        snprintf(gcore, sizeof(gcore), "gcore %s", core);
        char *take[] = { "gdb",  "-nx",    "-batch",     "-iex",   "set debuginfod enabled off",
                         "-ex",  "run",    "-ex",        gcore,    "-ex",
                         "kill", "--args", (char *)self, "target", dir,
                         NULL };
        setenv("ABT_STACK_OVERFLOW_CHECK", "none", 1);
        rc = run(take, out2);
        unsetenv("ABT_STACK_OVERFLOW_CHECK");
    }
    ex = slurp(expect);
    if (!ex)
        TEST_FAIL("the target did not reach its stop a second time");
    struct stat sb;
    if (stat(core, &sb) != 0)
        TEST_FAIL("no core file (core_pattern %s)", pattern);
    fprintf(stderr, "core file: %s\n", core);
    char *oncore[] = { "gdb",   "-nx",    "-batch",
                       "-iex",  safe,     "-iex",
                       scripts, "-iex",   "set debuginfod enabled off",
                       "-ex",   src_cmds, (char *)self,
                       core,    NULL };
    rc = run(oncore, out2);
    char *o2 = slurp(out2);
    if (!o2 || !strstr(o2, "==end"))
        TEST_FAIL("gdb on the core file failed (exit %d):\n%s", rc, o2 ? o2 : "");
    int bad2 = check_output("core", o2, ex, &n2);
    if (bad2)
        fprintf(stderr, "--- core gdb output ---\n%s", o2);
    if (!bad && !bad2) {
        unlink(core);
        unlink(cmds);
        unlink(out1);
        unlink(out2);
        unlink(expect);
        rmdir(dir);
    } else {
        fprintf(stderr, "files kept in %s\n", dir);
    }
    free(o1);
    free(o2);
    free(ex);
    return bad || bad2;
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "target"))
        return target(argv[2], 0);
    if (argc == 3 && !strcmp(argv[1], "dump"))
        return target(argv[2], 1);
    return driver(argv[0]);
}
