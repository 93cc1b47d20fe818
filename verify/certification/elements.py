"""A small per-element sample of one float output's (bound, error) pairs, for the
report's error-against-bound plot: certificates are committed JSON, so they keep a
sample, not every element.

The sample is deterministic (no randomness, ties go to the lowest flat index) and holds
up to ``SIZE`` elements among those with a finite bound > 0: the element of largest ρ
(error / bound), of largest error and of largest bound, then the rest spread evenly
through the others in order of ρ (so the smallest and the largest ρ among them are
kept, and the ones between are ρ's quantiles), listed in element order. An output with
no more elements than ``SIZE`` is kept whole. Errors are as ``compare_float`` measures
them (0 stays 0; ∞ where exactly one side is NaN). Both lists are rounded to 4
significant digits, which keeps an error ≤ its bound so after rounding (rounding is
monotone): the sample shows where elements lie, the certificate's ρ stays the judge.

Not covered: elements whose bound is 0 or infinite (a log axis cannot place them; the
case's ρ and ``max_error`` still count them), and outputs ``compare_float`` reports a
problem for (shapes that differ, a NaN or negative bound): they get no sample.
"""
from __future__ import annotations

from typing import Any

import torch

from verify.certification.comparison import element_errors

SIZE = 16
DIGITS = 4


def sample(out: Any, oracle: Any, bound: Any, size: int = SIZE) -> dict | None:
    """``{"bound": [...], "error": [...]}`` for one output (see the module docstring), or
    None when no element has a finite positive bound or the comparison has a problem."""
    measured = element_errors(out, oracle, bound)
    if measured is None:
        return None
    err, b = (t.flatten() for t in measured)
    eligible = (torch.isfinite(b) & (b > 0)).nonzero().flatten()
    if eligible.numel() == 0:
        return None
    err, b = err[eligible], b[eligible]
    chosen = picks(err / b, err, b, size)
    return {"bound": [_rounded(float(b[i])) for i in chosen],
            "error": [_rounded(float(err[i])) for i in chosen]}


def picks(ratio: torch.Tensor, err: torch.Tensor, bound: torch.Tensor,
          size: int = SIZE) -> list[int]:
    """Indices (ascending) into the 1-d tensors of the elements the sample keeps."""
    n = ratio.numel()
    if n <= size:
        return list(range(n))
    extremes = list(dict.fromkeys(int(t.argmax()) for t in (ratio, err, bound)))
    order = torch.sort(ratio, stable=True).indices
    others = torch.ones(n, dtype=torch.bool)
    others[extremes] = False
    rest = order[others[order]]
    wanted = size - len(extremes)
    if wanted <= 0:
        return sorted(extremes[:size])
    last = rest.numel() - 1
    spread = [int(rest[round(i * last / max(wanted - 1, 1))]) for i in range(wanted)]
    return sorted(set(extremes) | set(spread))


def _rounded(x: float) -> float:
    return float(f"{x:.{DIGITS}g}")
