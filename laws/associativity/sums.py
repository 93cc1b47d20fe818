"""Sums, counts and means: the simplest monoids, and the mean-of-means near miss."""

from ..core import FAILS, Law, Property, Var
from ..monoid import Induction, Monoid
from . import combines

_SUM_LICENSE = ("split a reduction into chunks reduced in parallel, then combined "
                "(tree reductions in every GPU sum, torch.sum, cuBLAS split-K)")


def _sum(a, b):
    return combines.add(a, b)


def _pair_add(a, b):
    return combines.add(a[0], b[0]), combines.add(a[1], b[1])


SUM = Monoid(
    family="sum", combine=_sum, identity=0.0, state=Var("s"),
    lift=lambda x: x, lower=lambda s: s, spec=lambda xs: sum(xs),
    statement="a ⊕ b = a + b", licenses=_SUM_LICENSE, commutative=True,
    induction=Induction(summary=Var("S"), empty=0.0, update=lambda S, x: S + x,
                        finish=lambda S: S, alpha=lambda S: S, about="Σx (its definition)"),
    kernels=("scan",), references=("blelloch1990",),
    doc="Addition of reals is associative and commutative with identity 0. Does not "
        "cover floats: float addition is not associative (see the float verdicts).")

COUNT = Monoid(
    family="count", combine=_sum, identity=0, state=Var("n", (), "natural"),
    lift=lambda x: 1, lower=lambda n: n, spec=lambda xs: len(xs),
    statement="a ⊕ b = a + b over counts", commutative=True,
    induction=Induction(summary=Var("n", (), "natural"), empty=0,
                        update=lambda n, x: n + 1, finish=lambda n: n, alpha=lambda n: n,
                        about="the number of data (its definition)"),
    licenses="counting in chunks (histograms, masks, token counts per expert in MoE "
             "routing) and summing the per-chunk counts")

MEAN = Monoid(
    family="mean", combine=_pair_add, identity=(0.0, 0.0),
    state=Var("s", (2,), ("real", "nonneg"), labels=("sum", "n")),
    lift=lambda x: (x, 1.0), lower=lambda s: s[0] / s[1],
    spec=lambda xs: sum(xs) / len(xs), commutative=True,
    induction=Induction(
        summary=Var("σ", (2,), ("real", "nonneg"), labels=("sum", "n")), empty=(0.0, 0.0),
        update=lambda s, x: (s[0] + x, s[1] + 1), finish=lambda s: s[0] / s[1],
        alpha=lambda s: s, invariant=lambda s: [s[1] >= 1], about="Σx / n"),
    statement="(Σ, n) ⊕ (Σ', n') = (Σ + Σ', n + n'); mean = Σ / n",
    licenses="a mean computed in chunks carries (sum, count), never a mean alone "
             "(torch.mean's reductions, running metrics in training loops)",
    doc="Mean as a (sum, count) monoid. Does not cover the empty mean (n = 0).")


def _mean_of_means(a, b):
    return (a + b) / 2


MEAN_OF_MEANS = Law(
    id="mean.of_means", property=Property.ASSOCIATIVITY, expect=FAILS,
    statement="mean(mean(x₁, x₂), x₃) = mean(x₁, x₂, x₃): a chunk's mean averaged with "
              "the next value, without counts",
    licenses="nothing: averaging chunk means without their counts weights chunks wrongly",
    vars=(Var("x1"), Var("x2"), Var("x3")),
    lhs=lambda a, b, c: _mean_of_means(_mean_of_means(a, b), c),
    rhs=lambda a, b, c: (a + b + c) / 3, teaches="mean.homomorphism",
    doc="A mean of chunk means weights every chunk equally, so it equals the mean for "
        "all data only when the chunks have equal sizes; here they have sizes 2 and 1, "
        "and x₃ gets weight 1/2 instead of 1/3.")


def _subtract(a, b):
    return a - b


SUBTRACTION = Law(
    id="subtraction.associative", property=Property.ASSOCIATIVITY, expect=FAILS,
    statement="(a − b) − c = a − (b − c)",
    licenses="nothing: subtraction cannot be regrouped, so it cannot be reduced in "
             "parallel (rewrite it as a sum of negations instead)",
    vars=(Var("a"), Var("b"), Var("c")),
    lhs=lambda a, b, c: _subtract(_subtract(a, b), c),
    rhs=lambda a, b, c: _subtract(a, _subtract(b, c)), teaches="sum.associative")

LAWS = [SUM, COUNT, MEAN, MEAN_OF_MEANS, SUBTRACTION]
