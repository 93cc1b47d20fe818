"""What a variable domain means, written once for every stage.

A law variable (or a component of a tuple state) ranges over one of the domains named in
``laws.core.DOMAINS``. Each ``Domain`` here says, for its name:

- ``facts(v)``: the z3 facts about a symbol ``v`` (the prover, the witness's models);
- ``fp_facts(x, sort)``: the same bounds on an IEEE symbol (the float prover);
- ``contains(x)``: membership of one finite number (the oracle's domain test);
- ``strategy()``: the hypothesis strategy the searcher draws from;
- ``grid()``: small exact values (integers, halves) the witness evaluates first;
- ``binades()``: Python floats over every binade the domain allows, from subnormals to
  ±10¹⁵⁰ (the plain-Python witness);
- ``clamp(array, rng)``: the float-format sampler's map of raw samples into the domain;
- ``text(name)``: the domain as mathematics, for reports (``x > 0``).

``get(name)`` refuses a name that is not a domain (``UnknownDomain``), so a misspelt
domain is bad input instead of silently meaning "real".
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

__all__ = ["Domain", "UnknownDomain", "get", "NAMES"]


class UnknownDomain(ValueError):
    """A domain name that is not one of ``NAMES``."""


_TINY = [5e-324, 2.2250738585072014e-308, 1e-300, 1e-150, 2.0 ** -60, 1e-9, 2.0 ** -20,
         1e-3]
_MID = [0.1, 0.5, 1.0, 1.5, 2.0, 3.0, 7.0, 10.0, 12.0, 100.0, 1000.0]
_HUGE = [2.0 ** 40, 1e10 + 1, 2.0 ** 53 + 2, 1e20, 1e75, 1e150]


@dataclass(frozen=True)
class Domain:
    name: str
    integer: bool                 # values are integers
    lo: int | None                # least value (None: unbounded below)
    lo_strict: bool               # the least value itself is excluded
    hi: int | None                # greatest value (None: unbounded above)
    math: str                     # the domain as mathematics, ``{x}`` the variable

    # ------------------------------------------------------------------ membership
    def contains(self, x: Any) -> bool:
        """Whether the finite number ``x`` lies in the domain (bools and non-finite
        values never do)."""
        if isinstance(x, bool):
            return False
        try:
            if hasattr(x, "man_exp"):  # an mpmath number
                man, exp = x.man_exp
                q = Fraction(man) * Fraction(2) ** exp
            else:
                q = Fraction(x) if not isinstance(x, Fraction) else x
        except (TypeError, ValueError, OverflowError):
            return False
        if self.integer and q.denominator != 1:
            return False
        if self.lo is not None and (q < self.lo or (self.lo_strict and q == self.lo)):
            return False
        return self.hi is None or q <= self.hi

    def within(self, other: "Domain") -> bool:
        """Whether every value of this domain lies in ``other`` (ℕ within ℤ, not ℤ
        within x ≥ 0)."""
        if other.integer and not self.integer:
            return False
        if other.lo is not None:
            if self.lo is None or self.lo < other.lo:
                return False
            if self.lo == other.lo and other.lo_strict and not self.lo_strict:
                return False
        return other.hi is None or (self.hi is not None and self.hi <= other.hi)

    def text(self, var: str) -> str:
        return self.math.format(x=var)

    # ------------------------------------------------------------------ z3
    def facts(self, v: Any) -> list[Any]:
        out = []
        if self.lo is not None:
            out.append(v > self.lo if self.lo_strict else v >= self.lo)
        if self.hi is not None:
            out.append(v <= self.hi)
        return out

    def fp_facts(self, x: Any, sort: Any) -> list[Any]:
        """Bounds on an IEEE symbol (finite, not NaN, within the domain's bounds);
        integer domains are not expressible here (the float prover refuses them)."""
        import z3
        out = [z3.Not(z3.fpIsNaN(x)), z3.Not(z3.fpIsInf(x))]
        if self.lo is not None:
            lo = z3.FPVal(float(self.lo), sort)
            out.append(z3.fpGT(x, lo) if self.lo_strict else z3.fpGEQ(x, lo))
        if self.hi is not None:
            out.append(z3.fpLEQ(x, z3.FPVal(float(self.hi), sort)))
        return out

    # ------------------------------------------------------------------ samples
    def strategy(self) -> Any:
        """The searcher's hypothesis strategy for one component."""
        from hypothesis import strategies as st
        if self.integer:
            lo = -20 if self.lo is None else self.lo + (1 if self.lo_strict else 0)
            hi = 20 if self.hi is None else self.hi
            return st.integers(lo, hi)
        if self.name == "unit":
            return st.one_of(st.sampled_from([0, 1, Fraction(1, 2)]), st.floats(0, 1))
        if self.lo is not None:
            low = 1e-6 if self.lo_strict else 0
            return st.one_of(st.integers(1 if self.lo_strict else 0, 8),
                             st.floats(low, 1e6, allow_nan=False))
        small = st.integers(-8, 8)
        halves = st.integers(-16, 16).map(lambda k: Fraction(k, 2))
        wide = st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False, width=64)
        tiny = st.floats(-1e-6, 1e-6, allow_nan=False, allow_infinity=False)
        return st.one_of(small, halves, wide, tiny)

    def grid(self) -> list[Any]:
        """Small exact values, the simplest first."""
        base: list[Any] = [0, 1, -1, 2, -2, Fraction(1, 2), Fraction(-1, 2), 3, -3,
                           Fraction(5, 2), Fraction(1, 4), Fraction(3, 4), 5]
        out = [x for x in base if self.contains(x)]
        return out if len(out) >= 2 else out + out

    def binades(self) -> list[Any]:
        """Python floats (ints for integer domains) over every binade the domain
        allows: subnormal, tiny, unit-sized, large and up to ±10¹⁵⁰."""
        if self.integer:
            cands: list[Any] = [0, 1, -1, 2, 3, -7, 12, 100, -1000, 2 ** 31, -(2 ** 53) - 1,
                                10 ** 20]
        else:
            mags = _TINY + _MID + _HUGE
            cands = [0.0] + [s * m for m in mags for s in (1.0, -1.0)]
        return [x for x in cands if self.contains(x)]

    def clamp(self, raw: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """The float-format sampler: raw samples (any real) mapped into the domain."""
        if self.name == "unit":
            return rng.uniform(0, 1, raw.shape[0])
        if self.name == "small":
            return rng.integers(0, 4, raw.shape[0]).astype(float)
        out = raw
        if self.integer:
            out = np.round(np.clip(out, -1e6, 1e6))
        if self.lo is not None:
            out = np.abs(out) + (1e-3 if self.lo_strict and not self.integer else 0)
        return out


_ALL = (
    Domain("real", False, None, False, None, "{x} ∈ ℝ"),
    Domain("positive", False, 0, True, None, "{x} > 0"),
    Domain("nonneg", False, 0, False, None, "{x} ≥ 0"),
    Domain("integer", True, None, False, None, "{x} ∈ ℤ"),
    Domain("natural", True, 0, False, None, "{x} ∈ ℕ"),
    Domain("unit", False, 0, False, 1, "0 ≤ {x} ≤ 1"),
    Domain("small", True, 0, False, 3, "{x} ∈ {{0, 1, 2, 3}}"),
)
_BY_NAME = {d.name: d for d in _ALL}
NAMES = tuple(_BY_NAME)


def get(name: str) -> Domain:
    """The domain called ``name``; an unknown name raises ``UnknownDomain``."""
    try:
        return _BY_NAME[name]
    except (KeyError, TypeError):
        raise UnknownDomain(f"unknown domain {name!r} (known: {', '.join(NAMES)})") from None
