"""Permutation symmetry of attention: permuting queries permutes the outputs; permuting
keys and values together changes nothing."""
import triton.language as tl

from ..core import Law, Property, Var


def attention(S, V):
    """Row-wise softmax attention on a score matrix S (queries × keys) and values V
    (keys × 1): outᵢ = Σⱼ e^{S_ij}Vⱼ / Σⱼ e^{S_ij}."""
    out = []
    for row in S:
        p = [tl.exp(s) for s in row]
        out.append(sum(pj * V[j][0] for j, pj in enumerate(p)) / sum(p))
    return out


def permute_rows(M, perm):
    """Row i of the result is row perm[i] of M (the permutation matrix P applied: PM)."""
    return [list(M[perm[i]]) for i in range(len(perm))]


def permute_columns(M, perm):
    """Column j of the result is column perm[j] of M (M Pᵀ)."""
    return [[row[perm[j]] for j in range(len(perm))] for row in M]


def _vars(n, m, perm):
    return (Var("S", (n, m)), Var("V", (m, 1)))


# A transposition and an n-cycle generate the symmetric group Sₙ, and both laws are
# preserved under composing permutations, so these two instances cover every
# permutation at that size.
_GENERATORS = ((1, 0, 2, 3), (1, 2, 3, 0))

QUERIES = Law(
    id="attention_permutation.queries", property=Property.SYMMETRY,
    statement="Attn(PS, V) = P·Attn(S, V) for every permutation matrix P of the queries",
    licenses="queries can be processed in any order and split across programs or "
             "devices (query-block parallelism in FlashAttention, sequence sharding, "
             "reordering requests in a batch)",
    vars=lambda n, m, perm: _vars(n, m, perm),
    lhs=lambda S, V, n, m, perm: attention(permute_rows(S, perm), V),
    rhs=lambda S, V, n, m, perm: [attention(S, V)[perm[i]] for i in range(n)],
    instances=tuple({"n": 4, "m": 2, "perm": p} for p in _GENERATORS),
    references=("vaswani2017",),
    bounded_by="4 queries, 2 keys, one value column; the transposition (0 1) and the "
               "4-cycle (0 1 2 3), which generate every permutation of 4 queries",
    kernels=("attention",),
    doc="Softmax attention acts row by row, so permuting the query rows (the rows of "
        "S = QKᵀ) permutes the output rows the same way. Proved by z3 over ℝ with the "
        "exp encoding for 4 queries at a transposition and a 4-cycle; because the "
        "property is preserved under composition and those two generate S₄, it holds for "
        "every permutation of 4 queries. Scores are free reals: that permuting Q "
        "permutes the rows of QKᵀ is matrix algebra not re-proved here. Does not cover "
        "causal masks (which tie queries to positions: a permuted causal mask is a "
        "different mask).")

KEYS_VALUES = Law(
    id="attention_permutation.keys_values", property=Property.SYMMETRY,
    statement="Attn(S Pᵀ, P V) = Attn(S, V) for every permutation matrix P of the keys",
    licenses="keys and values may be stored, streamed and reduced in any order as long "
             "as they move together (paged KV caches with scattered blocks in vLLM, "
             "split-KV decoding, ring attention across devices)",
    vars=lambda n, m, perm: _vars(n, m, perm),
    lhs=lambda S, V, n, m, perm: attention(permute_columns(S, perm), permute_rows(V, perm)),
    rhs=lambda S, V, n, m, perm: attention(S, V),
    instances=tuple({"n": 2, "m": 4, "perm": p} for p in _GENERATORS),
    references=("vaswani2017",),
    bounded_by="2 queries, 4 keys, one value column; the transposition (0 1) and the "
               "4-cycle (0 1 2 3), which generate every permutation of 4 keys",
    doc="The softmax-weighted sum over keys is a sum, and sums do not depend on order: "
        "permuting the columns of S and the rows of V by the same permutation leaves "
        "every output unchanged. Proved by z3 over ℝ with the exp encoding for 4 keys "
        "at a transposition and a 4-cycle, which generate S₄ (the property composes), so "
        "every permutation of 4 keys is covered. Does not cover permuting keys without "
        "their values (wrong), positional encodings applied after the permutation (RoPE "
        "ties a key to its position), or float rounding (a different order of the sum "
        "rounds differently).")

LAWS = [QUERIES, KEYS_VALUES]
