"""The Triton runner: a law's original sides, with every ``@triton.jit`` function they
reach run by Triton itself, in its CPU interpreter.

Code written for Triton (``tl.*`` inside ``@triton.jit`` functions) cannot run as plain
Python, and every interpretation in ``verify.engine`` is the project's own reading of
``tl``. This runner shares none of them: it launches a small driver kernel through
``triton.runtime.interpreter.InterpretedFunction`` on CPU torch tensors, grid (1,),
that loads a block of points (one lane each: float64 lanes, or float32; components of
an integer domain on int64 lanes), calls the law's sides on them and reads back what
Triton computed. Inside the kernel the law's sides are the original Python functions
(a side that reaches no Triton code runs as plain Python outside it, on the same
numbers); the only change is that the ``@triton.jit`` functions they reach (through globals,
closure cells, defaults and project modules) are called as Triton device functions
(``InterpretedFunction``'s rewritten source, run with ``tl`` patched by the launch), so
Triton's own rules hold there: a float literal assigned to a name is a float32
constant, ``//`` and ``%`` on integers truncate toward zero, ``%`` on floats is
``fmod``, ``//`` on floats and ``tl.fdiv`` on integers are errors, and so on.

Per point it reports both sides' components as Python numbers and whether a float
operation overflowed or underflowed there (numpy's error flags, attributed to a point
by running the block again with one program per point). A Python ``if`` (or ``and``,
``max``, ``assert``) on a block of lanes has no single truth value in Triton, so a
launch that asks for one runs again with one program per point (``tl.program_id``),
where each branch is taken as Triton takes it on a scalar. A point the interpreter
cannot run (an error anywhere in the launch of that point alone) raises ``NotRun``:
it is undecided, never agreed.

What it does not cover: ``tl.reduce``/``tl.associative_scan`` called by a law side on
the lanes (each lane is one point, not an axis); functions reached through containers
other than modules, globals, closures and defaults (called as Python there: in a
process without ``TRITON_INTERPRET=1`` a ``JITFunction`` still runs through the
interpreter, a bare ``.fn`` runs without its source rewritten); bounded laws.
"""
from __future__ import annotations

import contextlib
import types
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Mapping

import numpy as np

from laws.core import Law
from verify.engine import domains
from verify.engine.faithful import code_names
from verify.engine.interp import JIT_SOURCES, is_library_file, unwrap
from verify.engine.shapes import flatten, shape_like

CHUNK = 8                 # points per block once a block's launch has failed
FLOAT_DTYPES = ("float64", "float32")


class NotRun(Exception):
    """Triton's interpreter cannot run the law's sides at a point."""


@dataclass
class Lanes:
    lhs: list[Any]
    rhs: list[Any]
    overflow: bool = False       # a float operation overflowed or underflowed there
    unit: float = 2.0 ** -53     # unit roundoff of the narrowest float Triton computed in


class _BlockTruth(Exception):
    """A truth value was asked of a block of lanes."""


# ----------------------------------------------------------------------------- the view
class _DeviceCall:
    """A ``@triton.jit`` function called from inside a running kernel, as Triton's
    interpreter calls a device function (its rewritten source; ``tl`` is patched by
    the launch)."""

    def __init__(self, fn: types.FunctionType) -> None:
        from triton.runtime.interpreter import InterpretedFunction
        self.fn = fn
        self._interpreted = InterpretedFunction(fn)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._interpreted.rewrite()(*args, **kwargs)


_DEVICE: dict[types.CodeType, _DeviceCall] = {}
_VIEWS: dict[int, tuple[Any, Any, bool]] = {}   # id -> (original, view, reaches jit)


def _jit_source(value: Any) -> types.FunctionType | None:
    """The plain function behind a ``@triton.jit`` function (a ``JITFunction``, an
    ``InterpretedFunction`` or its unwrapped ``.fn``); None for anything else."""
    if isinstance(value, types.FunctionType):
        return value if value.__code__ in JIT_SOURCES else None
    if getattr(value, "fn", None) is not None and type(value).__module__.startswith("triton"):
        fn = unwrap(value)
        return fn if isinstance(fn, types.FunctionType) else None
    return None


def _device(fn: types.FunctionType) -> _DeviceCall:
    call = _DEVICE.get(fn.__code__)
    if call is None or call.fn is not fn:
        call = _DEVICE[fn.__code__] = _DeviceCall(fn)
    return call


class _Module:
    """A project module whose jit functions are device calls."""

    def __init__(self, module: types.ModuleType) -> None:
        self._module = module

    def __getattr__(self, name: str) -> Any:
        return _view(getattr(self._module, name))[0]


def _module_view(module: types.ModuleType, names: set[str]) -> tuple[Any, bool]:
    """A project module as seen by code that names ``names`` (its attributes among
    them): a view when one of those reaches a jit function."""
    if _is_triton_language(module):
        return module, True       # tl.* outside a jit function runs inside the kernel too
    if is_library_file(getattr(module, "__file__", None)):
        return module, False
    for name in names:
        if hasattr(module, name) and not isinstance(getattr(module, name), types.ModuleType) \
                and _view(getattr(module, name))[1]:
            return _Module(module), True
    return module, False


def _view(value: Any) -> tuple[Any, bool]:
    """(``value`` with every jit function it reaches callable inside a kernel, whether
    it reaches one). Library code and other objects are left as they are."""
    jit = _jit_source(value)
    if jit is not None:
        return _device(jit), True
    if _is_triton_language(value):
        return value, True
    if not isinstance(value, types.FunctionType) or is_library_file(value.__code__.co_filename):
        return value, False
    known = _VIEWS.get(id(value))
    if known is not None and known[0] is value:
        return known[1], known[2]
    new_globals: dict[str, Any] = dict(value.__globals__)
    copy = types.FunctionType(value.__code__, new_globals, value.__name__,
                              value.__defaults__,
                              None if value.__closure__ is None else
                              tuple(types.CellType() for _ in value.__closure__))
    _VIEWS[id(value)] = (value, copy, False)   # first: recursive functions terminate
    reached = False
    names = code_names(value.__code__)
    for name in names:
        if name in value.__globals__:
            found = value.__globals__[name]
            new, hit = (_module_view(found, names) if isinstance(found, types.ModuleType)
                        else _view(found))
            new_globals[name], reached = new, reached or hit
    if value.__closure__ is not None:
        for old, cell in zip(value.__closure__, copy.__closure__ or ()):
            try:
                held = old.cell_contents
            except ValueError:  # an empty cell stays empty
                continue
            new, hit = (_module_view(held, names) if isinstance(held, types.ModuleType)
                        else _view(held))
            cell.cell_contents, reached = new, reached or hit
    if value.__defaults__:
        pairs = [_view(d) for d in value.__defaults__]
        copy.__defaults__ = tuple(p[0] for p in pairs)
        reached = reached or any(p[1] for p in pairs)
    copy.__kwdefaults__ = value.__kwdefaults__
    if not reached:
        _VIEWS[id(value)] = (value, value, False)
        return value, False
    _VIEWS[id(value)] = (value, copy, True)
    return copy, True


def _is_triton_language(value: Any) -> bool:
    """``triton.language`` itself, one of its submodules, or a function of it: code that
    names one is Triton code even outside a ``@triton.jit`` function."""
    name = (value.__name__ if isinstance(value, types.ModuleType)
            else getattr(value, "__module__", None) if callable(value) else None)
    return isinstance(name, str) and (name == "triton.language"
                                      or name.startswith("triton.language."))


def reaches(fn: Callable) -> bool:
    """Whether ``fn`` reaches a ``@triton.jit`` function."""
    return _view(fn)[1]


def reaches_triton(law: Law) -> bool:
    """Whether the law's sides reach a ``@triton.jit`` function."""
    return reaches(law.lhs) or reaches(law.rhs)


# ----------------------------------------------------------------------------- launching
def _driver(XF, XI):
    _RUN(XF, XI)  # noqa: F821 (set in the kernel's globals before each launch)


_KERNEL: Any = None
_KERNEL_GLOBALS: dict[str, Any] = {}


def _kernel():
    global _KERNEL
    if _KERNEL is None:
        import triton.language as tl
        from triton.runtime.interpreter import InterpretedFunction
        _KERNEL_GLOBALS.update(tl=tl, core=tl.core, _RUN=None)
        _KERNEL = InterpretedFunction(types.FunctionType(_driver.__code__, _KERNEL_GLOBALS,
                                                         "_driver"))
    return _KERNEL


@contextlib.contextmanager
def _launch_rules(strict: bool) -> Iterator[None]:
    """During a launch: a ``JITFunction`` reached from jit code is a device call (a
    process without ``TRITON_INTERPRET=1`` holds those), and, with ``strict``, the truth
    value of a block of lanes is refused instead of the interpreter's ``True``."""
    import triton.runtime.interpreter as ti
    from triton.runtime.jit import JITFunction
    original_call = JITFunction.__call__
    original_patch = ti._patch_lang_tensor

    def device_call(self, *args, **kwargs):
        return _device(unwrap(self))(*args, **kwargs)

    def strict_bool(self):
        data = self.handle.data
        if data.size != 1:
            raise _BlockTruth()
        return bool(data.item())

    def patch(tensor, scope):
        original_patch(tensor, scope)
        scope.set_attr(tensor, "__bool__", strict_bool)

    import triton.language.core as tlc
    original_init = tlc.tensor.__init__

    def noting_init(self, handle, type):
        original_init(self, handle, type)
        scalar = getattr(type, "scalar", type)
        if getattr(scalar, "is_floating", lambda: False)():
            _NARROWEST[0] = min(_NARROWEST[0], scalar.fp_mantissa_width)

    JITFunction.__call__ = device_call  # type: ignore[method-assign]
    tlc.tensor.__init__ = noting_init  # type: ignore[method-assign]
    if strict:
        ti._patch_lang_tensor = patch
    try:
        yield
    finally:
        JITFunction.__call__ = original_call  # type: ignore[method-assign]
        tlc.tensor.__init__ = original_init  # type: ignore[method-assign]
        ti._patch_lang_tensor = original_patch


# the fewest mantissa bits of a float Triton computed in during the current launch (an
# integer division is float32 on the device; a float literal named in jit code too)
_NARROWEST = [52]


def _flat(x: Any) -> list[Any]:
    import triton.language as tl
    if isinstance(x, tl.tuple):
        x = tuple(x.values)
    if isinstance(x, (tuple, list)):
        return [c for item in x for c in _flat(item)]
    if isinstance(x, np.ndarray) and x.dtype == object:
        return [c for item in x.flat for c in _flat(item)]
    return [x]


def _column(x: Any, width: int) -> list[Any]:
    """One side's component over the lanes, as Python numbers (a value Python computed
    outside Triton is the same on every lane)."""
    import triton.language as tl
    if isinstance(x, tl.tensor):
        data = np.broadcast_to(np.asarray(x.handle.data).reshape(-1), (width,))
        return [v.item() for v in data]
    if isinstance(x, np.generic):
        x = x.item()
    return [x] * width


def _launch(sides: tuple[Callable, Callable], law: Law, points: list[list[Any]],
            instance: Mapping[str, Any], dtype: str, one_program_each: bool
            ) -> tuple[list[Lanes], set[int]]:
    """One launch over ``points``: their sides and the points whose error flags were
    raised (all of them when a block raised one)."""
    import torch
    import triton.language as tl
    vars_ = law.vars_for(instance)
    kinds = [domains.get(d).integer for v in vars_ for d in v.component_domains()]
    n = len(points)
    width = 1 << max(0, (n - 1).bit_length())
    rows = [flatten(list(p)) for p in points] + [flatten(list(points[0]))] * (width - n)
    fdt = getattr(torch, dtype)
    xf = torch.tensor([[float(r[k]) for r in rows] for k, i in enumerate(kinds) if not i]
                      or [[0.0]], dtype=fdt).reshape(-1)
    xi = torch.tensor([[int(r[k]) for r in rows] for k, i in enumerate(kinds) if i]
                      or [[0]], dtype=torch.int64).reshape(-1)
    results: list[list[list[Any]]] = [[], []]
    flagged: set[int] = set()
    current = [-1]

    def run(XF, XI):
        offs = tl.program_id(0) if one_program_each else tl.arange(0, width)
        if one_program_each:
            current[0] = int(np.asarray(offs.handle.data).reshape(-1)[0])
        comps, f, i = [], 0, 0
        for is_int in kinds:
            if is_int:
                comps.append(tl.load(XI + i * width + offs))
                i += 1
            else:
                comps.append(tl.load(XF + f * width + offs))
                f += 1
        vals, k = [], 0
        for v in vars_:
            size = len(v.component_domains())
            vals.append(shape_like(v, comps[k:k + size]))
            k += size
        lanes = 1 if one_program_each else width
        for side, fn in enumerate(sides):
            out = [] if fn is None else \
                [_column(x, lanes) for x in _flat(fn(*vals, **instance))]
            results[side].append(out)

    def flag(kind: str, code: int) -> None:
        flagged.add(current[0])

    kernel = _kernel()
    _KERNEL_GLOBALS["_RUN"] = run
    _NARROWEST[0] = 52
    grid = (width,) if one_program_each else (1,)
    with _launch_rules(strict=not one_program_each), \
            np.errstate(over="call", under="call", divide="ignore", invalid="ignore",
                        call=flag):
        kernel[grid](xf, xi)
    unit = 2.0 ** -(_NARROWEST[0] + 1)
    if one_program_each:
        per = [[[c[0] for c in prog] for prog in side] for side in results]
        out = [Lanes(per[0][j], per[1][j], unit=unit) for j in range(n)]
        return out, flagged
    lhs, rhs = results[0][0], results[1][0]
    out = [Lanes([c[j] for c in lhs], [c[j] for c in rhs], unit=unit) for j in range(n)]
    return out, (set(range(n)) if flagged else set())


def run(law: Law, points: list[list[Any]], instance: Mapping[str, Any] = {},
        dtype: str = "float64") -> list[Lanes | NotRun]:
    """Both sides of ``law`` at each point, computed by Triton's interpreter on
    ``dtype`` lanes; a ``NotRun`` where it cannot run that point."""
    if dtype not in FLOAT_DTYPES:
        raise ValueError(f"dtype must be one of {FLOAT_DTYPES}")
    views = [_view(law.lhs), _view(law.rhs)]
    sides = tuple(view if reached else None for view, reached in views)
    out: list[Lanes | NotRun] = []
    for start in range(0, len(points), 1024):
        out += _blocks(sides, law, points[start:start + 1024], instance, dtype)
    for k, (fn, reached) in enumerate(views):
        if not reached:
            out = [_host(fn, law, p, instance, dtype, r, k) for p, r in zip(points, out)]
    return out


def _host(fn: Callable, law: Law, point: list[Any], instance: Mapping[str, Any],
          dtype: str, got: Lanes | NotRun, side: int) -> Lanes | NotRun:
    """A side that reaches no Triton code, run by plain Python on the point's numbers
    (rounded to ``dtype``, as the lanes hold them)."""
    if isinstance(got, NotRun):
        return got
    rnd = float if dtype == "float64" else (lambda x: float(np.float32(x)))
    vals = [shape_like(v, [int(x) if domains.get(d).integer else rnd(x)
                           for x, d in zip(flatten([val]), v.component_domains())])
            for v, val in zip(law.vars_for(instance), point)]
    try:
        comps = [c.item() if isinstance(c, np.generic) else c
                 for c in _flat(fn(*vals, **instance))]
    except Exception as exc:  # noqa: BLE001 (Python raises there: x / 0, log of 0)
        return NotRun(f"Python raises there ({_why(exc)})")
    if side == 0:
        return Lanes(comps, got.rhs, got.overflow)
    return Lanes(got.lhs, comps, got.overflow)


def _blocks(sides, law, points, instance, dtype) -> list[Lanes | NotRun]:
    """A block; where it fails or raises an error flag, smaller blocks, then one
    program per point (branches on scalars), then each point alone."""
    if not points:
        return []
    try:
        got, flagged = _launch(sides, law, points, instance, dtype, False)
        if not flagged:
            return list(got)
        if len(points) == 1:
            got[0].overflow = True
            return list(got)
        # one program per point attributes each flag to its point in one launch
        return _one_program_each(sides, law, points, instance, dtype)
    except _BlockTruth:
        return _one_program_each(sides, law, points, instance, dtype)
    except Exception as exc:  # noqa: BLE001 (the interpreter raises what the code raises)
        if len(points) == 1:
            return [NotRun(_why(exc))]
    if len(points) > CHUNK:
        return [r for start in range(0, len(points), CHUNK)
                for r in _blocks(sides, law, points[start:start + CHUNK], instance, dtype)]
    return [r for p in points for r in _blocks(sides, law, [p], instance, dtype)]


def _one_program_each(sides, law, points, instance, dtype) -> list[Lanes | NotRun]:
    try:
        got, flagged = _launch(sides, law, points, instance, dtype, True)
    except Exception as exc:  # noqa: BLE001
        if len(points) == 1:
            return [NotRun(_why(exc))]
        return [r for p in points for r in _one_program_each(sides, law, [p], instance, dtype)]
    for j in flagged:
        if 0 <= j < len(got):
            got[j].overflow = True
    return list(got)


def _why(exc: BaseException) -> str:
    inner: BaseException = exc
    while inner.__cause__ is not None:
        inner = inner.__cause__
    return f"{type(inner).__name__}: {str(inner)[:200]}"


# ----------------------------------------------------------------------------- one point
_CACHE: dict[tuple, Lanes | NotRun] = {}
_CACHE_LAW: list[Any] = [None]


def _key(points_of: Any, instance: Mapping[str, Any]) -> tuple:
    return (repr(points_of), tuple(sorted((k, repr(v)) for k, v in instance.items())))


def prefetch(law: Law, points: list[list[Any]], instance: Mapping[str, Any] = {}) -> None:
    """Run ``points`` in one launch and keep the results for ``sides`` (one law at a
    time)."""
    if _CACHE_LAW[0] is not law:
        _CACHE.clear()
        _CACHE_LAW[0] = law
    todo = [p for p in points if _key(p, instance) not in _CACHE]
    for p, r in zip(todo, run(law, todo, instance)):
        _CACHE[_key(p, instance)] = r


def sides(law: Law, values: list[Any], instance: Mapping[str, Any] = {}) -> Lanes:
    """Both sides at one point on float64 lanes (from ``prefetch`` when it ran the
    point); ``NotRun`` where the interpreter cannot run it."""
    found = _CACHE.get(_key(values, instance)) if _CACHE_LAW[0] is law else None
    if found is None:
        found = run(law, [values], instance)[0]
    if isinstance(found, NotRun):
        raise found
    return found
