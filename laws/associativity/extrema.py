"""Maximum and argmax: associative, commutative, max also idempotent."""
from ..core import Var
from ..monoid import Induction, Monoid
from . import combines


def _max(a, b):
    return combines.maximum(a, b)


def _argmax(a, b):
    return combines.argmax(a[0], a[1], b[0], b[1])


def _argmax_spec(xs):
    best = 0
    for i in range(1, len(xs)):
        if xs[i] > xs[best]:
            best = i
    return xs[best], best


MAX = Monoid(
    family="max", combine=_max, identity=float("-inf"), state=Var("m"),
    lift=lambda x: x, lower=lambda m: m, spec=lambda xs: max(xs),
    statement="a ⊕ b = max(a, b)", commutative=True, idempotent=True,
    induction=Induction(summary=Var("M"), empty=float("-inf"),
                        update=lambda M, x: max(M, x), finish=lambda M: M,
                        alpha=lambda M: M, about="the running maximum (its definition)"),
    licenses="row maxima in chunks, merged (the max pass of a safe softmax, "
             "max-pooling, torch.amax)", kernels=("softmax",),
    doc="max is associative, commutative and idempotent with identity −∞. It is also "
        "exact in every float format: no rounding happens.")

ARGMAX = Monoid(
    family="argmax", combine=_argmax, identity=(float("-inf"), float("inf")),
    state=Var("s", (2,), ("real", "integer"), labels=("value", "index")),
    lift=lambda x, i: (x, i), indexed=True, lower=lambda s: s, spec=_argmax_spec,
    statement="(v, i) ⊕ (v', i') = the larger value; on equal values the lower index",
    commutative=True,
    licenses="argmax in chunks, merged, with torch.argmax's tie rule (first index): "
             "greedy decoding over a sharded vocabulary",
    doc="Argmax with the lowest index winning ties: a lexicographic max of "
        "(value, −index), hence associative and commutative. Does not cover NaN values.")

LAWS = [MAX, ARGMAX]
