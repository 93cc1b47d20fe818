"""Recording the launches a wrapper makes: ``kernel[grid](...)`` in Triton's interpreter
is intercepted, and the kernel, its arguments (tensors by dtype, constexprs by value) and
its launch options (num_warps, num_stages) and its grid are recorded (a grid given as a
function of the meta-parameters is evaluated on them). With ``execute=False`` the
kernel body is not run (only the launch configuration is wanted), and a compiled
``JITFunction`` launched outside the interpreter is recorded and not run either; with
``pretend_gpu`` the project's kernels choose their GPU configurations (block sizes, warps,
stages per size class) while running on the CPU: every ``impls`` module's reference to
``impls.spec.backend`` answers ``gpu`` for the duration."""
from __future__ import annotations

import contextlib
import hashlib
import inspect
import sys
from typing import Any, Iterator

_DEFAULT_OPTIONS = {"num_warps": 4, "num_stages": 3}   # Triton's NVIDIA defaults


def _is_constexpr(annotation) -> bool:
    import triton.language as tl
    return annotation is tl.constexpr or "constexpr" in str(annotation)


def _source_hash(fn) -> str:
    """The kernel's file and the files of the jitted functions it calls (one level)."""
    files = {inspect.getsourcefile(fn)}
    for value in fn.__globals__.values():
        inner = getattr(value, "fn", None)
        if callable(inner) and hasattr(inner, "__code__"):
            with contextlib.suppress(TypeError):
                files.add(inspect.getsourcefile(inner))
    h = hashlib.sha256()
    for f in sorted(x for x in files if x):
        with open(f, "rb") as fh:
            h.update(f.encode() + fh.read())
    return h.hexdigest()[:16]


def _describe(jit, args: tuple, kwargs: dict) -> dict:
    import torch
    import triton.language as tl
    fn = jit.fn
    params = list(inspect.signature(fn).parameters.values())
    options = {k: kwargs[k] for k in ("num_warps", "num_stages", "num_ctas") if k in kwargs}
    values = dict(zip([p.name for p in params], args))
    values.update({k: v for k, v in kwargs.items() if k not in options})
    described = []
    for p in params:
        v = values.get(p.name, p.default if p.default is not inspect.Parameter.empty else None)
        arg: dict[str, Any]
        const = _is_constexpr(p.annotation)
        if isinstance(v, torch.Tensor):
            arg = {"kind": "tensor", "value": str(v.dtype).replace("torch.", "")}
        elif isinstance(v, bool):
            arg = {"kind": "bool", "value": v}
        elif isinstance(v, int):
            arg = {"kind": "int", "value": int(v)}
        elif isinstance(v, float):
            arg = {"kind": "float", "value": float(v)}
        elif isinstance(v, tl.dtype):
            arg = {"kind": "dtype", "value": v.name}
        elif isinstance(v, str):
            arg = {"kind": "str", "value": v}
        elif v is None:
            arg = {"kind": "none", "value": None}
        else:
            arg = {"kind": type(v).__name__, "value": getattr(v, "value", repr(v))}
        if not const and arg["kind"] == "int":       # only the width reaches the signature
            arg["value"] = 0 if -2 ** 31 <= arg["value"] < 2 ** 31 else 2 ** 40
        elif not const and arg["kind"] == "float":
            arg["value"] = 0.0
        described.append({"name": p.name, "constexpr": const, **arg})
    return {"module": fn.__module__, "file": inspect.getsourcefile(fn), "name": fn.__name__,
            "args": described, "options": {**_DEFAULT_OPTIONS, **options},
            "source_hash": _source_hash(fn)}


def _grid(jit, grid, args: tuple, kwargs: dict) -> list[int] | None:
    """The launch grid as a list of ints: ``grid`` itself, or ``grid(meta)`` for a
    callable, meta being every argument by name (defaults included), as Triton passes it;
    None when it cannot be evaluated."""
    if callable(grid):
        try:
            bound = inspect.signature(jit.fn).bind_partial(*args, **{
                k: v for k, v in kwargs.items()
                if k not in ("num_warps", "num_stages", "num_ctas")})
            bound.apply_defaults()
            grid = grid(dict(bound.arguments))
        except Exception:  # a grid function that needs more than the arguments
            return None
    try:
        return [int(g) for g in (grid if isinstance(grid, (tuple, list)) else (grid,))]
    except (TypeError, ValueError):
        return None


def launch_id(launch: dict) -> str:
    """A readable configuration label: the constexprs, dtypes and options."""
    parts = [f"{a['name']}={a['value']}" for a in launch["args"] if a["constexpr"]]
    dts = sorted({a["value"] for a in launch["args"] if a["kind"] == "tensor"})
    opts = [f"{k}={v}" for k, v in sorted(launch["options"].items())]
    return f"{launch['name']}[{', '.join(parts + ['/'.join(dts)] + opts)}]"


@contextlib.contextmanager
def recording(execute: bool = True, pretend_gpu: bool = False) -> Iterator[list[dict]]:
    """Within the block every interpreted launch is recorded (deduplicated by
    configuration, in order; the grid kept is that of the configuration's first launch),
    and with ``execute=False`` every compiled launch too, none of them run."""
    from triton.runtime.interpreter import InterpretedFunction
    from triton.runtime.jit import JITFunction
    classes = (InterpretedFunction,) if execute else (InterpretedFunction, JITFunction)
    originals = {cls: cls.__dict__["run"] for cls in classes}
    seen: dict[str, dict] = {}
    launches: list[dict] = []

    def recorder(original):
        def run(self, *args, grid, warmup, **kwargs):
            d = _describe(self, args, kwargs)
            key = launch_id(d) + d["file"]
            if key not in seen:
                seen[key] = {**d, "grid": _grid(self, grid, args, kwargs)}
                launches.append(seen[key])
            if execute:
                return original(self, *args, grid=grid, warmup=warmup, **kwargs)
            return None
        return run

    patched = _pretend_gpu() if pretend_gpu else contextlib.nullcontext()
    for cls, original in originals.items():
        cls.run = recorder(original)
    try:
        with patched:
            yield launches
    finally:
        for cls, original in originals.items():
            cls.run = original


@contextlib.contextmanager
def _pretend_gpu():
    from impls import spec
    real = spec.backend
    swapped = []
    for name, module in list(sys.modules.items()):
        if not name.startswith("impls.") or module is None or name == "impls.spec":
            continue
        for attr, value in list(vars(module).items()):
            if value is real:
                swapped.append((module, attr))
                setattr(module, attr, lambda: "gpu")
    try:
        yield
    finally:
        for module, attr in swapped:
            setattr(module, attr, real)
