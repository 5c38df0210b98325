# tools/gdb/weft.py - gdb commands that show weft's user-level threads, streams and pools.
#
# Installed as <prefix>/share/gdb/auto-load/<libdir>/libweft.so.<version>-gdb.py, so gdb
# loads it with libweft.so (docs/debugging.md says how for other prefixes; `source` it
# for a program linked with libweft.a).  Commands:
#   weft ults [--state S] [--stream N] [--func REGEX]   one line per ULT
#   weft bt ID|0xADDR|all [full]                        backtrace of a ULT
#   weft streams                                        execution streams
#   weft pools                                          pools
# It reads weft's structures through the table libweft exports (weft_debug_layout,
# src/core/tool/debug_layout.c), so it needs no debug information for libweft and makes no
# inferior call: it works on a live process and on a core file alike.  A parked ULT's
# backtrace comes from its saved context through a frame unwinder that gives the
# innermost frame of the selected thread the ULT's saved registers as its caller's; gdb
# then unwinds the ULT's own frames with their names, arguments and locals.
import re
import struct

import gdb
import gdb.unwinder

STATE_WORDS = ("running", "ready", "blocked", "suspended", "created", "terminated")
POOL_KINDS = {0: "fifo", 1: "fifo_wait", 2: "randws"}
POOL_ACCESS = {0: "priv", 1: "spsc", 2: "mpsc", 3: "spmc", 4: "mpmc"}
SCHED_PREDEF = {-1: "user", 0: "default", 1: "basic", 2: "prio", 3: "randws", 4: "basic_wait"}
STACK_KINDS = ("none", "cached", "owned", "user", "os", "borrowed", "sc", "lent")


class WeftError(Exception):
    pass


def _inferior():
    inf = gdb.selected_inferior()
    if inf is None or inf.pid == 0 and not inf.threads():
        raise WeftError("no process or core file")
    return inf


def _read(addr, n):
    try:
        return bytes(_inferior().read_memory(addr, n))
    except gdb.MemoryError:
        raise WeftError("cannot read %d bytes at %#x" % (n, addr))


def _u64(addr):
    return struct.unpack("<Q", _read(addr, 8))[0]


def _cstr(addr, limit=128):
    raw = _read(addr, limit)
    return raw.split(b"\0", 1)[0].decode("ascii", "replace")


def _table(addr):
    """name -> value of a weft_debug_entry table at addr."""
    out = {}
    for _ in range(4096):
        name, value = struct.unpack("<QQ", _read(addr, 16))
        if name == 0:
            return out
        out[_cstr(name)] = value
        addr += 16
    raise WeftError("the layout table at %#x has no end" % addr)


class Layout:
    """What libweft's weft_debug_layout says, read once per process or core."""

    def __init__(self):
        try:
            addr = int(gdb.parse_and_eval("(unsigned long)&weft_debug_layout"))
        except gdb.error:
            raise WeftError("libweft is not loaded (no symbol weft_debug_layout)")
        self.t = _table(addr)
        self.t.update(_table(self.t["mem.layout"]))

    def __getitem__(self, name):
        try:
            return self.t[name]
        except KeyError:
            raise WeftError("libweft's layout table has no %s: this script is newer" % name)


_layout_cache = {}


def layout():
    inf = _inferior()
    key = (inf.num, inf.pid, gdb.current_progspace().filename)
    try:
        addr = int(gdb.parse_and_eval("(unsigned long)&weft_debug_layout"))
    except gdb.error:
        raise WeftError("libweft is not loaded (no symbol weft_debug_layout)")
    key = key + (addr,)
    if key not in _layout_cache:
        _layout_cache.clear()
        _layout_cache[key] = Layout()
    return _layout_cache[key]


class Struct:
    """Fields of one weft structure, read in one piece."""

    FMT = {1: "<B", 2: "<H", 4: "<I", 8: "<Q"}

    def __init__(self, L, sname, addr, fields, size):
        self.addr = addr
        raw = _read(addr, size)
        for fname, width in fields:
            off = L["%s.%s" % (sname, fname)]
            v = struct.unpack_from(self.FMT[width], raw, off)[0]
            setattr(self, fname, v)


def _signed32(v):
    return v - (1 << 32) if v & (1 << 31) else v


UNIT_FIELDS = (("pool", 8), ("fn", 8), ("arg", 8), ("ctx", 8), ("stack", 8), ("flags", 2),
               ("stack_kind", 1), ("in_pool", 1), ("state", 4), ("xs", 8), ("joiner", 8),
               ("stack_size", 8), ("id", 8), ("request", 4), ("user_stack", 8), ("sched", 8))
XS_FIELDS = (("cur", 8), ("sched", 8), ("main_sched", 8), ("rank", 4), ("primary", 1),
             ("state", 4), ("thread", 8), ("main_unit", 8), ("os_stack_lo", 8),
             ("os_stack_size", 8))
POOL_FIELDS = (("head", 8), ("size", 8), ("ops", 8), ("kind", 4), ("access", 4), ("id", 4),
               ("num_scheds", 4), ("num_blocked", 8), ("all_next", 8))
SCHED_FIELDS = (("pools", 8), ("num_pools", 4), ("predef", 4), ("use", 1), ("xs", 8),
                ("unit", 8), ("all_next", 8))


class Unit:
    def __init__(self, L, addr, raw=None):
        self.addr = addr
        if raw is None:
            raw = _read(addr, L["sizeof.weft_unit"])
        for fname, width in UNIT_FIELDS:
            v = struct.unpack_from(Struct.FMT[width], raw, L["weft_unit." + fname])[0]
            setattr(self, fname, v)

    def is_ult(self, L):
        return bool(self.flags & L["const.WEFT_U_ULT"])

    def has_id(self):
        return self.id != 0

    def ident(self):
        """The id ABT_thread_get_id returns, or the descriptor's address when no id was
        asked for yet (weft hands ids out lazily)."""
        return str(self.id - 1) if self.id else "@%#x" % self.addr

    def state_word(self, L):
        s = self.state
        if s == L["const.WEFT_TERMINATED"]:
            return "terminated"
        if s == L["const.WEFT_RUNNING"]:
            return "running"
        if s == L["const.WEFT_BLOCKED"]:
            return "suspended" if self.request & L["const.WEFT_REQ_SUSPENDED"] else "blocked"
        if s == L["const.WEFT_READY"]:
            return "ready" if self.ctx else "created"
        return "state%d" % s

    def stack_range(self, L, streams):
        """[lo, top) of the stack it runs on, or None."""
        k = self.stack_kind
        if k in (L["const.WEFT_STACK_CACHED"], L["const.WEFT_STACK_OWNED"]) and self.stack:
            usable = _u64(self.stack + L["weft_stack.usable"])
            return (self.stack + L["const.WEFT_STACK_HEADER_SIZE"] - usable, self.stack)
        if k == L["const.WEFT_STACK_USER"] and self.user_stack:
            return (self.user_stack, (self.user_stack + self.stack_size) & ~15)
        if k in (L["const.WEFT_STACK_LENT"], L["const.WEFT_STACK_BORROWED"]):
            return ((self.user_stack - self.stack_size) & ~15, self.user_stack)
        if k == L["const.WEFT_STACK_OS"]:
            x = streams.get(self.xs)
            if x is not None and x.os_stack_lo:
                return (x.os_stack_lo, x.os_stack_lo + x.os_stack_size)
        return None


class Snapshot:
    """Streams, pools, schedulers and units, read from the process or core."""

    def __init__(self):
        L = self.L = layout()
        g = L["addr.weft_g"]
        if struct.unpack("<i", _read(g + L["weft_global.init_count"], 4))[0] <= 0:
            raise WeftError("weft is not initialized in this process")
        self.streams = {}
        by_rank = _u64(g + L["weft_global.by_rank"])
        cap = _signed32(struct.unpack("<I", _read(g + L["weft_global.rank_cap"], 4))[0])
        for i in range(max(cap, 0)):
            a = _u64(by_rank + 8 * i) if by_rank else 0
            if a:
                x = Struct(L, "weft_xstream", a, XS_FIELDS, L["sizeof.weft_xstream"])
                x.rank = _signed32(x.rank)
                self.streams[a] = x
        self.pools = {}
        p = _u64(g + L["weft_global.pools"])
        while p and len(self.pools) < 100000:
            rec = Struct(L, "weft_pool", p, POOL_FIELDS, L["sizeof.weft_pool"])
            rec.id = _signed32(rec.id)
            rec.num_scheds = _signed32(rec.num_scheds)
            rec.name = _cstr(_u64(rec.ops + L["weft_pool_ops.name"])) if rec.ops else "?"
            self.pools[p] = rec
            p = rec.all_next
        self.scheds = {}
        s = _u64(g + L["weft_global.scheds"])
        while s and len(self.scheds) < 100000:
            rec = Struct(L, "weft_sched", s, SCHED_FIELDS, L["sizeof.weft_sched"])
            rec.predef = _signed32(rec.predef)
            rec.num_pools = _signed32(rec.num_pools)
            rec.pool_list = [_u64(rec.pools + 8 * j) for j in range(max(rec.num_pools, 0))
                             if rec.pools] if rec.num_pools < 4096 else []
            self.scheds[s] = rec
            s = rec.all_next
        self.units = []
        seen = set()
        prim = _u64(g + L["weft_global.primary"])
        if prim:
            m = _u64(prim + L["weft_xstream.main_unit"])
            if m:
                self.units.append(Unit(L, m))
                seen.add(m)
        self._slab_units(seen)
        self.running = {}  # unit address -> stream
        for x in self.streams.values():
            if x.cur:
                self.running[x.cur] = x

    def _slab_units(self, seen):
        L = self.L
        dsz = _u64(L["desc.desc_size"])
        nper = L["desc.slab_units"]
        ch = _u64(L["desc.chunks"])
        flags_off = L["weft_unit.flags"]
        nchunks = 0
        while ch and nchunks < 1 << 20:
            nchunks += 1
            slabs = _u64(ch + L["chunk.slabs"])
            ncarved = struct.unpack("<I", _read(ch + L["chunk.ncarved"], 4))[0]
            states = _read(ch + L["chunk.state"], ncarved) if ncarved else b""
            for i in range(ncarved):
                if states[i] != L["desc.slab_active"]:
                    continue
                base = slabs + i * nper * dsz
                raw = _read(base, nper * dsz)
                for k in range(nper):
                    off = k * dsz
                    if struct.unpack_from("<H", raw, off + flags_off)[0] == 0:
                        continue  # a free descriptor
                    a = base + off
                    if a not in seen:
                        seen.add(a)
                        self.units.append(Unit(L, a, raw[off:off + dsz]))
            ch = _u64(ch + L["chunk.next"])

    def ults(self):
        L = self.L
        return [u for u in self.units if u.is_ult(L) and not u.flags & L["const.WEFT_U_SCHED"]]

    def state_of(self, u):
        w = u.state_word(self.L)
        if w != "running" and self.running.get(u.addr) is not None:
            w = "running"
        return w

    def stream_of(self, u):
        x = self.running.get(u.addr) or self.streams.get(u.xs)
        return x

    def borrower(self, u):
        """The ULT that runs on u's stack, lent to it by u (u waits beneath it), or None."""
        L = self.L
        rng = u.stack_range(L, self.streams)
        if not rng:
            return None
        for v in self.units:
            if v is not u and v.stack_kind in (L["const.WEFT_STACK_LENT"],
                                               L["const.WEFT_STACK_BORROWED"]) \
                    and rng[0] < v.user_stack <= rng[1]:
                return v
        return None

    def find(self, spec):
        spec = spec.strip()
        for u in self.units:
            if spec.startswith("@") or spec.lower().startswith("0x"):
                try:
                    if u.addr == int(spec.lstrip("@"), 16):
                        return u
                except ValueError:
                    raise WeftError("not an id or an address: %s" % spec)
            elif u.id and str(u.id - 1) == spec:
                return u
        raise WeftError("no ULT with id %s" % spec)


_sym_cache = {}


def symbol(addr):
    if not addr:
        return "-"
    if addr in _sym_cache:
        return _sym_cache[addr]
    name = "%#x" % addr
    try:
        out = gdb.execute("info symbol %#x" % addr, to_string=True).strip()
        m = re.match(r"(\S+)(?: \+ (\d+))? in section", out)
        if m:
            name = m.group(1) + ("+%s" % m.group(2) if m.group(2) else "")
    except gdb.error:
        pass
    _sym_cache[addr] = name
    return name


def _size(n):
    for unit in ("", "K", "M", "G"):
        if n < 1024 or unit == "G":
            return ("%d%s" % (n, unit)) if unit == "" or n == int(n) else ("%.1f%s" % (n, unit))
        n /= 1024.0


def _thread_of_stream(x):
    """The gdb thread that runs stream x (by its pthread_t), or None."""
    for th in _inferior().threads():
        try:
            h = th.handle()
        except (gdb.error, AttributeError, RuntimeError):
            continue
        if h is not None and int.from_bytes(bytes(h), "little") == x.thread:
            return th
    return None


def _thread_sp(th):
    cur = gdb.selected_thread()
    try:
        th.switch()
        return int(gdb.newest_frame().read_register("sp"))
    except gdb.error:
        return None
    finally:
        if cur is not None and cur.is_valid():
            cur.switch()


def unit_sp(snap, u):
    """The stack pointer of a ULT: saved context when parked, its thread's when running."""
    if snap.state_of(u) == "running":
        x = snap.stream_of(u)
        th = _thread_of_stream(x) if x is not None else None
        return _thread_sp(th) if th is not None else None
    return u.ctx or None


class UltsCommand(gdb.Command):
    """List weft's ULTs: weft ults [--state S] [--stream N] [--func REGEX]

One line per ULT that exists, whatever its state: its id (as ABT_thread_get_id; @ADDR
when no id was asked for yet), state (running, ready, blocked, suspended, created,
terminated), stream (the one running it, or the one it last ran on), pool, function,
stack use (used/size; "lent" or "borrowed" when it runs on its joiner's stack)."""

    def __init__(self):
        super().__init__("weft ults", gdb.COMMAND_STACK)

    def invoke(self, arg, from_tty):
        try:
            self._run(arg)
        except WeftError as e:
            raise gdb.GdbError("weft: %s" % e)

    def _run(self, arg):
        argv = gdb.string_to_argv(arg)
        want_state = want_stream = want_func = None
        i = 0
        while i < len(argv):
            a = argv[i]
            if a in ("--state", "-s") and i + 1 < len(argv):
                want_state = argv[i + 1]
                if want_state not in STATE_WORDS:
                    raise WeftError("state is one of " + ", ".join(STATE_WORDS))
                i += 2
            elif a in ("--stream", "-x") and i + 1 < len(argv):
                try:
                    want_stream = int(argv[i + 1])
                except ValueError:
                    raise WeftError("--stream takes a rank")
                i += 2
            elif a in ("--func", "-f") and i + 1 < len(argv):
                want_func = re.compile(argv[i + 1])
                i += 2
            else:
                raise WeftError("usage: weft ults [--state S] [--stream N] [--func REGEX]")
        snap = Snapshot()
        L = snap.L
        rows = []
        for u in sorted(snap.ults(), key=lambda u: (u.id == 0, u.id, u.addr)):
            st = snap.state_of(u)
            x = snap.stream_of(u)
            rank = x.rank if x is not None else None
            fn = symbol(u.fn)
            if want_state and st != want_state:
                continue
            if want_stream is not None and rank != want_stream:
                continue
            if want_func and not want_func.search(fn):
                continue
            pool = snap.pools.get(u.pool)
            rng = u.stack_range(L, snap.streams)
            sp = unit_sp(snap, u) if st not in ("created", "terminated") else None
            if sp is None and st not in ("created", "terminated"):
                b = snap.borrower(u)
                sp = b.user_stack if b is not None else None
            if st == "created":
                use = "0/%s" % _size(u.stack_size)
            elif st == "terminated":
                use = "-"
            elif rng and sp and rng[0] <= sp <= rng[1]:
                use = "%s/%s" % (_size(rng[1] - sp), _size(rng[1] - rng[0]))
            else:
                use = "?"
            kind = STACK_KINDS[u.stack_kind] if u.stack_kind < len(STACK_KINDS) else "?"
            if u.flags & L["const.WEFT_U_MAIN"]:
                fn = fn if u.fn else "(primary)"
                kind = "primary"
            rows.append((u.ident(), st, "-" if rank is None else str(rank),
                         str(pool.id) if pool else "-", fn, use,
                         kind if kind in ("lent", "borrowed", "sc", "user", "primary") else ""))
        head = ("ID", "STATE", "STREAM", "POOL", "FUNCTION", "STACK", "")
        widths = [max(len(r[c]) for r in rows + [head]) for c in range(len(head))]
        for r in [head] + rows:
            gdb.write("  ".join(r[c].ljust(widths[c]) for c in range(len(head))).rstrip() + "\n")
        gdb.write("%d ULT%s\n" % (len(rows), "" if len(rows) == 1 else "s"))


class FrameId:
    def __init__(self, sp, pc):
        self.sp = sp
        self.pc = pc


class ParkedUnwinder(gdb.unwinder.Unwinder):
    """While `regs` is set: the innermost frame's caller is the parked ULT's top frame."""

    def __init__(self):
        super().__init__("weft-parked-ult")
        self.regs = None

    def __call__(self, pf):
        if self.regs is None:
            return None
        try:
            level = pf.level()
        except AttributeError:  # gdb before 11: no level; one frame 0 per backtrace
            level = None
        if level is not None and level != 0:
            return None
        # The id of frame 0 takes the ULT's saved stack pointer, not the thread's own:
        # gdb stops a backtrace whose caller's frame lies below its callee's, and the
        # ULT's stack may lie anywhere relative to the thread's.
        pc = pf.read_register("rip")
        ui = pf.create_unwind_info(FrameId(gdb.Value(self.regs["rsp"] - 8).cast(
            pf.read_register("rsp").type), pc))
        for name, value in self.regs.items():
            ui.add_saved_register(name, gdb.Value(value).cast(pf.read_register(name).type))
        if level is None:
            self.regs = None
        return ui


_unwinder = ParkedUnwinder()
_registered = False


def _register():
    global _registered
    if not _registered:
        gdb.unwinder.register_unwinder(None, _unwinder, replace=True)
        _registered = True


def saved_regs(L, ctx):
    if L["ctx.arch"] != 1:
        raise WeftError("no unwinder for this architecture's saved contexts")
    regs = {}
    for r in ("r15", "r14", "r13", "r12", "rbx", "rbp"):
        regs[r] = _u64(ctx + L["ctx." + r])
    regs["rip"] = _u64(ctx + L["ctx.pc"])
    regs["rsp"] = ctx + L["ctx.size"]
    return regs


def _renumber(text):
    """Drop frame #0 (the selected thread's own frame) and number from #0."""
    out = []
    keep = False
    for line in text.splitlines():
        m = re.match(r"#(\d+)(\s+)(.*)", line)
        if m:
            n = int(m.group(1))
            keep = n > 0
            if keep:
                num = "#%d" % (n - 1)
                line = num + " " * max(1, len(m.group(1)) + len(m.group(2)) + 1 - len(num)) \
                    + m.group(3)
        if keep:
            out.append(line)
    # the outermost frame of a ULT: the zero return address its start pushed
    if out and re.match(r"#\d+\s+0x0+ in \?\? \(\)$", out[-1]):
        out.pop()
    return "\n".join(out) + "\n"


def backtrace(snap, u, extra=""):
    L = snap.L
    st = snap.state_of(u)
    x = snap.stream_of(u)
    head = "ULT %s (%s) %s, stream %s, function %s\n" % (
        u.ident(), "%#x" % u.addr, st, x.rank if x is not None else "-", symbol(u.fn))
    gdb.write(head)
    if st == "created":
        gdb.write("  not started yet: no frames\n")
        return
    if st == "terminated":
        gdb.write("  terminated: no frames\n")
        return
    cur = gdb.selected_thread()
    if st == "running":
        th = _thread_of_stream(x) if x is not None else None
        if th is None:
            gdb.write("  running on stream %s; its gdb thread is not known\n" %
                      (x.rank if x else "?"))
            return
        try:
            th.switch()
            gdb.write("  (gdb thread %d)\n" % th.num)
            gdb.write(gdb.execute("bt " + extra, to_string=True))
        finally:
            if cur is not None and cur.is_valid():
                cur.switch()
        return
    if not u.ctx:
        b = snap.borrower(u)
        if b is None:
            gdb.write("  no saved context\n")
            return
        # it lent its stack to b, which runs above its frames: b's backtrace ends in them
        gdb.write("  its stack is lent to ULT %s (%s), which runs above its frames:\n" %
                  (b.ident(), symbol(b.fn)))
        if snap.state_of(b) in ("running", "created", "terminated") or not b.ctx:
            backtrace(snap, b, extra)
            return
        u = b
    _register()
    try:
        _unwinder.regs = saved_regs(L, u.ctx)
        gdb.invalidate_cached_frames()
        text = gdb.execute("bt " + extra, to_string=True)
    finally:
        _unwinder.regs = None
        gdb.invalidate_cached_frames()
    gdb.write(_renumber(text))


class BtCommand(gdb.Command):
    """Backtrace of a weft ULT: weft bt ID|0xADDR|all [full] [N]

A parked ULT is unwound from its saved context (names, and arguments and locals when
built with -g); a running one is its stream's thread's backtrace.  Extra words go to
gdb's `bt` (full, a frame count)."""

    def __init__(self):
        super().__init__("weft bt", gdb.COMMAND_STACK)

    def invoke(self, arg, from_tty):
        argv = gdb.string_to_argv(arg)
        if not argv:
            raise gdb.GdbError("usage: weft bt ID|0xADDR|all [full] [N]")
        try:
            snap = Snapshot()
            extra = " ".join(argv[1:])
            if argv[0] == "all":
                for u in snap.ults():
                    backtrace(snap, u, extra)
                    gdb.write("\n")
            else:
                backtrace(snap, snap.find(argv[0]), extra)
        except WeftError as e:
            raise gdb.GdbError("weft: %s" % e)


class StreamsCommand(gdb.Command):
    """List weft's execution streams: rank, state, gdb thread, running unit, scheduler
and its pools."""

    def __init__(self):
        super().__init__("weft streams", gdb.COMMAND_STACK)

    def invoke(self, arg, from_tty):
        try:
            snap = Snapshot()
        except WeftError as e:
            raise gdb.GdbError("weft: %s" % e)
        L = snap.L
        states = {L["const.WEFT_XS_CREATED"]: "created", L["const.WEFT_XS_RUNNING"]: "running",
                  L["const.WEFT_XS_TERMINATED"]: "terminated"}
        units = {u.addr: u for u in snap.units}
        for x in sorted(snap.streams.values(), key=lambda s: s.rank):
            th = _thread_of_stream(x)
            cur = units.get(x.cur)
            if cur is None:
                running = "scheduler"
            elif cur.flags & L["const.WEFT_U_SCHED"]:
                running = "stacked scheduler"
            else:
                running = "ULT %s %s" % (cur.ident(), symbol(cur.fn) if cur.fn else "(primary)")
            s = snap.scheds.get(x.main_sched)
            sched = "%s" % SCHED_PREDEF.get(s.predef, "?") if s else "-"
            pools = ",".join(str(snap.pools[p].id) if p in snap.pools else "?"
                             for p in (s.pool_list if s else []))
            gdb.write("stream %d (%s, %s)  thread %s  running: %s  sched: %s  pools: %s\n" % (
                x.rank, "primary" if x.primary else "secondary", states.get(x.state, "?"),
                th.num if th is not None else "?", running, sched, pools or "-"))


class PoolsCommand(gdb.Command):
    """List weft's pools: id, kind, access, size, ULTs by state, the streams whose main
scheduler takes from it."""

    def __init__(self):
        super().__init__("weft pools", gdb.COMMAND_STACK)

    def invoke(self, arg, from_tty):
        try:
            snap = Snapshot()
        except WeftError as e:
            raise gdb.GdbError("weft: %s" % e)
        users = {}
        for x in snap.streams.values():
            s = snap.scheds.get(x.main_sched)
            for p in (s.pool_list if s else []):
                users.setdefault(p, []).append(str(x.rank))
        counts = {}
        for u in snap.ults():
            c = counts.setdefault(u.pool, {})
            w = snap.state_of(u)
            c[w] = c.get(w, 0) + 1
        for p in sorted(snap.pools.values(), key=lambda r: r.id):
            c = counts.get(p.addr, {})
            by = " ".join("%s=%d" % (w, c[w]) for w in STATE_WORDS if w in c)
            gdb.write("pool %d (%s, %s, %s)  size %d  blocked %d  streams %s  ults: %s\n" % (
                p.id, p.name, POOL_KINDS.get(p.kind, str(p.kind)),
                POOL_ACCESS.get(p.access, str(p.access)), p.size, p.num_blocked,
                ",".join(users.get(p.addr, [])) or "-", by or "none"))


class WeftPrefix(gdb.Command):
    """weft: user-level threads of the weft runtime (weft ults, weft bt, weft streams,
weft pools)."""

    def __init__(self):
        super().__init__("weft", gdb.COMMAND_STACK, gdb.COMPLETE_COMMAND, True)


if not getattr(gdb, "_weft_commands", False):
    WeftPrefix()
    UltsCommand()
    BtCommand()
    StreamsCommand()
    PoolsCommand()
    gdb._weft_commands = True
