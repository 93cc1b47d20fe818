"""Derived bounds (the radius interpretation, through ``bind``) against the project
kernels' hand-derived bounds, on each kernel's own cases, per dtype.

    PYTHONPATH=$PWD python tests/certification/compare_bounds.py [KERNEL ...]

For every case the kernel is run once; its outputs are measured against each bound's
own oracle (the hand spec's and the binding's float64 reference). Printed per kernel,
dtype and output: the median and maximum over all elements of derived/hand (elements
where the hand bound is positive and finite), and the worst ρ = error/bound each bound
gives. "tighter everywhere" means the maximum ratio is ≤ 1 — the rule by which a
project kernel's certificate uses the derived bound (``impls/scan.py``,
``impls/matmul.py``).

Kernels whose schedule the radius interpretation does not cover (an online softmax's
rescalings, Welford merges, FlashAttention's running state) and the exact ones are
listed with the reason, without numbers: a derived bound there would not be rigorous
(or there is no bound to compare).
"""
from __future__ import annotations

import dataclasses
import importlib
import math
import os
import sys

import torch

os.environ.setdefault("TRITON_INTERPRET", "1")

from impls.spec import KernelSpec, backend  # noqa: E402
from verify.certification.binding import Binding, as_spec, bind, binding_of  # noqa: E402
from verify.certification.comparison import compare_float  # noqa: E402
from verify.certification.references import custom  # noqa: E402

NOT_COVERED = {
    "softmax": "online softmax: running-max rescalings are not the reference's formula",
    "var_mean": "Welford/Chan merges are not the two-pass formula",
    "layer_norm": "statistics by Welford/Chan merges (as var_mean)",
    "attention": "FlashAttention's running state (online softmax) is not covered",
    "topk": "exact: values and indices are compared for equality, no bound to compare",
    "nbody": "not measured: no radius reference written for the softened pair force yet",
}


# --------------------------------------------------------------------------- references
def selective_scan_reference(x, delta, A, Bm, Cm, Dskip):
    """h_t = exp(Δ_t·A)·h_{t−1} + (Δ_t·x_t)·Bm_t along L, y_t = Σₙ Cm_t·h_t + Dskip·x_t."""
    from verify.certification.radius_reduce import linear_recurrence
    dt = delta.unsqueeze(-1)                                   # (B, L, D, 1)
    decay = torch.exp(dt * A)                                  # (B, L, D, N)
    drive = (dt * x.unsqueeze(-1)) * Bm.unsqueeze(2)           # (B, L, D, N)
    h = linear_recurrence(decay, drive, 1)
    return {"y": (h * Cm.unsqueeze(2)).sum(-1) + Dskip * x}


# --------------------------------------------------------------------------- the pairs
def _module(name: str):
    return importlib.import_module(f"impls.{name}")


def _derived_only(name: str) -> tuple[KernelSpec, KernelSpec]:
    """(hand spec, derived spec) for a kernel whose KERNEL keeps its hand bound."""
    mod = _module(name)
    hand = mod.KERNEL
    if name == "linear_scan":
        derived = bind(mod.linear_scan, "linear_recurrence", mod.cases, hand.dtypes)
    elif name == "selective_scan":
        ref = custom(selective_scan_reference, mod.NAMES, ("y",))
        derived = bind(mod.selective_scan, ref, mod.cases, hand.dtypes,
                       formats={"A": "float32", "Dskip": "float32"})
    else:
        raise KeyError(name)
    return hand, derived


def pair(name: str) -> tuple[KernelSpec, KernelSpec]:
    """(hand spec, derived spec): a kernel bound with ``bind`` keeps its hand bound and
    oracle as ``hand_bound``/``hand_oracle`` in its module; its derived spec is its
    binding without the hand bound (derived for every dtype)."""
    mod = _module(name)
    kernel = as_spec(mod.KERNEL)
    if isinstance(getattr(kernel.bounding.bound, "__self__", None), Binding):
        binding = binding_of(kernel)
        everywhere = dataclasses.replace(
            binding, choice=dataclasses.replace(binding.choice, hand_bound=None))
        return (_judged(kernel, mod.hand_bound, mod.hand_oracle),
                _judged(kernel, everywhere.bound, everywhere.oracle))
    return _derived_only(name)


def _judged(spec: KernelSpec, bound, oracle) -> KernelSpec:
    """``spec`` with its bound and oracle replaced."""
    return dataclasses.replace(
        spec, bounding=dataclasses.replace(spec.bounding, bound=bound),
        comparison=dataclasses.replace(spec.comparison, oracle=oracle))


# --------------------------------------------------------------------------- measuring
def _ratios(derived: torch.Tensor, hand: torch.Tensor) -> torch.Tensor:
    """derived/hand per element: 1 where both are 0, ∞ where only the hand one is (or
    the derived one is infinite); elements with an infinite hand bound are left out."""
    d = torch.as_tensor(derived, dtype=torch.float64).flatten()
    h = torch.broadcast_to(torch.as_tensor(hand, dtype=torch.float64),
                           derived.shape).flatten()
    keep = ~torch.isinf(h)
    d, h = d[keep], h[keep]
    both_zero = (d == 0) & (h == 0)
    ratio = torch.where(h > 0, d / torch.where(h > 0, h, torch.ones_like(h)),
                        torch.full_like(h, math.inf))
    ratio = torch.where(torch.isfinite(d), ratio, torch.full_like(h, math.inf))
    return torch.where(both_zero, torch.ones_like(h), ratio)


def measure(name: str, dtypes=None, seed: int = 0) -> list[dict]:
    """One row per dtype and output: ratio median/max, worst ρ of each bound."""
    hand, derived = pair(name)
    which = backend()
    chosen = [d for d in (dtypes or hand.dtypes)
              if not (d == "bfloat16" and which != "gpu")]
    cases = list(hand.coverage.cases(seed, which))
    rows = {}
    for case in cases:
        hand_oracle = hand.comparison.oracle(case).values
        derived_oracle = derived.comparison.oracle(case).values
        for dtype in chosen:
            if not case.runs_in(dtype):
                continue
            outputs = hand.execution.run(case, dtype)
            hb = hand.bounding.bound(case, dtype, outputs).values
            db = derived.bounding.bound(case, dtype, outputs).values
            for key in (k for k in db if k in hb):
                row = rows.setdefault((dtype, key), {"ratios": [], "rho_hand": 0.0,
                                                     "rho_derived": 0.0})
                row["ratios"].append(_ratios(db[key], hb[key]))
                row["rho_hand"] = max(row["rho_hand"], compare_float(
                    outputs[key], hand_oracle[key], hb[key])["rho"])
                row["rho_derived"] = max(row["rho_derived"], compare_float(
                    outputs[key], derived_oracle[key], db[key])["rho"])
    out = []
    for (dtype, key), row in rows.items():
        r = torch.cat(row["ratios"])
        out.append({"kernel": name, "dtype": dtype, "output": key, "elements": r.numel(),
                    "median": float(r.median()) if r.numel() else math.nan,
                    "max": float(r.max()) if r.numel() else math.nan,
                    "rho_hand": row["rho_hand"], "rho_derived": row["rho_derived"]})
    return out


MEASURED = ("scan", "matmul", "linear_scan", "lora", "int8_matmul", "selective_scan")


def main(argv: list[str]) -> int:
    names = argv or list(MEASURED) + list(NOT_COVERED)
    print(f"backend: {backend()}; ratio = derived bound / hand bound per element")
    print(f"{'kernel':15} {'dtype':9} {'output':7} {'median':>8} {'max':>8} "
          f"{'rho hand':>9} {'rho derived':>11}  verdict")
    for name in names:
        if name in NOT_COVERED:
            print(f"{name:15} {'—':9} {'—':7} {'':>8} {'':>8} {'':>9} {'':>11}  "
                  f"hand: {NOT_COVERED[name]}")
            continue
        for row in measure(name):
            verdict = "derived tighter everywhere" if row["max"] <= 1 else "hand"
            print(f"{name:15} {row['dtype']:9} {row['output']:7} {row['median']:8.4f} "
                  f"{row['max']:8.4f} {row['rho_hand']:9.3g} {row['rho_derived']:11.3g}  "
                  f"{verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
