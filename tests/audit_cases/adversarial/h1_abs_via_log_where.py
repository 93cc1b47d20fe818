# expect: kind=binary associative=refuted|unknown commutative=proved|tested|unknown identity=refuted|unknown idempotent=refuted|unknown separable=refuted|unknown additively_separable=refuted|unknown
# |a + b| written as where(s > 0, exp(log s), −s): the log's side condition belongs to
# the first lane only. f(f(−1, −1), 0) = 2, f(−1, f(−1, 0)) = 0.
# No identity: |e + a| = a fails at a = −1 for every e.
import triton
import triton.language as tl


@triton.jit
def f(a, b):
    s = a + b
    return tl.where(s > 0, tl.exp(tl.log(s)), -s)


WITNESS = {
    "associative": (-1, -1, 0),
    "identity": [(0, -1), (1, 0), ("-inf", 1), ("inf", 1)],
    "idempotent": (1,),
    "separable": (1, -1, 1, -2),
    "additively_separable": (1, -1, 1, -2),
}
