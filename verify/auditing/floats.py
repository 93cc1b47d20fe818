"""Does a property hold bit-exactly in float32 and float64?

Batched first (the engine's float verdict, with each side's accuracy against the
oracle), row by row when the function branches on values or when the property already
fails over ℝ (no accuracy figures needed then).
"""
from __future__ import annotations

import contextlib
import io
import warnings

import numpy as np
import torch

from laws.core import Law
from verify.decide import oracle
from verify.decide.floats import FORMATS, float_verdict
from verify.decide.limits import TimeLimit, one_line, time_limit
from verify.decide.policy import AUDIT, Policy
from verify.engine.arraywords import make_torch
from verify.engine.shapes import flatten, shape_like

UNKNOWN = "unknown"
FLOAT_FORMATS = ("float32", "float64")
FLOAT_ROWS = 300              # rows of the row-by-row float check
TORCH = make_torch()


def float_check(law: Law, fmt: str, no_floats: str | None, batched: bool = True,
                policy: Policy = AUDIT) -> dict:
    """Does the property hold bit-exactly in ``fmt``? Batched first (the engine's float
    verdict, with each side's accuracy against the oracle), row by row when the function
    branches on values or when ``batched`` is off (a property that already fails over ℝ
    needs no accuracy figures)."""
    if no_floats:
        return {"verdict": UNKNOWN, "exact": None, "cases": 0, "counterexample": None,
                "note": no_floats}
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        # overflow in a format is a finding, reported as such, not console noise
        warnings.simplefilter("ignore")
        return _float_check(law, fmt, batched, policy)


def _float_check(law: Law, fmt: str, batched: bool, policy: Policy) -> dict:
    note = None
    if batched:
        try:
            with time_limit(policy.float_seconds), \
                    contextlib.redirect_stdout(io.StringIO()):
                fv = float_verdict(law, fmt)
            if fv.get("exact") is not None or fv.get("cases"):
                return _float_summary(law, fv)
            note = fv.get("note")
        except TimeLimit as exc:  # the accuracy oracle on huge values: go row by row
            note = f"batched check {exc}; checked row by row"
        except Exception as exc:  # Python branches on batched values: go row by row
            note = f"batched evaluation failed ({type(exc).__name__}); checked row by row"
    try:
        with time_limit(policy.float_seconds):
            rows = _float_rows(law, fmt)
    except (Exception, TimeLimit) as exc:  # the torch interpretation cannot run it
        return {"verdict": UNKNOWN, "exact": None, "cases": 0, "counterexample": None,
                "note": f"the float interpretation cannot run the function: "
                        f"{type(exc).__name__}: {one_line(exc)}"}
    if note:
        rows["note"] = note
    return rows


def _float_summary(law: Law, fv: dict) -> dict:
    exact = fv.get("exact")
    ce = fv.get("counterexample")
    out = {"verdict": "exact" if exact else ("inexact" if exact is False else UNKNOWN),
           "exact": exact, "cases": fv.get("cases", 0),
           "counterexample": [ce["bindings"][v.name] for v in law.vars] if ce else None}
    if ce:
        out["sides"] = {"lhs": ce.get("lhs"), "rhs": ce.get("rhs")}
    if fv.get("method"):
        out["method"] = fv["method"]
    if "max_relative_error_in_u" in fv:
        out["max_relative_error_in_u"] = fv["max_relative_error_in_u"]
    if fv.get("note"):
        out["note"] = fv["note"]
    return out


def _row_inputs(law: Law, dtype: torch.dtype, rng: np.random.Generator) -> list[list[float]]:
    """Rows for the row-by-row check: wide magnitudes, small integers, values near 10⁴,
    unit normals and values near overflow, with an exact repeat in every tenth row."""
    comps = sum(len(v.component_domains()) for v in law.vars)
    rows = []
    emax = float(np.log2(torch.finfo(dtype).max))
    for i in range(FLOAT_ROWS):
        kind = i % 5
        if kind == 4:
            # near overflow: products of two such values overflow (2⁷⁰ in float32,
            # 2¹⁴ in float16), so inf − inf = NaN is reached
            r = rng.choice([-1.0, 1.0], comps) * 2.0 ** rng.uniform(emax / 2, emax, comps)
        elif kind == 0:
            r = rng.standard_normal(comps) * 10.0 ** rng.uniform(-3, 4, comps)
        elif kind == 1:
            r = rng.integers(-8, 9, comps).astype(float)
        elif kind == 2:
            r = 1e4 + rng.standard_normal(comps)
        else:
            r = rng.standard_normal(comps)
        if i % 10 == 9 and comps > 1:
            a, b = rng.integers(0, comps, 2)
            r[b] = r[a]
        rows.append([float(torch.tensor(x, dtype=torch.float64).to(dtype)) for x in r])
    return rows


def _float_rows(law: Law, fmt: str) -> dict:
    dtype, _ = FORMATS[fmt]
    rng = np.random.default_rng(0)
    lhs_fn, rhs_fn = TORCH.rebind(law.lhs), TORCH.rebind(law.rhs)
    pre_fn = TORCH.rebind(law.pre) if law.pre is not None else None
    compared = 0
    for row in _row_inputs(law, dtype, rng):
        def shaped(dt, row=row):
            vals, k = [], 0
            for v in law.vars:
                size = len(v.component_domains())
                vals.append(shape_like(v, [torch.tensor(c, dtype=dt)
                                           for c in row[k:k + size]]))
                k += size
            return vals
        with torch.no_grad():
            if pre_fn is not None:
                conds = flatten(pre_fn(*shaped(torch.float64)))
                if not all(bool(c) for c in conds):
                    continue
            try:
                vals = shaped(dtype)
                lv = [float(x) for x in flatten(lhs_fn(*vals))]
                rv = [float(x) for x in flatten(rhs_fn(*vals))]
            except (ZeroDivisionError, ValueError, OverflowError):
                continue
        compared += 1
        if not all(a == b or (a != a and b != b) for a, b in zip(lv, rv, strict=True)):
            k, args = 0, []
            for v in law.vars:
                size = len(v.component_domains())
                args.append(oracle.plain(shape_like(v, row[k:k + size])))
                k += size
            return {"verdict": "inexact", "exact": False, "cases": compared,
                    "counterexample": args,
                    "sides": {"lhs": lv if len(lv) > 1 else lv[0],
                              "rhs": rv if len(rv) > 1 else rv[0]}}
    if compared == 0:
        return {"verdict": UNKNOWN, "exact": None, "cases": 0, "counterexample": None}
    return {"verdict": "exact", "exact": True, "cases": compared, "counterexample": None}

