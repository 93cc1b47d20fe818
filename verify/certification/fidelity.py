"""What the backend computes exactly, or more precisely than a GPU would, for the
operations a kernel uses: the certificate's ``backend_exactness``.

The operations are read from the kernel's own code: every ``@triton.jit`` function
defined in or imported into the module that defines ``spec.run``, plus ``spec.combine``,
parsed for ``tl.<op>(...)`` calls and ``/``. For each operation the certificate states
what Triton's interpreter does (read from ``triton/runtime/interpreter.py``: ``tl.sum``
is ``np.sum`` in the operand's format, ``tl.dot`` is ``np.matmul`` in the accumulator's
format and ignores ``input_precision``, ``tl.reduce``/``tl.associative_scan`` with a
Python combine fold left to right, elementary functions are numpy's ufuncs, ``tl.rsqrt``
is ``1/np.sqrt``) and what a GPU does (the PTX instructions' documented accuracy), and
per dtype whether the interpreter is more precise than a GPU there — where a bug that
widens the error would look milder in the interpreter than on a GPU.

``probe_interpreter`` measures the interpreter's behaviour (an fp16 ``tl.sum`` of 4096
values against a sequential fp16 fold and an fp32 sum rounded once; numpy float32 exp,
log and 1/√ against float64): the certificate records the measured figures, and tests
check that the statements above still describe the installed Triton.

Not covered: the accuracy of a particular GPU's instructions beyond their documentation,
and operations reached through helpers that are neither jit functions of the module nor
its combine.
"""
from __future__ import annotations

import ast
import functools
import inspect
import sys
import textwrap
from typing import Any

from verify.kernelobjects import jit_function, python_function

OPS = ("dot", "sum", "reduce", "associative_scan", "cumsum", "exp", "exp2", "log", "log2",
       "sqrt", "sqrt_rn", "rsqrt", "fma", "div_rn", "fdiv", "division")

INTERPRETER = {
    "dot": "np.matmul in the accumulator's format (fp32): fp16/bf16 operands convert "
           "exactly to fp32 and are summed in fp32 (BLAS order); input_precision is "
           "ignored, so fp32 operands are never rounded to tf32",
    "sum": "np.sum in the operand's format: pairwise; a float16 operand is accumulated "
           "in float32 and rounded once",
    "reduce": "the combine folded left to right, one element at a time",
    "associative_scan": "the combine scanned left to right, one element at a time",
    "cumsum": "np.cumsum: a sequential running sum in the operand's format",
    "exp": "numpy's float32 exp ufunc (measured below)",
    "exp2": "numpy's float32 exp2 ufunc",
    "log": "numpy's float32 log ufunc (measured below)",
    "log2": "numpy's float32 log2 ufunc",
    "sqrt": "np.sqrt: correctly rounded",
    "sqrt_rn": "np.sqrt: correctly rounded",
    "rsqrt": "1/np.sqrt: two correctly rounded operations (≤ 1.5 ulp)",
    "fma": "an exact fused multiply-add (rounded once)",
    "div_rn": "np.divide: correctly rounded",
    "fdiv": "np.divide: correctly rounded",
    "division": "np.divide: correctly rounded",
}
GPU = {
    "dot": "tensor-core mma: fp16/bf16 products exact, fp32 accumulation in the "
           "hardware's order with possibly truncated alignment (bounds use 2·u_fp32); "
           "fp32 operands rounded to tf32 when input_precision is tf32",
    "sum": "a tree of additions in the operand's format (Triton's tl.sum does not widen "
           "floats): a float16 operand is summed in float16",
    "reduce": "per-thread fold, warp butterfly, cross-warp tree",
    "associative_scan": "per-thread scan, warp shuffles, cross-warp combine",
    "cumsum": "a tree scan in the operand's format",
    "exp": "ex2.approx.f32 of x·log₂e: 2 ulp documented, plus the argument's rounding",
    "exp2": "ex2.approx.f32: 2 ulp documented",
    "log": "lg2.approx.f32 times ln 2: absolute error near 1",
    "log2": "lg2.approx.f32: absolute error near 1",
    "sqrt": "sqrt.approx.f32 unless rounding is requested",
    "sqrt_rn": "sqrt.rn.f32: correctly rounded",
    "rsqrt": "rsqrt.approx.f32: about 2⁻²² relative",
    "fma": "fma.rn: rounded once",
    "div_rn": "div.rn.f32: correctly rounded",
    "fdiv": "div.full.f32: 2 ulp documented",
    "division": "div.full.f32: 2 ulp documented",
}
# Operations for which the interpreter is more precise than a GPU, by the operand format
# the kernel feeds them (see more_precise_on_interpreter).
_ALWAYS_MORE_PRECISE = {"exp", "exp2", "log", "log2", "sqrt", "rsqrt", "fdiv", "division"}


# --------------------------------------------------------------------------- what a kernel uses
def _jit_functions(spec) -> list:
    # a binding's run is its method: the kernel module is its wrapper's
    running = getattr(getattr(spec.execution.run, "__self__", None), "running", None)
    run = getattr(running, "fn", None) or spec.execution.run
    module = sys.modules.get(getattr(run, "__module__", "") or "")
    found = []
    if module is not None:
        found += [jit for jit in map(jit_function, vars(module).values()) if jit is not None]
    if getattr(running, "kernel", None) is not None:   # kernel=, wherever it is defined
        found.append(running.kernel)
    if spec.combine is not None:
        found.append(spec.combine)
    return found


def _ops_in(fn: Any) -> set[str]:
    fn = python_function(fn)
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError, SyntaxError):
        return set()
    ops = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            ops.add("division")
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in OPS):
            ops.add(node.func.attr)
    return ops


def kernel_ops(spec) -> list[str]:
    """The operations of OPS that the kernel's jit functions and combine call, sorted."""
    ops: set[str] = set()
    for fn in _jit_functions(spec):
        ops |= _ops_in(fn)
    return sorted(ops)


# --------------------------------------------------------------------------- the field
def more_precise_on_interpreter(op: str, dtype: str, accumulate: str) -> str | None:
    """Why the interpreter computes ``op`` more precisely than a GPU for a kernel in
    ``dtype`` accumulating in ``accumulate``, or None where both agree."""
    if op in _ALWAYS_MORE_PRECISE:
        return "numpy's function is more accurate than the GPU's approximate instruction"
    if op == "dot" and dtype == "float32":
        return "fp32 operands are not rounded to tf32"
    if op in ("sum", "cumsum") and accumulate in ("float16", "bfloat16"):
        return (f"a {accumulate} sum accumulates in float32 there; a GPU adds in "
                f"{accumulate}: the bound must model the GPU's accumulation")
    return None


def backend_exactness(spec, backend: str, dtype_info: dict) -> dict:
    """The certificate's ``backend_exactness``: per operation the backend's arithmetic,
    per certified dtype where the interpreter is more precise than a GPU, and (on the
    interpreter) the measured figures of ``probe_interpreter``."""
    interpreter = backend != "gpu"
    ops = kernel_ops(spec)
    table = INTERPRETER if interpreter else GPU
    out: dict[str, Any] = {"backend": backend,
                           "operations": {op: table.get(op, "?") for op in ops}}
    if not interpreter:
        return out
    per_dtype = {}
    for dtype, info in dtype_info.items():
        if info.get("status") != "certified":
            continue
        accumulate = str(info.get("accumulate", ""))
        notes = {op: why for op in ops
                 if (why := more_precise_on_interpreter(op, dtype, accumulate))}
        per_dtype[dtype] = notes or "nothing: fp32 accumulation and exact format conversions"
    out["more_precise_than_gpu"] = per_dtype
    out["simulated_gpu_accumulation"] = _accumulation_modelled(dtype_info)
    out["measured"] = probe_interpreter()
    return out


def _accumulation_modelled(dtype_info: dict) -> dict:
    """Per dtype: whether the interpreter's wider accumulation changes anything the
    bound must model. fp16/bf16 inputs accumulated in fp32 convert exactly, so the
    interpreter and a GPU round the same sums; an accumulation in the input format
    would need the GPU's rounding in the bound (and is flagged here)."""
    out = {}
    for dtype, info in dtype_info.items():
        accumulate = str(info.get("accumulate", ""))
        if info.get("status") != "certified":
            continue
        if accumulate in ("float16", "bfloat16"):
            out[dtype] = (f"accumulates in {accumulate}: the interpreter sums it in "
                          "float32, so the bound must use the GPU's γ(u_" f"{accumulate})")
        else:
            out[dtype] = f"accumulates in {accumulate or 'no float format'}: no change"
    return out


# --------------------------------------------------------------------------- measurement
@functools.lru_cache(maxsize=1)
def probe_interpreter() -> dict:
    """Measured on this machine's interpreter: the error of an fp16 tl.sum of 4096
    values in [0, 1) against a sequential fp16 fold and an fp32 sum rounded once, and
    numpy's float32 exp/log/(1/√) in ulps against float64 on 2¹⁶ points."""
    import numpy as np
    try:
        fp16_sum = _fp16_sum_probe(np)
    except Exception as exc:  # the probe must not cost the certificate
        fp16_sum = {"problem": f"{type(exc).__name__}: {exc}"}
    return {"fp16_tl_sum_4096": fp16_sum, "float32_ulps": _ulp_probe(np)}


def _fp16_sum_probe(np) -> dict:
    import torch
    import triton
    import triton.language as tl

    @triton.jit
    def total(x_ptr, out_ptr, N: tl.constexpr):
        tl.store(out_ptr, tl.sum(tl.load(x_ptr + tl.arange(0, N)), axis=0))

    x = torch.from_numpy(np.random.default_rng(0).uniform(0, 1, 4096)).to(torch.float16)
    out = torch.zeros(1, dtype=torch.float16)
    total[(1,)](x, out, N=4096)
    exact = float(x.double().sum())
    fold = np.float16(0)
    for v in x.numpy():
        fold = np.float16(fold + v)
    once = float(np.float16(x.numpy().astype(np.float32).sum()))
    return {"exact": exact, "interpreter": float(out), "sequential_fp16_fold": float(fold),
            "fp32_rounded_once": once,
            "interpreter_error": abs(float(out) - exact),
            "sequential_fp16_error": abs(float(fold) - exact),
            "accumulates_in_fp32": float(out) == once}


def _ulp_probe(np) -> dict:
    rng = np.random.default_rng(0)
    out = {}
    cases = {"exp": (np.exp, rng.uniform(-87, 88, 1 << 16)),
             "log": (np.log, np.exp2(rng.uniform(-125, 127, 1 << 16))),
             "rsqrt": (lambda v: 1 / np.sqrt(v), np.exp2(rng.uniform(-125, 127, 1 << 16)))}
    for name, (fn, points) in cases.items():
        x32 = points.astype(np.float32)
        got = fn(x32).astype(np.float64)
        ref = fn(x32.astype(np.float64))
        ulp = np.spacing(np.abs(ref).astype(np.float32)).astype(np.float64)
        out[name] = float(np.max(np.abs(got - ref) / ulp))
    return out
