"""Oracles with a guaranteed enclosure: ball arithmetic (python-flint's ``arb``).

Each function evaluates a kernel's exact mathematical result on its float64 master
inputs with every operation on balls (midpoint, radius) at ``BITS`` bits, so the true
value lies inside the final ball, whatever the precision loss along the way. It returns
the float64 nearest the midpoint of each ball and an ``Enclosure`` whose ``error_bound``
is the largest relative
distance between that float64 and the true value over all outputs (the ball's radius
plus the rounding of the midpoint to float64), and an absolute one for values whose
ball touches 0 (``Enclosure.oracle`` makes the kernel's ``impls.spec.Oracle`` of
them). A ball too wide for that (above 2⁻⁶⁰ relative, 2⁻¹⁰⁰ absolute near 0)
raises ArithmeticError rather than return a number it cannot vouch for.

Replaces re-running mpmath at a second precision, which only estimates the oracle's own
error. Not covered: inputs that are not finite except the −∞ entries the softmax
contract defines (masked entries, handled exactly).
"""
from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Mapping, Sequence

from impls.spec import Oracle

BITS = 128
WIDEST = 2.0 ** -60  # the widest relative ball accepted
METHOD = f"arb ball arithmetic (python-flint), {BITS} bits: a guaranteed enclosure"


class Enclosure:
    """Turns balls into float64 values, tracking the worst error of those values."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.error_bound = 0.0            # relative, where the true value is bounded away from 0
        self.absolute_error_bound = 0.0   # where the ball touches 0

    def value(self, ball) -> float:
        from flint import arb
        if not ball.is_finite():
            raise ArithmeticError(f"{self.what} oracle: a ball is not finite")
        mid = float(ball.mid())
        error = (ball - arb(mid)).abs_upper()  # |true − mid| ≤ error (a ball's upper end)
        low = ball.abs_lower()
        if low > arb(2.0) ** -1000:  # far from float64's underflow: a relative bound
            if ball.rad() > WIDEST * low:
                raise ArithmeticError(f"{self.what} oracle: enclosure too wide "
                                      f"(relative {float(ball.rad() / low):.3g} > 2^-60)")
            self.error_bound = max(self.error_bound, _up(error / low))
        else:
            if ball.rad() > arb(2.0) ** -100:
                raise ArithmeticError(f"{self.what} oracle: a value near 0 is only known "
                                      f"to ±{float(ball.rad()):.3g}")
            self.absolute_error_bound = max(self.absolute_error_bound, _up(error))
        return mid

    def oracle(self, values: Mapping[str, Any]) -> Oracle:
        """``values`` (made of this enclosure's) with their guaranteed error."""
        return Oracle(values, METHOD, {"bits": BITS}, error_bound=self.error_bound,
                      absolute_error_bound=self.absolute_error_bound)


def _up(x) -> float:
    """A float64 at least the (nonnegative) ball's upper end."""
    upper = float(x.upper())
    return 0.0 if x.upper() == 0 else max(upper * (1 + 2.0 ** -50), 2.0 ** -1074)


def softmax_rows(rows: Sequence[Sequence[float]]
                 ) -> tuple[list[list[float]], list[float], Enclosure]:
    """(softmax rows, log-sum-exp per row, their enclosure) for rows of floats that are
    finite or −∞. A fully masked row gives zeros and −∞ (the kernel's contract)."""
    from flint import arb, ctx
    enc = Enclosure("softmax")
    ys, lses = [], []
    with ctx.workprec(BITS):
        for row in rows:
            finite = [v for v in row if v != -math.inf]
            if not finite:
                ys.append([0.0] * len(row))
                lses.append(-math.inf)
                continue
            m = max(finite)
            total = arb(0)
            for v in finite:
                total += (arb(v) - arb(m)).exp()
            lse = arb(m) + total.log()
            lses.append(enc.value(lse))
            ys.append([0.0 if v == -math.inf else enc.value((arb(v) - lse).exp())
                       for v in row])
    return ys, lses, enc


def layer_norm_rows(rows, weight, bias, eps: float, moments):
    """(y rows, means, rstds, their enclosure); ``moments`` gives each row's exact (n, mean, M2)
    as Fractions (the statistics are exact rationals; only 1/√ and the affine map need
    balls)."""
    from flint import arb, ctx
    enc = Enclosure("layer_norm")
    ys, means, rstds = [], [], []
    with ctx.workprec(BITS):
        w = [arb(v) for v in weight]
        b = [arb(v) for v in bias]
        for row, (n, mu, m2) in zip(rows, moments):
            var = m2 / n + Fraction(eps)
            rstd = (arb(var.numerator) / arb(var.denominator)).rsqrt()
            mean = arb(mu.numerator) / arb(mu.denominator)
            ys.append([enc.value((arb(x) - mean) * rstd * wi + bi)
                       for x, wi, bi in zip(row, w, b)])
            means.append(enc.value(mean))
            rstds.append(enc.value(rstd))
    return ys, means, rstds, enc
