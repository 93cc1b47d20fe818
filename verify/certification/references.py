"""Catalog references by name: the computation a kernel claims to perform, written once
with torch operations so the same function gives the naive result (torch tensors), the
oracle and the derived bound (``radius.Ball``s), and order-varied simulations.

Each ``Reference`` states its inputs, outputs (and which are compared exactly), the
format of each output, how to complete a case's inputs (weights for a norm, target
classes), and its conventions as options: ``masked_rows`` ("zeros": a fully masked row
gives zeros and lse −∞; "nan": torch's NaN), ``eps``, ``causal``, ``k``, and the
intermediate roundings kernels commonly make (rms_norm ``cast``, layer_norm ``stats``,
swiglu/geglu ``round_activation``; ``references_nn``). ``Reference.configured(options)``
checks an option's value against its choices and resolves what the options decide (the
declared formats, the completion); ``describe`` is what ``python -m verify references``
lists.

Formulations (a kernel evaluating another formula needs a hand bound or a block
model): softmax exp(x − max)/Σ; log-sum-exp max + log Σ exp(x − max); layer norm and
var/mean and group norm two-pass (mean, then Σ(x − mean)²); RMSNorm
x·rsqrt(mean(x²) + eps)·w; SwiGLU/GeGLU act(a)·b; cross-entropy lse − x[target]; matmul
Σₖ aᵢₖbₖⱼ; LoRA xW + (xB)A as one accumulation with xB stored in the input format;
int8 matmul (x·W_q)·s; cumsum; linear recurrence hₜ = aₜhₜ₋₁ + bₜ; attention softmax(QKᵀ·scale)V;
top-k values (indices exact).
"""
from __future__ import annotations

import functools
import inspect
import math
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Mapping

import numpy as np
import torch

from verify.cases import representable
from verify.errors import BadInput
from verify.certification import radius, radius_compose, radius_reduce
from verify.certification import references_nn as nn
from verify.certification.reference_ops import full as _full, is_ball as _is_ball
from verify.certification.reference_ops import to_input_format, where as _where
from verify.certification.references_nn import softmax

__all__ = ["CATALOG", "Reference", "custom", "describe_all", "lookup", "to_input_format"]
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
    choices: Mapping[str, tuple] = field(default_factory=dict)  # option -> allowed values
    option_formats: Callable[[Mapping[str, Any]], Mapping[str, str]] | None = None
    description: str = ""               # one line; default: the fn's docstring's first

    def formats(self, dtype: str) -> dict:
        return {o: (dtype if self.out_formats.get(o, "input") == "input"
                    else self.out_formats[o]) for o in self.outputs}

    def __call__(self, **kwargs) -> dict:
        return self.fn(**kwargs)

    def configured(self, options: Mapping[str, Any]) -> "Reference":
        """This reference with ``options`` over its defaults: a value outside an option's
        choices is ``BadInput``; the declared formats are those the options imply
        (``option_formats``), and ``complete`` gets the options its signature names."""
        for key, allowed in self.choices.items():
            if key in options and options[key] not in allowed:
                raise BadInput(f"reference {self.name!r}: {key}={options[key]!r} is not one "
                               f"of {', '.join(map(repr, allowed))}")
        given = {**self.options, **options}
        formats = {**self.out_formats, **(self.option_formats(given) if self.option_formats
                                          else {})}
        complete = self.complete
        if complete is not None:
            named = inspect.signature(complete).parameters
            wanted = {k: v for k, v in given.items() if k in named}
            complete = functools.partial(complete, **wanted) if wanted else complete
        return replace(self, options=given, out_formats=formats, complete=complete)

    def describe(self) -> dict:
        """Inputs, outputs with their declared formats ("input": the kernel's dtype),
        options with defaults and choices, the formats other option values declare,
        and a one-line description."""
        doc = self.description or (inspect.getdoc(self.fn) or "").split("\n\n")[0]
        options = {k: {"default": v, **({"choices": list(self.choices[k])}
                                        if k in self.choices else {})}
                   for k, v in self.options.items()}
        by_option = {}
        for key, allowed in self.choices.items():
            for value in allowed:
                changed = {o: f for o, f in self.configured({key: value}).out_formats.items()
                           if self.out_formats.get(o, "input") != f}
                if changed:
                    by_option[f"{key}={value!r}"] = changed
        return {"name": self.name, "description": " ".join(doc.replace("``", "").split()),
                "inputs": list(self.inputs),
                "outputs": {o: "exact" if o in self.exact_outputs else
                            self.out_formats.get(o, "input") for o in self.outputs},
                "exact_outputs": list(self.exact_outputs), "options": options,
                "formats_by_option": by_option, "cases": self.cases,
                "completes": self.complete is not None}


# --------------------------------------------------------------------------- computations
def var_mean(x, correction: int = 0):
    """Two-pass variance and mean over the last dim: Σ(x − mean)²/(n − correction)."""
    mean = x.mean(-1, keepdim=True)
    d = x - mean
    n = x.shape[-1]
    var = (d * d).sum(-1) / float(max(n - correction, 1))
    return {"var": var, "mean": mean.squeeze(-1)}


def matmul(a, b):
    """c = a @ b (each dot Σₖ aᵢₖbₖⱼ in any order)."""
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
    """Inclusive prefix sums over the last dim."""
    return {"y": x.cumsum(-1)}


def linear_recurrence(a, b):
    """hₜ = aₜ·hₜ₋₁ + bₜ over the last dim, h₋₁ = 0 (any associative-scan order)."""
    if _is_ball(a, b):
        return {"h": radius_reduce.linear_recurrence(a, b, -1)}
    h, out = torch.zeros_like(a[..., 0]), []
    for t in range(a.shape[-1]):
        h = a[..., t] * h + b[..., t]
        out.append(h)
    return {"h": torch.stack(out, -1)}


def attention(q, k, v, causal: bool = False, scale: float | None = None):
    """o = softmax(q·kᵀ·scale)·v, scale 1/√d by default, optionally causal."""
    scale = 1.0 / math.sqrt(q.shape[-1]) if scale is None else scale
    s = (q @ k.transpose(-1, -2)) * scale
    if causal:
        keep = torch.ones(s.shape[-2:], dtype=torch.bool).tril()
        s = _where(radius.decision(keep), s, _full(s, NEG_INF)) if _is_ball(s) \
            else s.masked_fill(~keep, NEG_INF)
    return {"o": softmax(s, "zeros")["softmax"] @ v}


def topk(x, k: int = 4):
    """The k largest values of the last dim, descending, and their indices (exact)."""
    k = min(k, x.shape[-1])
    if _is_ball(x):
        idx = torch.sort(x.v, dim=-1, descending=True, stable=True).indices[..., :k]
        return {"values": radius_compose.topk_values(x, k), "indices": idx}
    srt = torch.sort(x, dim=-1, descending=True, stable=True)
    return {"values": srt.values[..., :k], "indices": srt.indices[..., :k]}


# --------------------------------------------------------------------------- completing cases
def _decay_pair(inputs: dict, rng: np.random.Generator) -> dict:
    x = inputs["x"]
    finite = torch.where(torch.isfinite(x), x, torch.zeros_like(x))
    a = representable(rng.uniform(0.5, 1.0, tuple(x.shape)))
    return {"a": a, "b": representable(finite.clamp(-100, 100))}


MASKED_ROWS = {"masked_rows": ("zeros", "nan")}
CATALOG: dict[str, Reference] = {r.name: r for r in (
    Reference("softmax", softmax, ("x",), ("softmax", "lse"), {"lse": "float32"},
              options={"masked_rows": "zeros"}, choices=MASKED_ROWS),
    Reference("log_softmax", nn.log_softmax, ("x",), ("log_softmax", "lse"),
              {"lse": "float32"}, options={"masked_rows": "zeros"}, choices=MASKED_ROWS),
    Reference("logsumexp", softmax, ("x",), ("lse",), {"lse": "float32"},
              options={"masked_rows": "zeros"}, choices=MASKED_ROWS,
              description="lse = max + log Σ exp(x − max) over the last dim."),
    Reference("layer_norm", nn.layer_norm, ("x", "weight", "bias"), ("y", "mean", "rstd"),
              {"mean": "float32", "rstd": "float32"},
              options={"eps": 1e-5, "stats": "float32"},
              complete=nn.complete_layer_norm, choices={"stats": nn.LAYER_NORM_STATS},
              option_formats=nn.layer_norm_formats),
    Reference("rms_norm", nn.rms_norm, ("x", "weight"), ("y", "rstd"), {"rstd": "float32"},
              options={"eps": 1e-6, "cast": "none"}, complete=nn.complete_rms_norm,
              choices={"cast": nn.RMS_CASTS}),
    Reference("group_norm", nn.group_norm, ("x", "weight", "bias"), ("y", "mean", "rstd"),
              {"mean": "float32", "rstd": "float32"},
              options={"num_groups": 2, "eps": 1e-5}, complete=nn.complete_group_norm),
    Reference("swiglu", nn.swiglu, ("a", "b"), ("y",), options={"round_activation": False},
              complete=nn.complete_gate, choices={"round_activation": (False, True)}),
    Reference("geglu", nn.geglu, ("a", "b"), ("y",),
              options={"approximate": "none", "round_activation": False},
              complete=nn.complete_gate,
              choices={"approximate": nn.GELU_APPROXIMATIONS,
                       "round_activation": (False, True)}),
    Reference("cross_entropy", nn.cross_entropy, ("x", "target"), ("loss", "lse"),
              {"loss": "float32", "lse": "float32"}, options={"ignore_index": -100},
              complete=nn.complete_targets),
    Reference("nll_log_softmax", nn.nll_log_softmax, ("x", "target"),
              ("loss", "log_softmax", "lse"), {"loss": "float32", "lse": "float32"},
              options={"ignore_index": -100}, complete=nn.complete_targets),
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
    """The catalog reference ``name``; ``BadInput`` naming the known ones."""
    if name not in CATALOG:
        raise BadInput(f"unknown reference {name!r} (known: {', '.join(sorted(CATALOG))})")
    return CATALOG[name]


def describe_all() -> list[dict]:
    """``Reference.describe`` of every catalog reference, in catalog order."""
    return [ref.describe() for ref in CATALOG.values()]


def custom(fn: Callable[..., dict], inputs: tuple[str, ...], outputs: tuple[str, ...],
           out_formats: Mapping[str, str] | None = None, **options) -> Reference:
    """A user's own reference ``fn(**inputs, **options) -> {output: tensor}`` written with
    torch functions and tensor methods (those ``radius_torch.TORCH_TABLE`` and ``Ball`` know)."""
    return Reference(getattr(fn, "__name__", "custom"), fn, tuple(inputs), tuple(outputs),
                     dict(out_formats or {}), options=options)
