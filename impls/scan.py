"""Inclusive cumulative sum along the rows of a 2-D tensor, multi-block.

y[r, t] = x[r, 0] + … + x[r, t], accumulated in float32, stored in the input dtype.

Licensed by ``sum.associative`` (a row may be cut into blocks whose sums are combined
later) and ``blelloch_scan.equals_sequential`` (a parallel scan tree computes the
sequential prefixes). Two passes, and no program waits for another:

1. each program scans its block with ``combines.add`` and stores the block's total
   (padding lanes hold the identity 0, so the last lane's prefix is the total);
2. each program folds the totals of the blocks before it (left to right) into a carry,
   scans its block again with the same combine, and adds the carry.

Work: bytes moved ≈ 2·n·s_in (read twice) + n·s_out (write) + O(n / BLOCK) carries,
flops ≈ 3·n additions (two block scans, one carry application).

Error bound (float32 accumulation, u = 2⁻²⁴, γₖ = ku/(1 − ku)). An inclusive prefix t
is a binary tree of additions over its leaves, and a sum tree whose leaf depths are at
most d errs by at most γ_d·Σ|leaves|. In this algorithm, for t at position p of block j:
a leaf of block j sits at depth ≤ p + 1 (any bracketing of p + 1 leaves has depth ≤ p,
the carry addition adds 1); a leaf of an earlier block i sits at depth
≤ (BLOCK − 1) + (j − i + 1) + 1 ≤ BLOCK + j + 1 (its block total, the left fold of the
carry, the carry addition). So

    |ŷ_t − y_t| ≤ γ_{p+1}·Σ_{block j, ≤ t}|x̂| + γ_{BLOCK+j+1}·Σ_{earlier blocks}|x̂|
                 + 3(t + 1)·2⁻¹²⁶ (flush-to-zero allowance) + u_out|ŷ_t| (+ η_out)
                 + Σ_{s ≤ t}|x̂_s − x_s| (inputs not representable in the dtype).

"Any bracketing" makes the depth exact for Triton's interpreter (its scan is a
sequential left fold, the worst case) and an upper bound for the GPU's scan tree. The
flush allowance covers a GPU flushing subnormal inputs and results (≤ 2⁻¹²⁶ each, at
most 2t + j + 2 of them, each passed on unscaled).

The certifier binds ``KERNEL`` (a ``BoundKernel``: the reference named as data, bound by
``verify.certification.binding``):
the wrapper is bound to the catalog reference "cumsum" with the block structure, so the
bound is derived by the radius interpretation — the same depth count (own block
p + [j > 0], earlier blocks BLOCK + j), evaluated for any scan order within a block.
The hand bound above (``hand_bound``) stays for the dtypes where the derived one was
not measured at least as tight (``DERIVED_DTYPES``); the certificate's ``bound.kind``
says which was used.

Planted bugs: ``carry_dropped`` (every block restarts from 0) and ``wrong_merge_order``
(the carry folds the blocks after this one instead of those before; swapping add's
arguments would change nothing, since float addition commutes).
"""
from __future__ import annotations


import numpy as np
import torch
import triton
import triton.language as tl

from laws.associativity import combines
from impls import buffers
from impls.numerics import FP32_FLUSH, U32, U64, gamma, round_up, stored_output_error
from impls.spec import Bound, BoundKernel, Case, Derived, Oracle, backend, device

DTYPES = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16}
FLUSH = FP32_FLUSH


def block_size(which: str | None = None) -> int:
    return 1024 if (which or backend()) == "gpu" else 128


# --------------------------------------------------------------------------- reference
def reference(x: torch.Tensor) -> torch.Tensor:
    """torch.cumsum: reads x once, writes y once (n·s_in + n·s_out bytes)."""
    return torch.cumsum(x, dim=-1)


def sequential(x: torch.Tensor) -> torch.Tensor:
    """The specification: a left-to-right running sum (float64 for an oracle)."""
    out = torch.empty_like(x)
    acc = torch.zeros_like(x[..., 0])
    for t in range(x.shape[-1]):
        acc = acc + x[..., t]
        out[..., t] = acc
    return out


def compensated_cumsum(x: torch.Tensor) -> torch.Tensor:
    """Running sums carried as an unevaluated float64 pair (sum, error) via TwoSum."""
    x = x.to(torch.float64)
    s = torch.zeros_like(x[..., 0])
    c = torch.zeros_like(s)
    out = torch.empty_like(x)
    for t in range(x.shape[-1]):
        new = s + x[..., t]
        virtual = new - s
        c = c + ((s - (new - virtual)) + (x[..., t] - virtual))
        s = new
        out[..., t] = s + c
    return out


# --------------------------------------------------------------------------- kernels
@triton.jit
def _block_totals(x_ptr, total_ptr, n, n_blocks, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    blk = tl.program_id(1)
    lane = tl.arange(0, BLOCK)
    offs = blk * BLOCK + lane
    x = tl.load(x_ptr + row * n + offs, mask=offs < n, other=0.0).to(tl.float32)
    prefix = tl.associative_scan(x, 0, combines.add)
    total = tl.sum(tl.where(lane == BLOCK - 1, prefix, 0.0), axis=0)
    tl.store(total_ptr + row * n_blocks + blk, total)


@triton.jit
def _scan_with_carry(x_ptr, total_ptr, y_ptr, n, n_blocks, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    blk = tl.program_id(1)
    carry = tl.zeros((), dtype=tl.float32)
    for i in range(0, blk):
        carry = combines.add(carry, tl.load(total_ptr + row * n_blocks + i))
    offs = blk * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + row * n + offs, mask=mask, other=0.0).to(tl.float32)
    prefix = tl.associative_scan(x, 0, combines.add)
    y = combines.add(carry, prefix)
    tl.store(y_ptr + row * n + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


# --------------------------------------------------------------------------- wrapper
def _validate(x) -> None:
    if not isinstance(x, torch.Tensor):
        raise TypeError(f"cumsum: x must be a torch.Tensor, got {type(x).__name__}")
    if x.dim() != 2:
        raise ValueError(f"cumsum: x must be 2-D (rows, n), got {x.dim()}-D")
    if x.dtype not in DTYPES.values():
        raise TypeError(f"cumsum: x dtype must be float32, float16 or bfloat16, got {x.dtype}")
    if x.device.type != device():
        raise ValueError(f"cumsum: x must be on {device()}, got {x.device.type}")
    if not x.is_contiguous():
        raise ValueError("cumsum: x must be contiguous")
    if x.shape[1] == 0:
        raise ValueError("cumsum: rows must not be empty")


def cumsum(x: torch.Tensor, block: int | None = None) -> torch.Tensor:
    """Inclusive prefix sums of each row of ``x`` (rows, n)."""
    _validate(x)
    rows, n = x.shape
    block = block or block_size()
    n_blocks = triton.cdiv(n, block)
    x = buffers.operand(x, "x")
    totals = buffers.empty((rows, n_blocks), torch.float32, x.device, "block totals")
    y = buffers.empty(x.shape, x.dtype, x.device, "y")
    grid = (rows, n_blocks)
    _block_totals[grid](x, totals, n, n_blocks, BLOCK=block)
    _scan_with_carry[grid](x, totals, y, n, n_blocks, BLOCK=block)
    return y


# --------------------------------------------------------------------------- certification
def _on_grid(values: np.ndarray) -> torch.Tensor:
    """Round to values exactly representable in float16, bfloat16 and float32."""
    t = torch.as_tensor(values, dtype=torch.float64)
    return t.to(torch.bfloat16).to(torch.float16).to(torch.float64)


def _case(name: str, x: torch.Tensor, classes: tuple[str, ...]) -> Case:
    return Case(name=f"{name} rows={x.shape[0]} n={x.shape[1]}", inputs={"x": x},
                classes=classes, n=int(x.shape[1]))


def cases(seed: int, which: str) -> list[Case]:
    rng = np.random.default_rng(seed)
    blk = block_size(which)
    big = which == "gpu"
    out = [
        _case("length-1", _on_grid(rng.normal(size=(3, 1))), ("length-1",)),
        _case("single block, non-multiple", _on_grid(rng.normal(size=(2, blk - 27))),
              ("non-multiple",)),
        _case("exact multiple of the block", _on_grid(rng.normal(size=(2, 2 * blk))),
              ("multi-block",)),
    ]
    n = 40 * blk + 17 if big else 11 * blk + 5
    out.append(_case("multi-block, non-multiple", _on_grid(rng.normal(size=(64 if big else 2, n))),
                     ("multi-block", "non-multiple")))
    n = 8 * blk + 3 if big else 6 * blk + 3
    mag = 2.0 ** rng.integers(-20, 5, size=(2, n)) * rng.uniform(1, 2, size=(2, n))
    out.append(_case("huge dynamic range", _on_grid(mag * rng.choice([-1.0, 1.0], size=(2, n))),
                     ("dynamic-range", "multi-block", "denormal")))
    out.append(_case("one past a power of two", _on_grid(rng.normal(size=(2, 4 * blk + 1))),
                     ("one-past-power-of-two", "multi-block", "non-multiple")))
    n = 5 * blk + 1
    x = rng.normal(size=(2, n)) * 1e-2
    x[:, 0::2] += 1000.0
    x[:, 1::2] -= 1000.0
    out.append(_case("cancellation", _on_grid(x), ("cancellation", "multi-block")))
    x = np.zeros((2, 3 * blk + 9))
    x[0, :] = 1.0
    x[1, ::7] = -0.5
    out.append(_case("ties and zeros", _on_grid(x), ("ties", "zeros", "multi-block")))
    x = torch.as_tensor(rng.normal(size=(1, 4 * blk + 11)) * 3.0, dtype=torch.float64)
    out.append(_case("float64 values (rounded per dtype)", x, ("unrepresentable-inputs",)))
    return out


def error_bound(x: torch.Tensor, dtype: str, y_hat: torch.Tensor, block: int) -> torch.Tensor:
    """The componentwise bound of the module docstring, in float64, rounded upward; it
    also covers the oracle's own error (compensated sums: u₆₄|y| + γ²ₙ·Σ|x|)."""
    x64 = x.to(torch.float64)
    x_hat = x64.to(DTYPES[dtype]).to(torch.float64)
    rows, n = x.shape
    t = torch.arange(n)
    p, j = t % block, t // block
    ax = x_hat.abs()
    blocks = torch.nn.functional.pad(ax, (0, (-n) % block)).view(rows, -1, block)
    local = blocks.cumsum(-1).view(rows, -1)[:, :n]
    totals = blocks.sum(-1)
    earlier = (totals.cumsum(-1) - totals)[:, j]
    kernel = gamma(p + 1, U32) * local + gamma(block + j + 1, U32) * earlier
    flush = 3.0 * (t + 1).to(torch.float64) * FLUSH
    representation = (x_hat - x64).abs().cumsum(-1)
    cast = stored_output_error(y_hat, dtype)
    oracle_error = (U64 * (local + earlier + representation)
                    + gamma(n, U64) ** 2 * x64.abs().cumsum(-1))
    return round_up(kernel + flush + representation + cast + oracle_error, roundings=n + 4)


def hand_oracle(case: Case) -> Oracle:
    """Compensated (TwoSum) running sums in float64: within u₆₄|y| + γ²ₙΣ|x| of exact."""
    return Oracle({"y": compensated_cumsum(case.inputs["x"])},
                  "float64 compensated (TwoSum) running sum")


FORMULA = ("γ_{p+1}·Σ_block|x̂| + γ_{BLOCK+j+1}·Σ_earlier|x̂| + 3(t+1)·2⁻¹²⁶ + u_out|ŷ| "
           "+ Σ|x̂ − x| (u = 2⁻²⁴; t at position p of block j)")


def hand_bound(case: Case, dtype: str, outputs: dict) -> Bound:
    """The hand-derived bound (``error_bound``), kept to measure the derived one
    against (tests/certification/compare_bounds.py)."""
    y = outputs["y"]
    return Bound({"y": error_bound(case.inputs["x"], dtype, y, block_size())}, FORMULA)


def algorithm(which: str) -> dict:
    blk = block_size(which)
    return {
        "block": blk,
        "passes": ["block totals: associative_scan(add) per block, last lane",
                   "carry: left fold of earlier totals; associative_scan(add); carry + prefix"],
        "combine": "laws.associativity.combines.add",
        "scan_tree": ("sequential left fold (Triton interpreter)" if which != "gpu"
                      else "Triton's associative_scan tree (depth bounded by any bracketing)"),
        "depth": f"leaf in own block ≤ p + 1; leaf in earlier block ≤ {blk} + j + 1",
        "programs": "rows × ceil(n / BLOCK) per pass; no cross-program ordering",
    }


def bench(which: str) -> dict:
    """What verify/certification/bench.py times: the kernel against torch.cumsum on one shape."""
    gpu = which == "gpu"
    rows, n = (64, 65536) if gpu else (64, 4096)
    x = torch.randn(rows, n, device="cuda" if gpu else "cpu")
    return {"kernel": (lambda: cumsum(x)) if gpu else None,
            "peer": lambda: reference(x), "reference": lambda: sequential(x),
            "bytes": 3 * x.numel() * x.element_size(), "flops": 3 * x.numel(),
            "shape": f"{rows}×{n} float32"}



# Where the derived bound (the "cumsum" reference in the radius interpretation, blocks of
# BLOCK) was measured at least as tight as ``hand_bound`` on every element of every case
# (tests/certification/compare_bounds.py: fp32 median 0.993, max 0.997; fp16 0.999,
# 1.000). Not measured on a GPU, so the hand bound certifies there.
DERIVED_DTYPES = () if backend() == "gpu" else ("float32", "float16")

KERNEL = BoundKernel(
    name="scan", wrapper=cumsum, cases=cases, dtypes=("float32", "float16", "bfloat16"),
    derived=Derived("cumsum", block=block_size(), kernel=_scan_with_carry,
                    derived_dtypes=DERIVED_DTYPES),
    algorithm=algorithm, bench=bench, hand_bound=hand_bound,
    laws=("sum.associative", "blelloch_scan.equals_sequential"), combine=combines.add,
    summary="inclusive cumulative sum along rows, multi-block, float32 accumulation",
    contract_classes=("length-1", "non-multiple", "multi-block", "one-past-power-of-two",
                      "dynamic-range", "cancellation", "ties", "zeros",
                      "unrepresentable-inputs"),
)
