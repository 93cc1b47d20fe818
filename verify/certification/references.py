"""Catalog references by name: the computation a kernel claims to perform, written once
with torch operations so the same function gives the naive result (torch tensors), the
oracle and the derived bound (``radius.Ball``s), and order-varied simulations.

Each ``Reference`` states its inputs, outputs (and which are compared exactly), the
format of each output, how to complete a case's inputs (weights for a norm), and its
conventions as options: ``masked_rows`` ("zeros": a fully masked row gives zeros and
lse −∞; "nan": torch's NaN), ``eps``, ``causal``, ``k``.

Formulations (a kernel evaluating another formula needs a hand bound or a block
model): softmax exp(x − max)/Σ; log-sum-exp max + log Σ exp(x − max); layer norm and
var/mean two-pass (mean, then Σ(x − mean)²); RMSNorm x·rsqrt(mean(x²) + eps)·w; matmul
Σₖ aᵢₖbₖⱼ; LoRA xW + (xB)A as one accumulation with xB stored in the input format;
int8 matmul (x·W_q)·s; cumsum; linear recurrence hₜ = aₜhₜ₋₁ + bₜ; attention softmax(QKᵀ·scale)V;
top-k values (indices exact).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import numpy as np
import torch

from verify.cases import representable
from verify.errors import BadInput
from verify.certification import radius, radius_compose, radius_reduce
from verify.certification.radius import Ball

NEG_INF = -math.inf


@dataclass(frozen=True)
class Reference:
    name: str
    fn: Callable[..., dict]
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    out_formats: Mapping[str, str] = field(default_factory=dict)  # name -> "input" | format
    exact_outputs: tuple[str, ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)
    complete: Callable[[dict, np.random.Generator], dict] | None = None
    cases: str = "rows"                 # the case family its main input comes from

    def formats(self, dtype: str) -> dict:
        return {o: (dtype if self.out_formats.get(o, "input") == "input"
                    else self.out_formats[o]) for o in self.outputs}

    def __call__(self, **kwargs) -> dict:
        return self.fn(**kwargs)


def _where(cond, a, b):
    return radius.where(cond, a, b) if _is_ball(cond, a, b) else torch.where(cond, a, b)


def _is_ball(*xs) -> bool:
    return any(isinstance(x, (Ball, radius.Decision)) for x in xs)


def _full(like, value):
    return value if _is_ball(like) else torch.full_like(like, value)


def to_input_format(x):
    """``x`` rounded to the kernel's input format (its dtype): for balls the rounding is
    added to the radius; plain tensors (the naive formulation) are returned as they are."""
    return radius.stored(x) if _is_ball(x) else x


# --------------------------------------------------------------------------- computations
def softmax(x, masked_rows: str = "zeros"):
    m = x.amax(-1, keepdim=True)
    dead = m == NEG_INF
    if masked_rows == "nan":
        e = torch.exp(x - m)
        s = e.sum(-1, keepdim=True)
        return {"softmax": e / s, "lse": (m + torch.log(s)).squeeze(-1)}
    m0 = _where(dead, _full(m, 0.0), m)
    e = torch.exp(x - m0)
    s = _where(dead, _full(m, 1.0), e.sum(-1, keepdim=True))
    lse = _where(dead, _full(m, NEG_INF), m0 + torch.log(s))
    return {"softmax": e / s, "lse": lse.squeeze(-1)}


def log_softmax(x, masked_rows: str = "zeros"):
    out = softmax(x, masked_rows)
    return {"log_softmax": x - out["lse"].unsqueeze(-1), "lse": out["lse"]}


def layer_norm(x, weight, bias, eps: float = 1e-5):
    mean = x.mean(-1, keepdim=True)
    d = x - mean
    var = (d * d).mean(-1, keepdim=True)
    rstd = torch.rsqrt(var + eps)
    return {"y": d * rstd * weight + bias, "mean": mean.squeeze(-1), "rstd": rstd.squeeze(-1)}


def rms_norm(x, weight, eps: float = 1e-6):
    rstd = torch.rsqrt((x * x).mean(-1, keepdim=True) + eps)
    return {"y": x * rstd * weight, "rstd": rstd.squeeze(-1)}


def var_mean(x, correction: int = 0):
    mean = x.mean(-1, keepdim=True)
    d = x - mean
    n = x.shape[-1]
    var = (d * d).sum(-1) / float(max(n - correction, 1))
    return {"var": var, "mean": mean.squeeze(-1)}


def matmul(a, b):
    return {"c": a @ b}


def lora(x, w, b, a):
    """y = xW + (xB)A as one accumulation over [x, t]·[W; A], t = xB stored in the input
    format (a fused LoRA kernel adds t·A into the accumulator of x·W)."""
    t = to_input_format(x @ b)
    return {"y": torch.cat([x, t], -1) @ torch.cat([w, a], 0)}


def int8_matmul(x, wq, s):
    """acc = x·W_q (W_q integers, exact in every format), y = acc·s per output column."""
    acc = x @ (wq.to(x.dtype) if isinstance(x, torch.Tensor) else wq.double())
    return {"y": acc * s, "acc": acc}


def cumsum(x):
    return {"y": x.cumsum(-1)}


def linear_recurrence(a, b):
    if _is_ball(a, b):
        return {"h": radius_reduce.linear_recurrence(a, b, -1)}
    h, out = torch.zeros_like(a[..., 0]), []
    for t in range(a.shape[-1]):
        h = a[..., t] * h + b[..., t]
        out.append(h)
    return {"h": torch.stack(out, -1)}


def attention(q, k, v, causal: bool = False, scale: float | None = None):
    scale = 1.0 / math.sqrt(q.shape[-1]) if scale is None else scale
    s = (q @ k.transpose(-1, -2)) * scale
    if causal:
        keep = torch.ones(s.shape[-2:], dtype=torch.bool).tril()
        s = _where(radius.decision(keep), s, _full(s, NEG_INF)) if _is_ball(s) \
            else s.masked_fill(~keep, NEG_INF)
    return {"o": softmax(s, "zeros")["softmax"] @ v}


def topk(x, k: int = 4):
    k = min(k, x.shape[-1])
    if _is_ball(x):
        idx = torch.sort(x.v, dim=-1, descending=True, stable=True).indices[..., :k]
        return {"values": radius_compose.topk_values(x, k), "indices": idx}
    srt = torch.sort(x, dim=-1, descending=True, stable=True)
    return {"values": srt.values[..., :k], "indices": srt.indices[..., :k]}


# --------------------------------------------------------------------------- completing cases
def _row_vectors(*names, centre=(1.0, 0.0)):
    def complete(inputs: dict, rng: np.random.Generator) -> dict:
        n = inputs["x"].shape[-1]
        extra = {name: representable(rng.normal(c, 0.5, n)) for name, c in zip(names, centre)}
        return {**inputs, **extra}
    return complete


def _decay_pair(inputs: dict, rng: np.random.Generator) -> dict:
    x = inputs["x"]
    finite = torch.where(torch.isfinite(x), x, torch.zeros_like(x))
    a = representable(rng.uniform(0.5, 1.0, tuple(x.shape)))
    return {"a": a, "b": representable(finite.clamp(-100, 100))}


CATALOG: dict[str, Reference] = {r.name: r for r in (
    Reference("softmax", softmax, ("x",), ("softmax", "lse"), {"lse": "float32"},
              options={"masked_rows": "zeros"}),
    Reference("log_softmax", log_softmax, ("x",), ("log_softmax", "lse"), {"lse": "float32"},
              options={"masked_rows": "zeros"}),
    Reference("logsumexp", softmax, ("x",), ("lse",), {"lse": "float32"},
              options={"masked_rows": "zeros"}),
    Reference("layer_norm", layer_norm, ("x", "weight", "bias"), ("y", "mean", "rstd"),
              {"mean": "float32", "rstd": "float32"}, options={"eps": 1e-5},
              complete=_row_vectors("weight", "bias")),
    Reference("rms_norm", rms_norm, ("x", "weight"), ("y", "rstd"), {"rstd": "float32"},
              options={"eps": 1e-6}, complete=_row_vectors("weight")),
    Reference("var_mean", var_mean, ("x",), ("var", "mean"),
              {"var": "float32", "mean": "float32"}, options={"correction": 0}),
    Reference("matmul", matmul, ("a", "b"), ("c",), cases="matrices"),
    Reference("cumsum", cumsum, ("x",), ("y",)),
    Reference("lora", lora, ("x", "w", "b", "a"), ("y",), cases="explicit"),
    Reference("int8_matmul", int8_matmul, ("x", "wq", "s"), ("y", "acc"), {"acc": "float32"},
              cases="explicit"),
    Reference("linear_recurrence", linear_recurrence, ("a", "b"), ("h",),
              complete=_decay_pair),
    Reference("attention", attention, ("q", "k", "v"), ("o",), cases="attention",
              options={"causal": False, "scale": None}),
    Reference("topk", topk, ("x",), ("values", "indices"), exact_outputs=("indices",),
              options={"k": 4}),
)}


def lookup(name: str) -> Reference:
    """The catalog reference ``name``; ValueError naming the known ones."""
    if name not in CATALOG:
        raise BadInput(f"unknown reference {name!r} (known: {', '.join(sorted(CATALOG))})")
    return CATALOG[name]


def custom(fn: Callable[..., dict], inputs: tuple[str, ...], outputs: tuple[str, ...],
           out_formats: Mapping[str, str] | None = None, *,
           complete: Callable[[dict, np.random.Generator], Mapping] | None = None,
           exact_outputs: tuple[str, ...] = (), **options) -> Reference:
    """A user's own reference ``fn(**inputs, **options) -> {output: tensor}`` written with
    torch functions and tensor methods (those ``radius_torch.TORCH_TABLE`` and ``Ball`` know).

    ``complete(inputs, rng)`` makes the inputs a case set does not (a target index, a
    second operand, a weight) from those it does (``{"x": tensor}``, float64) and a
    numpy generator seeded per case; it returns the new inputs (a dict; numpy arrays
    become tensors, float ones in float64: a value the kernel's dtype cannot hold is
    rounded when stored, and the bound counts that rounding; ``cases.representable``
    makes values every format holds). ``exact_outputs`` are compared bit for bit."""
    unknown = [o for o in exact_outputs if o not in outputs]
    if unknown:
        raise BadInput(f"exact_outputs {', '.join(unknown)} are not among the outputs "
                       f"{', '.join(outputs)}")
    return Reference(getattr(fn, "__name__", "custom"), fn, tuple(inputs), tuple(outputs),
                     dict(out_formats or {}), tuple(exact_outputs), options=options,
                     complete=None if complete is None else _completing(complete, inputs))


def _completing(make: Callable, names: tuple[str, ...]) -> Callable[..., dict]:
    """``make`` as a ``Reference.complete``: its inputs added to the case's, checked."""
    def complete(inputs: dict, rng: np.random.Generator) -> dict:
        made = make(dict(inputs), rng)
        if not isinstance(made, Mapping):
            raise BadInput(f"complete= returned a {type(made).__name__}, not a dict of inputs")
        added = {k: _as_input(v) for k, v in made.items()}
        missing = [k for k in names if k not in inputs and k not in added]
        if missing:
            raise BadInput(f"complete= did not make the input(s) {', '.join(missing)}")
        return {**inputs, **added}
    return complete


def _as_input(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        value = torch.as_tensor(value)
    if isinstance(value, torch.Tensor) and value.is_floating_point():
        return value.to(torch.float64)
    return value
