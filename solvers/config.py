"""Numba options: project policy, in one place (style.md, item 5).

Every kernel is compiled with ``@njit(**NUMBA_OPTS)``. ``cache=True`` writes the compiled
code next to the module (or in the user's cache folder, or failing both in a folder of
the system's temporary directory) so a second process starts warm; ``nogil=True`` lets threads run
kernels side by side. Note: numba 0.68 segfaults on reloading a cached *mutually*
recursive pair of functions; a single self-recursive function or an explicit-stack loop
caches fine -- as long as it compiles to ONE signature: pass ``np.int64(0)`` rather than a
bare literal in recursive calls (a literal argument makes a second, ``Literal[int]``
overload, and reloading several overloads of a recursive function also segfaults).

``_nrt=False`` compiles the kernels without numba's reference-counting runtime. With it,
every call of a kernel function that takes arrays did an atomic increment and decrement
per array argument: about 30% of the trick solver's CPU time (perf, fifth session). The
kernels therefore never allocate (no ``np.zeros``, ``np.sort``, slicing copies): they
work in the buffers the caller passes; an allocation would fail to compile. (The option
is numba's own, used in its test suite since long before 0.60; should a numba release
drop it, the kernels compile with the runtime again, only slower.)
"""

import os
import tempfile
import time


def _no_nrt() -> dict[str, bool]:
    try:
        from numba.core.cpu import CPUTargetOptions
    except ImportError:  # pragma: no cover - a numba without this layout
        return {}
    return {"_nrt": False} if hasattr(CPUTargetOptions, "_nrt") else {}


def _call_slots_at_call_site() -> None:
    """Zero a call's return and exception slots where the call is made, not on entry.

    numba's call convention gives each call of a compiled function two stack slots (the
    callee's return value and its exception pointer). It allocates them in the caller's
    entry block and zero-fills them there, so a function that calls many others on paths
    seldom taken zero-fills every slot on every call: the trick solver's ``_node`` has
    about fifty call sites, some 110 stores on each node, most for bounds that the node
    never reaches (BENCHMARKS.md, forty-third session: x0.95 CPU on bridge notrump,
    x0.92 on No Tricks). Here the slots are still allocated on entry but zero-filled just
    before their own call, which is what the convention needs: the callee writes the
    return slot, and the exception slot is read only when the callee reports an
    exception. Patched once, in place, for every function compiled afterwards; a numba
    whose call convention does not look as expected keeps its own, and any surprise while
    building a call falls back to it before the builder is touched.
    """
    try:
        from llvmlite import ir
        from numba.core import callconv, cgutils
        conv = callconv.CPUCallConv
        orig = conv.call_function
        excinfo_t = callconv.excinfo_t
    except (ImportError, AttributeError):  # pragma: no cover - another numba
        return
    if getattr(orig, "_barbu", False):
        return
    if orig.__code__.co_varnames[:7] != ("self", "builder", "callee", "resty", "argtys",
                                         "args", "attrs"):
        return  # pragma: no cover - another numba's call convention: leave it

    def call_function(self, builder, callee, resty, argtys, args, attrs=None):
        try:
            retty = self.get_return_type(resty).pointee
            actual = self._get_return_argument(callee.function_type).pointee
            packer = self._get_arg_packer(argtys)
            status_of = self._get_return_status
            returned = self.context.get_returned_value
        except AttributeError:  # pragma: no cover - another numba
            return orig(self, builder, callee, resty, argtys, args, attrs)
        if retty != actual or not (attrs is None or isinstance(attrs, (tuple, list))):
            return orig(self, builder, callee, resty, argtys, args, attrs)
        exty = ir.PointerType(excinfo_t)
        with builder.goto_entry_block():
            retvaltmp = builder.alloca(retty)
            excinfoptr = builder.alloca(exty, name="excinfo")
        builder.store(cgutils.get_null_value(retty), retvaltmp)
        builder.store(exty(None), excinfoptr)
        realargs = [retvaltmp, excinfoptr] + list(packer.as_arguments(builder, args))
        code = builder.call(callee, realargs, attrs=tuple(attrs or ()))
        status = status_of(builder, code, builder.load(excinfoptr))
        return status, returned(builder, resty, builder.load(retvaltmp))

    call_function._barbu = True
    conv.call_function = call_function


#: The functions whose array indices numba takes as never negative (``_no_wraparound``):
#: prefixes of their compiled (mangled) names, the trick kernel's module.
NO_WRAP = ("_ZN7solvers6tricks",)


def _no_wraparound() -> None:
    """Index the trick kernel's arrays without numba's negative-index wraparound.

    numba indexes an array with a signed integer as Python does: each access first
    compares the index with zero and adds the axis length if it is below (a compare, an
    add and a select on the way to the address). The kernel never indexes from the end,
    so for the functions named by ``NO_WRAP`` a signed index goes to the address as it
    is, as an unsigned one does (BENCHMARKS.md, seventieth session: bridge notrump about
    x0.91 CPU, the same nodes). Every other function keeps numba's rule: the patch looks
    at the name of the function being compiled. ``tests/test_no_wrap.py`` runs the
    kernel under numba's bounds checks, where a negative index would now be an error.
    Patched once, in place; a numba whose indexing does not look as expected keeps its
    own.
    """
    try:
        from numba.core import types
        from numba.np import arrayobj
        orig = arrayobj.fix_integer_index
    except (ImportError, AttributeError):  # pragma: no cover - another numba
        return
    if getattr(orig, "_barbu", False):
        return
    if orig.__code__.co_varnames[:5] != ("context", "builder", "idxty", "idx", "size"):
        return  # pragma: no cover - another numba's indexing: leave it

    def fix_integer_index(context, builder, idxty, idx, size):  # type: ignore[no-untyped-def]
        if idxty.signed and builder.function.name.startswith(NO_WRAP):
            return context.cast(builder, idx, idxty, types.intp)
        return orig(context, builder, idxty, idx, size)

    fix_integer_index._barbu = True  # type: ignore[attr-defined]
    arrayobj.fix_integer_index = fix_integer_index


def _writable(path: str) -> bool:
    """Can a cache be kept in ``path``? (numba's own test: make it, then a file in it.)"""
    try:
        os.makedirs(path, exist_ok=True)
        with tempfile.TemporaryFile(dir=path):
            return True
    except OSError:
        return False


def _cache_choice(candidates: list[str], fallback: str) -> str | None:
    """Where the compiled kernels can be cached: None when one of numba's own places
    (``candidates``: ``__pycache__`` beside the sources, then the user's cache folder) is
    writable, else ``fallback`` if it is, else ``""`` (no cache: compile every run)."""
    # (a relative path is no place: numba's user folder is "~/.cache/numba" taken as
    # relative when there is no home, a folder of whatever directory the user is in)
    if any(os.path.isabs(c) and _writable(c) for c in candidates):
        return None
    return fallback if _private(fallback) and _writable(fallback) else ""


def _private(path: str) -> bool:
    """A folder of the shared temporary directory this user made, that nobody else can
    write to: compiled code is loaded from the cache, so another user's files must not
    get there."""
    try:
        os.makedirs(path, mode=0o700, exist_ok=True)
        st = os.lstat(path)
    except OSError:
        return False
    import stat
    mine = not hasattr(os, "getuid") or st.st_uid == os.getuid()
    return stat.S_ISDIR(st.st_mode) and mine and not st.st_mode & 0o022


def _cache_dir() -> bool:
    """Point numba at a writable cache folder when its own places are not (a read-only
    install for a user without a writable home, in a container say): ``cache=True``
    would otherwise fail at import with "no locator available". Returns whether the
    kernels can be cached at all. ``NUMBA_CACHE_DIR``, when set, is the user's choice,
    where it can be written (otherwise the usual places, with a note)."""
    global CACHE_NOTE
    try:
        from numba.core import config
    except ImportError:  # pragma: no cover - another numba
        return True
    unwritable = ""
    if config.CACHE_DIR:
        if _writable(config.CACHE_DIR):
            return True
        # numba would fail at import ("no locator available"): the usual places instead
        unwritable = config.CACHE_DIR
        config.CACHE_DIR = ""
    candidates = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "__pycache__")]
    try:
        from numba.misc.appdirs import AppDirs
        candidates.append(AppDirs(appname="numba", appauthor=False).user_cache_dir)
    except Exception:  # pragma: no cover - no home, or another numba
        pass
    uid = os.getuid() if hasattr(os, "getuid") else 0
    fallback = os.path.join(tempfile.gettempdir(), f"barbu-dd-numba-{uid}")
    choice = _cache_choice(candidates, fallback)
    if choice:
        config.CACHE_DIR = choice
    if unwritable and choice != "":
        CACHE_NOTE = (f"note: NUMBA_CACHE_DIR ({unwritable}) cannot be written: the "
                      "compiled kernels are cached in "
                      + (choice or "numba's usual folder") + " instead")
    elif choice == "":
        CACHE_NOTE = ("note: no private place to cache the compiled kernels (the "
                      "installation and the home folder cannot take them, and "
                      f"{fallback} is not this user's alone): every run compiles them "
                      "again (about a minute); set NUMBA_CACHE_DIR to a folder of your own")
    return choice != ""


#: a line for the command line to show when the kernels cannot be cached (solvers/ does
#: no I/O itself)
CACHE_NOTE: str | None = None


#: seconds a compile waits for another process compiling the same function before it
#: compiles it too (``_compile_once``)
COMPILE_WAIT = 300.0

#: the compile locks this process holds: lock file -> its descriptor
_held: dict[str, int] = {}


def _compile_lock_path(dispatcher) -> str | None:  # type: ignore[no-untyped-def]
    """The lock file of a cached numba function (beside its cache index), or None."""
    try:
        return dispatcher._cache._cache_file._index_path + ".lock"
    except AttributeError:  # (no place to cache: numba's NullCache)
        return None


def compile_busy(dispatcher) -> bool:  # type: ignore[no-untyped-def]
    """Whether another process is compiling this cached numba function right now."""
    path = _compile_lock_path(dispatcher)
    if path is None or path in _held or not os.path.exists(path):
        return False
    fd = _lock_waiting(path, 0.0)
    if fd is not None:
        os.close(fd)
    return fd is None


def _lock_waiting(path: str, wait: float | None = None) -> int | None:
    """The compile lock ``path`` taken (a descriptor), waiting up to ``wait`` seconds
    (default :data:`COMPILE_WAIT`) for another process to let it go; None where it
    cannot be had."""
    try:
        import fcntl
        os.makedirs(os.path.dirname(path), exist_ok=True)  # (numba's own, made early)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    except (ImportError, OSError):
        return None
    end = time.monotonic() + (COMPILE_WAIT if wait is None else wait)
    try:
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return fd
            except BlockingIOError:
                if time.monotonic() >= end:
                    break
                time.sleep(0.02)
            except OSError:
                break
    except BaseException:  # (Ctrl-C while waiting)
        os.close(fd)
        raise
    os.close(fd)
    return None


def _compile_once() -> None:
    """One process at a time compiles a cached function; the others wait and load it.

    numba compiles a function that its cache lacks, whoever else is compiling it: two
    processes that compile the same kernel at once (a helper compiles half of the first
    compile beside the process that needs it, ``analyzer.pools.compile_beside``; or two
    commands started together after installing) each compiled the functions they both
    reached at about the same time, and a kernel then linked two copies of them. Here,
    before numba looks in its cache, a compile takes a lock on that function's cache
    index (``fcntl.flock``, let go when the process ends, however it ends); one that
    waited then finds the other's code in the cache. The call graph has no cycles (a
    function calls only itself), so two processes cannot wait on each other. Where no
    lock can be had, or after :data:`COMPILE_WAIT` seconds, as numba alone. Patched once,
    in place."""
    try:
        from numba.core import sigutils
        from numba.core.dispatcher import Dispatcher
        compile_ = Dispatcher.compile
    except (ImportError, AttributeError):  # pragma: no cover - another numba
        return
    if getattr(compile_, "_barbu", False):
        return

    def compile(self, sig):  # type: ignore[no-untyped-def]
        path = _compile_lock_path(self)
        if path is None:
            return compile_(self, sig)
        if path in _held:  # (this process compiles it already: a recursive call)
            return compile_(self, sig)
        try:
            args, _ = sigutils.normalize_signature(sig)
            if self.overloads.get(tuple(args)) is not None:
                return compile_(self, sig)
        except Exception:
            pass
        fd = _lock_waiting(path)
        if fd is None:
            return compile_(self, sig)
        _held[path] = fd
        try:
            return compile_(self, sig)
        finally:
            del _held[path]
            os.close(fd)

    compile._barbu = True  # type: ignore[attr-defined]
    Dispatcher.compile = compile


def _guard_cache_files() -> None:
    """A damaged cache entry is a miss, and a cache that cannot be written is skipped.

    numba reads its cache files without catching what a damaged file raises: a truncated
    or emptied ``.nbi`` / ``.nbc`` (a disk that filled up, a killed copy) stopped every
    later run with an unpickling traceback, for good, since numba never rewrote the file.
    And a cache folder that cannot take a file (a full disk, another user's entry in a
    shared folder) stopped the run with no answer. Here reading a bad entry finds
    nothing (the kernel compiles, and the next save writes a fresh index), and a failed
    save is dropped with a note: the answer never depends on the cache. Patched once, in
    place; a numba whose cache classes look otherwise keeps its own behaviour."""
    try:
        from numba.core import caching
        index_file = caching.IndexDataCacheFile
        cache = caching.Cache
        load_index, load = index_file._load_index, index_file.load
        load_overload, save_overload = cache.load_overload, cache.save_overload
    except (ImportError, AttributeError):  # pragma: no cover - another numba
        return
    if getattr(load_overload, "_barbu", False):
        return

    def _load_index(self):  # type: ignore[no-untyped-def]
        try:
            return load_index(self)
        except Exception:  # damaged or unreadable: as if empty
            return {}

    def _load(self, key):  # type: ignore[no-untyped-def]
        try:
            return load(self, key)
        except Exception:
            return None

    def _load_overload(self, sig, target_context):  # type: ignore[no-untyped-def]
        try:
            return load_overload(self, sig, target_context)
        except Exception:  # (data that unpickles but cannot be rebuilt)
            return None

    def _save_overload(self, sig, data):  # type: ignore[no-untyped-def]
        global CACHE_NOTE
        try:
            save_overload(self, sig, data)
        except OSError as e:
            # numba writes the index before the data: an index naming a data file that
            # was not rewritten would load the previous version's code on the next run,
            # so the index goes (the next run misses, and compiles)
            try:
                os.unlink(self._cache_file._index_path)
            except (OSError, AttributeError):
                pass
            where = f" ({e.filename})" if getattr(e, "filename", None) else ""
            CACHE_NOTE = ("note: the compiled kernels could not be cached: "
                          f"{e.strerror or e}{where}; the next run compiles them again")

    _load_overload._barbu = True  # type: ignore[attr-defined]
    index_file._load_index, index_file.load = _load_index, _load
    cache.load_overload, cache.save_overload = _load_overload, _save_overload


_call_slots_at_call_site()
_no_wraparound()
_guard_cache_files()
_compile_once()

NUMBA_OPTS = dict(cache=_cache_dir(), nogil=True, **_no_nrt())
