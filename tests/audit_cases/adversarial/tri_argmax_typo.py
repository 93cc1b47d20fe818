# expect: kind=binary commutative=refuted|unknown identity=proved|tested|unknown idempotent=proved|tested|unknown
# state: 2
# The tl.reduce argmax with a typo in the tie rule (b_i < a_v, not b_i < a_i).
import triton
import triton.language as tl


@triton.jit
def argmax(a_v, a_i, b_v, b_i):
    take_b = (b_v > a_v) | ((b_v == a_v) & (b_i < a_v))
    return tl.where(take_b, b_v, a_v), tl.where(take_b, b_i, a_i)


WITNESS = {
    "commutative": ((3, 1), (3, 2)),
}
