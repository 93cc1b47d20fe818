"""Ring attention: the sequence's keys split into shards on a ring of devices; each
device merges the FlashAttention states of the shards as they pass by, starting from its
own, and gets attention over the whole sequence in any rotation. And the merge that
forgets the rescale between shards."""
from ..core import FAILS, Law, Property, Var
from ..locality.sliding_window_attention import attention_row
from ..redundancy.prefix_cache import attention_state
from . import combines

SHARDS = 3  # devices on the ring, one key each


def _vars(**_):
    return tuple(Var(f"k{j}", (2,), labels=("score", "value")) for j in range(SHARDS))


def _unscaled(a, b):
    """Adds the shards' sums as they are, each relative to its own maximum."""
    return max(a[0], b[0]), a[1] + b[1], a[2] + b[2]


def ring(*keys, start, merge=None):
    """Device ``start``'s view: its own shard's state first, then the states of shards
    start+1, start+2, … (mod the ring) as they arrive, merged one at a time."""
    state = attention_state([keys[start]])
    for step in range(1, SHARDS):
        nxt = attention_state([keys[(start + step) % SHARDS]])
        state = merge(state, nxt) if merge else combines.flash_state(*state, *nxt)
    return state[2] / state[1]


def whole(*keys, start):
    return attention_row([k[0] for k in keys], [k[1] for k in keys])


ROTATION = Law(
    id="ring_attention.rotation", property=Property.ASSOCIATIVITY,
    secondary=Property.SYMMETRY,
    statement="normalize(state(shard_r) ⊕ state(shard_{r+1}) ⊕ … ⊕ state(shard_{r−1})) "
              "= attention over the whole sequence, for every starting shard r",
    licenses="split a sequence too long for one device across a ring of devices, passing "
             "key/value shards around the ring while each merges FlashAttention states "
             "(Ring Attention of Liu et al., context parallelism in Megatron-LM and "
             "PyTorch's context_parallel)",
    vars=_vars, lhs=ring, rhs=whole,
    instances=tuple({"start": r} for r in range(SHARDS)),
    bounded_by=f"{SHARDS} shards of one key each, every rotation (start 0, 1, 2); one "
               "query, one output column",
    float_check=False, references=("dao2022",), kernels=("ring_attention",),
    doc="Each device starts from its own shard and merges the others in ring order with "
        "the flash_state combine of laws/associativity/combines.py. The rotations are "
        "different groupings and orders of the same merges, so the law uses both "
        "associativity and commutativity (symmetry) of the combine. Proved by z3 over ℝ "
        "(exp encoding) for 3 shards and every rotation. Does not cover communication "
        "(overlap of transfer and compute), causal masking across shards (striped or "
        "zig-zag layouts), or float rounding (each rotation sums in its own order, so "
        "devices may differ in the last bits).")

NO_RESCALE = Law(
    id="ring_attention.no_rescale", property=Property.ASSOCIATIVITY, expect=FAILS,
    statement="the shards' (l, o) added around the ring without rescaling to the common "
              "maximum = attention over the whole sequence",
    licenses="nothing: each shard's sums are relative to its own maximum; added as they "
             "are, a shard with a smaller maximum is overweighted by e^(M − m)",
    vars=_vars, lhs=lambda *k, start: ring(*k, start=start, merge=_unscaled), rhs=whole,
    instances=({"start": 0},), teaches="ring_attention.rotation", float_check=False,
    doc="The missing rescale between shards: the bug a ring-attention kernel gets when it "
        "forgets to carry the running maximum from one shard to the next.")

LAWS = [ROTATION, NO_RESCALE]
