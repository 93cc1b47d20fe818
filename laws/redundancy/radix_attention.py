"""RadixAttention: one cached attention state per distinct token prefix, shared by every
request whose prompt starts with it, and the state reused for a prefix that differs."""
from ..associativity import combines
from ..core import FAILS, Law, Property, Var
from ..locality.sliding_window_attention import attention_row
from .prefix_cache import attention_state

P = 1  # prefix keys


def _vars():
    """Each request's prefix keys (pa for request A, pb for B) and one suffix key each,
    (score, value) pairs against that request's query."""
    return tuple(Var(f"pa{j}", (2,), labels=("score", "value")) for j in range(P)) \
        + tuple(Var(f"pb{j}", (2,), labels=("score", "value")) for j in range(P)) \
        + (Var("sa", (2,), labels=("score", "value")),
           Var("sb", (2,), labels=("score", "value")))


def _same_prefix(*xs):
    """The radix tree matched: request B's prefix tokens are request A's, so their keys
    and values (and, for the same query, their scores) are equal."""
    pa, pb = xs[:P], xs[P:2 * P]
    return [a[i] == b[i] for a, b in zip(pa, pb) for i in range(2)]


def shared(*xs):
    """The prefix's state computed once (for request A) and merged with each request's
    suffix state by the shared flash_state combine."""
    pa, sa, sb = xs[:P], xs[2 * P], xs[2 * P + 1]
    node = attention_state(pa)
    out = []
    for suffix in (sa, sb):
        m, ell, o = combines.flash_state(*node, *attention_state([suffix]))
        out.append(o / ell)
    return out


def own(*xs):
    """Each request's attention over its own prompt, nothing shared."""
    pa, pb, sa, sb = xs[:P], xs[P:2 * P], xs[2 * P], xs[2 * P + 1]
    return [attention_row([k[0] for k in keys], [k[1] for k in keys])
            for keys in (list(pa) + [sa], list(pb) + [sb])]


SHARED_PREFIX = Law(
    id="radix_attention.shared_prefix", property=Property.REDUNDANCY,
    secondary=Property.ASSOCIATIVITY,
    statement="for requests A, B whose prompts start with the same tokens: "
              "normalize(state(prefix) ⊕ state(suffix_R)) = attention of R over its own "
              "prompt, R ∈ {A, B}, with state(prefix) computed once",
    licenses="keep the attention state (KV cache) of every prompt prefix in a radix tree "
             "keyed by tokens and reuse it for every later request that starts with those "
             "tokens (SGLang's RadixAttention; vLLM's automatic prefix caching)",
    vars=_vars(), pre=_same_prefix, lhs=shared, rhs=own,
    bounded_by="two requests sharing a 1-token prefix, one suffix token each; one query "
               "per request, one output column",
    float_check=False, references=("dao2022",),
    doc="Request B's prefix keys are variables of their own, equal to A's by the "
        "precondition (what the radix tree's token match establishes); the state of A's "
        "prefix, computed once, is merged with each request's suffix state by the "
        "flash_state combine. Proved by z3 over ℝ (exp encoding). The match must be on "
        "tokens and positions: a cached state is the same state only when every key "
        "and value it summarizes is the same (the anti-law). Does not cover eviction "
        "(LRU over the tree), or float rounding.")

STALE_PREFIX = Law(
    id="radix_attention.stale_prefix", property=Property.REDUNDANCY, expect=FAILS,
    statement="reusing request A's prefix state for request B whose prefix differs = "
              "B's own attention",
    licenses="nothing: a cache hit must match every token of the prefix (and its "
             "position); a state reused for a different prefix attends to the wrong keys",
    vars=_vars(), lhs=shared, rhs=own, teaches="radix_attention.shared_prefix",
    float_check=False,
    doc="The same two requests without the precondition that B's prefix equals A's: the "
        "shared state summarizes A's keys, so B's answer is wrong whenever they differ.")

LAWS = [SHARED_PREFIX, STALE_PREFIX]
