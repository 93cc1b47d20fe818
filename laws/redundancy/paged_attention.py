"""PagedAttention: a sequence's keys and values stored in fixed-size blocks anywhere in
a shared pool, found through a block table, and the table entry that points elsewhere."""
from ..associativity import combines
from ..core import FAILS, Law, Property, Var
from ..locality.sliding_window_attention import attention_row
from .prefix_cache import attention_state

B = 1        # tokens per block
BLOCKS = 3   # logical blocks of the sequence (n = 3 tokens)
POOL = 4     # physical blocks in the pool: the sequence's three and another sequence's one


def _vars(**_):
    """The sequence's keys k0…k2 ((score, value) against one query) and the key of
    another sequence that owns the remaining physical block."""
    return tuple(Var(f"k{j}", (2,), labels=("score", "value")) for j in range(B * BLOCKS)) \
        + tuple(Var(f"g{j}", (2,), labels=("score", "value")) for j in range(B))


def write_pool(keys, other, table):
    """The allocator: logical block b goes to physical block table[b]; the block nobody
    of this sequence owns holds the other sequence's keys."""
    pool = [list(other) for _ in range(POOL)]
    for b in range(BLOCKS):
        pool[table[b]] = list(keys[b * B:(b + 1) * B])
    return pool


def paged(*xs, write, read):
    """The paged kernel: one flash state per block read through the table, merged in
    logical order with the shared flash_state combine, normalized once."""
    keys, other = xs[:B * BLOCKS], xs[B * BLOCKS:]
    pool = write_pool(keys, other, write)
    state = attention_state(pool[read[0]])
    for b in range(1, BLOCKS):
        state = combines.flash_state(*state, *attention_state(pool[read[b]]))
    return state[2] / state[1]


def contiguous(*xs, write, read):
    """Attention over the sequence's keys stored contiguously (safe softmax)."""
    keys = xs[:B * BLOCKS]
    return attention_row([k[0] for k in keys], [k[1] for k in keys])


BLOCK_TABLE = Law(
    id="paged_attention.block_table", property=Property.REDUNDANCY,
    secondary=Property.ASSOCIATIVITY,
    statement="attention read block by block through a block table (flash states "
              "merged) = attention over the contiguous cache, when the kernel reads "
              "through the table the allocator wrote",
    licenses="store each sequence's KV cache in fixed-size blocks anywhere in one pool "
             "(no memory reserved for a maximum length, blocks shared between sequences), "
             "the kernel gathering keys through a per-sequence block table: vLLM's "
             "PagedAttention, FlashInfer's and TensorRT-LLM's paged KV caches",
    vars=_vars, lhs=paged, rhs=contiguous,
    instances=({"write": (3, 0, 2), "read": (3, 0, 2)},),
    bounded_by="3 tokens in 3 blocks of 1, a pool of 4 blocks (one owned by another "
               "sequence), the block table (3, 0, 2) (out of order, around the other "
               "sequence's block); one query, one output column",
    float_check=False, kernels=("paged_attention",),
    doc="The allocator writes logical block b to physical block table[b] of a pool "
        "whose remaining block holds another sequence's keys; the kernel reads each "
        "logical block through the same table, computes its (m, l, o) in one pass and "
        "merges the blocks with the flash_state combine of laws/associativity/"
        "combines.py. Proved by z3 over ℝ (exp encoding) at the table listed, with "
        "every score and value a free real. What makes the indirection legal is that "
        "the gather is the inverse of the scatter and that blocks merge associatively; "
        "what it saves is redundancy: no memory is reserved for tokens that never come "
        "(the fragmentation of contiguous caches). Does not cover the allocator's "
        "bookkeeping (that a table never hands one block to two live sequences — the "
        "anti-law shows what happens when an entry is wrong), copy-on-write of shared "
        "blocks, or float rounding (the block states sum in another order).")

WRONG_ENTRY = Law(
    id="paged_attention.wrong_entry", property=Property.REDUNDANCY, expect=FAILS,
    statement="attention read through a block table with one wrong entry = attention "
              "over the contiguous cache",
    licenses="nothing: an entry that points at another sequence's block makes the kernel "
             "attend to that sequence's keys and values",
    vars=_vars, lhs=paged, rhs=contiguous,
    instances=({"write": (3, 0, 2), "read": (3, 1, 2)},),
    teaches="paged_attention.block_table", float_check=False,
    doc="The allocator wrote logical block 1 to physical block 0, the kernel's table says "
        "1: physical block 1 holds the other sequence's key, which is attended to in "
        "place of token 1.")

LAWS = [BLOCK_TABLE, WRONG_ENTRY]
