"""Causal attention in blocks: key blocks entirely above the diagonal are skipped, and
the diagonal block must not be."""
from ..associativity import combines
from ..core import FAILS, Law, Property
from ..locality.sliding_window_attention import NEG_INF, key_vars, masked_attention_row


def block_state(scores, values):
    """FlashAttention's (m, l, o) state of one key block for one query row, built key by
    key with the shared flash_state combine (a masked key is simply not added)."""
    state = None
    for s, v in zip(scores, values):
        lifted = (s, 1.0, v)
        state = lifted if state is None else combines.flash_state(*state, *lifted)
    return state


def blocked_causal_row(keys, n, b, i, last_block):
    """Query i streams key blocks 0 … last_block(i), merging block states with
    flash_state; within a block, keys after i are masked. Blocks after last_block(i)
    are never loaded. A row that sees no key outputs 0."""
    state = None
    for kb in range(last_block(i, b) + 1):
        visible = [j for j in range(kb * b, kb * b + b) if j < n and j <= i]
        if not visible:
            continue
        blk = block_state([keys[j][0] for j in visible], [keys[j][1] for j in visible])
        state = blk if state is None else combines.flash_state(*state, *blk)
    if state is None:
        return 0.0
    return state[2] / state[1]


def _up_to_diagonal(i, b):
    """The last key block a query block needs: its own (the diagonal block)."""
    return i // b


def _below_diagonal(i, b):
    """The near miss: stop before the diagonal block."""
    return i // b - 1


def dense_causal_row(keys, i):
    """Every key, the causal mask as −∞ scores for keys after the query."""
    return masked_attention_row([k[0] if j <= i else NEG_INF for j, k in enumerate(keys)],
                                [k[1] for k in keys])


def _vars(n, b, i):
    return key_vars(n)


_N, _B = 4, 2

SKIP = Law(
    id="causal_block_skip.skip", property=Property.SPARSITY,
    secondary=Property.ASSOCIATIVITY,
    statement="for query i in block ⌊i/b⌋: fold_{kb ≤ ⌊i/b⌋} state(kb, mask j ≤ i) "
              "= Σ_j softmax(s_ij + M_ij)·v_j, M_ij = 0 if j ≤ i else −∞",
    licenses="causal attention loads only key blocks up to the diagonal (about half the "
             "blocks), masking inside the diagonal block only: FlashAttention's causal "
             "path, PyTorch's scaled_dot_product_attention(is_causal=True)",
    vars=_vars,
    lhs=lambda *keys, n, b, i: blocked_causal_row(keys, n, b, i, _up_to_diagonal),
    rhs=lambda *keys, n, b, i: dense_causal_row(keys, i),
    instances=tuple({"n": _N, "b": _B, "i": i} for i in range(_N)),
    bounded_by=f"n = {_N} keys in blocks of {_B}, every query row i = 0…{_N - 1} (one "
               "proof per row), one output column",
    references=("dao2022",), kernels=("attention",),
    doc="Row i of causal attention computed the way the kernel does: key blocks up to and "
        "including the diagonal block, each block's (m, l, o) state built with the shared "
        "flash_state combine and merged with it, keys after i inside the diagonal block "
        "left out; blocks above the diagonal never loaded. The right side is the dense "
        "computation with −∞ scores above the diagonal (weight where(s = −∞, 0, exp(s))). "
        "Scores are free reals (any QKᵀ/√d), one output column. Proved by z3 over ℝ with "
        "the exp encoding, one row at a time, for every row of n = 4 with b = 2. Does not "
        "cover query and key blocks of different sizes or sequences of unequal query "
        "and key length (bottom-right aligned masks), nor floats: the dense side, "
        "written without the max shift, underflows to 0/0 where the blocked side does "
        "not (the float verdicts show such inputs).")

DROP_DIAGONAL = Law(
    id="causal_block_skip.drop_diagonal", property=Property.SPARSITY, expect=FAILS,
    statement="fold_{kb < ⌊i/b⌋} state(kb) = Σ_j softmax(s_ij + M_ij)·v_j "
              "(the diagonal block skipped too)",
    licenses="nothing: the diagonal block holds the query's own key and the keys just "
             "before it; skipping it drops them (and leaves the first block's rows with "
             "no key at all)",
    vars=_vars,
    lhs=lambda *keys, n, b, i: blocked_causal_row(keys, n, b, i, _below_diagonal),
    rhs=lambda *keys, n, b, i: dense_causal_row(keys, i),
    instances=({"n": _N, "b": _B, "i": 2},),
    teaches="causal_block_skip.skip", references=("dao2022",),
    doc="Query 2 in blocks of 2 would see keys 0 and 1 only, not key 2 itself.")

LAWS = [SKIP, DROP_DIAGONAL]
