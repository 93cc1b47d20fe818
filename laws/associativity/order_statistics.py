"""Medians and modes do not chunk: the near misses every learner should see fail."""
import triton.language as tl

from ..core import FAILS, SEARCH, Law, Property, Var
from .topk import sort_descending


def median3(a, b, c):
    return tl.maximum(tl.minimum(a, b), tl.minimum(tl.maximum(a, b), c))


MEDIAN_OF_MEDIANS = Law(
    id="median.of_medians", property=Property.ASSOCIATIVITY, expect=FAILS,
    statement="median(median(x₁..x₃), median(x₄..x₆), median(x₇..x₉)) = median(x₁..x₉)",
    licenses="nothing exact: the median of medians is only an approximation (it bounds "
             "the rank, which is what the linear-time selection algorithm uses)",
    vars=tuple(Var(f"x{i}") for i in range(1, 10)),
    lhs=lambda *x: median3(median3(*x[0:3]), median3(*x[3:6]), median3(*x[6:9])),
    rhs=lambda *x: sort_descending(x)[4], teaches="topk_merge.merge",
    doc="Medians and comparisons by max/min, so z3 finds the counterexample.")


def mode(xs):
    counts = {}
    for x in xs:
        counts[x] = counts.get(x, 0) + 1
    best = max(counts.values())
    return min(v for v, c in counts.items() if c == best)


MODE_OF_MODES = Law(
    id="mode.of_modes", property=Property.ASSOCIATIVITY, expect=FAILS,
    statement="mode(mode(c₁), mode(c₂), mode(c₃)) = mode(c₁ ∪ c₂ ∪ c₃), ties to the "
              "smallest value",
    licenses="nothing: a value can be second everywhere and first overall; chunked "
             "modes need the full histogram (a count monoid per value)",
    vars=tuple(Var(f"x{i}", (), "small") for i in range(1, 10)),
    lhs=lambda *x: mode([mode(x[0:3]), mode(x[3:6]), mode(x[6:9])]),
    rhs=lambda *x: mode(list(x)), method=SEARCH,
    reason="counting equal values builds a dictionary keyed by the values, which the "
           "z3 interpretation cannot follow", teaches="count.homomorphism")

LAWS = [MEDIAN_OF_MEDIANS, MODE_OF_MODES]
