"""Beam search: what it has (each hypothesis needs only its own k best extensions: the
other candidates can never enter the beam) and what it does not (it is not the most
probable sequence)."""
from ..core import FAILS, Law, Property, Var

K, V = 2, 3  # beam width, vocabulary


def top2(xs):
    """The two largest values with multiplicity: the second is the largest pairwise
    minimum (no branch, no sort)."""
    return [max(xs), max(min(a, b) for i, a in enumerate(xs) for b in xs[i + 1:])]


def _step_vars():
    """Beam scores h0, h1 (log-probabilities of the two hypotheses) and each one's
    next-token log-probabilities t0, t1 over a vocabulary of 3."""
    return (Var("h", (K,), tuple_state=False),
            Var("t0", (V,), tuple_state=False), Var("t1", (V,), tuple_state=False))


def all_candidates(h, t0, t1):
    """The beam step's definition: the best 2 of all k·V = 6 extensions h_i + t_i[x]."""
    return top2([h[0] + x for x in t0] + [h[1] + x for x in t1])


def pruned_candidates(h, t0, t1):
    """What implementations do: each hypothesis contributes only its own 2 best
    extensions (4 candidates, k² instead of k·V), then the best 2 of those."""
    return top2([h[0] + x for x in top2(list(t0))] + [h[1] + x for x in top2(list(t1))])


CANDIDATE_PRUNING = Law(
    id="beam_search.candidate_pruning", property=Property.SPARSITY,
    secondary=Property.ASSOCIATIVITY,
    statement="top_k{h_i + t_i[x] : i < k, x < V} = top_k{h_i + x : i < k, x ∈ top_k(t_i)} "
              "(scores of the next beam)",
    licenses="each hypothesis ranks only its own top k tokens (k² candidates per step "
             "instead of k·V, and a per-shard top-k merge over a sharded vocabulary): "
             "Hugging Face's beam search (top 2k of the flattened scores), fairseq, "
             "TensorRT-LLM's beam kernels",
    vars=_step_vars(), lhs=all_candidates, rhs=pruned_candidates,
    bounded_by=f"beam width k = {K}, vocabulary V = {V}, scores free reals",
    float_check=False,
    doc="An extension h_i + t_i[x] is monotone in t_i[x], so a token outside hypothesis "
        "i's own top k is beaten by k extensions of that same hypothesis and can never be "
        "among the k best overall: skipping it changes nothing (sparsity), and the top-k "
        "of the survivors is a top-k merge (associativity, topk_merge). Proved by z3 over "
        "ℝ at k = 2, V = 3 for the beam's scores (top-2 written without branches). "
        "Covers the scores of the next beam, not which hypotheses carry them on ties. "
        "What beam search does not have is exactness: see beam_search.not_argmax.")


def _prob_vars():
    """p1: first-token distribution over 2 tokens; p2a, p2b: the second token's
    distribution after token a and after token b."""
    return tuple(Var(n, (2,), "unit", tuple_state=False) for n in ("p1", "p2a", "p2b"))


def _distributions(p1, p2a, p2b):
    return [sum(p1) == 1, sum(p2a) == 1, sum(p2b) == 1]


def greedy(p1, p2a, p2b):
    """Beam search of width 1 (greedy decoding), two steps: the probability of the
    sequence it returns."""
    first_a = p1[0] >= p1[1]
    if first_a:
        return p1[0] * max(p2a[0], p2a[1])
    return p1[1] * max(p2b[0], p2b[1])


def most_probable(p1, p2a, p2b):
    """The exhaustive argmax over all four two-token sequences."""
    return max(p1[0] * p2a[0], p1[0] * p2a[1], p1[1] * p2b[0], p1[1] * p2b[1])


NOT_ARGMAX = Law(
    id="beam_search.not_argmax", property=Property.SPARSITY, expect=FAILS,
    statement="the sequence beam search of width 1 returns has the largest probability "
              "of all sequences (2 tokens, 2 steps)",
    licenses="nothing: pruning hypotheses is a heuristic; a prefix that looks worse now "
             "may lead to the best sequence",
    vars=_prob_vars(), pre=_distributions, lhs=greedy, rhs=most_probable,
    teaches="beam_search.candidate_pruning", float_check=False,
    doc="Width 1 is greedy decoding. Any width smaller than the number of sequences "
        "fails the same way over enough steps: a pruned hypothesis's continuation can "
        "outweigh every kept one's. Refuted by z3 over ℝ with symbolic distributions. "
        "The candidate pruning law is what beam search does have: an exact, "
        "cheaper step; not an exact search.")

LAWS = [CANDIDATE_PRUNING, NOT_ARGMAX]
