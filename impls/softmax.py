"""Row-wise softmax and log-sum-exp with one streaming pass over the statistics.

For each row x ∈ ℝⁿ: ``lse = log Σᵢ exp(xᵢ)`` and ``softmax = exp(x − lse)``.

Law: the ``online_softmax`` combine on states (m, s) with s = Σ exp(x − m) is associative
with identity (−∞, 0), and folding the lifted data (xᵢ, 1) gives (max x, Σ exp(x − max x))
(laws ``online_softmax.associative``, ``.identity``, ``.homomorphism``). That licenses
reducing each block with ``tl.reduce`` and merging blocks in a running state, so the
statistics need one read of the row instead of two (max, then sum) — Milakov &
Gimelshein 2018, the statistics pass of FlashAttention.

Cost per row of n elements stored in b bytes: bytes moved 2·n·b (read twice) + n·b
(write) + 4 (lse); flops ≈ 2n exponentials + 6n. Memory-bound: 3n·b is the floor for a
softmax that also returns its normalizer.

Special values: −∞ entries get probability 0. A fully masked row (every entry −∞) gives
a softmax row of zeros and lse = −∞ (torch gives NaN there); never NaN. Inputs must be
finite or −∞ (+∞ or NaN propagate NaN, as in torch).

Error bound (fp32 accumulation, u = 2⁻²⁴; inputs are exact in fp32). Assumptions on the
elementary functions, in ulps of the result: tl.exp is within 4 ulp (relative E = 8u) of
exp of its rounded argument, 1.0/s within 4 ulp on a GPU (E_div = 8u: div.full is 2 ulp)
and correctly rounded in the interpreter (E_div = u: numpy's IEEE float32 division),
tl.log within 4 ulp (E_log = 8u) plus an absolute A_log (2⁻²¹ on a GPU, covering
approximate log lowerings that are only absolutely accurate near 1; 0 in the
interpreter, which uses numpy). exp(0) = 1 is not assumed exact. Each exponent argument is rounded (the subtraction and, on a GPU, the
product with a rounded log₂e): a relative a = (1+u)³ − 1 of the argument.

  With M = max x (exact: max is exact), tᵢ = exp(xᵢ − M), S = Σ tᵢ: the term of xᵢ passes
  through at most D merges, D = reduction depth within a block + number of blocks
  (interpreter: tl.reduce is a sequential fold, depth BLOCK − 1; GPU: the lowering's
  per-thread fold, warp butterfly and cross-warp tree, plus 2 spare levels). In the
  interpreter, where exp(0) = 1 exactly (probed), merges with an empty state are exact
  and D = min(n, BLOCK) − 1 + (blocks − 1). Each merge
  multiplies it by a rescale exp (1 ± E), a product and a sum (1 ± u each). The rescale
  arguments along its path are differences of stored maxima whose magnitudes add up to
  |xᵢ − M| (the running maximum only grows), so their rounding changes the term by a
  factor within e^{±a|xᵢ − M|}. Hence
      |Ŝ − S| ≤ B_S = Σᵢ tᵢ(e^{a|xᵢ−M| + D·log((1+u)²(1+E))} − 1) + η_S,
  with η_S = 4·lanes·2⁻¹²⁶·(1+K) for exps and products that underflow or flush to zero.
  lse: ℓ = −log(1 − B_S/S) bounds |log Ŝ − log S|; with L = log S,
      |lse_hat − lse| ≤ B₀ + u(|lse| + B₀)/(1 − u),  B₀ = ℓ + (E_log(|L| + ℓ) + A_log)/(1 − E_log).
  softmax: ŷᵢ = fl(exp(fl(xᵢ − M)) · fl(1/Ŝ)), and |S/Ŝ − 1| ≤ r = B_S/(S − B_S), so
      |ŷᵢ − yᵢ| ≤ yᵢ((1+E)(1+E_div)(1+u)(1+r)e^{a|xᵢ−M|} − 1) + 2·2⁻¹²⁶ + u_out|ŷᵢ| + η_out,
  the last two for the cast to the output format (u_out = 0 for fp32). −∞ entries and
  fully masked rows have bound 0: their outputs must be exactly 0 and −∞.
All figures are evaluated in float64 on the actual inputs and rounded upward.
"""
from __future__ import annotations

import functools
import inspect
import math

import numpy as np
import torch
import triton
import triton.language as tl

from laws.associativity.combines import online_softmax
from . import accuracy, buffers, exact
from .numerics import FP32_FLUSH, U32, round_up, stored_output_error, ulp_error
from .launch import config
from .spec import (Bound, Bounding, Case, Comparison, Coverage, Execution, KernelSpec, Oracle,
                    backend as current_backend, device as current_device)

DTYPES = ("float32", "float16", "bfloat16")
EXP_ULPS = LOG_ULPS = 4       # the interpreter (numpy); a GPU takes GPU_MODEL
# The GPU bound's constants: the instructions tl.exp, tl.log and 1.0/s compile to, with
# their documented errors (impls/accuracy.py; checked against the PTX by verify/hardware).
GPU_MODEL = accuracy.model(exp="ex2.approx.f32", log="libdevice.logf", div="div.full.f32")
NEG_INF = float("-inf")


# --------------------------------------------------------------------------- reference
def reference(x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """The textbook formulation at fp32 (five passes over the row)."""
    x32 = x.float()
    m = x32.amax(dim=-1, keepdim=True)          # read n
    e = torch.exp(x32 - m)                      # read n, write n
    s = e.sum(dim=-1, keepdim=True)             # read n
    y = (e / s).to(x.dtype)                     # read n, write n
    return y, (m + s.log()).squeeze(-1)


# --------------------------------------------------------------------------- kernel
@triton.jit
def _softmax_kernel(x_ptr, y_ptr, lse_ptr, n_cols, BLOCK: tl.constexpr):
    """One program per row: the statistics in one pass, then the normalized row."""
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * n_cols
    y_row = y_ptr + row * n_cols
    offsets = tl.arange(0, BLOCK)
    m = tl.full((), -float("inf"), tl.float32)
    s = tl.full((), 0.0, tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + offsets
        inside = cols < n_cols
        x = tl.load(x_row + cols, mask=inside, other=-float("inf")).to(tl.float32)
        ones = tl.where(inside, 1.0, 0.0)  # padding lanes hold the identity (−∞, 0)
        block_m, block_s = tl.reduce((x, ones), 0, online_softmax)
        m, s = online_softmax(m, s, block_m, block_s)
    safe_s = tl.where(s > 0.0, s, 1.0)  # s = 0 only in a fully masked row (m = −∞)
    tl.store(lse_ptr + row, m + tl.log(safe_s))
    shift = tl.where(m == -float("inf"), 0.0, m)
    inv_s = 1.0 / safe_s
    for start in range(0, n_cols, BLOCK):
        cols = start + offsets
        inside = cols < n_cols
        x = tl.load(x_row + cols, mask=inside, other=-float("inf")).to(tl.float32)
        y = tl.exp(x - shift) * inv_s
        tl.store(y_row + cols, y.to(y_ptr.dtype.element_ty), mask=inside)


# --------------------------------------------------------------------------- wrapper
def _validate(x) -> None:
    if not isinstance(x, torch.Tensor):
        raise TypeError(f"softmax: expected a torch.Tensor, got {type(x).__name__}")
    if str(x.dtype).replace("torch.", "") not in DTYPES:
        raise TypeError(f"softmax: dtype {x.dtype} not supported (float32, float16, bfloat16)")
    if x.dim() < 1 or x.shape[-1] == 0:
        raise ValueError(f"softmax: rows must have at least one element, got shape {tuple(x.shape)}")
    if x.device.type != current_device():
        raise ValueError(f"softmax: tensor on {x.device.type} but kernels run on {current_device()}")
    if not x.is_contiguous():
        raise ValueError("softmax: input must be contiguous")


def softmax_lse(x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """(softmax over the last dim in x's dtype, log-sum-exp in float32)."""
    _validate(x)
    n = x.shape[-1]
    rows = x.numel() // n
    x = buffers.operand(x, "x")
    y = buffers.empty(x.shape, x.dtype, x.device, "softmax")
    lse = buffers.empty(x.shape[:-1], torch.float32, x.device, "lse")
    if rows:
        cfg = config(n)
        _softmax_kernel[(rows,)](x, y, lse, n, BLOCK=cfg["block"],
                                 num_warps=cfg["num_warps"])
    return y, lse


# --------------------------------------------------------------------------- certification
def _as_dtype(case: Case, dtype: str) -> torch.Tensor:
    return case.inputs["x"].to(getattr(torch, dtype)).to(current_device()).contiguous()


def _run(case: Case, dtype: str) -> dict:
    y, lse = softmax_lse(_as_dtype(case, dtype))
    return {"softmax": y, "lse": lse}


def _reference(case: Case, dtype: str) -> dict:
    y, lse = reference(_as_dtype(case, dtype))
    return {"softmax": y, "lse": lse}


def _oracle(case: Case) -> Oracle:
    """Ball arithmetic (impls/exact.py): a guaranteed enclosure of every output."""
    x = case.inputs["x"].to(torch.float64)
    ys, lses, enclosure = exact.softmax_rows(x.reshape(-1, x.shape[-1]).tolist())
    return enclosure.oracle({
        "softmax": torch.tensor(ys, dtype=torch.float64).reshape(x.shape),
        "lse": torch.tensor(lses, dtype=torch.float64).reshape(x.shape[:-1])})


@functools.cache
def _exp_of_zero_is_one() -> bool:
    """Whether the interpreter's float32 exp (numpy's) gives exactly 1 at 0: probed,
    not assumed."""
    return bool((np.exp(np.zeros(64, dtype=np.float32)) == np.float32(1.0)).all())


def _merge_depth(n: int, cfg: dict, gpu: bool) -> int:
    """D, the merges a term passes through. In the interpreter's sequential fold a merge
    with an empty state (a padding lane, the running state's start) is exact when
    exp(0) = 1 exactly: the shift is the other side's max, and s·1 + 0 rounds to s. Only
    merges of two nonempty states count then: min(n, BLOCK) − 1 within the block plus
    one per further block. A GPU's tree keeps the full depth."""
    if gpu or not _exp_of_zero_is_one():
        return cfg["depth"]
    return (min(n, cfg["block"]) - 1) + (cfg["blocks"] - 1)


def _bound(case: Case, dtype: str, outputs: dict) -> Bound:
    """|Δlse| ≤ B₀ + u(|lse| + B₀)/(1−u), B₀ = ℓ + (E_log(|log S| + ℓ) + A_log)/(1−E_log),
    ℓ = −log(1 − B_S/S), B_S = Σ tᵢ(e^{a|xᵢ−M| + D·log((1+u)²(1+E))} − 1) + η_S;
    |Δyᵢ| ≤ yᵢ((1+E)(1+E_div)(1+u)(1+r)e^{a|xᵢ−M|} − 1) + 2·2⁻¹²⁶ + u_out|ŷᵢ| + η_out,
    r = B_S/(S − B_S); D = reduction depth (derivation in the module docstring)."""
    gpu = current_backend() == "gpu"
    u, tiny = U32, FP32_FLUSH
    model = KERNEL.bounding.gpu_model
    e_exp = model["exp"].rel if gpu else ulp_error(EXP_ULPS, "float32")
    e_div = model["div"].rel if gpu else u  # IEEE division in the interpreter
    e_log = model["log"].rel if gpu else ulp_error(LOG_ULPS, "float32")
    a_log = model["log"].abs if gpu else 0.0
    arg = (1 + u) ** 3 - 1
    x = case.inputs["x"].to(getattr(torch, dtype)).to(torch.float64)
    cfg = config(x.shape[-1])
    lanes = cfg["blocks"] * cfg["block"]
    log_k = _merge_depth(x.shape[-1], cfg, gpu) * (2 * math.log1p(u) + math.log1p(e_exp))

    masked = torch.isneginf(x)
    m = x.amax(dim=-1, keepdim=True)
    dead = torch.isneginf(m)                                 # fully masked rows
    m = torch.where(dead, torch.zeros_like(m), m)
    gone = masked | dead
    d = torch.where(gone, torch.zeros_like(x), x - m)        # ≤ 0
    t = torch.where(gone, torch.zeros_like(x), torch.exp(d))
    s = torch.where(dead, torch.ones_like(m), t.sum(dim=-1, keepdim=True) * (1 - 2.0 ** -40))
    c = arg * d.abs() + log_k
    term = torch.where(c < 30, t * torch.expm1(c), torch.exp(d + c))
    term = torch.where(gone, torch.zeros_like(x), term)
    b_s = term.sum(dim=-1, keepdim=True) * (1 + 2.0 ** -40) + 4 * lanes * tiny * (1 + math.expm1(log_k))
    ratio = (b_s / s).clamp(max=1.0)
    ell = -torch.log1p(-ratio)                               # ∞ when B_S ≥ S: no bound
    big_l = torch.log(s)
    lse = m + big_l
    b0 = ell + (e_log * (big_l.abs() + ell) + a_log) / (1 - e_log)
    b_lse = torch.where(dead, torch.zeros_like(b0), b0 + u * (lse.abs() + b0) / (1 - u))

    r = ratio / (1 - ratio)
    y = t / s
    growth = math.log1p(e_exp) + math.log1p(e_div) + math.log1p(u) + torch.log1p(r)
    y_err = y * torch.expm1(growth + arg * d.abs()) + 2 * tiny
    y_err = y_err + stored_output_error(outputs["softmax"], dtype)
    y_err = torch.where(gone, torch.zeros_like(y_err), y_err)
    return Bound({"softmax": round_up(y_err), "lse": round_up(b_lse.squeeze(-1))},
                 inspect.getdoc(_bound))


# --------------------------------------------------------------------------- cases
def _representable(x: np.ndarray) -> torch.Tensor:
    """Values exact in bfloat16, float16 and float32 (bf16 first, then fp16's range)."""
    t = torch.from_numpy(np.asarray(x, dtype=np.float64))
    finite = torch.isfinite(t)
    r = t.clamp(-60000.0, 60000.0).to(torch.bfloat16).to(torch.float16).to(torch.float64)
    return torch.where(finite, r, t)


def _cases(seed: int, backend: str) -> list[Case]:
    rng = np.random.default_rng(seed)

    def case(name, x, *classes):
        x = _representable(x)
        return Case(name, {"x": x}, classes=classes, n=x.shape[-1])

    gpu = backend == "gpu"
    long_n = 30000 if gpu else 1000
    masked = rng.normal(0, 4, (4, long_n))
    masked[rng.random((4, long_n)) < 0.5] = -np.inf
    masked[1, :] = -np.inf                       # fully masked row
    masked[2, :-1] = -np.inf                     # only the last entry survives
    masked[3, : long_n // 2] = -np.inf
    ramp_n = 8192 if gpu else 200
    ramp = np.stack([np.linspace(-20, 20, ramp_n), np.linspace(20, -20, ramp_n)])
    out = [
        case("rows=4 n=1", rng.normal(0, 3, (4, 1)), "length-1"),
        case("rows=3 n=7", rng.normal(0, 3, (3, 7)), "non-multiple-of-block"),
        case("rows=3 n=64", rng.normal(0, 1, (3, 64)), "block-multiple"),
        case("rows=3 n=257", rng.normal(0, 5, (3, 257)), "multi-block",
             "non-multiple-of-block"),
        case(f"rows=4 n={long_n} -inf masks", masked, "-inf-mask", "fully-masked-row",
             "multi-block"),
        case("rows=3 n=300 huge range", rng.normal(0, 2e4, (3, 300)), "huge-dynamic-range"),
        case(f"rows=2 n={ramp_n} ascending/descending", ramp, "rescale-every-block",
             "multi-block"),
        case("rows=2 n=100 ties", np.stack([np.full(100, 7.0), np.full(100, -3.5)]),
             "ties"),
    ]
    for n in (17, 33, 65, 129):  # one past a power of two; the max is the very last entry
        x = rng.normal(0, 3, (2, n))
        x[:, -1] = x.max(axis=1) + 6.0
        out.append(case(f"rows=2 n={n} max last", x, "one-past-power-of-two",
                        "max-in-last-partial-block", "non-multiple-of-block"))
    out.append(case("rows=3 n=100 all far below zero", -300.0 - 40.0 * np.abs(rng.normal(0, 1, (3, 100))),
                    "all-negative"))
    if gpu:
        out.append(case("rows=64 n=4096", rng.normal(0, 2, (64, 4096)), "random"))
    return out


CONTRACT_CLASSES = ("length-1", "non-multiple-of-block", "block-multiple", "multi-block",
                    "one-past-power-of-two", "max-in-last-partial-block", "all-negative",
                    "-inf-mask", "fully-masked-row", "huge-dynamic-range",
                    "rescale-every-block", "ties")


def _algorithm(backend: str) -> dict:
    sample = {n: config(n, backend) for n in (1, 7, 257, 1000, 30000)}
    within = ("tl.reduce over (x, 1) lanes with online_softmax: "
              + ("a sequential left fold (Triton interpreter)" if backend != "gpu" else
                 "per-thread fold, warp butterfly, cross-warp tree"))
    return {"grid": "one program per row", "within_block": within,
            "across_blocks": "left fold of block states from the identity (−∞, 0)",
            "passes": "statistics (one read), then normalize (one read, one write)",
            "configs": sample}


def _precision(dtype: str) -> dict:
    return {"in": dtype, "accumulate": "float32", "out": f"{dtype} (softmax), float32 (lse)"}


def _bench(backend: str) -> dict:
    rows, n = (4096, 4096) if backend == "gpu" else (64, 1024)
    x = torch.randn(rows, n, device=current_device(), dtype=torch.float32)
    return {
        "shape": f"{rows}×{n} float32",
        "bytes": 3 * x.numel() * x.element_size() + 4 * rows,
        "flops": 8 * x.numel(),
        "kernel": (lambda: softmax_lse(x)) if backend == "gpu" else None,
        "peer": lambda: (torch.softmax(x, dim=-1), torch.logsumexp(x, dim=-1)),
        "reference": lambda: reference(x),
    }


KERNEL = KernelSpec(
    name="softmax",
    laws=("online_softmax.associative", "online_softmax.identity",
          "online_softmax.homomorphism",
          "max.associative", "max.identity"),   # the m half of the state; −∞ pads lanes
    summary="row-wise softmax and log-sum-exp, statistics in one streaming pass",
    combine=online_softmax,
    dtypes=DTYPES,
    execution=Execution(run=_run, reference=_reference, bench=_bench),
    comparison=Comparison(oracle=_oracle, precision=_precision),
    coverage=Coverage(cases=_cases, contract_classes=CONTRACT_CLASSES),
    bounding=Bounding(bound=_bound, algorithm=_algorithm, gpu_model=GPU_MODEL),
)
