/* src/core/tool/stack_unwind.c - the frames of a parked ULT (core/stack_unwind.h).
 *
 * The saved context of a parked ULT is the stack pointer at which the context switch
 * pushed the callee-saved registers and its return address (arch/switch_<arch>.S).  Those
 * registers, the return address as the program counter and the stack pointer above them
 * make a machine context from which libunwind's local unwinder steps through the frames
 * with the unwind tables (.eh_frame) of the program and its libraries; function names
 * come from their symbol tables, static functions included.  libunwind is loaded with
 * dlopen (libunwind.so.8, Debian's libunwind8) the first time a dump needs it: libweft
 * does not link it, and without it the dumps show the stack's words.  File and line come
 * from elfutils' libdw (libdw.so.1) the same way, where the object has debug information.  Its
 * header is needed at build time only (libunwind-dev; without it, words).  Under valgrind the
 * frames are not walked: libunwind reads other stacks' padding, which memcheck would report. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <inttypes.h>
#include <pthread.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

#include "core/tool/stack_unwind.h"

#if WEFT_USE_VALGRIND
#include <valgrind/valgrind.h>
#define ON_VALGRIND() RUNNING_ON_VALGRIND
#else
#define ON_VALGRIND() 0
#endif

#if WEFT_HAVE_LIBUNWIND_H && defined(__x86_64__) && !WEFT_CONTEXT_UCONTEXT
#define UNW_LOCAL_ONLY
#include <libunwind.h>

static struct {
    int (*init_local)(unw_cursor_t *, unw_context_t *);
    int (*step)(unw_cursor_t *);
    int (*get_reg)(unw_cursor_t *, unw_regnum_t, unw_word_t *);
    int (*get_proc_name)(unw_cursor_t *, char *, size_t, unw_word_t *);
} unw;
static bool unw_ok;
static pthread_once_t unw_once = PTHREAD_ONCE_INIT;

static void unw_load(void)
{
    void *h = dlopen("libunwind.so.8", RTLD_NOW | RTLD_LOCAL);
    if (!h)
        return;
    *(void **)&unw.init_local = dlsym(h, "_ULx86_64_init_local");
    *(void **)&unw.step = dlsym(h, "_ULx86_64_step");
    *(void **)&unw.get_reg = dlsym(h, "_ULx86_64_get_reg");
    *(void **)&unw.get_proc_name = dlsym(h, "_ULx86_64_get_proc_name");
    unw_ok = unw.init_local && unw.step && unw.get_reg && unw.get_proc_name;
}

/* File and line of an address, from the DWARF line tables when the object has them:
 * elfutils' libdw (libdw.so.1, Debian's libdw1), loaded like libunwind.  The few entry
 * points of its documented libdwfl interface are declared here (no libdw-dev needed).
 * One session for the process, made at the first lookup and reported again when an
 * address lies in no module it knows (a library loaded since); dw_lock guards it. */
typedef struct dwfl_s dwfl_t;
typedef struct dwfl_mod_s dwfl_mod_t;
typedef struct dwfl_line_s dwfl_line_t;
struct dwfl_callbacks {
    int (*find_elf)(void);
    int (*find_debuginfo)(void);
    int (*section_address)(void);
    char **debuginfo_path;
};
static struct {
    dwfl_t *(*begin)(const struct dwfl_callbacks *);
    int (*proc_report)(dwfl_t *, pid_t);
    int (*report_end)(dwfl_t *, void *, void *);
    dwfl_mod_t *(*addrmodule)(dwfl_t *, uint64_t);
    dwfl_line_t *(*getsrc)(dwfl_mod_t *, uint64_t);
    const char *(*lineinfo)(dwfl_line_t *, uint64_t *, int *, int *, uint64_t *, uint64_t *);
    struct dwfl_callbacks cb;
} dw;
static bool dw_ok;
static dwfl_t *dw_session;
static pthread_mutex_t dw_lock = PTHREAD_MUTEX_INITIALIZER;

static void dw_load(void)
{
    void *h = dlopen("libdw.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h)
        return;
    *(void **)&dw.begin = dlsym(h, "dwfl_begin");
    *(void **)&dw.proc_report = dlsym(h, "dwfl_linux_proc_report");
    *(void **)&dw.report_end = dlsym(h, "dwfl_report_end");
    *(void **)&dw.addrmodule = dlsym(h, "dwfl_addrmodule");
    *(void **)&dw.getsrc = dlsym(h, "dwfl_module_getsrc");
    *(void **)&dw.lineinfo = dlsym(h, "dwfl_lineinfo");
    *(void **)&dw.cb.find_elf = dlsym(h, "dwfl_linux_proc_find_elf");
    *(void **)&dw.cb.find_debuginfo = dlsym(h, "dwfl_standard_find_debuginfo");
    dw_ok = dw.begin && dw.proc_report && dw.report_end && dw.addrmodule && dw.getsrc &&
            dw.lineinfo && dw.cb.find_elf && dw.cb.find_debuginfo;
}

static bool dw_report(void)
{
    if (!dw_session)
        dw_session = dw.begin(&dw.cb);
    return dw_session && dw.proc_report(dw_session, getpid()) == 0 &&
           dw.report_end(dw_session, NULL, NULL) == 0;
}

/* " at FILE:LINE" for pc (a return address already moved into its call), or nothing. */
static void print_line(FILE *fp, uintptr_t pc)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, dw_load);
    if (!dw_ok)
        return;
    pthread_mutex_lock(&dw_lock);
    dwfl_mod_t *m = NULL;
    if (dw_session || dw_report()) {
        m = dw.addrmodule(dw_session, pc);
        if (!m && dw_report())
            m = dw.addrmodule(dw_session, pc);
    }
    dwfl_line_t *l = m ? dw.getsrc(m, pc) : NULL;
    int line = 0;
    const char *file = l ? dw.lineinfo(l, NULL, &line, NULL, NULL, NULL) : NULL;
    if (file && line > 0)
        fprintf(fp, " at %s:%d", file, line);
    pthread_mutex_unlock(&dw_lock);
}

/* one word of the saved frame (arch/switch_x86_64_sysv_elf_gas.S) */
__attribute__((no_sanitize("address", "thread"))) static uint64_t slot(weft_ctx ctx, int off)
{
    return *(const volatile uint64_t *)((const char *)ctx + off);
}

bool weft_unwind_print(FILE *fp, weft_ctx ctx, int max)
{
    if (!ctx || ON_VALGRIND())
        return false;
    pthread_once(&unw_once, unw_load);
    if (!unw_ok)
        return false;
    unw_context_t uc;
    memset(&uc, 0, sizeof(uc));
    greg_t *g = uc.uc_mcontext.gregs;
    g[REG_R15] = (greg_t)slot(ctx, 0x08);
    g[REG_R14] = (greg_t)slot(ctx, 0x10);
    g[REG_R13] = (greg_t)slot(ctx, 0x18);
    g[REG_R12] = (greg_t)slot(ctx, 0x20);
    g[REG_RBX] = (greg_t)slot(ctx, 0x28);
    g[REG_RBP] = (greg_t)slot(ctx, 0x30);
    g[REG_RIP] = (greg_t)slot(ctx, 0x38);
    g[REG_RSP] = (greg_t)((uintptr_t)ctx + 0x40);
    unw_cursor_t c;
    if (unw.init_local(&c, &uc) < 0)
        return false;
    int n = 0;
    do {
        unw_word_t pc = 0, off = 0;
        if (unw.get_reg(&c, UNW_REG_IP, &pc) < 0 || pc == 0)
            break;
        if (n == 0)
            fputs("frames    :\n", fp);
        char name[256];
        /* the return address of a frame above the first lies after its call: look up pc-1 */
        Dl_info di;
        const char *obj = NULL;
        if (dladdr((void *)(uintptr_t)(n ? pc - 1 : pc), &di) && di.dli_fname) {
            obj = strrchr(di.dli_fname, '/');
            obj = obj ? obj + 1 : di.dli_fname;
        }
        if (unw.get_proc_name(&c, name, sizeof(name), &off) == 0)
            fprintf(fp, "  #%-2d 0x%016" PRIx64 "  <%s+0x%" PRIx64 ">", n, (uint64_t)pc, name,
                    (uint64_t)off);
        else
            fprintf(fp, "  #%-2d 0x%016" PRIx64 "  <?>", n, (uint64_t)pc);
        if (obj)
            fprintf(fp, " (%s)", obj);
        print_line(fp, (uintptr_t)(n ? pc - 1 : pc));
        fputc('\n', fp);
        if (++n >= max) {
            fprintf(fp, "  ... (cut after %d frames)\n", max);
            break;
        }
    } while (unw.step(&c) > 0);
    return n > 0;
}

#else

bool weft_unwind_print(FILE *fp, weft_ctx ctx, int max)
{
    (void)fp, (void)ctx, (void)max;
    return false;
}

#endif
