"""Variance in chunks: Welford/Chan's (count, mean, M2) merge, the textbook
(count, sum, sum of squares) merge that loses accuracy to cancellation, and the near
miss that adds variances without the mean correction."""
from ..core import FAILS, Law, Property, Var
from ..monoid import Induction, Monoid
from . import combines

_STATE = Var("s", (3,), ("nonneg", "real", "nonneg"), labels=("n", "mean", "m2"))


def _valid(s):
    """A state with no data is the empty state."""
    return [(s[0] > 0) | ((s[1] == 0) & (s[2] == 0))]


# The variance over power sums (n, Σx, Σx²): mean S/n, variance Q/n − (S/n)².
_POWER_SUMS = Var("σ", (3,), ("nonneg", "real", "nonneg"), labels=("n", "S", "Q"))


def _add_datum(s, x):
    return s[0] + 1, s[1] + x, s[2] + x * x


def _moments(s):
    mean = s[1] / s[0]
    return mean, s[2] / s[0] - mean * mean


def _counted(s):
    return [s[0] >= 1]


def _welford(a, b):
    return combines.welford(a[0], a[1], a[2], b[0], b[1], b[2])


def _variance(xs):
    mean = sum(xs) / len(xs)
    return mean, sum((x - mean) * (x - mean) for x in xs) / len(xs)


WELFORD = Monoid(
    family="welford", combine=_welford, identity=(0.0, 0.0, 0.0), state=_STATE,
    lift=lambda x: (1.0, x, 0.0), lower=lambda s: (s[1], s[2] / s[0]), spec=_variance,
    state_pre=_valid,
    induction=Induction(summary=_POWER_SUMS, empty=(0.0, 0.0, 0.0), update=_add_datum,
                        finish=_moments, invariant=_counted,
                        alpha=lambda s: (s[0], s[1] / s[0], s[2] - s[1] * s[1] / s[0]),
                        about="mean Σx/n and variance Σx²/n − (Σx/n)² over power sums"),
    statement="(n, μ, M) ⊕ (n', μ', M') = (n+n', μ + δn'/(n+n'), M + M' + δ²nn'/(n+n')), "
              "δ = μ' − μ",
    commutative=True, kernels=("var_mean", "layer_norm"),
    references=("welford1962", "chan1979"),
    licenses="mean and variance in one pass over chunks merged in any order (LayerNorm "
             "and BatchNorm statistics, torch.var_mean, Apex's fused layer norm)",
    doc="Counts are taken as nonnegative reals (a superset of the integers). lower "
        "gives (mean, population variance) and needs n > 0. Does not cover float "
        "error; the float verdicts show it stays accurate under cancellation.")


def _pooled(a, b):
    return a[0] + b[0], a[1] + b[1], a[2] + b[2]


def _pooled_lower(s):
    mean = s[1] / s[0]
    return mean, s[2] / s[0] - mean * mean


POOLED_VARIANCE = Monoid(
    family="pooled_variance", combine=_pooled, identity=(0.0, 0.0, 0.0),
    state=Var("s", (3,), ("nonneg", "real", "nonneg"), labels=("n", "sum", "sumsq")),
    lift=lambda x: (1.0, x, x * x), lower=_pooled_lower, spec=_variance, state_pre=_valid,
    induction=Induction(summary=_POWER_SUMS, empty=(0.0, 0.0, 0.0), update=_add_datum,
                        finish=_moments, invariant=_counted, alpha=lambda s: s,
                        about="mean Σx/n and variance Σx²/n − (Σx/n)² over power sums"),
    statement="(n, Σx, Σx²) ⊕ (n', Σx', Σx'²) = componentwise sum; var = Σx²/n − (Σx/n)²",
    commutative=True, references=("chan1979",),
    licenses="one-pass variance by sums (exact over ℝ); in floats it cancels "
             "catastrophically when the mean is large against the spread, which is why "
             "kernels use Welford's merge instead",
    doc="Exact over ℝ. Does not cover floats: E[x²] − E[x]² loses every digit when "
        "|mean| ≫ std (see its float verdicts beside welford's).")


def _variance_add(a, b):
    n = a[0] + b[0]
    return n, (a[0] * a[1] + b[0] * b[1]) / n, a[2] + b[2]


VARIANCE_ADD = Law(
    id="welford.variance_add", property=Property.ASSOCIATIVITY, expect=FAILS,
    statement="var(x₁ ∪ x₂) from (n, μ, M) merged with M + M' (no δ² correction)",
    licenses="nothing: adding the chunks' M2 forgets the spread between chunk means",
    vars=(Var("x1"), Var("x2")),
    lhs=lambda x1, x2: _variance_add((1.0, x1, 0.0), (1.0, x2, 0.0))[2] / 2,
    rhs=lambda x1, x2: _variance([x1, x2])[1],
    teaches="welford.homomorphism", combine=_variance_add)

LAWS = [WELFORD, VARIANCE_ADD, POOLED_VARIANCE]
