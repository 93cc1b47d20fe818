"""Prefix caching: the attention state of a shared prefix, cached once, merged with the
state of each request's suffix."""
import triton.language as tl

from ..associativity import combines
from ..core import Law, Property
from ..locality.sliding_window_attention import key_vars


def attention_state(keys):
    """(m, l, o) of one query over the keys given, computed in one pass the way a
    prefill kernel leaves it: row max, Σ e^{s−m}, Σ e^{s−m}·v."""
    m = max(k[0] for k in keys)
    p = [tl.exp(k[0] - m) for k in keys]
    return m, sum(p), sum(pj * k[1] for pj, k in zip(p, keys))


def merged(*keys, P, S):
    """The cached prefix state merged with the suffix state by the shared flash_state
    combine, then normalized."""
    m, l, o = combines.flash_state(*attention_state(keys[:P]), *attention_state(keys[P:]))
    return o / l


def full(*keys, P, S):
    """Attention over the whole sequence, prefix and suffix together."""
    p = [tl.exp(k[0]) for k in keys]
    return sum(pj * k[1] for pj, k in zip(p, keys)) / sum(p)


MERGE = Law(
    id="prefix_cache.merge", property=Property.REDUNDANCY,
    secondary=Property.ASSOCIATIVITY,
    statement="normalize(state(prefix) ⊕ state(suffix)) = Σ_j softmax(s)_j·v_j over "
              "prefix ∪ suffix, ⊕ = flash_state",
    licenses="compute attention over a shared prompt prefix once and reuse its state for "
             "every request that continues it, merging with each suffix's state "
             "(FlashInfer's cascade attention, shared-prefix decoding in SGLang's "
             "RadixAttention and vLLM's prefix caching)",
    vars=lambda P, S: key_vars(P + S),
    lhs=merged, rhs=full,
    instances=({"P": 1, "S": 1}, {"P": 2, "S": 1}, {"P": 1, "S": 2}, {"P": 2, "S": 2}),
    bounded_by="prefix and suffix of 1–2 keys each (P, S) ∈ {(1,1), (2,1), (1,2), (2,2)}, "
               "one query, one output column",
    references=("dao2022",),
    doc="One query's attention split at the prefix boundary: each part's state (m, l, o) "
        "is computed in one pass (safe softmax), the two are merged with the very "
        "flash_state combine of laws/associativity/combines.py, and o/l is compared with "
        "plain softmax attention over all keys. Scores and values are free reals (one "
        "output column). Proved by z3 over ℝ with the exp encoding at the listed "
        "sizes. Does not cover the cache's storage (paging, eviction), positional "
        "encodings (a cached prefix's keys must be encoded at the same positions), or "
        "floats: the right side, written without the max shift, overflows or "
        "underflows where the merged states do not (the float verdicts show such "
        "inputs).")

LAWS = [MERGE]
