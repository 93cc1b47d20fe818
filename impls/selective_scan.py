"""Mamba's selective scan, chunked: a diagonal state-space recurrence per channel.

Inputs x, Δ (B, L, D), A (D, N) with A < 0, Bm, Cm (B, L, N), Dskip (D,). For each
batch b, channel d and state n,

    h_t[n] = exp(Δ_t·A[d, n])·h_{t−1}[n] + Δ_t·x_t·Bm_t[n],   h_{−1} = 0
    y_t    = Σ_n Cm_t[n]·h_t[n] + Dskip[d]·x_t.

Each step is the affine map h ↦ a·h + b, and composing them is the associative
``combines.linear_recurrence`` (``linear_recurrence.associative``), so L is cut into
chunks scanned independently and joined by carries, with no program waiting for
another: pass 1 stores each chunk's composed (decay, input) pair per state; pass 2
composes the pairs of earlier chunks into a carry, rescans its chunk and applies the
carry with the same combine, then contracts with Cm and adds the skip term.
x, Δ, Bm, Cm may be float32, float16 or bfloat16 (loaded and widened exactly); A, Dskip,
the state and every operation are float32; y is stored in the input dtype.

Work per (b, d): bytes ≈ 2·L·(2·s_in + 2·N·s_in) (two passes read x, Δ, Bm, Cm) +
L·s_out, flops ≈ L·N·(exp + 13) (two chunk scans, decay, input, carry, contraction).

Error bound (u = 2⁻²⁴, ℓ = −log(1 − u)). The recurrence is that of ``impls.linear_scan``
with computed coefficients: â_t = exp(fl(Δ_t·A)) and b̂_t = fl(fl(Δ_t·x_t)·Bm_t). For
â: fl(Δ·A) = z(1 + δ) moves exp by a factor e^{zδ}; the GPU's exp scales its argument by
a rounded log₂e first (two more roundings of the argument); and the exp primitive is
assumed within E_EXP = 2⁻²¹ relative (4 ulp: Triton's interpreter uses numpy's float32
exp, measured within 3.3u; a GPU's ex2.approx.f32 is documented near 2⁻²²). Hence
|log(â_t/a_t)| ≤ 3u|z_t|·(1 + 2u) − log(1 − E_EXP), per step, added to the per-step weight
of ``linear_scan.recurrence_error``; b̂ adds two roundings per term. Below the normal
range the exp and the products err absolutely, covered by the flush allowance there.
The contraction is a dot product of N + 1 terms summed in any order over the padded
BN lanes: |ŷ − y| ≤ (1 + γ_{BN+1})·Σ_n|C_n|·E_n + γ_{BN+1}·Σ_n|C_n||h_n| + γ₂|Dskip·x|
+ 4(BN + 2)·2⁻¹²⁶, with E_n the state bound; then the output cast u_out|ŷ| + η_out and
the float64 oracle's own error (the same analysis with u₆₄). Inputs must be exactly
representable in the dtype (the cases are); the bound refuses others.

Planted bug: ``no_decay_in_carry`` (the carry is added to the chunk's states without
the chunk's decay: h = carry_b + prefix_b).
"""
from __future__ import annotations


import numpy as np
import torch
import triton
import triton.language as tl

from laws.associativity import combines
from impls import buffers
from impls.linear_scan import recurrence_error
from impls.numerics import (FP32_FLUSH, U32, U64, gamma, log_roundoff, round_up,
                            stored_output_error, ulp_error)
from impls import accuracy
from impls.spec import (Bound, Bounding, Case, Comparison, Coverage, Execution, KernelSpec, Oracle,
                         backend, device)

DTYPES = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16}
E_EXP = ulp_error(4, "float32")      # 2⁻²¹ (interpreter); a GPU takes GPU_MODEL
GPU_MODEL = accuracy.model(exp="ex2.approx.f32")   # impls/accuracy.py, checked against the PTX


def _e_exp() -> float:
    return GPU_MODEL["exp"].rel if backend() == "gpu" else E_EXP
E_EXP64 = ulp_error(1, "float64")    # 2⁻⁵²
FLUSH = FP32_FLUSH
NAMES = ("x", "delta", "A", "Bm", "Cm", "Dskip")


def chunk_size(which: str | None = None) -> int:
    return 128 if (which or backend()) == "gpu" else 32


# --------------------------------------------------------------------------- reference
def sequential(x, delta, A, Bm, Cm, Dskip) -> torch.Tensor:
    """The specification, a loop over t in the inputs' dtype: reads every input once
    and writes y once (B·L·(2D + 2N)·s + B·L·D·s bytes), L dependent steps."""
    batch, length, _ = x.shape
    h = torch.zeros(batch, A.shape[0], A.shape[1], dtype=x.dtype, device=x.device)
    y = torch.empty_like(x)
    for t in range(length):
        dt = delta[:, t, :, None]
        h = torch.exp(dt * A) * h + dt * x[:, t, :, None] * Bm[:, t, None, :]
        y[:, t] = (h * Cm[:, t, None, :]).sum(-1) + Dskip * x[:, t]
    return y


# --------------------------------------------------------------------------- kernels
@triton.jit
def _step_pairs(x_ptr, dt_ptr, a_ptr, bm_ptr, b, d, t, n, L, D, N):
    """Decay and input of the steps t (rows) for the states n (columns), identity
    (1, 0) where masked; also x_t and the mask of valid steps."""
    valid_t = t < L
    mask = valid_t[:, None] & (n < N)[None, :]
    x = tl.load(x_ptr + (b * L + t) * D + d, mask=valid_t, other=0.0).to(tl.float32)
    dt = tl.load(dt_ptr + (b * L + t) * D + d, mask=valid_t, other=0.0).to(tl.float32)
    a_row = tl.load(a_ptr + d * N + n, mask=n < N, other=0.0)
    bm = tl.load(bm_ptr + (b * L + t)[:, None] * N + n[None, :], mask=mask,
                 other=0.0).to(tl.float32)
    decay = tl.where(mask, tl.exp(dt[:, None] * a_row[None, :]), 1.0)
    drive = tl.where(mask, (dt * x)[:, None] * bm, 0.0)
    return decay, drive, x, valid_t


@triton.jit
def _chunk_pairs(x_ptr, dt_ptr, a_ptr, bm_ptr, pa_ptr, pb_ptr, L, D, N, n_chunks,
                 BL: tl.constexpr, BN: tl.constexpr):
    seq = tl.program_id(0)          # b * D + d
    chunk = tl.program_id(1)
    b = seq // D
    d = seq % D
    lane = tl.arange(0, BL)
    n = tl.arange(0, BN)
    decay, drive, _, _ = _step_pairs(x_ptr, dt_ptr, a_ptr, bm_ptr, b, d, chunk * BL + lane,
                                     n, L, D, N)
    pre_a, pre_b = tl.associative_scan((decay, drive), 0, combines.linear_recurrence)
    last = (lane == BL - 1)[:, None]
    out = (seq * n_chunks + chunk) * BN + n
    tl.store(pa_ptr + out, tl.sum(tl.where(last, pre_a, 0.0), axis=0))
    tl.store(pb_ptr + out, tl.sum(tl.where(last, pre_b, 0.0), axis=0))


@triton.jit
def _chunk_scan(x_ptr, dt_ptr, a_ptr, bm_ptr, cm_ptr, dskip_ptr, pa_ptr, pb_ptr, y_ptr,
                L, D, N, n_chunks, BL: tl.constexpr, BN: tl.constexpr):
    seq = tl.program_id(0)
    chunk = tl.program_id(1)
    b = seq // D
    d = seq % D
    n = tl.arange(0, BN)
    carry_a = tl.full((BN,), 1.0, tl.float32)
    carry_b = tl.zeros((BN,), dtype=tl.float32)
    for i in range(0, chunk):
        prev = (seq * n_chunks + i) * BN + n
        carry_a, carry_b = combines.linear_recurrence(
            carry_a, carry_b, tl.load(pa_ptr + prev), tl.load(pb_ptr + prev))
    t = chunk * BL + tl.arange(0, BL)
    decay, drive, x, valid_t = _step_pairs(x_ptr, dt_ptr, a_ptr, bm_ptr, b, d, t, n, L, D, N)
    pre_a, pre_b = tl.associative_scan((decay, drive), 0, combines.linear_recurrence)
    _, h = combines.linear_recurrence(carry_a[None, :], carry_b[None, :], pre_a, pre_b)
    mask = valid_t[:, None] & (n < N)[None, :]
    cm = tl.load(cm_ptr + (b * L + t)[:, None] * N + n[None, :], mask=mask,
                 other=0.0).to(tl.float32)
    y = tl.sum(h * cm, axis=1) + tl.load(dskip_ptr + d) * x
    tl.store(y_ptr + (b * L + t) * D + d, y.to(y_ptr.dtype.element_ty), mask=valid_t)


# --------------------------------------------------------------------------- wrapper
def _validate(x, delta, A, Bm, Cm, Dskip) -> None:
    tensors = dict(zip(NAMES, (x, delta, A, Bm, Cm, Dskip)))
    for name, v in tensors.items():
        if not isinstance(v, torch.Tensor):
            raise TypeError(f"selective_scan: {name} must be a torch.Tensor, "
                            f"got {type(v).__name__}")
    ndims = {"x": 3, "delta": 3, "A": 2, "Bm": 3, "Cm": 3, "Dskip": 1}
    for name, v in tensors.items():
        if v.dim() != ndims[name]:
            raise ValueError(f"selective_scan: {name} must be {ndims[name]}-D, got {v.dim()}-D")
    batch, length, channels = x.shape
    states = A.shape[1]
    shapes = {"delta": (batch, length, channels), "A": (channels, states),
              "Bm": (batch, length, states), "Cm": (batch, length, states),
              "Dskip": (channels,)}
    for name, shape in shapes.items():
        if tuple(tensors[name].shape) != shape:
            raise ValueError(f"selective_scan: {name} must have shape {shape}, "
                             f"got {tuple(tensors[name].shape)}")
    if length == 0 or states == 0 or channels == 0 or batch == 0:
        raise ValueError("selective_scan: every dimension must be non-empty")
    if x.dtype not in DTYPES.values():
        raise TypeError("selective_scan: x dtype must be float32, float16 or bfloat16, "
                        f"got {x.dtype}")
    for name in ("delta", "Bm", "Cm"):
        if tensors[name].dtype != x.dtype:
            raise TypeError(f"selective_scan: {name} dtype {tensors[name].dtype} differs "
                            f"from x's {x.dtype}")
    for name in ("A", "Dskip"):
        if tensors[name].dtype != torch.float32:
            raise TypeError(f"selective_scan: {name} must be float32, got {tensors[name].dtype}")
    for name, v in tensors.items():
        if v.device.type != device():
            raise ValueError(f"selective_scan: {name} must be on {device()}, got {v.device.type}")
        if v.device != x.device:
            raise ValueError(f"selective_scan: {name} is on {v.device} but x is on {x.device}")
        if not v.is_contiguous():
            raise ValueError(f"selective_scan: {name} must be contiguous")


def selective_scan(x, delta, A, Bm, Cm, Dskip, chunk: int | None = None) -> torch.Tensor:
    """y (B, L, D) of the selective scan; see the module docstring."""
    _validate(x, delta, A, Bm, Cm, Dskip)
    batch, length, channels = x.shape
    states = A.shape[1]
    bl = chunk or chunk_size()
    bn = max(triton.next_power_of_2(states), 2)
    n_chunks = triton.cdiv(length, bl)
    x, delta, A, Bm, Cm, Dskip = (buffers.operand(t, name) for t, name in zip(
        (x, delta, A, Bm, Cm, Dskip), ("x", "delta", "A", "Bm", "Cm", "Dskip")))
    pairs = (batch * channels, n_chunks, bn)
    pair_a = buffers.empty(pairs, torch.float32, x.device, "chunk pairs (a)")
    pair_b = buffers.empty(pairs, torch.float32, x.device, "chunk pairs (b)")
    y = buffers.empty(x.shape, x.dtype, x.device, "y")
    grid = (batch * channels, n_chunks)
    _chunk_pairs[grid](x, delta, A, Bm, pair_a, pair_b, length, channels, states, n_chunks,
                       BL=bl, BN=bn)
    _chunk_scan[grid](x, delta, A, Bm, Cm, Dskip, pair_a, pair_b, y, length, channels,
                      states, n_chunks, BL=bl, BN=bn)
    return y


# --------------------------------------------------------------------------- bounds
def _coefficients(inputs: dict) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Exact decay a, drive b and exponent z as (B, D, N, L) float64 tensors."""
    x, dt = inputs["x"].to(torch.float64), inputs["delta"].to(torch.float64)
    A, Bm = inputs["A"].to(torch.float64), inputs["Bm"].to(torch.float64)
    z = dt.permute(0, 2, 1)[:, :, None, :] * A[None, :, :, None]
    drive = (dt * x).permute(0, 2, 1)[:, :, None, :] * Bm.permute(0, 2, 1)[:, None, :, :]
    return torch.exp(z), drive, z


def _output_bound(state_err: torch.Tensor, h: torch.Tensor, inputs: dict, u: float,
                  terms: int) -> torch.Tensor:
    """Contraction y = Σ_n C_n h_n + Dskip·x with states off by ``state_err``; (B, L, D)."""
    C = inputs["Cm"].to(torch.float64).permute(0, 2, 1)[:, None, :, :]   # (B, 1, N, L)
    g = gamma(terms + 1, u)
    dot = ((1 + g) * (C.abs() * state_err).sum(2) + g * (C.abs() * h.abs()).sum(2))
    skip = (inputs["Dskip"].to(torch.float64)[None, :, None]
            * inputs["x"].to(torch.float64).permute(0, 2, 1)).abs()
    out = dot + gamma(2, u) * skip + 4.0 * (terms + 2) * FLUSH
    return out.permute(0, 2, 1)


def _exact_states(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    h = torch.zeros_like(b[..., 0])
    out = torch.empty_like(b)
    for t in range(b.shape[-1]):
        h = a[..., t] * h + b[..., t]
        out[..., t] = h
    return out


def _check_representable(inputs: dict, dtype: str) -> None:
    for name in NAMES:
        stored = DTYPES[dtype] if name not in ("A", "Dskip") else torch.float32
        v = inputs[name].to(torch.float64)
        if not torch.equal(v.to(stored).to(torch.float64), v):
            raise ValueError(f"selective_scan bound: input {name} is not exactly "
                             f"representable in {stored}; round the case first")


def error_bound(inputs: dict, dtype: str, y_hat: torch.Tensor, chunk: int) -> torch.Tensor:
    """The componentwise bound of the module docstring on y (B, L, D)."""
    _check_representable(inputs, dtype)
    a, drive, z = _coefficients(inputs)
    bn = max(triton.next_power_of_2(a.shape[2]), 2)
    a_err = 3.0 * U32 * z.abs() * (1 + 2 * U32) + log_roundoff(_e_exp())
    kernel = recurrence_error(a, drive, chunk, U32, a_log_err=a_err, b_roundings=2)["bound"]
    h = _exact_states(a, drive)
    y_kernel = _output_bound(kernel, h, inputs, U32, bn)
    length = a.shape[-1]
    a_err64 = U64 * z.abs() + log_roundoff(E_EXP64)
    oracle_state = recurrence_error(a, drive, max(length, 1), U64, a_log_err=a_err64,
                                    b_roundings=2)["bound"]
    y_oracle = _output_bound(oracle_state, h, inputs, U64, a.shape[2])
    cast = stored_output_error(y_hat, dtype)
    return round_up(y_kernel + y_oracle + cast, roundings=length * a.shape[2] + 8)


# --------------------------------------------------------------------------- certification
def _on_grid(values) -> torch.Tensor:
    """Round to values exactly representable in float16, bfloat16 and float32."""
    t = torch.as_tensor(values, dtype=torch.float64)
    return t.to(torch.bfloat16).to(torch.float16).to(torch.float64)


def _softplus(v: np.ndarray) -> np.ndarray:
    return np.log1p(np.exp(v))


def _case(name: str, classes: tuple[str, ...], x, delta, A, Bm, Cm, Dskip) -> Case:
    inputs = {k: _on_grid(v) for k, v in zip(NAMES, (x, delta, A, Bm, Cm, Dskip))}
    batch, length, channels = inputs["x"].shape
    return Case(name=f"{name} B={batch} L={length} D={channels} N={inputs['A'].shape[1]}",
                inputs=inputs, classes=classes, n=int(length))


def _random(rng, batch: int, length: int, channels: int, states: int,
            delta_scale: float = 1.0, x_scale=None) -> dict:
    x = rng.normal(size=(batch, length, channels))
    if x_scale is not None:
        x = x * x_scale
    return dict(
        x=x,
        delta=_softplus(rng.normal(size=(batch, length, channels)) - 1.0) * delta_scale,
        A=-np.tile(np.arange(1, states + 1, dtype=float), (channels, 1))
        * rng.uniform(0.5, 1.5, size=(channels, states)),
        Bm=rng.normal(size=(batch, length, states)),
        Cm=rng.normal(size=(batch, length, states)),
        Dskip=rng.normal(size=(channels,)))


def cases(seed: int, which: str) -> list[Case]:
    rng = np.random.default_rng(seed)
    bl = chunk_size(which)
    gpu = which == "gpu"
    batch, channels, states = (4, 16, 16) if gpu else (1, 2, 4)
    out = [_case("length-1", ("length-1",), **_random(rng, 1, 1, 2, 3))]
    out.append(_case("typical, multi-chunk, non-multiple", ("multi-block", "non-multiple"),
                     **_random(rng, batch, 5 * bl + 7, channels, states)))
    out.append(_case("single chunk, N = 1", ("non-multiple",),
                     **_random(rng, 2, bl - 5, 2, 1)))
    slow = _random(rng, batch, 4 * bl, channels, states, delta_scale=0.02)
    out.append(_case("slow decay, long memory", ("multi-block", "long-memory"), **slow))
    fast = _random(rng, batch, 3 * bl + 1, channels, states, delta_scale=8.0)
    out.append(_case("fast decay, underflowing products", ("multi-block", "denormal"), **fast))
    wide = _random(rng, batch, 3 * bl + 3, channels, states,
                   x_scale=2.0 ** rng.integers(-12, 7, size=(batch, 3 * bl + 3, channels)))
    out.append(_case("x over a huge dynamic range", ("dynamic-range", "multi-block"), **wide))
    cancel = _random(rng, batch, 2 * bl + 9, channels, states, delta_scale=0.05)
    cancel["x"][:, 0::2] = 50.0
    cancel["x"][:, 1::2] = -50.0
    cancel["Bm"] = np.abs(cancel["Bm"])
    out.append(_case("alternating x, cancellation", ("cancellation", "multi-block"), **cancel))
    return out


def _inputs(case: Case, dtype: str) -> list[torch.Tensor]:
    out = []
    for name in NAMES:
        stored = torch.float32 if name in ("A", "Dskip") else DTYPES[dtype]
        out.append(case.inputs[name].to(stored).to(device()).contiguous())
    return out


def run(case: Case, dtype: str) -> dict:
    return {"y": selective_scan(*_inputs(case, dtype)).cpu()}


def oracle(case: Case) -> Oracle:
    inputs = [case.inputs[name].to(torch.float64) for name in NAMES]
    return Oracle({"y": sequential(*inputs)},
                  "float64 sequential loop; its own error is added to the bound")


FORMULA = ("(1+γ_{BN+1})Σ|C|E_h + γ_{BN+1}Σ|C||h| + γ₂|D x| + flush + u_out|ŷ| + oracle; "
           "E_h = linear_scan bound with per-step weight ℓ + 3u|ΔA| + ℓ(2⁻²¹) and 2 "
           "roundings in Δ·x·B")


def bound(case: Case, dtype: str, outputs: dict) -> Bound:
    return Bound({"y": error_bound(case.inputs, dtype, outputs["y"], chunk_size())}, FORMULA)


def naive(case: Case, dtype: str) -> dict:
    x, delta, A, Bm, Cm, Dskip = _inputs(case, dtype)
    wide = [v.to(torch.float32).cpu() for v in (x, delta, A, Bm, Cm, Dskip)]
    return {"y": sequential(*wide).to(DTYPES[dtype])}


def algorithm(which: str) -> dict:
    bl = chunk_size(which)
    return {
        "chunk": bl, "state_block": "next power of two ≥ N (≥ 2)",
        "passes": ["chunk pairs: associative_scan(linear_recurrence) over the chunk for "
                   "every state, last row", "carry: left fold of earlier chunk pairs from "
                   "(1, 0); associative_scan; combine(carry, prefix); y = Σ_n C·h + D·x"],
        "combine": "laws.associativity.combines.linear_recurrence",
        "scan_tree": ("sequential left fold (Triton interpreter)" if which != "gpu"
                      else "Triton's associative_scan tree (depth bounded by any bracketing)"),
        "depth": f"leaf in own chunk ≤ p + 1; leaf in earlier chunk ≤ {bl} + j + 1",
        "exp": f"tl.exp, assumed within {E_EXP:.3g} relative (4 ulp) beyond argument rounding",
        "programs": "B·D × ceil(L / chunk) per pass; no cross-program ordering",
    }


def precision(dtype: str) -> dict:
    return {"in": dtype, "accumulate": "float32", "out": dtype, "state": "float32",
            "parameters": "float32 (A, Dskip); x, Δ, Bm, Cm in the input dtype"}


def bench(which: str) -> dict:
    """What verify/certification/bench.py times: the kernel against the sequential torch loop (the
    specification; torch has no selective-scan op) on one shape."""
    gpu = which == "gpu"
    batch, length, channels, states = (4, 2048, 256, 16) if gpu else (2, 256, 16, 16)
    rng = np.random.default_rng(0)
    raw = _random(rng, batch, length, channels, states)
    inputs = [torch.as_tensor(raw[name], dtype=torch.float32,
                              device="cuda" if gpu else "cpu").contiguous() for name in NAMES]
    elements = batch * length * channels
    return {"kernel": (lambda: selective_scan(*inputs)) if gpu else None,
            "peer": lambda: sequential(*inputs), "reference": lambda: sequential(*inputs),
            "bytes": 4 * (2 * (2 * elements + 2 * batch * length * states) + elements),
            "flops": elements * states * 14,
            "shape": f"B={batch} L={length} D={channels} N={states} float32"}



KERNEL = KernelSpec(
    name="selective_scan",
    laws=("linear_recurrence.associative",),
    summary="Mamba selective scan: chunked parallel scan of exp(ΔA)·h + Δ·x·B, y = C·h + D·x",
    combine=combines.linear_recurrence,
    dtypes=("float32", "float16", "bfloat16"),
    execution=Execution(run=run, reference=naive, bench=bench),
    comparison=Comparison(oracle=oracle, precision=precision),
    coverage=Coverage(
        cases=cases,
        contract_classes=("length-1", "multi-block", "non-multiple", "long-memory", "denormal",
                          "dynamic-range", "cancellation"),
    ),
    bounding=Bounding(bound=bound, algorithm=algorithm, gpu_model=GPU_MODEL),
)
