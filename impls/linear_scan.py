"""First-order linear recurrence along the rows of 2-D tensors, multi-block.

h[r, t] = a[r, t]·h[r, t−1] + b[r, t] with h[r, −1] = 0, accumulated in float32 and
stored in the input dtype. The map h ↦ a·h + b is the pair (a, b); composing two of
them is ``combines.linear_recurrence``, associative with identity (1, 0)
(``linear_recurrence.associative``, ``linear_recurrence.identity``). So a row is cut
into blocks scanned independently and joined by carries, with no program waiting for
another:

1. each program scans its block's pairs and stores the block's composed pair
   (padding lanes hold the identity (1, 0), so the last lane holds the composition);
2. each program composes the pairs of the blocks before it (left fold from the
   identity) into a carry, scans its block again, and applies the carry with the same
   combine: h = combine(carry, prefix).b.

Work: bytes moved ≈ 2·n·(s_a + s_b) (read twice) + n·s_out, flops ≈ 9·n (two block
scans of 3 flops per combine, one carry application).

Error bound (float32, u = 2⁻²⁴). Write P(s, t) = a_{s+1}⋯a_t, so h_t = Σ_s P(s, t)·b_s.
Lemma: any binary tree of combines over the leaves 0…t computes
B̂ = Σ_s P(s, t)·b_s·(1 + θ_s) with |θ_s| ≤ γ_{(t−s) + d_s}, d_s the depth of leaf s.
(Induction: at a node joining L and R, B = fl(fl(A_R·B_L) + B_R); a term of B_L gains
A_R's |R| − 1 product roundings and 2 more, a term of B_R gains 1; so a term picks up
at most one rounding per later leaf plus one per level.) Leaf depths here are those of
``impls.scan``: ≤ p + 1 in the own block, ≤ BLOCK + j + 1 in earlier blocks, for t at
position p of block j. With ℓ = −log(1 − u) and κ = (e^X − 1)/X for the largest
exponent X met, (1 + θ_s) − 1 ≤ κ·ℓ·((t − s) + d_s), so

    |ĥ_t − h_t| ≤ κ·ℓ·(G_t + (p + 1)·H_t^own + (BLOCK + j + 1)·H_t^earlier)

with the float64 magnitude recurrences H_t = |a_t|·H_{t−1} + |b_t| (split into the
own block's terms and the earlier blocks') and G_t = |a_t|·(G_{t−1} + H_{t−1})
(= Σ_s (t − s)|P(s, t)||b_s|). Added: a flush-to-zero allowance of
32(t + j + 3)·2⁻¹²⁶·M_t·(1 + max H) (M_t the largest |P| over intervals: a flushed
B-value reaches h_t scaled by at most M_t, a flushed A-value by at most M_t·max H; at
most 3(t + j + 3) combine operations and 8 per step for inputs and coefficients, twice
over for second-order slack), the output cast
u_out|ĥ| + η_out, the float64 oracle's own error (the same lemma with u₆₄ and the
sequential tree, 2(t − s) + 1 roundings), and, for inputs not representable in the
dtype, the exact propagation D_t = |â_t|·D_{t−1} + |â_t − a_t|·|h_{t−1}| + |b̂_t − b_t|.
No constant is fitted: every term is a count of roundings on the actual inputs.

Planted bugs: ``wrong_merge_order`` (the carry applied as combine(prefix, carry)) and
``carry_dropped`` (every block restarts from h = 0).
"""
from __future__ import annotations

import math

import numpy as np
import torch
import triton
import triton.language as tl

from laws.associativity import combines
from impls import buffers
from impls.numerics import (FP32_FLUSH, U32, U64, log_roundoff, round_up,
                            stored_output_error)
from impls.spec import (Bound, Bounding, Case, Comparison, Coverage, Execution, KernelSpec, Oracle,
                         backend, device)

DTYPES = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16}
FLUSH = FP32_FLUSH


def block_size(which: str | None = None) -> int:
    return 1024 if (which or backend()) == "gpu" else 128


# --------------------------------------------------------------------------- reference
def sequential(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """The specification, a loop over t: reads a and b once, writes h once
    (n·(s_a + s_b + s_out) bytes), but n dependent steps."""
    h = torch.zeros_like(b[..., 0])
    out = torch.empty_like(b)
    for t in range(b.shape[-1]):
        h = a[..., t] * h + b[..., t]
        out[..., t] = h
    return out


# --------------------------------------------------------------------------- kernels
@triton.jit
def _block_pairs(a_ptr, b_ptr, pa_ptr, pb_ptr, n, n_blocks, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    blk = tl.program_id(1)
    lane = tl.arange(0, BLOCK)
    offs = blk * BLOCK + lane
    mask = offs < n
    a = tl.load(a_ptr + row * n + offs, mask=mask, other=1.0).to(tl.float32)
    b = tl.load(b_ptr + row * n + offs, mask=mask, other=0.0).to(tl.float32)
    pre_a, pre_b = tl.associative_scan((a, b), 0, combines.linear_recurrence)
    last = lane == BLOCK - 1
    tl.store(pa_ptr + row * n_blocks + blk, tl.sum(tl.where(last, pre_a, 0.0), axis=0))
    tl.store(pb_ptr + row * n_blocks + blk, tl.sum(tl.where(last, pre_b, 0.0), axis=0))


@triton.jit
def _scan_with_carry(a_ptr, b_ptr, pa_ptr, pb_ptr, h_ptr, n, n_blocks,
                     BLOCK: tl.constexpr):
    row = tl.program_id(0)
    blk = tl.program_id(1)
    carry_a = tl.full((), 1.0, tl.float32)
    carry_b = tl.zeros((), dtype=tl.float32)
    for i in range(0, blk):
        carry_a, carry_b = combines.linear_recurrence(
            carry_a, carry_b, tl.load(pa_ptr + row * n_blocks + i),
            tl.load(pb_ptr + row * n_blocks + i))
    offs = blk * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + row * n + offs, mask=mask, other=1.0).to(tl.float32)
    b = tl.load(b_ptr + row * n + offs, mask=mask, other=0.0).to(tl.float32)
    pre_a, pre_b = tl.associative_scan((a, b), 0, combines.linear_recurrence)
    _, h = combines.linear_recurrence(carry_a, carry_b, pre_a, pre_b)
    tl.store(h_ptr + row * n + offs, h.to(h_ptr.dtype.element_ty), mask=mask)


# --------------------------------------------------------------------------- wrapper
def _validate(a, b) -> None:
    for name, v in (("a", a), ("b", b)):
        if not isinstance(v, torch.Tensor):
            raise TypeError(f"linear_scan: {name} must be a torch.Tensor, got {type(v).__name__}")
        if v.dim() != 2:
            raise ValueError(f"linear_scan: {name} must be 2-D (rows, n), got {v.dim()}-D")
        if v.dtype not in DTYPES.values():
            raise TypeError(f"linear_scan: {name} dtype must be float32, float16 or "
                            f"bfloat16, got {v.dtype}")
        if v.device.type != device():
            raise ValueError(f"linear_scan: {name} must be on {device()}, got {v.device.type}")
        if not v.is_contiguous():
            raise ValueError(f"linear_scan: {name} must be contiguous")
    if a.shape != b.shape:
        raise ValueError(f"linear_scan: a and b shapes differ: {tuple(a.shape)} vs "
                         f"{tuple(b.shape)}")
    if a.dtype != b.dtype:
        raise TypeError(f"linear_scan: a and b dtypes differ: {a.dtype} vs {b.dtype}")
    if a.device != b.device:
        raise ValueError(f"linear_scan: a and b are on different devices: {a.device} vs {b.device}")
    if a.shape[1] == 0:
        raise ValueError("linear_scan: rows must not be empty")


def linear_scan(a: torch.Tensor, b: torch.Tensor, block: int | None = None) -> torch.Tensor:
    """h_t = a_t·h_{t−1} + b_t along each row of ``a``, ``b`` (rows, n), h_{−1} = 0."""
    _validate(a, b)
    rows, n = b.shape
    block = block or block_size()
    n_blocks = triton.cdiv(n, block)
    a, b = buffers.operand(a, "a"), buffers.operand(b, "b")
    pair_a = buffers.empty((rows, n_blocks), torch.float32, b.device, "block pairs (a)")
    pair_b = buffers.empty((rows, n_blocks), torch.float32, b.device, "block pairs (b)")
    h = buffers.empty(b.shape, b.dtype, b.device, "h")
    grid = (rows, n_blocks)
    _block_pairs[grid](a, b, pair_a, pair_b, n, n_blocks, BLOCK=block)
    _scan_with_carry[grid](a, b, pair_a, pair_b, h, n, n_blocks, BLOCK=block)
    return h


# --------------------------------------------------------------------------- bounds
def magnitudes(a: torch.Tensor, b: torch.Tensor, w: torch.Tensor, block: int) -> dict:
    """Float64 magnitude recurrences along the last axis: H_t = |a_t|H_{t−1} + |b_t|,
    H_own (restarted at each block), W_t = |a_t|(W_{t−1} + w_t·H_{t−1}) (= Σ_s (Σ_{r∈(s,t]}
    w_r)|P(s, t)||b_s|) and M_t, the largest |P| over intervals ending by t (≥ 1)."""
    zero = torch.zeros_like(b[..., 0])
    h, own, weighted = zero.clone(), zero.clone(), zero.clone()
    suffix, largest = torch.ones_like(zero), torch.ones_like(zero)
    out = {k: torch.empty_like(b) for k in ("H", "H_own", "W", "M")}
    for t in range(b.shape[-1]):
        at = a[..., t].abs()
        weighted = at * (weighted + w[..., t] * h)
        h = at * h + b[..., t].abs()
        own = (at * own if t % block else zero) + b[..., t].abs()
        suffix = torch.maximum(torch.ones_like(at), at * suffix)
        largest = torch.maximum(largest, suffix)
        out["H"][..., t], out["H_own"][..., t] = h, own
        out["W"][..., t], out["M"][..., t] = weighted, largest
    return out


def _kappa(x_max: float) -> float:
    """(e^X − 1)/X: e^x − 1 ≤ κ·x for 0 ≤ x ≤ X (convexity)."""
    if x_max <= 0:
        return 1.0
    return math.expm1(x_max) / x_max


def recurrence_error(a: torch.Tensor, b: torch.Tensor, block: int, u: float = U32,
                     a_log_err: torch.Tensor | None = None, b_roundings: int = 0) -> dict:
    """Componentwise bound on |ĥ − h| for the two-pass blocked scan of this module,
    evaluated on the exact a, b (float64, scan along the last axis); not yet rounded up.

    ``a_log_err``: per step, a bound on |log(â_t / a_t)| when the kernel computes a_t
    itself (absent when a is loaded exactly); ``b_roundings``: roundings made computing
    b_t. Returns {"bound", "H", "M"}."""
    a, b = a.to(torch.float64), b.to(torch.float64)
    n = b.shape[-1]
    ell = log_roundoff(u)
    w = torch.full_like(a, ell)
    if a_log_err is not None:
        w = w + a_log_err.to(torch.float64)
    mags = magnitudes(a, b, w, block)
    t = torch.arange(n, dtype=torch.float64)
    p, j = t % block, torch.div(t, block, rounding_mode="floor")
    depth_own = p + 1 + b_roundings
    depth_earlier = block + j + 1 + b_roundings
    x_max = w.sum(-1).max().item() + (block + n / block + 2 + b_roundings) * ell
    own, earlier = mags["H_own"], mags["H"] - mags["H_own"]
    bound = _kappa(x_max) * (mags["W"] + ell * (depth_own * own + depth_earlier * earlier))
    h_max = torch.cummax(mags["H"], dim=-1).values
    flush = 32.0 * (t + j + 3) * FLUSH * mags["M"] * (1.0 + h_max)
    return {"bound": bound + flush, "H": mags["H"], "M": mags["M"]}


def sequential_oracle_error(a: torch.Tensor, b: torch.Tensor, h: torch.Tensor) -> torch.Tensor:
    """Error of the float64 sequential loop, whose leaf s meets 2(t − s) + 1 roundings
    (lemma above with the left-fold tree), plus u₆₄|h| for good measure."""
    a, b = a.to(torch.float64), b.to(torch.float64)
    ell = log_roundoff(U64)
    mags = magnitudes(a, b, torch.full_like(a, ell), block=max(b.shape[-1], 1))
    kappa = _kappa((2 * b.shape[-1] + 2) * ell)
    return kappa * (2 * mags["W"] + ell * mags["H"]) + U64 * h.abs()


def representation_error(a: torch.Tensor, b: torch.Tensor, h: torch.Tensor,
                         dtype: torch.dtype) -> torch.Tensor:
    """Exact effect of storing a, b in ``dtype``: D_t = |â_t|D_{t−1} + |â_t − a_t||h_{t−1}|
    + |b̂_t − b_t|, evaluated in float64 with the oracle's h."""
    a64, b64 = a.to(torch.float64), b.to(torch.float64)
    a_hat = a64.to(dtype).to(torch.float64)
    b_hat = b64.to(dtype).to(torch.float64)
    da, db = (a_hat - a64).abs(), (b_hat - b64).abs()
    if not bool((da > 0).any() or (db > 0).any()):
        return torch.zeros_like(b64)
    d = torch.zeros_like(b64[..., 0])
    h_prev = torch.zeros_like(d)
    out = torch.empty_like(b64)
    for t in range(b64.shape[-1]):
        d = a_hat[..., t].abs() * d + da[..., t] * h_prev.abs() + db[..., t]
        out[..., t] = d
        h_prev = h[..., t].to(torch.float64)
    return out


# --------------------------------------------------------------------------- certification
def _on_grid(values) -> torch.Tensor:
    """Round to values exactly representable in float16, bfloat16 and float32."""
    t = torch.as_tensor(values, dtype=torch.float64)
    return t.to(torch.bfloat16).to(torch.float16).to(torch.float64)


def _case(name: str, a, b, classes: tuple[str, ...], grid: bool = True) -> Case:
    a, b = (_on_grid(a), _on_grid(b)) if grid else (torch.as_tensor(a, dtype=torch.float64),
                                                    torch.as_tensor(b, dtype=torch.float64))
    return Case(name=f"{name} rows={b.shape[0]} n={b.shape[1]}", inputs={"a": a, "b": b},
                classes=classes, n=int(b.shape[1]))


def cases(seed: int, which: str) -> list[Case]:
    rng = np.random.default_rng(seed)
    blk = block_size(which)
    rows = 32 if which == "gpu" else 2
    out = [_case("length-1", rng.uniform(-1, 1, (3, 1)), rng.normal(size=(3, 1)),
                 ("length-1",))]
    n = blk - 29
    out.append(_case("decay, single block", rng.uniform(0.5, 1.0, (rows, n)),
                     rng.normal(size=(rows, n)), ("non-multiple",)))
    n = 9 * blk + 7
    out.append(_case("slow decay, multi-block", rng.uniform(0.97, 1.0, (rows, n)),
                     rng.normal(size=(rows, n)), ("multi-block", "non-multiple")))
    n = 3 * blk
    out.append(_case("sign-alternating a", rng.uniform(-1.0, 1.0, (rows, n)),
                     rng.normal(size=(rows, n)), ("multi-block", "cancellation")))
    n = 4 * blk + 1
    mag = 2.0 ** rng.integers(-20, 6, (rows, n)) * rng.choice([-1.0, 1.0], (rows, n))
    out.append(_case("huge dynamic range in b", rng.uniform(0.9, 1.0, (rows, n)), mag,
                     ("dynamic-range", "multi-block", "denormal", "one-past-power-of-two")))
    n = 3 * blk + 5
    b = rng.normal(size=(rows, n)) * 1e-2
    b[:, 0::2] += 100.0
    b[:, 1::2] -= 100.0
    out.append(_case("cancellation, a = 1", np.ones((rows, n)), b,
                     ("cancellation", "multi-block")))
    n = 2 * blk + 3
    a = rng.uniform(1.0, 1.004, (rows, n))
    out.append(_case("mild growth", a, rng.normal(size=(rows, n)), ("growth", "multi-block")))
    n = 3 * blk + 2
    a = np.where(rng.uniform(size=(rows, n)) < 0.05, 0.0, 0.75)
    out.append(_case("resets and ties", a, np.ones((rows, n)), ("ties", "zeros", "multi-block")))
    n = 2 * blk + 9
    out.append(_case("float64 values (rounded per dtype)", rng.uniform(0.8, 1.0, (1, n)),
                     rng.normal(size=(1, n)), ("unrepresentable-inputs", "multi-block"),
                     grid=False))
    return out


def run(case: Case, dtype: str) -> dict:
    a = case.inputs["a"].to(DTYPES[dtype]).to(device()).contiguous()
    b = case.inputs["b"].to(DTYPES[dtype]).to(device()).contiguous()
    return {"h": linear_scan(a, b).cpu()}


def oracle(case: Case) -> Oracle:
    return Oracle({"h": sequential(case.inputs["a"].to(torch.float64),
                                   case.inputs["b"].to(torch.float64))},
                  "float64 sequential loop; its own error is added to the bound")


FORMULA = ("κ·ℓ·(G_t + (p+1)·H_own + (BLOCK+j+1)·H_earlier) + flush allowance + u_out|ĥ| "
           "+ oracle error + input representation (ℓ = −log(1−2⁻²⁴); G, H float64 "
           "magnitude recurrences)")


def bound(case: Case, dtype: str, outputs: dict) -> Bound:
    a, b = case.inputs["a"], case.inputs["b"]
    torch_dtype = DTYPES[dtype]
    a_hat = a.to(torch_dtype).to(torch.float64)
    b_hat = b.to(torch_dtype).to(torch.float64)
    h = sequential(a.to(torch.float64), b.to(torch.float64))
    kernel = recurrence_error(a_hat, b_hat, block_size())["bound"]
    total = (kernel + sequential_oracle_error(a, b, h)
             + representation_error(a, b, h, torch_dtype)
             + stored_output_error(outputs["h"], dtype))
    return Bound({"h": round_up(total, roundings=b.shape[-1] + 8)}, FORMULA)


def naive(case: Case, dtype: str) -> dict:
    return {"h": sequential(case.inputs["a"].to(DTYPES[dtype]),
                            case.inputs["b"].to(DTYPES[dtype]))}


def algorithm(which: str) -> dict:
    blk = block_size(which)
    return {
        "block": blk,
        "passes": ["block pairs: associative_scan(linear_recurrence) per block, last lane",
                   "carry: left fold of earlier pairs from (1, 0); associative_scan; "
                   "combine(carry, prefix)"],
        "combine": "laws.associativity.combines.linear_recurrence",
        "scan_tree": ("sequential left fold (Triton interpreter)" if which != "gpu"
                      else "Triton's associative_scan tree (depth bounded by any bracketing)"),
        "depth": f"leaf in own block ≤ p + 1; leaf in earlier block ≤ {blk} + j + 1",
        "programs": "rows × ceil(n / BLOCK) per pass; no cross-program ordering",
    }


def precision(dtype: str) -> dict:
    return {"in": dtype, "accumulate": "float32", "out": dtype}


def bench(which: str) -> dict:
    """What verify/certification/bench.py times: the kernel against the sequential torch loop (torch
    has no linear-recurrence op) on one shape."""
    gpu = which == "gpu"
    rows, n = (256, 8192) if gpu else (64, 2048)
    dev = "cuda" if gpu else "cpu"
    a, b = torch.rand(rows, n, device=dev), torch.randn(rows, n, device=dev)
    return {"kernel": (lambda: linear_scan(a, b)) if gpu else None,
            "peer": lambda: sequential(a, b), "reference": lambda: sequential(a, b),
            "bytes": 5 * b.numel() * b.element_size(), "flops": 9 * b.numel(),
            "shape": f"{rows}×{n} float32"}



KERNEL = KernelSpec(
    name="linear_scan",
    laws=("linear_recurrence.associative", "linear_recurrence.identity",
          "affine_recurrence.matrix_form"),
    summary="h_t = a_t·h_{t−1} + b_t along rows, multi-block, float32 accumulation",
    combine=combines.linear_recurrence,
    dtypes=("float32", "float16", "bfloat16"),
    execution=Execution(run=run, reference=naive, bench=bench),
    comparison=Comparison(oracle=oracle, precision=precision),
    coverage=Coverage(
        cases=cases,
        contract_classes=("length-1", "non-multiple", "multi-block", "one-past-power-of-two",
                          "dynamic-range", "cancellation", "growth", "ties", "zeros",
                          "unrepresentable-inputs"),
    ),
    bounding=Bounding(bound=bound, algorithm=algorithm),
)
