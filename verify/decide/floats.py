"""Float verdicts: does a law that holds over ℝ hold *exactly* in a float format?

Both sides run under the torch interpretation on a batch of inputs already rounded to
the format (so every input is exactly representable), with adversarial classes: wide
dynamic range, near overflow (between √max and max/4 of the format, where a product or
a sum overflows to ±∞ and ∞ − ∞ gives NaN), a large offset plus small noise
(cancellation), small integers, ties.
``exact`` is ``True`` only when every compared case gave bit-identical values (so it is
a tested claim, with its case count); a discrepancy is replayed alone before it is
reported. Each side's accuracy against the mpmath oracle is also reported, which is
where a combine that loses accuracy to cancellation shows.
"""
from __future__ import annotations

import math
from typing import Any, Mapping

import mpmath
import numpy as np
import torch

from laws.core import Law, Var
from verify.decide import fpproof, oracle
from verify.engine import domains as kinds
from verify.engine.arraywords import make_torch
from verify.engine.shapes import flatten, shape_like
from verify.errors import BadInput
from verify.results import Verdict

FORMATS = {
    "float16": (torch.float16, 2.0 ** -11),
    "bfloat16": (torch.bfloat16, 2.0 ** -8),
    "float32": (torch.float32, 2.0 ** -24),
    "float64": (torch.float64, 2.0 ** -53),
}
BATCH = 2048
CANCEL = BATCH // 8      # rows of the cancellation class, first in the batch
ORACLE_ROWS = 48         # rows compared with the oracle: half of them cancellation rows
TORCH = make_torch()


def _component(domain: str, n: int, dtype: torch.dtype, rng: np.random.Generator) -> np.ndarray:
    fmax = float(torch.finfo(dtype).max)
    top = min(20.0, math.log10(fmax) / 3)
    kind = rng.integers(0, 6, size=n)
    normal = rng.standard_normal(n)
    # near overflow: |x| between √max and max/4, so a product or a sum of two overflows
    big = np.sign(normal) * 2.0 ** rng.uniform(math.log2(fmax) / 2, math.log2(fmax) - 2, n)
    out = np.where(kind == 0, normal * 10.0 ** rng.uniform(-3, 4, n),
          np.where(kind == 1, rng.integers(-8, 9, n).astype(float),
          np.where(kind == 2, 1e4 + normal,
          np.where(kind == 3, np.sign(normal) * 10.0 ** rng.uniform(-top, top, n),
          np.where(kind == 4, big, normal)))))
    return kinds.get(domain).clamp(out, rng)


def _inputs(vars_: tuple[Var, ...], dtype: torch.dtype, rng: np.random.Generator):
    """Per variable: law-shaped values whose scalars are batched tensors of ``dtype``."""
    columns: list[np.ndarray] = []
    domains: list[str] = []
    for v in vars_:
        for d in v.component_domains():
            columns.append(_component(d, BATCH, dtype, rng))
            domains.append(d)
    # Cancellation: the first CANCEL rows share one large offset across every real
    # component, plus unit noise (data with |mean| ≫ spread).
    offset = np.sign(rng.standard_normal(CANCEL)) * 10.0 ** rng.uniform(2, 4, CANCEL)
    for c, d in zip(columns, domains):
        if d == "real":
            c[:CANCEL] = offset + rng.standard_normal(CANCEL)
    # Ties: in a tenth of the other rows, copy one component into another of the same
    # domain.
    for row in CANCEL + rng.choice(BATCH - CANCEL, size=BATCH // 10, replace=False):
        i, j = rng.integers(0, len(columns), 2)
        if domains[i] == domains[j]:
            columns[j][row] = columns[i][row]
    tensors = [torch.tensor(c, dtype=torch.float64).to(dtype) for c in columns]
    values, k = [], 0
    for v in vars_:
        size = len(v.component_domains())
        values.append(shape_like(v, tensors[k:k + size]))
        k += size
    return values, tensors


def _run(fn, values, vars_, dtype, instance) -> list[torch.Tensor]:
    """Evaluate on the whole batch; a function that branches on a value (a Python
    ``if``) cannot run batched, so it runs row by row instead."""
    try:
        return [_as_batch(x, dtype) for x in flatten(fn(*values, **instance))]
    except RuntimeError as exc:
        if "Boolean value of Tensor" not in str(exc):
            raise
    rows = []
    for i in range(BATCH):
        scalars = [shape_like(v, [c[i] for c in flatten(x)]) for v, x in zip(vars_, values)]
        rows.append([torch.as_tensor(c).to(dtype) for c in flatten(fn(*scalars, **instance))])
    return [torch.stack([r[k] for r in rows]) for k in range(len(rows[0]))]


def _as_batch(x: Any, dtype: torch.dtype) -> torch.Tensor:
    if isinstance(x, torch.Tensor):
        return x.to(dtype).expand(BATCH) if x.dim() == 0 else x.to(dtype)
    return torch.full((BATCH,), float(x), dtype=dtype)


def _row(values: list[Any], vars_: tuple[Var, ...], i: int) -> list[Any]:
    out = []
    for v, val in zip(vars_, values):
        comps = [float(c[i]) for c in flatten(val)]
        out.append(shape_like(v, comps))
    return out


def float_verdict(law: Law, fmt: str, instance: Mapping[str, Any] = {},
                  seed: int = 0, try_proof: bool = True) -> dict:
    """Exactness of ``law`` in one float format, with the evidence."""
    dtype, u = FORMATS[fmt]
    rng = np.random.default_rng(seed)
    vars_ = law.vars_for(instance)
    values, _ = _inputs(vars_, dtype, rng)
    lhs_fn, rhs_fn = TORCH.rebind(law.lhs), TORCH.rebind(law.rhs)
    with torch.no_grad():
        lhs = _run(lhs_fn, values, vars_, dtype, instance)
        rhs = _run(rhs_fn, values, vars_, dtype, instance)
        valid = torch.ones(BATCH, dtype=torch.bool)
        if law.pre is not None:
            with torch.no_grad():
                big = [shape_like(v, [c.to(torch.float64) for c in flatten(x)])
                       for v, x in zip(vars_, values)]
                for cond in flatten(TORCH.rebind(law.pre)(*big, **instance)):
                    if isinstance(cond, torch.Tensor):
                        valid &= cond.to(torch.bool)
                    elif not cond:
                        valid &= False
    same = torch.ones(BATCH, dtype=torch.bool)
    for a, b in zip(lhs, rhs):
        same &= (a == b) | (torch.isnan(a) & torch.isnan(b))
    compared = int(valid.sum())
    bad = (~same) & valid
    result: dict[str, Any] = {"exact": None, "cases": compared, "counterexample": None}
    if compared == 0:
        result["note"] = "no generated case met the preconditions"
        return result
    result["exact"] = not bool(bad.any())
    result["method"] = f"tested on {compared} cases"
    if result["exact"] and try_proof:
        _try_proof(law, fmt, vars_, instance, result)
    if bad.any():
        i = int(torch.nonzero(bad)[0])
        row = _shrink(law, _row(values, vars_, i), vars_, fmt, instance)
        result["counterexample"] = _replay(law, row, vars_, fmt, instance)
        if result["counterexample"] is None:  # the batch and the replay disagree
            result["exact"] = None
            result["note"] = "a batched discrepancy did not replay alone"
    result.update(_accuracy(law, values, lhs, rhs, valid, vars_, u, instance))
    result["grouping_discrepancy"] = _discrepancy(law, values, lhs, rhs, valid, vars_, u,
                                                  instance)
    return result


def _discrepancy(law, values, lhs, rhs, valid, vars_, u, instance) -> dict:
    """max |lhs − rhs| against the γ-style reference 2·γ_k·M, where k is the number of
    scalar inputs and M each side evaluated on |inputs| in float64 (Σ|x| for sums, the
    magnitude recurrence for scans). A yardstick for how far apart two groupings drift,
    not a certified bound: functions that subtract internally can exceed it."""
    k = sum(len(v.component_domains()) for v in vars_)
    gamma = k * u / (1 - k * u) if k * u < 1 else math.inf
    mags = [shape_like(v, [c.to(torch.float64).abs() for c in flatten(x)])
            for v, x in zip(vars_, values)]
    try:
        with torch.no_grad():
            m_l = _run(TORCH.rebind(law.lhs), mags, vars_, torch.float64, instance)
            m_r = _run(TORCH.rebind(law.rhs), mags, vars_, torch.float64, instance)
    except Exception as exc:  # a side that cannot run on magnitudes
        return {"note": f"no magnitude: {type(exc).__name__}"}
    worst_gap, worst_ratio = 0.0, 0.0
    for a, b, ma, mb in zip(lhs, rhs, m_l, m_r):
        gap = (a.to(torch.float64) - b.to(torch.float64)).abs()
        finite = valid & torch.isfinite(gap)
        if not finite.any():
            continue
        ref = 2 * gamma * torch.maximum(ma.abs(), mb.abs())
        ratio = torch.where(gap == 0, torch.zeros_like(gap), gap / ref)
        worst_gap = max(worst_gap, float(gap[finite].max()))
        worst_ratio = max(worst_ratio, float(ratio[finite].max()))
    return {"max_abs": worst_gap, "ratio_to_gamma": _finite(worst_ratio), "k": k}


def _try_proof(law: Law, fmt: str, vars_, instance, result: dict) -> None:
    """Upgrade a tested exactness to a proof, or find what the batch missed."""
    found = fpproof.prove_exact(law, fmt, instance)
    if found is None or found.status == Verdict.UNKNOWN:
        result["proof"] = None if found is None else "timed out"
        return
    if found.status == Verdict.PROVED:
        result["method"] = "proved: " + fpproof.METHOD
        return
    values = found.values
    assert values is not None  # a refutation carries its values
    if _replay(law, values, vars_, fmt, instance) is not None:
        values = _shrink(law, values, vars_, fmt, instance)
    replay = _replay(law, values, vars_, fmt, instance)
    if replay is not None:
        result.update(exact=False, counterexample=replay,
                      method="counterexample from the " + fpproof.METHOD)


def _simpler(x: float, dtype: torch.dtype) -> list[float]:
    """Values that read better than x: small integers, then x with fewer significant
    bits, each rounded to the format."""
    out = [0.0, 1.0, -1.0, 2.0, 0.5]
    if x and math.isfinite(x):
        m, e = math.frexp(abs(x))
        out += [math.copysign(round(m * 2 ** k) * 2.0 ** (e - k), x) for k in range(1, 12)]
    return [float(torch.tensor(v, dtype=torch.float64).to(dtype)) for v in out]


def _shrink(law: Law, row: list[Any], vars_, fmt: str, instance, budget: int = 300):
    """Greedily simplify a float counterexample while it still replays in ``fmt``."""
    dtype, _ = FORMATS[fmt]
    flat = [list(flatten(x)) for x in row]
    tries = 0
    for vi, comps in enumerate(flat):
        for ci in range(len(comps)):
            for cand in _simpler(comps[ci], dtype):
                tries += 1
                if tries > budget or cand == comps[ci]:
                    continue
                trial = [list(c) for c in flat]
                trial[vi][ci] = cand
                trial_row = [shape_like(v, c) for v, c in zip(vars_, trial)]
                if oracle.preconditions_hold(law, trial_row, instance) and \
                        _replay(law, trial_row, vars_, fmt, instance) is not None:
                    flat = trial
                    comps[ci] = cand
                    break
    return [shape_like(v, c) for v, c in zip(vars_, flat)]


def _replay(law: Law, row: list[Any], vars_, fmt: str, instance) -> dict | None:
    dtype, _ = FORMATS[fmt]
    scalars = [shape_like(v, [torch.tensor(c, dtype=dtype) for c in flatten(x)])
               for v, x in zip(vars_, row)]
    l = [float(x) for x in flatten(TORCH.rebind(law.lhs)(*scalars, **instance))]
    r = [float(x) for x in flatten(TORCH.rebind(law.rhs)(*scalars, **instance))]
    if all(a == b or (a != a and b != b) for a, b in zip(l, r)):
        return None
    return {"bindings": {v.name: oracle.plain(x) for v, x in zip(vars_, row)},
            "lhs": oracle.plain(l if len(l) > 1 else l[0]),
            "rhs": oracle.plain(r if len(r) > 1 else r[0])}


def _accuracy(law, values, lhs, rhs, valid, vars_, u, instance) -> dict:
    """Worst relative error of each side against the oracle on a sample of rows.
    Rows with near-overflow inputs are left out: there the question is overflow, which
    the exactness comparison answers, not rounding accuracy."""
    moderate = valid.clone()
    for c in (c for x in values for c in flatten(x)):
        if isinstance(c, torch.Tensor) and c.is_floating_point():
            moderate &= c.abs() < math.sqrt(float(torch.finfo(c.dtype).max))
    valid_rows = torch.nonzero(moderate).flatten()
    half = ORACLE_ROWS // 2
    rows = (valid_rows[valid_rows < CANCEL][:half].tolist()
            + valid_rows[valid_rows >= CANCEL][:ORACLE_ROWS - half].tolist())
    worst_l = worst_r = 0.0
    with mpmath.workprec(oracle.PREC):
        for i in rows:
            row = _row(values, vars_, i)
            try:
                exact = flatten(oracle.MP.rebind(law.rhs)(*oracle.to_mp(row), **instance))
            except (ZeroDivisionError, ValueError):
                continue
            for k, e in enumerate(exact):
                if isinstance(e, bool) or not mpmath.isfinite(e):
                    continue
                scale = max(abs(e), mpmath.mpf(2) ** -1000)
                for side, worst in ((lhs, "l"), (rhs, "r")):
                    got = float(side[k][i])
                    if not math.isfinite(got):
                        err = math.inf
                    else:
                        err = float(abs(mpmath.mpf(got) - e) / scale)
                    if worst == "l":
                        worst_l = max(worst_l, err)
                    else:
                        worst_r = max(worst_r, err)
    return {"max_relative_error": {"lhs": _finite(worst_l), "rhs": _finite(worst_r)},
            "max_relative_error_in_u": {"lhs": _finite(worst_l / u), "rhs": _finite(worst_r / u)},
            "oracle_rows": len(rows)}


def _finite(x: float):
    return x if math.isfinite(x) else "inf"


def float_verdicts(law: Law, formats=tuple(FORMATS), seed: int = 0) -> dict:
    """All formats, at the law's last (largest) instance."""
    instance = law.instances[-1]
    out = {}
    try_proof = True
    for fmt in formats:
        try:
            with np.errstate(all="ignore"):  # overflow in a format is a finding, not noise
                out[fmt] = float_verdict(law, fmt, instance, seed, try_proof)
            # a law whose proof timed out in one format will in the others
            try_proof = try_proof and out[fmt].get("proof") != "timed out"
        except Exception as exc:  # an interpretation that cannot run this law
            out[fmt] = {"exact": None, "cases": 0, "counterexample": None,
                        "note": f"not evaluated: {type(exc).__name__}: {exc}"}
    return out


def seeds(law: Law, fmt: str, instance: Mapping[str, Any] | None = None) -> list[list[float]]:
    """Inputs (flat scalar components) a float-format search of ``law`` should try
    first: the counterexample this module's float check finds in ``fmt`` (if any), and
    near-overflow points (every real component ±max/4 of the format). ``fmt`` must be
    one of ``FORMATS`` (``BadInput`` otherwise)."""
    if fmt not in FORMATS:
        raise BadInput(f"unknown floating-point format {fmt!r} (known: {', '.join(FORMATS)})")
    instance = law.instances[-1] if instance is None else instance
    vars_ = law.vars_for(instance)
    doms = [d for v in vars_ for d in v.component_domains()]
    out: list[list[float]] = []
    try:
        with np.errstate(all="ignore"):
            found = float_verdict(law, fmt, instance, 0, False).get("counterexample")
    except Exception:  # a law this module cannot run in floats
        found = None
    if found is not None:
        try:
            comps = [float(x) for v in vars_ for x in flatten(found["bindings"][v.name])]
        except (KeyError, TypeError, ValueError):
            comps = []
        if len(comps) == len(doms):
            out.append(comps)
    top = float(torch.finfo(FORMATS[fmt][0]).max) / 4
    for sign in (1.0, -1.0):
        row = [sign * top if not kinds.get(d).integer and kinds.get(d).contains(sign * top)
               else float(kinds.get(d).grid()[1]) for d in doms]
        out.append(row)
    return out
