"""rlx: compile rlx/MLIR programs and run them on numpy arrays and torch tensors.

    import numpy as np, rlx
    m = rlx.compile("net.mlir")      # a path, or the MLIR text itself
    help(m.forward)                  # forward(arg0: tensor<?x8xf32>, ...) -> ...
    y = m.forward(x, w)              # numpy in, numpy out (tuple if several)

    import rlx.torch                 # a compiled function + its rlx gradient
    f = rlx.torch.function(m, "f", grad="f_grad")   # as a torch.autograd.Function

Pure Python over ctypes and the C API in include/rlx-c/Runtime.h
(librlx_runtime.so); no MLIR Python bindings are needed. The library is found
through, in order: $RLX_RUNTIME_LIB (the .so itself), $RLX_BUILD_DIR/lib (a
build tree), the build/ of the source tree this package sits in, the lib/ of
the install prefix this package was installed into by `cmake --install`
(<prefix>/lib/python3*/dist-packages/rlx -> <prefix>/lib), and the dynamic
loader's search path (LD_LIBRARY_PATH, /usr/local/lib, ...).

Arguments: numpy arrays and CPU torch tensors are passed without a copy when
they are C-contiguous; other layouts are copied into a contiguous buffer. An
array or tensor whose dtype differs from the function's argument is an error
(RlxError; rlx never converts f64 to f32 behind your back); Python numbers and
lists are converted to the argument's dtype. Results are numpy arrays that
own the runtime's result buffers (no copy; results that would share memory
are copied), or torch tensors viewing them when any argument is a torch
tensor.
"""
import ctypes
import inspect
import math
import os
import sys

import numpy as np

__all__ = ["compile", "Module", "RlxError", "set_num_threads",
           "get_num_threads"]


class RlxError(RuntimeError):
    """Compilation or call failure, with the runtime's message (compile
    errors carry `file:line:col: error: ...` of the MLIR source)."""


# numpy dtype -> RlxDType. numpy has no bfloat16: bf16 tensors are passed and
# returned as uint16 arrays of their bit patterns (the upper half of an f32;
# e.g. (a.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
# truncates, torch's .to(torch.bfloat16).view(torch.int16) rounds).
_DTYPES = {np.dtype(np.float32): 0, np.dtype(np.float64): 1,
           np.dtype(np.int32): 2, np.dtype(np.int64): 3,
           np.dtype(np.float16): 4, np.dtype(np.uint16): 5}
_NP_OF = {v: k for k, v in _DTYPES.items()}
_MLIR_DTYPES = {"f32": np.dtype(np.float32), "f64": np.dtype(np.float64),
                "i32": np.dtype(np.int32), "i64": np.dtype(np.int64),
                "f16": np.dtype(np.float16), "bf16": np.dtype(np.uint16)}


class _Tensor(ctypes.Structure):
    _fields_ = [("dtype", ctypes.c_int), ("rank", ctypes.c_int64),
                ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("data", ctypes.c_void_p), ("owner", ctypes.c_void_p)]


_LIBNAME = "librlx_runtime.so"


def _find_library():
    candidates = []
    if os.environ.get("RLX_RUNTIME_LIB"):
        candidates.append(os.environ["RLX_RUNTIME_LIB"])
    if os.environ.get("RLX_BUILD_DIR"):
        candidates.append(os.path.join(os.environ["RLX_BUILD_DIR"], "lib",
                                       _LIBNAME))
    here = os.path.dirname(os.path.abspath(__file__))
    # python/rlx in a source tree with a build/ next to it.
    candidates.append(os.path.join(here, "..", "..", "build", "lib", _LIBNAME))
    # <prefix>/lib/python3*/dist-packages/rlx, installed by cmake --install
    # (which writes _install.py: the way to <prefix>/lib).
    try:
        from . import _install
        candidates.append(os.path.join(here, _install.LIBRARY_DIR, _LIBNAME))
    except ImportError:
        pass
    for path in candidates:
        if os.path.exists(path):
            return os.path.normpath(path)
    # Last, the dynamic loader's own search (LD_LIBRARY_PATH, ld.so.conf).
    try:
        ctypes.CDLL(_LIBNAME)
        return _LIBNAME
    except OSError:
        pass
    raise RlxError("%s not found; set RLX_BUILD_DIR (a build tree) or "
                   "RLX_RUNTIME_LIB (the library) (looked in: %s and the "
                   "loader's path)" % (_LIBNAME, ", ".join(candidates)))


_lib = None


def _library():
    global _lib
    if _lib is not None:
        return _lib
    lib = ctypes.CDLL(_find_library())
    lib.rlxModuleCompileNamed.restype = ctypes.c_void_p
    lib.rlxModuleCompileNamed.argtypes = [
        ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_char_p,
        ctypes.POINTER(ctypes.c_void_p)]
    lib.rlxModuleDestroy.argtypes = [ctypes.c_void_p]
    lib.rlxModuleNumFunctions.restype = ctypes.c_size_t
    lib.rlxModuleNumFunctions.argtypes = [ctypes.c_void_p]
    lib.rlxModuleFunctionName.restype = ctypes.c_char_p
    lib.rlxModuleFunctionName.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
    lib.rlxModuleFunctionType.restype = ctypes.c_char_p
    lib.rlxModuleFunctionType.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
    lib.rlxModuleCall.restype = ctypes.c_int
    lib.rlxModuleCall.argtypes = [
        ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(_Tensor), ctypes.c_size_t,
        ctypes.POINTER(ctypes.POINTER(_Tensor)), ctypes.POINTER(ctypes.c_size_t),
        ctypes.POINTER(ctypes.c_void_p)]
    lib.rlxModuleSetMemoryLimit.argtypes = [ctypes.c_void_p, ctypes.c_uint64]
    lib.rlxTensorsDestroy.argtypes = [ctypes.POINTER(_Tensor), ctypes.c_size_t]
    lib.rlxTensorRelease.argtypes = [ctypes.POINTER(_Tensor)]
    lib.rlxStringDestroy.argtypes = [ctypes.c_void_p]
    lib.rlxSetNumThreads.argtypes = [ctypes.c_int]
    lib.rlxGetNumThreads.restype = ctypes.c_int
    _lib = lib
    return lib


def _take_error(lib, ptr):
    if not ptr.value:
        return "unknown error"
    msg = ctypes.string_at(ptr.value).decode("utf-8", "replace")
    lib.rlxStringDestroy(ptr)
    return msg


#===------------------------------------------------------------------------===#
# MLIR types, as text: enough to name a function's arguments and results.
#===------------------------------------------------------------------------===#

class MlirType(str):
    """An MLIR type's text (e.g. "tensor<?x4xf32>"); shown without quotes in
    signatures. `dtype` (numpy) and `shape` (None = dynamic) are parsed when
    it is a ranked tensor of f32/f64/i32/i64, else None."""

    def __repr__(self):
        return str(self)

    @property
    def dtype(self):
        parsed = self._parse()
        return parsed and parsed[1]

    @property
    def shape(self):
        parsed = self._parse()
        return parsed and parsed[0]

    def _parse(self):
        if not (self.startswith("tensor<") and self.endswith(">")):
            return None
        dims = self[len("tensor<"):-1].split("x")
        if dims[-1] not in _MLIR_DTYPES or any(
                d != "?" and not d.isdigit() for d in dims[:-1]):
            return None
        shape = tuple(None if d == "?" else int(d) for d in dims[:-1])
        return shape, _MLIR_DTYPES[dims[-1]]


def _split_top(text, sep=","):
    """Splits at `sep` outside <>, (), [], {}."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c in "<([{":
            depth += 1
        elif c in ">)]}":
            depth -= 1
        elif c == sep and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def _parse_function_type(text):
    """"(a, b) -> (c, d)" or "(a) -> c" -> ([a, b], [c, d])."""
    depth = 0
    for i, c in enumerate(text):
        if c in "<([{":
            depth += 1
        elif c in ")]}" or (c == ">" and text[i - 1] != "-"):
            depth -= 1
        elif text.startswith("->", i) and depth == 0:
            ins, outs = text[:i].strip(), text[i + 2:].strip()
            break
    else:
        return None
    strip = lambda s: s[1:-1] if s.startswith("(") and s.endswith(")") else s
    return ([MlirType(t) for t in _split_top(strip(ins))],
            [MlirType(t) for t in _split_top(strip(outs))])


#===------------------------------------------------------------------------===#
# Arguments: numpy arrays and torch tensors, without a copy where possible.
#===------------------------------------------------------------------------===#

# Called, when set, with the data pointers rlxModuleCall receives (tests).
_call_hook = None


def _torch_dtypes(torch):
    # torch has bf16: its tensors pass as they are (results are numpy uint16).
    return {torch.float32: 0, torch.float64: 1, torch.int32: 2, torch.int64: 3,
            torch.float16: 4, torch.bfloat16: 5}


def _is_torch_tensor(a):
    torch = sys.modules.get("torch")
    return torch is not None and isinstance(a, torch.Tensor)


def _marshal(index, a, want):
    """(keep-alive object, dtype code, shape, data pointer) of argument
    `index`; `want` is its MlirType (for converting Python numbers/lists)."""
    if _is_torch_tensor(a):
        torch = sys.modules["torch"]
        t = a.detach()
        if t.device.type != "cpu":
            raise RlxError("argument #%d: a torch tensor on %s; rlx runs on "
                           "the CPU" % (index, t.device))
        code = _torch_dtypes(torch).get(t.dtype)
        if code is None:
            raise RlxError("argument #%d: unsupported dtype %s (rlx takes "
                           "float32, float64, int32, int64, float16, bfloat16)"
                           % (index, t.dtype))
        if not t.is_contiguous():
            t = t.contiguous()  # the one copy: a strided view
        return t, code, tuple(t.shape), t.data_ptr()
    if not isinstance(a, np.ndarray):
        dtype = want.dtype if want is not None else None
        a = np.asarray(a, dtype=dtype)
    # C order: no copy when already so (a 0-d array always is, and stays
    # 0-d). A flag test, not np.require: that was a tenth of a small call.
    if not a.flags.c_contiguous:
        a = np.ascontiguousarray(a)
    if a.dtype not in _DTYPES:
        raise RlxError("argument #%d: unsupported dtype %s (rlx takes "
                       "float32, float64, int32, int64, float16, uint16 bits of "
                       "bf16)" % (index, a.dtype))
    return a, _DTYPES[a.dtype], a.shape, a.ctypes.data


class _Result:
    """A result buffer of rlxModuleCall, the base of the numpy array that
    views it; released (rlxTensorRelease) when the array is."""

    def __init__(self, lib, tensor, shape, dtype):
        self._lib = lib
        self._tensor = _Tensor(tensor.dtype, tensor.rank, tensor.shape,
                               tensor.data, tensor.owner)
        self.__array_interface__ = {"data": (tensor.data, False),
                                    "shape": shape, "typestr": dtype.str,
                                    "version": 3}

    def __del__(self):
        self._lib.rlxTensorRelease(ctypes.byref(self._tensor))


class Function:
    """One function of a compiled Module: call it on arrays or tensors.

    `name`, `mlir_type` (the MLIR function type), `arg_types` and
    `result_types` (MlirType) describe it; help() shows its signature."""

    def __init__(self, owner, name, mlir_type):
        self._owner = owner
        self.__name__ = self.__qualname__ = self.name = name
        self.mlir_type = mlir_type
        parsed = _parse_function_type(mlir_type) if mlir_type else None
        self.arg_types, self.result_types = parsed or (None, None)
        if parsed:
            params = [inspect.Parameter("arg%d" % i,
                                        inspect.Parameter.POSITIONAL_ONLY,
                                        annotation=t)
                      for i, t in enumerate(self.arg_types)]
            outs = self.result_types
            ret = (outs[0] if len(outs) == 1 else
                   MlirType("(" + ", ".join(outs) + ")"))
            self.__signature__ = inspect.Signature(params, return_annotation=ret)
        self.__doc__ = (
            "The compiled MLIR function @%s : %s.\n\n"
            "Takes numpy arrays or CPU torch tensors (passed without a copy "
            "when C-contiguous; the dtype must match), returns numpy arrays "
            "(torch tensors if an argument is one), a tuple for several "
            "results." % (name, mlir_type or "?"))

    def __call__(self, *args):
        return _call(self._owner, self.name, self.arg_types, args)

    def __get__(self, obj, objtype=None):
        # A descriptor, so that help() documents it as a routine: name,
        # signature, doc.
        return self

    def __repr__(self):
        return "<rlx function @%s : %s>" % (self.name, self.mlir_type)


class Module:
    """A compiled module; its public functions are attributes (or m["name"]),
    Function objects whose help() shows the MLIR signature."""

    def __init__(self, handle, lib):
        # The functions hold the _Handle, not the Module: no reference cycle,
        # so that `del module` frees the JIT code at once (unless a function
        # of it is still referenced).
        self._owner = _Handle(handle, lib)
        self._handle = handle
        self._lib = lib
        count = lib.rlxModuleNumFunctions(handle)
        self.functions = [lib.rlxModuleFunctionName(handle, i).decode()
                          for i in range(count)]
        self._functions = {}
        for i, name in enumerate(self.functions):
            ty = lib.rlxModuleFunctionType(handle, i)
            self._functions[name] = Function(self._owner, name,
                                             ty.decode() if ty else None)

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

    def __getattr__(self, name):
        functions = self.__dict__.get("_functions", {})
        if name.startswith("_") or name not in functions:
            raise AttributeError(name)
        return functions[name]

    def __dir__(self):
        return list(super().__dir__()) + list(self.__dict__.get("_functions", {}))

    def __getitem__(self, name):
        f = self._functions.get(name)
        return f if f is not None else (lambda *args: self.call(name, *args))

    def call(self, name, *args):
        """Calls `name`; returns one array, or a tuple for several results
        (arrays that own the runtime's buffers: no copy)."""
        f = self._functions.get(name)
        return _call(self._owner, name, f.arg_types if f is not None else None,
                     args)


class _Handle:
    """Owns an RlxModule: destroyed with the last Module or Function using it."""

    def __init__(self, handle, lib):
        self.handle = handle
        self.lib = lib

    def __del__(self):
        if self.handle:
            self.lib.rlxModuleDestroy(self.handle)
            self.handle = None


def _call(owner, name, arg_types, args):
    """Calls function `name` of the module `owner` (a _Handle)."""
    lib = owner.lib
    want = arg_types or []
    keep, tensors = [], (_Tensor * max(1, len(args)))()
    as_torch = False
    for i, a in enumerate(args):
        as_torch = as_torch or _is_torch_tensor(a)
        obj, code, dims, ptr = _marshal(i, a, want[i] if i < len(want) else None)
        shape = (ctypes.c_int64 * max(1, len(dims)))(*dims)
        keep.append((obj, shape))
        tensors[i] = _Tensor(code, len(dims),
                             ctypes.cast(shape, ctypes.POINTER(ctypes.c_int64)),
                             ptr, None)
    if _call_hook is not None:
        _call_hook([tensors[i].data for i in range(len(args))])
    out = ctypes.POINTER(_Tensor)()
    nout = ctypes.c_size_t(0)
    err = ctypes.c_void_p()
    rc = lib.rlxModuleCall(owner.handle, name.encode(), tensors, len(args),
                           ctypes.byref(out), ctypes.byref(nout), ctypes.byref(err))
    del keep
    if rc != 0:
        raise RlxError(_take_error(lib, err))
    try:
        results, spans = [], []
        for i in range(nout.value):
            t = out[i]
            shape = tuple(t.shape[d] for d in range(t.rank))
            dtype = _NP_OF[t.dtype]
            nbytes = math.prod(shape) * dtype.itemsize
            span = (t.data or 0, (t.data or 0) + nbytes)
            if nbytes == 0 or any(span[0] < e and b < span[1] for b, e in spans):
                # Empty, or sharing memory with an earlier result: a copy,
                # so that results never alias each other.
                array = np.empty(shape, dtype=dtype)
                if nbytes:
                    ctypes.memmove(array.ctypes.data, t.data, nbytes)
            else:
                # No copy: the array owns the runtime's buffer.
                array = np.asarray(_Result(lib, t, shape, dtype))
                out[i].shape = None
                out[i].owner = None
                spans.append(span)
            results.append(array)
    finally:
        lib.rlxTensorsDestroy(out, nout.value)
    if as_torch:
        from_numpy = sys.modules["torch"].from_numpy
        results = [from_numpy(r) for r in results]
    return results[0] if len(results) == 1 else tuple(results)


def set_num_threads(n):
    """Sets the number of threads of compiled code's parallel loops (default:
    the environment's RLX_NUM_THREADS, else the number of cores; n < 1
    restores it). Results are bitwise the same for any count."""
    _library().rlxSetNumThreads(int(n))


def get_num_threads():
    """The number of threads compiled code runs its parallel loops on."""
    return _library().rlxGetNumThreads()


def _read_source(source):
    """(bytes, name for diagnostics) of `source`: MLIR text, or a path."""
    if isinstance(source, os.PathLike) or (
            isinstance(source, str) and "\n" not in source and
            (source.endswith(".mlir") or os.path.isfile(source))):
        path = os.fspath(source)
        with open(path, "rb") as f:
            return f.read(), path
    if isinstance(source, str):
        return source.encode(), "<string>"
    return bytes(source), "<string>"


def compile(source, pipeline_options=None, num_threads=None, memory_limit=None,
            *, options=None):
    """Compiles MLIR (rlx ops and upstream dialects) to a Module.

    `source` is the MLIR text (str or bytes) or a path to a .mlir file (an
    os.PathLike, or a one-line str naming a file). Errors (RlxError) name
    the file, line and column: `net.mlir:3:7: error: ...`, or
    `<string>:3:7: ...` for text.
    `pipeline_options` (alias: `options`) is the rlx-to-llvm pipeline option
    string, e.g. "cumsum-matrix-max-length=64 scan-unroll-max-length=16".
    `num_threads`, when given, calls set_num_threads(num_threads).
    `memory_limit` caps the bytes one call may allocate (None: no cap); a
    call over it raises RlxError("rlx: cannot allocate N bytes ...").
    Functions marked `rlx.grad` get their `<name>_grad` (docs/Autodiff.md).
    """
    if options is not None:
        if pipeline_options is not None and pipeline_options != options:
            raise TypeError("compile(): give pipeline_options or its alias "
                            "options, not both")
        pipeline_options = options
    data, name = _read_source(source)
    lib = _library()
    if num_threads is not None:
        set_num_threads(num_threads)
    err = ctypes.c_void_p()
    handle = lib.rlxModuleCompileNamed(
        data, len(data), name.encode(),
        pipeline_options.encode() if pipeline_options else None,
        ctypes.byref(err))
    if not handle:
        raise RlxError(_take_error(lib, err))
    module = Module(handle, lib)
    if memory_limit is not None:
        module.memory_limit = memory_limit
    return module


def __getattr__(name):
    # `rlx.torch` imports torch only when used.
    if name == "torch":
        import importlib
        return importlib.import_module("rlx.torch")
    raise AttributeError("module 'rlx' has no attribute %r" % name)
