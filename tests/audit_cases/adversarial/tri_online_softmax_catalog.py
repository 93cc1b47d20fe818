# expect: kind=binary associative=proved commutative=proved identity=proved|tested|unknown idempotent=refuted|unknown
# state: 2
# The catalog's online-softmax combine, unpacked the way tl.reduce calls it.
import triton
import triton.language as tl


@triton.jit
def combine(a_m, a_s, b_m, b_s):
    m = tl.maximum(a_m, b_m)
    shift = tl.where(m == -float("inf"), 0.0, m)
    return m, a_s * tl.exp(a_m - shift) + b_s * tl.exp(b_m - shift)


WITNESS = {
    "idempotent": ((0, 1),),
}
