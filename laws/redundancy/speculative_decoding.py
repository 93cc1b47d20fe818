"""Speculative decoding: a draft model proposes a token, the target model accepts it with
probability min(1, p/q) or resamples from the normalized residual max(0, p − q); the
emitted token is distributed exactly as the target's. And the resampling that forgets to
normalize the residual."""
from ..core import FAILS, Law, Property, Var


def _vars(V):
    return (Var("p", (V,), "unit", tuple_state=False), Var("q", (V,), "unit", tuple_state=False))


def _distributions(p, q, V):
    """p (target) and q (draft) are distributions; the draft gives every token positive
    probability (a softmax output does), so the acceptance ratio p/q is defined."""
    return [sum(p) == 1, sum(q) == 1] + [q[x] > 0 for x in range(V)]


def emitted(p, q, V, normalize=True):
    """P(emitted = x) = q_x·min(1, p_x/q_x) + (1 − Σ_y q_y·min(1, p_y/q_y))·r_x with
    r = max(0, p − q)/Σ max(0, p − q): propose from q, accept with min(1, p/q), else
    resample from the residual r. When p = q nothing is ever rejected and r is unused."""
    accept = [q[x] * min(1, p[x] / q[x]) for x in range(V)]
    reject = 1 - sum(accept)
    residual = [max(0, p[x] - q[x]) for x in range(V)]
    z = sum(residual)
    if normalize:
        if z > 0:
            residual = [r / z for r in residual]
        else:
            residual = [0] * V
    return [accept[x] + reject * residual[x] for x in range(V)]


EXACT_TARGET = Law(
    id="speculative_decoding.exact_target", property=Property.REDUNDANCY,
    statement="P(emitted = x) = q_x·min(1, p_x/q_x) + (1 − Σ_y q_y min(1, p_y/q_y))·"
              "max(0, p_x − q_x)/Σ_y max(0, p_y − q_y) = p_x for every token x",
    licenses="let a small draft model propose tokens and the large model verify several "
             "of them in one forward pass, with output distributed exactly as the large "
             "model's sampling (speculative decoding/sampling of Leviathan et al. and Chen "
             "et al.; vLLM, TensorRT-LLM and Hugging Face assisted generation)",
    vars=lambda V: _vars(V), pre=lambda p, q, V: _distributions(p, q, V),
    lhs=lambda p, q, V: emitted(p, q, V), rhs=lambda p, q, V: list(p),
    instances=({"V": 2}, {"V": 3}),
    bounded_by="vocabularies of 2 and 3 tokens, p and q symbolic distributions (every "
               "probability a free real in [0, 1], q positive)",
    float_check=False,
    doc="The distribution of one emitted token, written out exactly: the proposal x "
        "(probability q_x) is accepted with probability min(1, p_x/q_x), which gives "
        "min(p_x, q_x); a rejection (total probability 1 − Σ min(p, q) = Σ max(0, p − q)) "
        "resamples from the residual normalized by that same sum, which adds max(0, "
        "p_x − q_x); min + max(0, p − min) = p. Proved by z3 over ℝ for symbolic "
        "distributions over 2 and 3 tokens (nonlinear real arithmetic with the "
        "branches forked). The argument does not depend on the vocabulary's size, but "
        "the proof is only at those sizes. Covers one speculated token; k tokens chain "
        "the same step (each accepted token conditions the next). Does not cover the "
        "draft's speed (how many tokens are accepted on average: 1 − Σ max(0, p − q) per "
        "token), nor float rounding of the sampled uniforms.")

NO_RENORMALIZATION = Law(
    id="speculative_decoding.no_renormalization", property=Property.REDUNDANCY,
    expect=FAILS,
    statement="resampling from max(0, p − q) without dividing by Σ max(0, p − q) gives "
              "P(emitted = x) = p_x",
    licenses="nothing: the residual's weights sum to the rejection probability, not to 1, "
             "so the emitted token's probabilities sum to less than 1 (and a sampler that "
             "normalizes implicitly is the correct rule, not this one)",
    vars=_vars(2), pre=lambda p, q: _distributions(p, q, 2),
    lhs=lambda p, q: emitted(p, q, 2, normalize=False), rhs=lambda p, q: list(p),
    teaches="speculative_decoding.exact_target", float_check=False,
    doc="min(p_x, q_x) + β·max(0, p_x − q_x) with β = Σ max(0, p − q) < 1 whenever p ≠ q: "
        "the residual mass is counted β times instead of once.")

LAWS = [EXACT_TARGET, NO_RENORMALIZATION]
