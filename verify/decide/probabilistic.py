"""Probabilistic laws: a random estimator judged by a statistical test, never proved.

A law with method ``probabilistic`` (``laws.core.Randomized``) claims either that an
estimator is unbiased (E[lhs] = rhs) or that an event has probability at least p. At
each of its points the claim is tested on N independent draws:

- expectation: the sample mean against the target, |mean − target| ≤ z·s/√N with z the
  normal quantile at the stated confidence (Bonferroni over the points). This is the
  normal approximation to the mean of N draws, not an exact interval.
- probability: Hoeffding's one-sided bound, P ≥ k/N − √(ln(P_points/α)/(2N)), exact
  for any distribution of the event.

Verdicts: ``statistical`` when no point rejects the claim (expectation) or every point
shows it (probability); ``refuted`` when a point rejects it and a second, independent
set of N draws rejects it again (the replay); ``unknown`` otherwise. What a
``statistical`` verdict promises is written into the result (``statistics`` and
``reason``): a test at confidence c that could have seen a bias of the stated size; it
is not a proof, and says nothing about inputs other than the points checked.

Does not cover: laws whose randomness cannot be drawn with numpy, or heavy-tailed
estimators whose variance is infinite (the normal approximation then means nothing:
a law must choose points where the variance is finite, and say so).
"""
from __future__ import annotations

import math
import statistics
import zlib
from typing import Any

import numpy as np

from laws.core import EXPECTATION, Law
from verify.results import Verdict

STATISTICAL, REFUTED, UNKNOWN = Verdict.STATISTICAL, Verdict.REFUTED, Verdict.UNKNOWN


def decide_randomized(law: Law, policy: Any = None) -> dict:
    """The verdict of a probabilistic law (the fields ``decide`` merges into its
    document)."""
    spec = law.randomized
    assert spec is not None
    npoints = len(spec.points) * len(law.instances)
    alpha = 1.0 - spec.confidence
    method = (f"Monte Carlo, {spec.draws} draws at each of {npoints} point(s), "
              f"confidence {spec.confidence}"
              + (" (normal approximation to the mean)" if spec.claim == EXPECTATION
                 else " (Hoeffding's bound)"))
    seed = zlib.crc32(law.id.encode())
    worst: dict[str, Any] = {}
    for inst in law.instances:
        for point in spec.points:
            first = _test(law, point, inst, seed, npoints, alpha)
            if first["rejects"]:
                replay = _test(law, point, inst, seed + 1, npoints, alpha)
                if replay["rejects"]:
                    return {"method": method, "verdict": REFUTED,
                            "statistics": _stats(spec, npoints, first),
                            "reason": f"rejected at confidence {spec.confidence} on "
                                      f"{spec.draws} draws, and again on {spec.draws} "
                                      "independent draws (the replay)",
                            "counterexample": _counterexample(law, point, inst, first)}
                return {"method": method, "verdict": UNKNOWN,
                        "statistics": _stats(spec, npoints, first),
                        "reason": "one sample rejected the claim, an independent replay "
                                  "did not"}
            if not first["shows"]:
                return {"method": method, "verdict": UNKNOWN,
                        "statistics": _stats(spec, npoints, first),
                        "reason": f"inconclusive: P ∈ [{first['lower']:.4g}, "
                                  f"{first['upper']:.4g}] straddles {spec.p}"}
            if not worst or first["resolution"] > worst["resolution"]:
                worst = first
    stats = _stats(spec, npoints, worst)
    return {"method": method, "verdict": STATISTICAL, "statistics": stats,
            "reason": _promise(spec, npoints, worst)}


def _test(law: Law, point: tuple, inst, seed: int, npoints: int, alpha: float) -> dict:
    spec = law.randomized
    assert spec is not None
    rng = np.random.default_rng(seed)
    randomness = spec.draw(rng, spec.draws, **inst)
    values = np.asarray(law.lhs(*point, randomness=randomness, **inst), dtype=np.float64)
    n = values.shape[0]
    if spec.claim == EXPECTATION:
        target = float(law.rhs(*point, **inst))
        mean = float(values.mean())
        se = float(values.std(ddof=1)) / math.sqrt(n)
        z = statistics.NormalDist().inv_cdf(1.0 - alpha / (2 * npoints))
        half = z * se
        gap = abs(mean - target)
        rejects = gap > half if se > 0 else gap > 1e-12 * max(1.0, abs(target))
        return {"rejects": rejects, "shows": True, "mean": mean, "target": target,
                "half_width": half, "z": z,
                "resolution": half / abs(target) if target else half}
    k = int(values.sum())
    slack = math.sqrt(math.log(npoints / alpha) / (2 * n))
    lower, upper = k / n - slack, k / n + slack
    return {"rejects": upper < spec.p, "shows": lower >= spec.p, "successes": k,
            "draws": n, "lower": lower, "upper": upper, "resolution": slack}


def _stats(spec, npoints: int, t: dict) -> dict:
    out: dict[str, Any] = {"claim": spec.claim, "confidence": spec.confidence,
                           "draws": spec.draws, "points": npoints}
    if spec.claim == EXPECTATION:
        out.update(mean=t.get("mean"), target=t.get("target"),
                   half_width=t.get("half_width"), relative_resolution=t.get("resolution"))
    else:
        out.update(p=spec.p, successes=t.get("successes"), lower_bound=t.get("lower"),
                   upper_bound=t.get("upper"))
    return out


def _promise(spec, npoints: int, worst: dict) -> str:
    if spec.claim == EXPECTATION:
        return (f"holds in expectation at confidence {spec.confidence} on {spec.draws} "
                f"draws at each of {npoints} point(s): no point's mean is farther from "
                f"the target than its interval allows; a relative bias above "
                f"{worst['resolution']:.3g} would have been seen (about half the time at "
                "that size, almost surely at twice it). Not a proof, and only at the "
                "points checked")
    return (f"holds with probability ≥ {spec.p} at confidence {spec.confidence} on "
            f"{spec.draws} draws at each of {npoints} point(s): the lowest Hoeffding "
            f"lower bound is {worst['lower']:.4g}. Not a proof, and only at the points "
            "checked")


def _counterexample(law: Law, point: tuple, inst, t: dict) -> dict:
    """The point, the estimate (lhs: the sample mean, or the observed frequency of the
    event) and the claim (rhs: the target, or the promised probability); ``interval``
    is the half-width (expectation) or Hoeffding's upper bound (probability)."""
    names = [v.name for v in law.vars_for(inst)]
    bindings = {k: _plain(v) for k, v in zip(names, point, strict=True)}
    if law.randomized is not None and law.randomized.claim == EXPECTATION:
        return {"bindings": bindings, "instance": dict(inst), "lhs": t["mean"],
                "rhs": t["target"], "gap": abs(t["mean"] - t["target"]),
                "interval": t["half_width"]}
    return {"bindings": bindings, "instance": dict(inst),
            "lhs": t["successes"] / t["draws"],
            "rhs": law.randomized.p if law.randomized else None, "gap": None,
            "interval": t["upper"]}


def _plain(v: Any) -> Any:
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if isinstance(v, (int, float)):
        return v
    return float(v)
