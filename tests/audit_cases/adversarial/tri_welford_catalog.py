# expect: kind=binary associative=refuted|unknown commutative=refuted|unknown identity=refuted|unknown idempotent=refuted|unknown
# state: 3
# The catalog's Welford combine (safe_n = 1 where n = 0), audited on every real state:
# the catalog proves it for counts ≥ 0, but counts that cancel (−1 + 1) make safe_n
# a different formula. f((1, 0, 0), (−1, 1, 0)) has mean −1, the swap mean 0.
import triton
import triton.language as tl


@triton.jit
def welford(a_n, a_mean, a_m2, b_n, b_mean, b_m2):
    n = a_n + b_n
    safe_n = tl.where(n == 0, 1.0, n)
    delta = b_mean - a_mean
    mean = a_mean + delta * (b_n / safe_n)
    m2 = a_m2 + b_m2 + delta * delta * (a_n * b_n / safe_n)
    return n, mean, m2


WITNESS = {
    "associative": ((-1, 0, 0), (-1, 0, 0), (1, 1, 0)),
    "commutative": ((1, 0, 0), (-1, 1, 0)),
    "identity": [((0, 0, 0), (0, 1, 0)), ((1, 0, 0), (1, 0, 0))],
    "idempotent": ((1, 0, 0),),
}
