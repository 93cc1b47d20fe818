"""Continuous batching: one decoding step over a batch of requests of different lengths,
padded to a common length, equals each request's own step when the padding is masked,
and the padding let into the softmax."""
import triton.language as tl

from ..core import FAILS, Law, Property, Var
from ..locality.sliding_window_attention import NEG_INF, attention_row

# Request A has 1 cached key, request B has 2; the batch is padded to length 2.


def _vars():
    keys = ("a0", "pad", "b0", "b1")
    return tuple(Var(k, (2,), labels=("score", "value")) for k in keys)


def _masked_row(scores, values):
    """Softmax attention with −∞ scores given weight exactly 0 (as a kernel's mask)."""
    p = [tl.where(s == NEG_INF, 0.0, tl.exp(s)) for s in scores]
    return sum(pj * vj for pj, vj in zip(p, values)) / sum(p)


def batched(a0, pad, b0, b1, masked=True):
    """The batched step: row A is [a0, pad] with the padding slot's score set to −∞ by
    the length mask; row B is [b0, b1]. The padding slot holds whatever the buffer had."""
    score = NEG_INF if masked else pad[0]
    return [_masked_row([a0[0], score], [a0[1], pad[1]]),
            _masked_row([b0[0], b1[0]], [b0[1], b1[1]])]


def separate(a0, pad, b0, b1):
    """Each request's own step over its own keys only."""
    return [attention_row([a0[0]], [a0[1]]), attention_row([b0[0], b1[0]], [b0[1], b1[1]])]


RAGGED_STEP = Law(
    id="continuous_batching.ragged_step", property=Property.ASSOCIATIVITY,
    secondary=Property.SPARSITY,
    statement="a batched attention step over requests of lengths 1 and 2, padded to 2 "
              "with the padding's scores masked to −∞, = each request's own step",
    licenses="run requests of different lengths, joining and leaving at every step, in "
             "one batched kernel launch (iteration-level scheduling): Orca's and vLLM's "
             "continuous batching, TensorRT-LLM's in-flight batching",
    vars=_vars(), lhs=batched, rhs=separate,
    bounded_by="two requests of 1 and 2 keys, one padding slot; one query per request, "
               "one output column",
    float_check=False,
    doc="A masked padding slot is the identity of the softmax-state monoid (score −∞, "
        "weight exactly 0), so it changes no request's sum: the book files continuous "
        "batching under associativity with sparsity (variable load) second. The padding "
        "slot's score and value are free reals (whatever the buffer held). Proved by z3 "
        "over ℝ (exp encoding, −∞ modeled as a real below every variable). Does not "
        "cover the scheduler (which requests join a step), the KV cache's paging, or "
        "float rounding (a padded row may be summed in another order).")

PADDING_IN_SOFTMAX = Law(
    id="continuous_batching.padding_in_softmax", property=Property.ASSOCIATIVITY,
    expect=FAILS,
    statement="the same batched step with the padding slot's score not masked = each "
              "request's own step",
    licenses="nothing: an unmasked padding slot takes softmax weight e^s/Σ from the "
             "request's real keys and adds its garbage value",
    vars=_vars(), lhs=lambda a0, pad, b0, b1: batched(a0, pad, b0, b1, masked=False),
    rhs=separate, teaches="continuous_batching.ragged_step", float_check=False,
    doc="Row A attends to [a0, pad] with pad's own score: wrong whenever the padding's "
        "value differs from a0's (its weight is never 0).")

LAWS = [RAGGED_STEP, PADDING_IN_SOFTMAX]
