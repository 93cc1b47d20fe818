"""The neural-network references of the catalog — softmax and log-softmax, the norms
(layer, RMS, group), the gated activations (SwiGLU, GeGLU) and the losses (cross-entropy,
log-softmax + NLL) — with the intermediate roundings kernels commonly make as options,
and the completions that give a case the inputs its rows do not carry (weights, a gate
operand, target classes).

Each computation is written once with torch operations: it runs on torch tensors (the
naive formulation), in float64 (the oracle) and on ``radius.Ball``s (the derived bound),
where ``to_input_format`` adds the rounding of an intermediate to the kernel's input
format. The catalog entries (inputs, outputs, declared formats, defaults) are in
``references.CATALOG``.

Not covered: other formulas for the same quantity (an online softmax's rescalings,
Welford's merges, label smoothing or class weights in a loss, a polynomial gelu); bind
those with a ``references.custom`` reference.
"""
from __future__ import annotations

import math
from typing import Any, Mapping

import numpy as np
import torch

from verify.cases import representable
from verify.certification.radius_special import gelu, silu
from verify.certification.reference_ops import full, to_input_format, where
from verify.errors import BadInput

NEG_INF = -math.inf
RMS_CASTS = ("none", "llama", "gemma")
LAYER_NORM_STATS = ("float32", "input")
GELU_APPROXIMATIONS = ("none", "tanh")


def _choose(reference: str, option: str, value: Any, choices: tuple) -> None:
    if value not in choices:
        raise BadInput(f"reference {reference!r}: {option}={value!r} is not one of "
                       f"{', '.join(map(repr, choices))}")


# --------------------------------------------------------------------------- softmax
def softmax(x, masked_rows: str = "zeros"):
    """softmax = exp(x − max)/Σ and lse = max + log Σ exp(x − max) over the last dim."""
    m = x.amax(-1, keepdim=True)
    dead = m == NEG_INF
    if masked_rows == "nan":
        e = torch.exp(x - m)
        s = e.sum(-1, keepdim=True)
        return {"softmax": e / s, "lse": (m + torch.log(s)).squeeze(-1)}
    m0 = where(dead, full(m, 0.0), m)
    e = torch.exp(x - m0)
    s = where(dead, full(m, 1.0), e.sum(-1, keepdim=True))
    lse = where(dead, full(m, NEG_INF), m0 + torch.log(s))
    return {"softmax": e / s, "lse": lse.squeeze(-1)}


def log_softmax(x, masked_rows: str = "zeros"):
    """log_softmax = x − lse over the last dim, lse as softmax's."""
    out = softmax(x, masked_rows)
    return {"log_softmax": x - out["lse"].unsqueeze(-1), "lse": out["lse"]}


# --------------------------------------------------------------------------- norms
def layer_norm(x, weight, bias, eps: float = 1e-5, stats: str = "float32"):
    """Two-pass layer norm over the last dim, y = (x − mean)·rstd·w + b with
    rstd = 1/sqrt(mean((x − mean)²) + eps); ``stats`` says where mean and rstd are kept.

    ``stats="float32"``: mean and rstd kept in float32 (torch, most kernels).
    ``stats="input"``: each rounded to the input format before it is used (a kernel
    keeping them in float16/bfloat16); the stored mean and rstd are then declared in
    the input format too."""
    _choose("layer_norm", "stats", stats, LAYER_NORM_STATS)
    mean = x.mean(-1, keepdim=True)
    d = x - (to_input_format(mean) if stats == "input" else mean)
    rstd = torch.rsqrt((d * d).mean(-1, keepdim=True) + eps)
    scale = to_input_format(rstd) if stats == "input" else rstd
    return {"y": d * scale * weight + bias, "mean": mean.squeeze(-1),
            "rstd": rstd.squeeze(-1)}


def layer_norm_formats(options: Mapping[str, Any]) -> dict:
    """The declared formats of layer_norm's statistics under ``options``."""
    fmt = "input" if options.get("stats") == "input" else "float32"
    return {"mean": fmt, "rstd": fmt}


def rms_norm(x, weight, eps: float = 1e-6, cast: str = "none"):
    """RMSNorm over the last dim, y = x·rstd·w with rstd = 1/sqrt(mean(x²) + eps) (float32
    output); ``cast`` says where the kernel rounds: "none", "llama" or "gemma".

    ``cast="none"``: y = x·rstd·w, rounded to the output format once, at the end.
    ``cast="llama"`` (Hugging Face's LlamaRMSNorm; Mistral, Qwen): h = x·rstd rounded to
    the input format, then y = h·w (``weight * hidden.to(input_dtype)``).
    ``cast="gemma"`` (GemmaRMSNorm, weights stored as offsets from 1):
    y = x·rstd·(1 + w) in float32, rounded at the end."""
    _choose("rms_norm", "cast", cast, RMS_CASTS)
    rstd = torch.rsqrt((x * x).mean(-1, keepdim=True) + eps)
    if cast == "llama":
        y = to_input_format(x * rstd) * weight
    elif cast == "gemma":
        y = x * rstd * (1.0 + weight)
    else:
        y = x * rstd * weight
    return {"y": y, "rstd": rstd.squeeze(-1)}


def group_norm(x, weight, bias, num_groups: int = 2, eps: float = 1e-5):
    """Group norm (``F.group_norm``) of x [N, C, *] over ``num_groups`` groups of channels:
    y = (x − mean)·rstd·w[c] + b[c], mean and rstd [N, num_groups] (float32).

    Groups are C/num_groups consecutive channels; per sample and group the two-pass mean
    and rstd = 1/sqrt(mean((x − mean)²) + eps) over the group's channels and positions."""
    n, c = x.shape[0], x.shape[1]
    if num_groups < 1 or c % num_groups:
        raise BadInput(f"reference 'group_norm': {c} channels do not split into "
                       f"num_groups={num_groups} groups")
    g = x.reshape(n, num_groups, -1)
    mean = g.mean(-1, keepdim=True)
    d = g - mean
    rstd = torch.rsqrt((d * d).mean(-1, keepdim=True) + eps)
    per_channel = (c,) + (1,) * (x.dim() - 2)
    y = (d * rstd).reshape(x.shape) * weight.reshape(per_channel) + bias.reshape(per_channel)
    return {"y": y, "mean": mean.squeeze(-1), "rstd": rstd.squeeze(-1)}


# --------------------------------------------------------------------------- gated activations
def swiglu(a, b, round_activation: bool = False):
    """SwiGLU: y = silu(a)·b, silu(a) = a·sigmoid(a).

    ``round_activation``: silu(a) rounded to the input format before the product (a
    kernel storing it, or computing it in the input dtype)."""
    act = silu(a)
    return {"y": (to_input_format(act) if round_activation else act) * b}


def geglu(a, b, approximate: str = "none", round_activation: bool = False):
    """GeGLU: y = gelu(a)·b, gelu exact (approximate="none") or torch's tanh form.

    gelu(a) = 0.5·a·(1 + erf(a·(1/√2))), or with approximate="tanh"
    0.5·a·(1 + tanh(√(2/π)·(a + 0.044715·a³))). ``round_activation``: gelu(a) rounded
    to the input format before the product."""
    _choose("geglu", "approximate", approximate, GELU_APPROXIMATIONS)
    act = gelu(a, approximate)
    return {"y": (to_input_format(act) if round_activation else act) * b}


# --------------------------------------------------------------------------- losses
def _picked(values, target, ignored):
    """values[..., target] (any class where the row is ignored)."""
    safe = torch.where(ignored, torch.zeros_like(target), target)
    return torch.gather(values, -1, safe.unsqueeze(-1)).squeeze(-1)


def cross_entropy(x, target, ignore_index: int = -100):
    """Cross-entropy per row, loss = lse − x[target] (0 where target == ignore_index),
    and lse (both float32), as ``F.cross_entropy(x, target, reduction="none")``.

    lse = max + log Σ exp(x − max); a fully masked row (all −∞) has lse −∞ and must be
    ignored. Not covered: label smoothing, class weights, the mean over rows (reduce the
    per-row losses outside)."""
    lse = softmax(x, "zeros")["lse"]
    ignored = target == ignore_index
    loss = lse - _picked(x, target, ignored)
    return {"loss": where(ignored, full(loss, 0.0), loss), "lse": lse}


def nll_log_softmax(x, target, ignore_index: int = -100):
    """Log-softmax and its negative log-likelihood per row, loss = −log_softmax[target]
    (0 where target == ignore_index), as ``F.nll_loss(F.log_softmax(x), target)``.

    log_softmax = x − lse as log_softmax's; loss and lse float32, per row."""
    out = log_softmax(x, "zeros")
    ignored = target == ignore_index
    loss = -_picked(out["log_softmax"], target, ignored)
    return {"loss": where(ignored, full(loss, 0.0), loss), **out}


# --------------------------------------------------------------------------- completing cases
def _vector(n: int, rng: np.random.Generator, centre: float) -> torch.Tensor:
    return representable(rng.normal(centre, 0.5, n))


def complete_layer_norm(inputs: dict, rng: np.random.Generator) -> dict:
    """weight ~ N(1, 0.5) and bias ~ N(0, 0.5) per feature."""
    n = inputs["x"].shape[-1]
    return {**inputs, "weight": _vector(n, rng, 1.0), "bias": _vector(n, rng, 0.0)}


def complete_rms_norm(inputs: dict, rng: np.random.Generator, cast: str = "none") -> dict:
    """weight ~ N(1, 0.5) per feature; N(0, 0.5) for the gemma convention (offsets)."""
    n = inputs["x"].shape[-1]
    return {**inputs, "weight": _vector(n, rng, 0.0 if cast == "gemma" else 1.0)}


def complete_group_norm(inputs: dict, rng: np.random.Generator, num_groups: int = 2) -> dict:
    """A row case's x [rows, n] becomes [rows, 2·num_groups, n], each channel the row
    with its entries permuted (every group keeps the row's class: ties, wide range,
    cancellation); weight ~ N(1, 0.5) and bias ~ N(0, 0.5) per channel."""
    x = inputs["x"]
    if x.dim() == 2:
        x = torch.stack([x[:, torch.as_tensor(rng.permutation(x.shape[-1]))]
                         for _ in range(2 * num_groups)], 1)
    c = x.shape[1]
    return {**inputs, "x": x, "weight": _vector(c, rng, 1.0), "bias": _vector(c, rng, 0.0)}


def complete_gate(inputs: dict, rng: np.random.Generator) -> dict:
    """a: the case's x (−∞ masks become 0), b ~ N(0, 1) clipped to [−1, 1], so that the
    product stays within float16's range wherever a does."""
    rest = {k: v for k, v in inputs.items() if k != "x"}
    a = inputs.get("a", inputs.get("x"))
    a = torch.where(torch.isfinite(a), a, torch.zeros_like(a))
    b = inputs.get("b")
    if b is None:
        b = representable(np.clip(rng.normal(0.0, 1.0, tuple(a.shape)), -1.0, 1.0))
    return {**rest, "a": a, "b": b}


def complete_targets(inputs: dict, rng: np.random.Generator, ignore_index: int = -100) -> dict:
    """target (int64, one per row): row 0 its largest entry (the smallest loss, the most
    cancellation), other rows a class drawn among their finite entries; every third row
    (the second of each three) and rows without a finite entry get ``ignore_index``."""
    x = inputs["x"]
    rows = x.reshape(-1, x.shape[-1])
    out = []
    for i, row in enumerate(rows):
        finite = torch.isfinite(row).nonzero().flatten()
        if len(finite) == 0 or i % 3 == 1:
            out.append(ignore_index)
        elif i == 0:
            out.append(int(row.argmax()))
        else:
            out.append(int(finite[rng.integers(len(finite))]))
    return {**inputs, "target": torch.tensor(out, dtype=torch.int64).reshape(x.shape[:-1])}
