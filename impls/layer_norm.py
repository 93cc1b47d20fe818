"""Layer normalization forward over the last dim, statistics in one streaming pass.

For each row x ∈ ℝⁿ: ``y = (x − mean)·rstd·w + b`` with ``rstd = 1/√(var + eps)`` and the
biased variance ``var = Σ(xᵢ − mean)²/n`` (as ``torch.nn.functional.layer_norm``); the
row's mean and rstd are returned too (fp32), as torch's ``native_layer_norm`` does.

Law: the statistics are the ``welford`` fold (laws ``welford.associative``,
``.identity``, ``.homomorphism``), computed by ``var_mean.row_statistics`` — tl.reduce
within a block, a running merge across blocks — so the row is read once for the
statistics and once to normalize, never a third time for (x − mean)² (Apex's and
Triton's fused layer norms).

Cost per row of n elements of b bytes: bytes moved 2·n·b (read twice) + n·b (write)
+ 2·n·b_w (weight and bias) + 8 (mean, rstd); flops ≈ 16n. Memory-bound.

Domain: finite inputs with |x| < 2⁶⁰, eps ≥ 0 with var + eps > 0 in every row.

Error bound (fp32, u = 2⁻²⁴; inputs, weight, bias and eps exact in fp32). The statistics
carry the bounds E_μ on the mean and e_M on M2 derived in ``impls/var_mean.py``. Here
var = M/n and v = var + eps, computed with IEEE-rounded division and square root
(tl.div_rn, tl.sqrt_rn), so
  |v̂ − v| ≤ B_v = B_var + u(v + B_var)/(1 − u),  B_var = (e_M(1+u) + uM)/n,  ε_v = B_v/v,
  rstd: |r̂/r − 1| ≤ ρ_r = (1+u)/((1−u)√(1 − ε_v)) − 1,
  y: d = x − mean, |d̂ − d| ≤ B_d = E_μ + u(|d| + E_μ)/(1−u),
     |d̂r̂ − dr| ≤ B_p = B_d·r(1+ρ_r) + |d|·r·ρ_r,
     |ŷ − y| ≤ (|w|(B_p(1+g₂) + g₂|d|r) + u|y|)/(1−u) + 3·2⁻¹²⁶ + u_out|ŷ| + η_out,
with g₂ = (1+u)² − 1 for the two products (a fused multiply-add only removes roundings),
the last terms for underflow and the cast to the output format (0 for fp32). All figures
are evaluated in float64 on the actual inputs and rounded upward.
"""
from __future__ import annotations

import inspect
import math

import numpy as np
import torch
import triton
import triton.language as tl

from laws.associativity.combines import welford
from . import accuracy, buffers, exact
from .spec import (Bound, Bounding, Case, Comparison, Coverage, Execution, KernelSpec, Oracle,
                    device as current_device)
from .numerics import FP32_FLUSH, U32, round_up, stored_output_error
from .var_mean import CONTRACT_CLASSES as SHARED_CLASSES
from .var_mean import GPU_MODEL as STATISTICS_MODEL
from .var_mean import (DTYPES, cases_for, config, exact_moments, representable,
                       row_statistics, statistics_bound, validate)


# The GPU bound's instructions: div.full.f32 in the Welford merges (var_mean's statistics
# bound takes that figure), div.rn.f32 and sqrt.rn.f32 for rstd (correctly rounded).
GPU_MODEL = {**STATISTICS_MODEL, **accuracy.model(sqrt="sqrt.rn.f32")}


# --------------------------------------------------------------------------- reference
def reference(x, weight, bias, eps: float):
    """The textbook formulation at fp32: three reads of x for the statistics and output."""
    x32 = x.float()
    mean = x32.mean(dim=-1, keepdim=True)                          # read n
    var = ((x32 - mean) ** 2).mean(dim=-1, keepdim=True)           # read n
    rstd = torch.rsqrt(var + eps)
    y = (x32 - mean) * rstd * weight.float() + bias.float()        # read n, write n
    return y.to(x.dtype), mean.squeeze(-1), rstd.squeeze(-1)


# --------------------------------------------------------------------------- kernel
@triton.jit
def _layer_norm_kernel(x_ptr, w_ptr, b_ptr, y_ptr, mean_ptr, rstd_ptr, n_cols, eps,
                       BLOCK: tl.constexpr):
    """One program per row: the statistics in one pass, then the normalized row."""
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * n_cols
    y_row = y_ptr + row * n_cols
    count, mean, m2 = row_statistics(x_row, n_cols, BLOCK)
    var = tl.div_rn(m2, count)
    rstd = tl.div_rn(1.0, tl.sqrt_rn(var + eps))
    tl.store(mean_ptr + row, mean)
    tl.store(rstd_ptr + row, rstd)
    offsets = tl.arange(0, BLOCK)
    for start in range(0, n_cols, BLOCK):
        cols = start + offsets
        inside = cols < n_cols
        x = tl.load(x_row + cols, mask=inside, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + cols, mask=inside, other=0.0).to(tl.float32)
        b = tl.load(b_ptr + cols, mask=inside, other=0.0).to(tl.float32)
        y = (x - mean) * rstd * w + b
        tl.store(y_row + cols, y.to(y_ptr.dtype.element_ty), mask=inside)


# --------------------------------------------------------------------------- wrapper
def _validate(x, weight, bias, eps) -> None:
    validate(x, "layer_norm")
    n = x.shape[-1]
    for name, t in (("weight", weight), ("bias", bias)):
        if not isinstance(t, torch.Tensor):
            raise TypeError(f"layer_norm: {name} must be a torch.Tensor, got {type(t).__name__}")
        if t.dtype != x.dtype:
            raise TypeError(f"layer_norm: {name} dtype {t.dtype} differs from input dtype {x.dtype}")
        if tuple(t.shape) != (n,):
            raise ValueError(f"layer_norm: {name} shape {tuple(t.shape)} must be ({n},)")
        if t.device != x.device:
            raise ValueError(f"layer_norm: {name} on {t.device} but input on {x.device}")
        if not t.is_contiguous():
            raise ValueError(f"layer_norm: {name} must be contiguous")
    if isinstance(eps, bool) or not isinstance(eps, (int, float)):
        raise TypeError(f"layer_norm: eps must be a float, got {type(eps).__name__}")
    if not (math.isfinite(eps) and eps >= 0):
        raise ValueError(f"layer_norm: eps must be finite and ≥ 0, got {eps}")


def layer_norm(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor,
               eps: float = 1e-5) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """(y in x's dtype, mean and rstd per row in float32)."""
    _validate(x, weight, bias, eps)
    n = x.shape[-1]
    rows = x.numel() // n
    x, weight, bias = (buffers.operand(t, name) for t, name in
                       ((x, "x"), (weight, "weight"), (bias, "bias")))
    y = buffers.empty(x.shape, x.dtype, x.device, "y")
    mean = buffers.empty(x.shape[:-1], torch.float32, x.device, "mean")
    rstd = buffers.empty(x.shape[:-1], torch.float32, x.device, "rstd")
    if rows:
        cfg = config(n)
        _layer_norm_kernel[(rows,)](x, weight, bias, y, mean, rstd, n, float(eps),
                                    BLOCK=cfg["block"], num_warps=cfg["num_warps"])
    return y, mean, rstd


# --------------------------------------------------------------------------- certification
def _inputs(case: Case, dtype: str):
    t = getattr(torch, dtype)
    dev = current_device()
    return tuple(case.inputs[k].to(t).to(dev).contiguous() for k in ("x", "weight", "bias"))


def _run(case: Case, dtype: str) -> dict:
    y, mean, rstd = layer_norm(*_inputs(case, dtype), eps=case.params["eps"])
    return {"y": y, "mean": mean, "rstd": rstd}


def _reference(case: Case, dtype: str) -> dict:
    y, mean, rstd = reference(*_inputs(case, dtype), case.params["eps"])
    return {"y": y, "mean": mean, "rstd": rstd}


def _oracle(case: Case) -> Oracle:
    """Exact rational statistics; 1/√ and the affine map in ball arithmetic
    (impls/exact.py): a guaranteed enclosure of every output."""
    x = case.inputs["x"]
    ys, means, rstds, enclosure = exact.layer_norm_rows(
        x.reshape(-1, x.shape[-1]).tolist(), case.inputs["weight"].tolist(),
        case.inputs["bias"].tolist(), case.params["eps"], exact_moments(x))
    shape = x.shape
    return enclosure.oracle({
        "y": torch.tensor(ys, dtype=torch.float64).reshape(shape),
        "mean": torch.tensor(means, dtype=torch.float64).reshape(shape[:-1]),
        "rstd": torch.tensor(rstds, dtype=torch.float64).reshape(shape[:-1])})


def _bound(case: Case, dtype: str, outputs: dict) -> Bound:
    """|Δmean| ≤ E_μ; |Δrstd| ≤ r·ρ_r, ρ_r = (1+u)/((1−u)√(1−ε_v)) − 1, ε_v = B_v/v;
    |Δyᵢ| ≤ (|wᵢ|(B_p(1+g₂) + g₂|dᵢ|r) + u|yᵢ|)/(1−u) + 3·2⁻¹²⁶ + u_out|ŷᵢ| + η_out,
    B_p = B_d·r(1+ρ_r) + |dᵢ|·r·ρ_r, B_d = E_μ + u(|dᵢ| + E_μ)/(1−u) (derivation in the
    module docstring)."""
    u, tiny = U32, FP32_FLUSH
    g2 = (1 + u) ** 2 - 1
    t = getattr(torch, dtype)
    x = case.inputs["x"].to(t).to(torch.float64)
    w = case.inputs["weight"].to(t).to(torch.float64)
    b = case.inputs["bias"].to(t).to(torch.float64)
    eps = case.params["eps"]
    shape = x.shape
    x2 = x.reshape(-1, shape[-1])
    n = shape[-1]
    stats = statistics_bound(x2, config(n))
    mean, m2 = stats["mean"].unsqueeze(-1), stats["m2"].unsqueeze(-1)
    e_mu, e_m2 = stats["mean_err"].unsqueeze(-1), stats["m2_err"].unsqueeze(-1)
    var = m2 / n
    v = var + eps
    b_var = (e_m2 * (1 + u) + u * m2) / n
    b_v = b_var + u * (v + b_var) / (1 - u)
    eps_v = (b_v / v).clamp(max=1.0)
    rho_r = (1 + u) / ((1 - u) * torch.sqrt(1 - eps_v)) - 1       # ∞ when ε_v = 1
    r = 1 / torch.sqrt(v)
    d = x2 - mean
    b_d = e_mu + u * (d.abs() + e_mu) / (1 - u)
    b_p = b_d * r * (1 + rho_r) + d.abs() * r * rho_r
    y = d * r * w + b
    y_err = (w.abs() * (b_p * (1 + g2) + g2 * d.abs() * r) + u * y.abs()) / (1 - u) + 3 * tiny
    y_err = y_err.reshape(shape) + stored_output_error(outputs["y"], dtype)
    return Bound({"y": round_up(y_err),
                  "mean": round_up(e_mu.squeeze(-1).reshape(shape[:-1])),
                  "rstd": round_up((r * rho_r).squeeze(-1).reshape(shape[:-1]))},
                 inspect.getdoc(_bound))


# --------------------------------------------------------------------------- cases
def _cases(seed: int, backend: str) -> list[Case]:
    rng = np.random.default_rng(seed + 1)
    eps = float(np.float32(1e-5))
    data = cases_for(seed, backend)
    n_small = 300 if backend == "gpu" else 130
    data.append((f"rows=2 n={n_small} tiny variance (eps matters)",
                 1e-3 * rng.normal(0, 1, (2, n_small)), ("eps-dominated",), DTYPES))
    out = []
    for name, x, classes, dtypes in data:
        n = x.shape[-1]
        big_eps = name.startswith("rows=2 n=64")
        inputs = {"x": representable(x, dtypes),
                  "weight": representable(rng.normal(1, 0.5, n), dtypes),
                  "bias": representable(rng.normal(0, 0.5, n), dtypes)}
        out.append(Case(name + (" eps=0.5" if big_eps else ""), inputs,
                        {"eps": 0.5 if big_eps else eps},
                        classes=classes + (("large-eps",) if big_eps else ()),
                        n=n, dtypes=dtypes))
    return out


def _algorithm(backend: str) -> dict:
    within = ("var_mean.row_statistics: tl.reduce over (1, x, 0) lanes with welford, "
              + ("a sequential left fold (Triton interpreter)" if backend != "gpu" else
                 "per-thread fold, warp butterfly, cross-warp tree"))
    return {"grid": "one program per row", "statistics": within,
            "across_blocks": "left fold of block states from the identity (0, 0, 0)",
            "normalize": "(x − mean)·rstd·w + b, rstd = div_rn(1, sqrt_rn(var + eps))",
            "passes": "statistics (one read), then normalize (one read, one write)",
            "configs": {n: config(n, backend) for n in (1, 7, 257, 1000, 30000)}}


def _precision(dtype: str) -> dict:
    return {"in": dtype, "accumulate": "float32", "out": f"{dtype} (y), float32 (mean, rstd)"}


def _bench(backend: str) -> dict:
    rows, n = (4096, 4096) if backend == "gpu" else (64, 1024)
    dev = current_device()
    x = torch.randn(rows, n, device=dev)
    w, b = torch.randn(n, device=dev), torch.randn(n, device=dev)
    return {
        "shape": f"{rows}×{n} float32",
        "bytes": 3 * x.numel() * 4 + 2 * n * 4 + 8 * rows,
        "flops": 16 * x.numel(),
        "kernel": (lambda: layer_norm(x, w, b)) if backend == "gpu" else None,
        "peer": lambda: torch.nn.functional.layer_norm(x, (n,), w, b, 1e-5),
        "reference": lambda: reference(x, w, b, 1e-5),
    }


KERNEL = KernelSpec(
    name="layer_norm",
    laws=("welford.associative", "welford.identity", "welford.homomorphism"),
    summary="layer norm forward (weight, bias, eps) with one-pass Welford statistics",
    combine=welford,
    dtypes=DTYPES,
    execution=Execution(run=_run, reference=_reference, bench=_bench),
    comparison=Comparison(oracle=_oracle, precision=_precision),
    coverage=Coverage(
        cases=_cases,
        contract_classes=SHARED_CLASSES + ("eps-dominated", "large-eps"),
    ),
    bounding=Bounding(bound=_bound, algorithm=_algorithm, gpu_model=GPU_MODEL),
    sources=("impls/var_mean.py",),
)
