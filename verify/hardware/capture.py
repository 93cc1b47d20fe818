"""Recording the launches a wrapper makes: ``kernel[grid](...)`` in Triton's interpreter
is intercepted, and the kernel, its arguments (tensors by dtype, constexprs by value) and
its launch options (num_warps, num_stages) are recorded. With ``execute=False`` the
kernel body is not run (only the launch configuration is wanted), and with
``pretend_gpu`` the project's kernels choose their GPU configurations (block sizes, warps,
stages per size class) while running on the CPU: every ``impls`` module's reference to
``impls.spec.backend`` answers ``gpu`` for the duration."""
from __future__ import annotations

import contextlib
import hashlib
import inspect
import sys
from typing import Any, Iterator

from verify.kernelobjects import python_function

_DEFAULT_OPTIONS = {"num_warps": 4, "num_stages": 3}   # Triton's NVIDIA defaults


def _is_constexpr(annotation) -> bool:
    import triton.language as tl
    return annotation is tl.constexpr or "constexpr" in str(annotation)


def _source_hash(fn) -> str:
    """The kernel's file and the files of the jitted functions it calls (one level)."""
    files = {inspect.getsourcefile(fn)}
    for value in fn.__globals__.values():
        inner = python_function(value)        # autotune/heuristics layers peeled
        if inner is not value and hasattr(inner, "__code__"):
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


def launch_id(launch: dict) -> str:
    """A readable configuration label: the constexprs, dtypes and options."""
    parts = [f"{a['name']}={a['value']}" for a in launch["args"] if a["constexpr"]]
    dts = sorted({a["value"] for a in launch["args"] if a["kind"] == "tensor"})
    opts = [f"{k}={v}" for k, v in sorted(launch["options"].items())]
    return f"{launch['name']}[{', '.join(parts + ['/'.join(dts)] + opts)}]"


@contextlib.contextmanager
def recording(execute: bool = True, pretend_gpu: bool = False) -> Iterator[list[dict]]:
    """Within the block every interpreted launch is recorded (deduplicated, in order)."""
    from triton.runtime.interpreter import InterpretedFunction
    original = InterpretedFunction.run
    seen: dict[str, dict] = {}
    launches: list[dict] = []

    def run(self, *args, grid, warmup, **kwargs):
        d = _describe(self, args, kwargs)
        key = launch_id(d) + d["file"]
        if key not in seen:
            seen[key] = d
            launches.append(d)
        if execute:
            return original(self, *args, grid=grid, warmup=warmup, **kwargs)
        return None

    patched = _pretend_gpu() if pretend_gpu else contextlib.nullcontext()
    InterpretedFunction.run = run
    try:
        with patched:
            yield launches
    finally:
        InterpretedFunction.run = original


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
