"""Grouped-query attention: query heads of a group share one key/value head, so the KV
cache stores it once; exact for a model whose heads in a group have equal key and value
projections, and not for a multi-head model whose key/value heads are mean-pooled."""
import math

from ..core import FAILS, SEARCH, Law, Property, Var

N = 2  # tokens; model width 1, two query heads in one group


def _attend(q, keys, values):
    scores = [q * k for k in keys]
    m = max(scores)
    p = [math.exp(s - m) for s in scores]
    return sum(pj * vj for pj, vj in zip(p, values)) / sum(p)


def _vars():
    return (Var("x", (N,), tuple_state=False), Var("wq", (2,), tuple_state=False),
            Var("wk", (2,), tuple_state=False), Var("wv", (2,), tuple_state=False))


def multi_head(x, wq, wk, wv):
    """Each head h has its own key and value projections wk_h, wv_h; the output of the
    last token, per head."""
    return [_attend(x[-1] * wq[h], [t * wk[h] for t in x], [t * wv[h] for t in x])
            for h in range(2)]


def grouped(x, wq, wk, wv, pool=False):
    """One key/value head for the group (the cache holds N keys and values, not 2N):
    head 0's projections, or (``pool``) the mean of the heads' projections."""
    k = (wk[0] + wk[1]) / 2 if pool else wk[0]
    v = (wv[0] + wv[1]) / 2 if pool else wv[0]  # pool: two heads' projections given
    keys, values = [t * k for t in x], [t * v for t in x]
    return [_attend(x[-1] * wq[h], keys, values) for h in range(2)]


_REASON = ("the scores are products of variables inside exp, which the z3 encoding of "
           "exp cannot take; the searcher compares both sides with mpmath")

SHARED_KV = Law(
    id="grouped_query_attention.shared_kv", property=Property.REDUNDANCY,
    statement="wk_h = wk, wv_h = wv for the heads of a group ⇒ multi-head attention = "
              "attention of each query head over one shared key/value head",
    licenses="store one key/value head per group of query heads: a KV cache (and its "
             "memory traffic per decoding step) smaller by the group size (grouped-query "
             "attention in LLaMA 2/3, Mistral; multi-query attention in PaLM and Falcon)",
    vars=(Var("x", (N,), tuple_state=False), Var("wq", (2,), tuple_state=False),
          Var("wk"), Var("wv")),
    lhs=lambda x, wq, wk, wv: multi_head(x, wq, (wk, wk), (wv, wv)),
    rhs=lambda x, wq, wk, wv: grouped(x, wq, (wk,), (wv,)), method=SEARCH, reason=_REASON,
    bounded_by=f"{N} tokens, model width 1, one group of 2 query heads; the last "
               "token's output per head",
    float_check=False, references=("pope2022",),
    doc="The left side is multi-head attention whose two heads carry the same key and "
        "value projections (what repeat_kv expands the cached head into); the right "
        "side caches the keys and values once and lets both query heads read them. "
        "Heads with equal projections compute equal keys and values: storing them once "
        "removes a redundancy. A model trained with GQA has this "
        "structure by construction. Tested (not proved). Does not cover converting a "
        "multi-head checkpoint (its heads differ: the anti-law), nor the quality "
        "question (GQA trains fewer parameters).")

MEAN_POOLED = Law(
    id="grouped_query_attention.mean_pooled", property=Property.REDUNDANCY, expect=FAILS,
    statement="multi-head attention = grouped attention with each group's key/value "
              "projections mean-pooled (no equality of heads assumed)",
    licenses="nothing: pooling distinct heads changes every score; the GQA paper pools "
             "and then uptrains, and the result is a different model",
    vars=_vars(), lhs=multi_head, rhs=lambda x, wq, wk, wv: grouped(x, wq, wk, wv, True),
    method=SEARCH, reason=_REASON, teaches="grouped_query_attention.shared_kv",
    float_check=False,
    doc="Two heads with different key projections: the pooled key gives both heads "
        "scores neither had.")

LAWS = [SHARED_KV, MEAN_POOLED]
