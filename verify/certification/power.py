"""Test power: would a useless output have passed this certificate?

For every certified float output, ρ (max error / bound, as the certifier computes it) of
trivial stand-ins: all zeros, one constant (the mean of the oracle's finite values) and
an input of the same shape. A stand-in "passes" a certificate when its ρ ≤ 1 on *every*
case of a dtype — a single case where the truth happens to be trivial (a softmax row of
length 1 is exactly 1) is not weakness, a bound that accepts zeros on every case is.
``summary`` says ``weak`` then, and the certificate must fail.

Also reported, as sharpness figures that may pass: ρ of the exact result scaled by
(1 + 2⁻¹⁰) (``accepts_scaled_output`` lists the outputs whose bound accepts it on every
case: a bound too loose to see a 2⁻¹⁰ relative error), and ρ of the reference computed
naively one format lower (float16 for float32, bfloat16 for float16), ``naive_lower``.

Not covered: outputs compared exactly (indices), which have no bound to be weak.
"""
from __future__ import annotations

import math
from typing import Any, Callable, Iterable, Mapping

import torch

from verify.certification.comparison import compare_float

SCALE = 1.0 + 2.0 ** -10
LOWER = {"float32": "float16", "float16": "bfloat16", "bfloat16": None, "float64": "float32"}
TRIVIAL = ("zeros", "constant", "input")  # a bound accepting one of these proves nothing
STAND_INS = TRIVIAL + ("scaled",)


def _cpu64(x: Any) -> torch.Tensor:
    t = x if isinstance(x, torch.Tensor) else torch.as_tensor(x)
    return t.detach().to("cpu", torch.float64)


def _rho(candidate: Any, oracle: torch.Tensor, bound: torch.Tensor) -> float:
    """ρ of ``candidate`` as the certifier computes it (overflow judged in the format
    ``candidate`` is stored in: the stand-ins are float64, the kernel's its own)."""
    return float(compare_float(candidate, oracle, bound)["rho"])


def stand_ins(oracle: torch.Tensor, inputs: Mapping[str, Any]) -> dict[str, torch.Tensor]:
    """The trivial outputs for one oracle output."""
    o = _cpu64(oracle)
    finite = o[torch.isfinite(o)]
    const = float(finite.mean()) if finite.numel() else 0.0
    out = {"zeros": torch.zeros_like(o), "constant": torch.full_like(o, const),
           "scaled": o * SCALE}
    for _name, value in inputs.items():
        if isinstance(value, torch.Tensor) and value.is_floating_point() \
                and tuple(value.shape) == tuple(o.shape):
            out["input"] = _cpu64(value)
            break
    return out


def check(case, outputs: Mapping[str, Any], oracle: Mapping[str, Any],
          bound: Mapping[str, Any], naive_lower: Mapping[str, Any] | None = None,
          exact: Iterable[str] = ()) -> dict:
    """{output: {stand-in: ρ, ..., "naive_lower": ρ?}} for one case, and ``weak``: some
    stand-in passes this case (``summary`` decides over all cases)."""
    per_output: dict[str, dict] = {}
    weak = False
    for key, reference in oracle.items():
        if key.startswith("_") or key in exact or key not in bound:
            continue
        o, b = _cpu64(reference), _cpu64(bound[key])
        rhos = {name: _rho(c, o, b) for name, c in stand_ins(o, case.inputs).items()}
        weak = weak or any(rhos[name] <= 1.0 for name in TRIVIAL if name in rhos)
        if naive_lower and key in naive_lower:
            rhos["naive_lower"] = _rho(naive_lower[key], o, b)
        if key in outputs:
            rhos["kernel"] = _rho(outputs[key], o, b)
        per_output[key] = rhos
    return {"outputs": per_output, "weak": weak}


def summary(checks: Iterable[dict]) -> dict:
    """Over the cases of one dtype: for each output and stand-in the largest ρ any case
    gave it (a stand-in is caught when one case rejects it); ``accepted_stand_ins`` lists
    the "output:stand-in" pairs every case accepted, and ``weak`` is true when any is."""
    worst: dict[str, dict[str, float]] = {}
    for c in checks:
        for key, rhos in c["outputs"].items():
            slot = worst.setdefault(key, {})
            for name, rho in rhos.items():
                slot[name] = max(slot.get(name, 0.0), rho)
    accepted = [f"{key}:{name}" for key, rhos in worst.items() for name, rho in rhos.items()
                if name in TRIVIAL and rho <= 1.0]
    scaled = [key for key, rhos in worst.items() if rhos.get("scaled", math.inf) <= 1.0]
    return {"rho": worst, "accepted_stand_ins": accepted, "weak": bool(accepted),
            "accepts_scaled_output": scaled}


def naive_lower(reference: Callable[..., dict], inputs: Mapping[str, Any], dtype: str,
                options: Mapping[str, Any]) -> dict | None:
    """The reference run with torch on inputs rounded to the format below ``dtype``,
    arithmetic in that format; None when there is no lower format."""
    lower = LOWER.get(dtype)
    if lower is None:
        return None
    t = getattr(torch, lower)
    args = {k: (v.to(t) if isinstance(v, torch.Tensor) and v.is_floating_point() else v)
            for k, v in inputs.items()}
    try:
        out = reference(**args, **options)
    except (RuntimeError, TypeError):  # an op without a kernel in that format
        return None
    return {k: v for k, v in out.items() if isinstance(v, torch.Tensor)}


def finite_rho(value: float) -> float | str:
    return value if math.isfinite(value) else "inf"
