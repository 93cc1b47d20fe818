"""Mutants of the serving kernels: paged_attention and ring_attention (their equivalent
edits are in table_equivalent.py). Their outputs are scaled by 1 + 2⁻¹² only: the bound
is attention's ``flash_bound``, whose looseness at 2⁻¹⁶ and 2⁻²⁰ the attention.out
mutants already measure."""
from mutants import SCALE_12, Mutant

PA = "impls/paged_attention.py"
RA = "impls/ring_attention.py"
_OUT = "out = tl.where(l_i > 0, acc / tl.where(l_i > 0, l_i, 1.0), 0.0)"

MUTANTS = [
    # ---------------------------------------------------------------- paged_attention
    Mutant("paged_attention.token-past-length", PA, "visible = offs_n < seq_len",
           "visible = offs_n <= seq_len", "mask",
           "the token at the sequence's length left visible (a stale slot, or the spare "
           "table entry's page)"),
    Mutant("paged_attention.slot-by-block", PA,
           "* PAGE + offs_n % PAGE) * HEAD_DIM", "* PAGE + offs_n % BLOCK_N) * HEAD_DIM",
           "index", "the slot within the page taken modulo the block size (right only when "
                    "pages hold BLOCK_N tokens)"),
    Mutant("paged_attention.head-stride", PA, "((page.to(tl.int64) * H + head) * PAGE",
           "((page.to(tl.int64) + head) * PAGE", "stride",
           "the pool's pages addressed as if each held one head"),
    Mutant("paged_attention.seq-len-index", PA, "seq_len = tl.load(seq_lens_ptr + seq)",
           "seq_len = tl.load(seq_lens_ptr + head)", "index",
           "the sequence length indexed by head instead of sequence"),
    Mutant("paged_attention.max-init-zero", PA,
           'm_i = tl.full((BLOCK_M, 1), -float("inf"), tl.float32)',
           "m_i = tl.full((BLOCK_M, 1), 0.0, tl.float32)", "init-value",
           "running max initialised to 0 instead of -inf"),
    Mutant("paged_attention.q-read-past", PA, "mask=offs_m[:, None] < M, other=0.0)",
           "mask=offs_m[:, None] <= M, other=0.0)", "oob-read",
           "q read one row past (that row is not stored)"),
    Mutant("paged_attention.out.scale12", PA, _OUT, f"{_OUT} * {SCALE_12}", "output-scale-2^-12",
           "paged attention output scaled by 1 + 2^-12"),
    # ---------------------------------------------------------------- ring_attention
    Mutant("ring_attention.shard-reads-next", RA, "hi = tl.minimum(lo + SHARD, kv_end)",
           "hi = tl.minimum(lo + SHARD + 1, kv_end)", "mask",
           "each shard also reads the next shard's first key (counted twice)"),
    Mutant("ring_attention.block-merge-unscaled", RA,
           "m_s, l_s, o_s = flash_state(m_s, l_s, o_s, m_b, l_b, o_b)",
           "m_s, l_s, o_s = tl.maximum(m_s, m_b), l_s + l_b, o_s + o_b", "rescale",
           "the key blocks of a shard merged without rescaling"),
    Mutant("ring_attention.kv-len-index", RA, "kv_end = tl.load(kv_len_ptr + bh // H)",
           "kv_end = tl.load(kv_len_ptr + bh % H)", "index",
           "kv_len indexed by head instead of batch"),
    Mutant("ring_attention.max-init-zero", RA,
           'm_i = tl.full((BLOCK_M, 1), -float("inf"), tl.float32)',
           "m_i = tl.full((BLOCK_M, 1), 0.0, tl.float32)", "init-value",
           "the running state's max initialised to 0 instead of -inf"),
    Mutant("ring_attention.out.scale12", RA, _OUT, f"{_OUT} * {SCALE_12}", "output-scale-2^-12",
           "ring attention output scaled by 1 + 2^-12"),
]
