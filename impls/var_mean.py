"""Row-wise variance and mean in one streaming pass (Welford / Chan et al. merge).

For each row x ∈ ℝⁿ: ``mean = Σxᵢ/n`` and ``var = Σ(xᵢ − mean)²/(n − correction)``,
correction = 1 by default as in ``torch.var_mean`` (n = 1 then gives NaN, as torch).

Law: the ``welford`` combine on states (count, mean, M2) is associative with identity
(0, 0, 0), and folding the lifted data (1, xᵢ, 0) gives (n, mean, Σ(xᵢ − mean)²) (laws
``welford.associative``, ``.identity``, ``.homomorphism``). That licenses reducing each
block with ``tl.reduce`` and merging blocks into a running state: one read of the row,
no second pass over (x − mean)², and no catastrophic Σx² − (Σx)²/n (Chan, Golub &
LeVeque 1979; the statistics of every fused layer/group norm).

Cost per row of n elements of b bytes: bytes moved n·b (read once) + 2·b_out; flops
≈ 12n. Memory-bound: one read of the input is the floor.

Domain: finite inputs with |x| < 2⁶⁰ (M2 must stay finite in fp32).

Error bound (fp32 accumulation, u = 2⁻²⁴; inputs exact in fp32; the combine's division
within 4 ulp, E_div = 8u, covering a GPU's approximate division). Let R = max|xᵢ|,
W = max xᵢ − min xᵢ, M = Σ(xᵢ − mean)² (exact) and D the height of the merge tree
(depth of tl.reduce within a block + number of blocks; see ``config``).

  Mean. A merge computes mean_A + fl(fl(mean_B − mean_A)·fl(n_B/n)); against the exact
  convex combination of its computed inputs it errs by ≤ θ|mean_B − mean_A| + u|mean|,
  θ = (1+u)²(1+E_div) − 1, and the inputs' errors enter with weights summing to 1. So a
  node of height h+1 has error e_{h+1} ≤ (e_h(1 + 2θ) + θW + uR)/(1 − u), e₀ = 0, and
  E_μ = e_D bounds every node.
  M2. A merge computes fl(fl(M_A + M_B) + fl(fl(δ̂²)·fl(n_A n_B / n))); it errs by
  ≤ (e_A + e_B)(1 + g₂) + g₂(M_A + M_B) + g₅cδ² + (1 + g₅)c|δ̂² − δ²|, c = n_A n_B/n,
  g₂ = (1+u)² − 1, g₅ = (1+u)⁴(1+E_div) − 1, |δ̂ − δ| ≤ E_δ = 2E_μ + u(W + 2E_μ)/(1 − u).
  Summed over the tree: nodes of equal height are disjoint, so Σ M_node ≤ D·M; the
  between-group terms add up to M exactly, Σ cδ² = M; and Σ c ≤ C = min(n·log₂n, D·n/4)
  (c ≤ min(n_A, n_B) and an element is on the smaller side at most log₂n times).
  By Cauchy–Schwarz Σ c|δ| ≤ √(C·M), hence
      |M̂ − M| ≤ e_M = (1+g₂)^D [max(g₂, g₅)·D·M + (1+g₅)(2E_δ√(C·M) + E_δ²C)].
  Outputs: |mean_hat − mean| ≤ E_μ, |var_hat − var| ≤ (e_M(1+E_div) + E_div·M)/(n − c),
  each plus u_out|ŷ| + η_out for the cast to the output format (0 for fp32).
  This tree-free form holds for any merge order of height D and is used on a GPU. In the
  interpreter the order is known exactly (a sequential fold in lane order, then across
  blocks; numpy divides with IEEE rounding, E_div = u), so the same per-merge terms are
  summed along that very order — a running error bound, tighter by orders of magnitude.
All figures are evaluated in float64 on the actual inputs and rounded upward.
"""
from __future__ import annotations

import inspect
import math
from fractions import Fraction

import numpy as np
import torch
import triton
import triton.language as tl

from laws.associativity.combines import welford
from . import accuracy, buffers
from .numerics import U32, round_up, stored_output_error, ulp_error
from .launch import config
from .spec import (Bound, Bounding, Case, Comparison, Coverage, Execution, KernelSpec, Oracle,
                    backend as current_backend, device as current_device)

DTYPES = ("float32", "float16", "bfloat16")
DIV_ULPS = 4        # the interpreter's bound; a GPU takes GPU_MODEL
GPU_MODEL = accuracy.model(div="div.full.f32")   # impls/accuracy.py, checked against the PTX


# --------------------------------------------------------------------------- reference
def reference(x: torch.Tensor, correction: int = 1) -> tuple[torch.Tensor, torch.Tensor]:
    """Two passes at fp32: the mean, then the squared deviations."""
    x32 = x.float()
    mean = x32.mean(dim=-1, keepdim=True)                       # read n
    m2 = ((x32 - mean) ** 2).sum(dim=-1)                        # read n
    var = m2 / (x.shape[-1] - correction)
    return var.to(x.dtype), mean.squeeze(-1).to(x.dtype)


# --------------------------------------------------------------------------- kernel
@triton.jit
def row_statistics(x_row, n_cols, BLOCK: tl.constexpr):
    """(count, mean, M2) of one row in fp32: tl.reduce over (1, x, 0) lanes per block,
    then a running merge across blocks. Padding lanes hold the identity (0, 0, 0)."""
    offsets = tl.arange(0, BLOCK)
    count = tl.full((), 0.0, tl.float32)
    mean = tl.full((), 0.0, tl.float32)
    m2 = tl.full((), 0.0, tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + offsets
        inside = cols < n_cols
        x = tl.load(x_row + cols, mask=inside, other=0.0).to(tl.float32)
        ones = tl.where(inside, 1.0, 0.0)
        lanes = (ones, x, tl.zeros_like(x))
        b_n, b_mean, b_m2 = tl.reduce(lanes, 0, welford)
        count, mean, m2 = welford(count, mean, m2, b_n, b_mean, b_m2)
    return count, mean, m2


@triton.jit
def _var_mean_kernel(x_ptr, var_ptr, mean_ptr, n_cols, correction, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    count, mean, m2 = row_statistics(x_ptr + row * n_cols, n_cols, BLOCK)
    dof = count - correction
    var = tl.where(dof > 0.0, m2 / tl.maximum(dof, 1.0), float("nan"))
    tl.store(var_ptr + row, var.to(var_ptr.dtype.element_ty))
    tl.store(mean_ptr + row, mean.to(mean_ptr.dtype.element_ty))


# --------------------------------------------------------------------------- wrapper
def validate(x, name: str, dtypes=DTYPES) -> None:
    """One-line errors for a row-wise kernel's input (shared with layer_norm)."""
    if not isinstance(x, torch.Tensor):
        raise TypeError(f"{name}: expected a torch.Tensor, got {type(x).__name__}")
    if str(x.dtype).replace("torch.", "") not in dtypes:
        raise TypeError(f"{name}: dtype {x.dtype} not supported ({', '.join(dtypes)})")
    if x.dim() < 1 or x.shape[-1] == 0:
        raise ValueError(f"{name}: rows must have at least one element, got shape {tuple(x.shape)}")
    if x.device.type != current_device():
        raise ValueError(f"{name}: tensor on {x.device.type} but kernels run on {current_device()}")
    if not x.is_contiguous():
        raise ValueError(f"{name}: input must be contiguous")


def var_mean(x: torch.Tensor, correction: int = 1) -> tuple[torch.Tensor, torch.Tensor]:
    """(variance, mean) over the last dim, in x's dtype, like ``torch.var_mean``."""
    validate(x, "var_mean")
    if correction not in (0, 1):
        raise ValueError(f"var_mean: correction must be 0 or 1, got {correction!r}")
    n = x.shape[-1]
    rows = x.numel() // n
    x = buffers.operand(x, "x")
    var = buffers.empty(x.shape[:-1], x.dtype, x.device, "var")
    mean = buffers.empty(x.shape[:-1], x.dtype, x.device, "mean")
    if rows:
        cfg = config(n)
        _var_mean_kernel[(rows,)](x, var, mean, n, float(correction), BLOCK=cfg["block"],
                                  num_warps=cfg["num_warps"])
    return var, mean


# --------------------------------------------------------------------------- exact statistics
def exact_moments(x: torch.Tensor) -> list[tuple[int, Fraction, Fraction]]:
    """Per row (n, mean, M2) in exact rational arithmetic (inputs are binary floats)."""
    out = []
    for row in x.to(torch.float64).reshape(-1, x.shape[-1]).tolist():
        n = len(row)
        s1 = sum((Fraction(v) for v in row), Fraction(0))
        s2 = sum((Fraction(v) * Fraction(v) for v in row), Fraction(0))
        out.append((n, s1 / n, s2 - s1 * s1 / n))
    return out


def statistics_bound(x: torch.Tensor, cfg: dict, backend: str | None = None) -> dict:
    """Bounds on the fp32 merge-tree statistics of each row of x:
    {"mean", "m2", "mean_err", "m2_err"}, float64 tensors over rows. In the interpreter
    the merge order is known exactly (a sequential fold in lane order, then across
    blocks), so the bound is a running error bound along that very order; on a GPU the
    order is the lowering's, and the tree-free bound of the module docstring is used."""
    backend = backend or current_backend()
    x64 = x.to(torch.float64).reshape(-1, x.shape[-1])
    moments = exact_moments(x64)
    mean = torch.tensor([float(m) for _, m, _ in moments], dtype=torch.float64)
    m2 = torch.tensor([float(q) for _, _, q in moments], dtype=torch.float64)
    if backend == "gpu":
        mean_err, m2_err = _tree_free_bound(x64, m2, cfg["depth"], e_div=GPU_MODEL["div"].rel)
    else:
        mean_err, m2_err = _running_bound(x64, cfg["block"], e_div=U32)
    return {"mean": mean, "m2": m2, "mean_err": mean_err, "m2_err": m2_err}


def _tree_free_bound(x64, m2, depth: int, e_div: float):
    u = U32
    theta = (1 + u) ** 2 * (1 + e_div) - 1
    g2 = (1 + u) ** 2 - 1
    g5 = (1 + u) ** 4 * (1 + e_div) - 1
    n = x64.shape[-1]
    m2 = m2 * (1 + 2.0 ** -50)
    r = x64.abs().amax(dim=-1)
    w = x64.amax(dim=-1) - x64.amin(dim=-1)
    e_mu = torch.zeros_like(r)
    for _ in range(depth):
        e_mu = (e_mu * (1 + 2 * theta) + theta * w + u * r) / (1 - u)
    e_delta = 2 * e_mu + u * (w + 2 * e_mu) / (1 - u)
    c_total = min(n * math.log2(n), depth * n / 4) if n > 1 else 0.0
    grow = math.exp(depth * math.log1p(g2))
    e_m2 = grow * (max(g2, g5) * depth * m2
                   + (1 + g5) * (2 * e_delta * torch.sqrt(c_total * m2) + e_delta ** 2 * c_total))
    return e_mu, e_m2


class _State:
    """Exact partial statistics (float64, data shifted by the row's mean for accuracy)
    and bounds on the fp32 kernel's error in them."""

    def __init__(self, n, mu, m2, e_mu, e_m2):
        self.n, self.mu, self.m2, self.e_mu, self.e_m2 = n, mu, m2, e_mu, e_m2


def _merge_bound(a: _State, b: _State, shift, e_div: float) -> _State:
    """One welford merge: exact result and the propagated error bound (module docstring).
    A merge with an empty side is exact in IEEE arithmetic (δ·0 and n/n = 1)."""
    u = U32
    theta = (1 + u) ** 2 * (1 + e_div) - 1
    g2 = (1 + u) ** 2 - 1
    g5 = (1 + u) ** 4 * (1 + e_div) - 1
    n = a.n + b.n
    safe = torch.where(n == 0, torch.ones_like(n), n)
    w = b.n / safe
    delta = b.mu - a.mu
    mu = a.mu + delta * w
    c = a.n * b.n / safe
    m2 = a.m2 + b.m2 + delta * delta * c
    e_bar = (1 - w) * a.e_mu + w * b.e_mu
    e_mu = e_bar + theta * (1 + u) * w * (delta.abs() + a.e_mu + b.e_mu) \
        + u * ((mu + shift).abs() + e_bar)
    e_mu = e_mu / (1 - u) * (1 + 2.0 ** -40)
    e_delta = a.e_mu + b.e_mu + u * (delta.abs() + a.e_mu + b.e_mu) / (1 - u)
    e_m2 = ((a.e_m2 + b.e_m2) * (1 + g2) + g2 * (a.m2 + b.m2) + g5 * c * delta * delta
            + (1 + g5) * c * e_delta * (2 * delta.abs() + e_delta)) * (1 + 2.0 ** -40)
    a_empty, b_empty = a.n == 0, b.n == 0

    def pick(merged, a_value, b_value):
        return torch.where(a_empty, b_value, torch.where(b_empty, a_value, merged))
    return _State(n, pick(mu, a.mu, b.mu), pick(m2, a.m2, b.m2),
                  pick(e_mu, a.e_mu, b.e_mu), pick(e_m2, a.e_m2, b.e_m2))


def _running_bound(x64: torch.Tensor, block: int, e_div: float):
    """Running error bound along the interpreter's order: lanes folded left to right in
    each block, then blocks folded into the running state from the identity."""
    rows, n = x64.shape
    blocks = -(-n // block)
    shift = x64.mean(dim=-1, keepdim=True).to(torch.float32).to(torch.float64)
    padded = torch.zeros(rows, blocks * block, dtype=torch.float64)
    padded[:, :n] = x64 - shift
    valid = torch.zeros(rows, blocks * block, dtype=torch.float64)
    valid[:, :n] = 1.0
    lanes = padded.reshape(rows, blocks, block)
    counts = valid.reshape(rows, blocks, block)
    shift_b = shift.unsqueeze(-1).expand(rows, blocks, 1).squeeze(-1)
    zero = torch.zeros(rows, blocks, dtype=torch.float64)
    acc = _State(counts[..., 0], lanes[..., 0] * counts[..., 0], zero, zero, zero)
    for j in range(1, block):
        lane = _State(counts[..., j], lanes[..., j] * counts[..., j], zero, zero, zero)
        acc = _merge_bound(acc, lane, shift_b, e_div)
    zero_r = torch.zeros(rows, dtype=torch.float64)
    run = _State(zero_r, zero_r, zero_r, zero_r, zero_r)
    for k in range(blocks):
        part = _State(acc.n[:, k], acc.mu[:, k], acc.m2[:, k], acc.e_mu[:, k], acc.e_m2[:, k])
        run = _merge_bound(run, part, shift.squeeze(-1), e_div)
    return run.e_mu, run.e_m2


# --------------------------------------------------------------------------- certification
def _as_dtype(case: Case, dtype: str) -> torch.Tensor:
    return case.inputs["x"].to(getattr(torch, dtype)).to(current_device()).contiguous()


def _run(case: Case, dtype: str) -> dict:
    var, mean = var_mean(_as_dtype(case, dtype), case.params["correction"])
    return {"var": var, "mean": mean}


def _reference(case: Case, dtype: str) -> dict:
    var, mean = reference(_as_dtype(case, dtype), case.params["correction"])
    return {"var": var, "mean": mean}


def _oracle(case: Case) -> Oracle:
    """Exact rational mean and M2, rounded once to float64."""
    correction = case.params["correction"]
    x = case.inputs["x"]
    var, mean = [], []
    for n, mu, m2 in exact_moments(x):
        dof = n - correction
        var.append(float(m2 / dof) if dof > 0 else math.nan)
        mean.append(float(mu))
    shape = x.shape[:-1]
    return Oracle({"var": torch.tensor(var, dtype=torch.float64).reshape(shape),
                   "mean": torch.tensor(mean, dtype=torch.float64).reshape(shape)},
                  "exact rational (fractions)", {"rounding": "float64"})


def _bound(case: Case, dtype: str, outputs: dict) -> Bound:
    """|Δmean| ≤ E_μ (e_{h+1} = (e_h(1+2θ) + θW + uR)/(1−u) over D levels);
    |Δvar| ≤ (e_M(1+E_div) + E_div·M)/(n − c) with e_M = (1+g₂)^D [max(g₂,g₅)·D·M
    + (1+g₅)(2E_δ√(C·M) + E_δ²C)]; plus u_out|ŷ| + η_out (derivation in the module
    docstring)."""
    x = case.inputs["x"].to(getattr(torch, dtype))
    n = x.shape[-1]
    stats = statistics_bound(x, config(n))
    e_div = GPU_MODEL["div"].rel if current_backend() == "gpu" else ulp_error(DIV_ULPS, "float32")
    dof = n - case.params["correction"]
    shape = x.shape[:-1]
    if dof > 0:
        var_err = (stats["m2_err"] * (1 + e_div) + e_div * stats["m2"]) / dof
    else:
        var_err = torch.zeros_like(stats["m2"])  # NaN expected, compared exactly
    var_err = var_err.reshape(shape) + stored_output_error(outputs["var"], dtype)
    mean_err = stats["mean_err"].reshape(shape) + stored_output_error(outputs["mean"], dtype)
    return Bound({"var": round_up(var_err), "mean": round_up(mean_err)},
                 inspect.getdoc(_bound))


# --------------------------------------------------------------------------- cases
def representable(x: np.ndarray, dtypes=DTYPES) -> torch.Tensor:
    """Finite values exact in every dtype listed (bf16 rounding first, then fp16's)."""
    t = torch.from_numpy(np.asarray(x, dtype=np.float64))
    if "bfloat16" in dtypes:
        t = t.to(torch.bfloat16).to(torch.float64)
    if "float16" in dtypes:
        t = t.clamp(-60000.0, 60000.0).to(torch.float16).to(torch.float64)
    return t.to(torch.float32).to(torch.float64)


def cases_for(seed: int, backend: str) -> list[tuple[str, np.ndarray, tuple, tuple]]:
    """(name, data, classes, dtypes) shared by var_mean and layer_norm. Cases whose
    numbers only fp32 holds (strong cancellation, a range beyond fp16) are fp32-only."""
    rng = np.random.default_rng(seed)
    gpu = backend == "gpu"
    long_n, rows = (30000, 8) if gpu else (600, 1)
    every, fp32 = DTYPES, ("float32",)
    two = np.where(rng.random((2, 130)) < 0.5, -100.0, 100.0) + rng.normal(0, 1, (2, 130))
    out = [
        ("rows=4 n=1", rng.normal(0, 3, (4, 1)), ("length-1",), every),
        ("rows=3 n=7", rng.normal(0, 3, (3, 7)), ("non-multiple-of-block",), every),
        ("rows=2 n=64", rng.normal(1, 2, (2, 64)), ("block-multiple",), every),
        ("rows=2 n=257", rng.normal(-2, 5, (2, 257)),
         ("multi-block", "non-multiple-of-block"), every),
        (f"rows={rows} n={long_n} offset 256", 256 + 2 * np.round(rng.normal(0, 2, (rows, long_n))),
         ("cancellation", "multi-block"), every),
        (f"rows={rows} n={long_n} offset 1e4 (fp32)", 1e4 + rng.normal(0, 1, (rows, long_n)),
         ("cancellation", "multi-block"), fp32),
        ("rows=2 n=150 huge range", rng.normal(0, 1, (2, 150)) * 10.0 ** rng.uniform(-5, 2, (2, 150)),
         ("huge-dynamic-range",), every),
        ("rows=1 n=150 huge range (fp32)",
         rng.normal(0, 1, (1, 150)) * 10.0 ** rng.uniform(-6, 12, (1, 150)),
         ("huge-dynamic-range",), fp32),
        ("rows=2 n=130 two clusters", two, ("between-block-spread", "multi-block"), every),
        ("rows=2 n=100 constant", np.stack([np.full(100, 3.25), np.full(100, -0.5)]),
         ("zero-variance", "ties"), every),
        ("rows=1 n=200 sorted", np.sort(rng.normal(0, 10, (1, 200)), axis=-1),
         ("drifting-mean", "multi-block"), every),
    ]
    for n in (17, 33, 65, 129):  # one past a power of two; the max is the very last entry
        x = rng.normal(0, 3, (2, n))
        x[:, -1] = x.max(axis=1) + 6.0
        out.append((f"rows=2 n={n} max last", x, ("one-past-power-of-two",
                    "max-in-last-partial-block", "non-multiple-of-block"), every))
    out.append(("rows=3 n=100 all negative", -50.0 - 10.0 * np.abs(rng.normal(0, 1, (3, 100))),
                ("all-negative",), every))
    if gpu:
        out.append(("rows=64 n=4096", rng.normal(0, 2, (64, 4096)), ("random",), every))
    return out


# Classes the shared cases cover; layer_norm adds its own.
CONTRACT_CLASSES = ("length-1", "non-multiple-of-block", "block-multiple", "multi-block",
                    "one-past-power-of-two", "max-in-last-partial-block", "all-negative",
                    "cancellation", "huge-dynamic-range", "between-block-spread",
                    "zero-variance", "drifting-mean")


def _cases(seed: int, backend: str) -> list[Case]:
    out = []
    for name, data, classes, dtypes in cases_for(seed, backend):
        x = representable(data, dtypes)
        correction = 0 if name.endswith("constant") else 1
        out.append(Case(name, {"x": x}, {"correction": correction},
                        classes=classes, n=x.shape[-1], dtypes=dtypes))
        if name in ("rows=4 n=1", "rows=3 n=7"):  # the wrapper's other correction
            out.append(Case(f"{name} correction=0", {"x": x}, {"correction": 0},
                            classes=classes + ("population-variance",),
                            n=x.shape[-1], dtypes=dtypes))
    return out


def _algorithm(backend: str) -> dict:
    within = ("tl.reduce over (1, x, 0) lanes with welford: "
              + ("a sequential left fold (Triton interpreter)" if backend != "gpu" else
                 "per-thread fold, warp butterfly, cross-warp tree"))
    return {"grid": "one program per row", "within_block": within,
            "across_blocks": "left fold of block states from the identity (0, 0, 0)",
            "passes": "one read of the row",
            "configs": {n: config(n, backend) for n in (1, 7, 257, 1000, 30000)}}


def _precision(dtype: str) -> dict:
    return {"in": dtype, "accumulate": "float32", "out": dtype}


def _bench(backend: str) -> dict:
    rows, n = (4096, 4096) if backend == "gpu" else (64, 1024)
    x = torch.randn(rows, n, device=current_device(), dtype=torch.float32)
    return {
        "shape": f"{rows}×{n} float32",
        "bytes": x.numel() * x.element_size() + 8 * rows,
        "flops": 12 * x.numel(),
        "kernel": (lambda: var_mean(x)) if backend == "gpu" else None,
        "peer": lambda: torch.var_mean(x, dim=-1),
        "reference": lambda: reference(x),
    }


KERNEL = KernelSpec(
    name="var_mean",
    laws=("welford.associative", "welford.identity", "welford.homomorphism"),
    summary="row-wise variance (correction 1) and mean in one pass, Welford/Chan merges",
    combine=welford,
    dtypes=DTYPES,
    execution=Execution(run=_run, reference=_reference, bench=_bench),
    comparison=Comparison(oracle=_oracle, precision=_precision),
    coverage=Coverage(
        cases=_cases,
        contract_classes=CONTRACT_CLASSES + ("population-variance",),
    ),
    bounding=Bounding(bound=_bound, algorithm=_algorithm, gpu_model=GPU_MODEL),
)
