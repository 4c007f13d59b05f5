"""rlx: compile rlx/MLIR programs and run them on numpy arrays.

    import numpy as np, rlx
    m = rlx.compile(open("net.mlir").read())
    y = m.forward(x, w)            # numpy in, numpy out (tuple if several)

Pure Python over ctypes and the C API in include/rlx-c/Runtime.h
(librlx_runtime.so); no MLIR Python bindings are needed. The library is found
through $RLX_RUNTIME_LIB, $RLX_BUILD_DIR/lib, or next to this package's
install prefix.
"""
import ctypes
import os

import numpy as np

__all__ = ["compile", "Module", "RlxError"]


class RlxError(RuntimeError):
    """Compilation or call failure, with the runtime's message."""


_DTYPES = {np.dtype(np.float32): 0, np.dtype(np.float64): 1,
           np.dtype(np.int32): 2, np.dtype(np.int64): 3}
_NP_OF = {v: k for k, v in _DTYPES.items()}


class _Tensor(ctypes.Structure):
    _fields_ = [("dtype", ctypes.c_int), ("rank", ctypes.c_int64),
                ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("data", ctypes.c_void_p), ("owner", ctypes.c_void_p)]


def _find_library():
    candidates = []
    if os.environ.get("RLX_RUNTIME_LIB"):
        candidates.append(os.environ["RLX_RUNTIME_LIB"])
    if os.environ.get("RLX_BUILD_DIR"):
        candidates.append(os.path.join(os.environ["RLX_BUILD_DIR"], "lib",
                                       "librlx_runtime.so"))
    here = os.path.dirname(os.path.abspath(__file__))
    candidates.append(os.path.join(here, "..", "..", "build", "lib",
                                   "librlx_runtime.so"))
    candidates.append(os.path.join(here, "..", "..", "..", "librlx_runtime.so"))
    for path in candidates:
        if os.path.exists(path):
            return path
    raise RlxError("librlx_runtime.so not found; set RLX_BUILD_DIR or "
                   "RLX_RUNTIME_LIB (looked in: %s)" % ", ".join(candidates))


_lib = None


def _library():
    global _lib
    if _lib is not None:
        return _lib
    lib = ctypes.CDLL(_find_library())
    err = ctypes.POINTER(ctypes.c_char_p)
    lib.rlxModuleCompile.restype = ctypes.c_void_p
    lib.rlxModuleCompile.argtypes = [ctypes.c_char_p, ctypes.c_size_t,
                                     ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]
    lib.rlxModuleDestroy.argtypes = [ctypes.c_void_p]
    lib.rlxModuleNumFunctions.restype = ctypes.c_size_t
    lib.rlxModuleNumFunctions.argtypes = [ctypes.c_void_p]
    lib.rlxModuleFunctionName.restype = ctypes.c_char_p
    lib.rlxModuleFunctionName.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
    lib.rlxModuleCall.restype = ctypes.c_int
    lib.rlxModuleCall.argtypes = [
        ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(_Tensor), ctypes.c_size_t,
        ctypes.POINTER(ctypes.POINTER(_Tensor)), ctypes.POINTER(ctypes.c_size_t),
        ctypes.POINTER(ctypes.c_void_p)]
    lib.rlxModuleSetMemoryLimit.argtypes = [ctypes.c_void_p, ctypes.c_uint64]
    lib.rlxTensorsDestroy.argtypes = [ctypes.POINTER(_Tensor), ctypes.c_size_t]
    lib.rlxStringDestroy.argtypes = [ctypes.c_void_p]
    lib.rlxSetNumThreads.argtypes = [ctypes.c_int]
    lib.rlxGetNumThreads.restype = ctypes.c_int
    del err
    _lib = lib
    return lib


def _take_error(lib, ptr):
    if not ptr.value:
        return "unknown error"
    msg = ctypes.string_at(ptr.value).decode("utf-8", "replace")
    lib.rlxStringDestroy(ptr)
    return msg


class Module:
    """A compiled module; its public functions are attributes (or m["name"])."""

    def __init__(self, handle, lib):
        self._handle = handle
        self._lib = lib
        self.functions = [lib.rlxModuleFunctionName(handle, i).decode()
                          for i in range(lib.rlxModuleNumFunctions(handle))]

    @property
    def memory_limit(self):
        """Bytes one call may allocate (None: no cap)."""
        return self.__dict__.get("_memory_limit")

    @memory_limit.setter
    def memory_limit(self, limit):
        if limit is not None and int(limit) <= 0:
            raise ValueError("memory_limit must be positive or None")
        self._lib.rlxModuleSetMemoryLimit(self._handle, int(limit or 0))
        self.__dict__["_memory_limit"] = None if limit is None else int(limit)

    def __del__(self):
        if getattr(self, "_handle", None):
            self._lib.rlxModuleDestroy(self._handle)
            self._handle = None

    def __getattr__(self, name):
        if name.startswith("_") or name not in self.__dict__.get("functions", []):
            raise AttributeError(name)
        return lambda *args: self.call(name, *args)

    def __getitem__(self, name):
        return lambda *args: self.call(name, *args)

    def call(self, name, *args):
        """Calls `name`; returns one array, or a tuple for several results."""
        lib = self._lib
        arrays, tensors = [], (_Tensor * max(1, len(args)))()
        for i, a in enumerate(args):
            a = np.require(a, requirements="C")  # keeps 0-d arrays 0-d
            if a.dtype not in _DTYPES:
                raise RlxError("argument %d: unsupported dtype %s" % (i, a.dtype))
            shape = (ctypes.c_int64 * max(1, a.ndim))(*a.shape)
            arrays.append((a, shape))
            tensors[i] = _Tensor(_DTYPES[a.dtype], a.ndim,
                                 ctypes.cast(shape, ctypes.POINTER(ctypes.c_int64)),
                                 a.ctypes.data_as(ctypes.c_void_p), None)
        out = ctypes.POINTER(_Tensor)()
        nout = ctypes.c_size_t(0)
        err = ctypes.c_void_p()
        rc = lib.rlxModuleCall(self._handle, name.encode(), tensors, len(args),
                               ctypes.byref(out), ctypes.byref(nout), ctypes.byref(err))
        if rc != 0:
            raise RlxError(_take_error(lib, err))
        try:
            results = []
            for i in range(nout.value):
                t = out[i]
                shape = tuple(t.shape[d] for d in range(t.rank))
                dtype = _NP_OF[t.dtype]
                count = int(np.prod(shape)) if shape else 1
                array = np.empty(shape, dtype=dtype)
                if count:  # one copy, out of the runtime's buffer
                    ctypes.memmove(array.ctypes.data, t.data, count * dtype.itemsize)
                results.append(array)
        finally:
            lib.rlxTensorsDestroy(out, nout.value)
        return results[0] if len(results) == 1 else tuple(results)


def set_num_threads(n):
    """Sets the number of threads of compiled code's parallel loops (default:
    the environment's RLX_NUM_THREADS, else the number of cores; n < 1
    restores it). Results are bitwise the same for any count."""
    _library().rlxSetNumThreads(int(n))


def get_num_threads():
    """The number of threads compiled code runs its parallel loops on."""
    return _library().rlxGetNumThreads()


def compile(source, options=None, num_threads=None, memory_limit=None):
    """Compiles MLIR text (rlx ops and upstream dialects) to a Module.

    `options` is the rlx-to-llvm pipeline option string, e.g.
    "cumsum-matrix-max-length=64 scan-unroll-max-length=16".
    `num_threads`, when given, calls set_num_threads(num_threads).
    `memory_limit` caps the bytes one call may allocate (None: no cap); a
    call over it raises RlxError("rlx: cannot allocate N bytes ...").
    """
    lib = _library()
    if num_threads is not None:
        set_num_threads(num_threads)
    data = source.encode() if isinstance(source, str) else bytes(source)
    err = ctypes.c_void_p()
    handle = lib.rlxModuleCompile(data, len(data),
                                  options.encode() if options else None,
                                  ctypes.byref(err))
    if not handle:
        raise RlxError(_take_error(lib, err))
    module = Module(handle, lib)
    if memory_limit is not None:
        module.memory_limit = memory_limit
    return module
