"""The planted bugs of the project's kernels: one row per bug, each a kernel, a name (the
key of the certificate's ``planted`` section), the real bug it models, and the edits
(snippet → replacement, each snippet occurring exactly once in today's source) that
planting.py applies to a scratch copy of the kernel's module. Every row must make its
kernel's certificate fail; the mutation suite (tests/mutations/) runs the same rows.

Adding a kernel: add its rows here; a snippet that no longer occurs exactly once is an
error (tests/certification/test_planting.py checks every row against the source).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Planted:
    """A planted bug of ``kernel``: each ``(snippet, replacement)`` of ``edits`` applied
    in turn to a scratch copy of ``file`` (relative to the project root; default the
    kernel's module ``impls/<kernel>.py``); ``models`` names the real bug it stands for."""

    kernel: str
    name: str
    models: str
    edits: tuple[tuple[str, str], ...]
    file: str = ""

    @property
    def path(self) -> str:
        return self.file or f"impls/{self.kernel}.py"

_SOFTMAX_STAT_LOAD = ('inside = cols < n_cols\n'
                      '        x = tl.load(x_row + cols, mask=inside, other=-float("inf"))'
                      '.to(tl.float32)\n        ones')

# Welford's merge with M2 merged by adding, without the between-group term δ²·n_A·n_B/n
_VARIANCE_ADD = (
    ("@triton.jit\ndef row_statistics(",
     "@triton.jit\ndef _merge_adding_variances(a_n, a_mean, a_m2, b_n, b_mean, b_m2):\n"
     "    n = a_n + b_n\n"
     "    safe_n = tl.where(n == 0, 1.0, n)\n"
     "    return n, a_mean + (b_mean - a_mean) * (b_n / safe_n), a_m2 + b_m2\n\n\n"
     "@triton.jit\ndef row_statistics("),
    ("b_n, b_mean, b_m2 = tl.reduce(lanes, 0, welford)\n"
     "        count, mean, m2 = welford(count, mean, m2, b_n, b_mean, b_m2)",
     "b_n, b_mean, b_m2 = tl.reduce(lanes, 0, _merge_adding_variances)\n"
     "        count, mean, m2 = _merge_adding_variances(count, mean, m2, b_n, b_mean, b_m2)"),
)
_ROW_STAT_LOAD = ("inside = cols < n_cols\n"
                  "        x = tl.load(x_row + cols, mask=inside, other=0.0).to(tl.float32)\n"
                  "        ones")

_PAGE_LOOKUP = "page = tl.load(table_row + offs_n // PAGE, mask=visible, other=0)"
_RING_MERGE = "m_i, l_i, acc = flash_state(m_i, l_i, acc, m_s, l_s, o_s)"

ROWS: tuple[Planted, ...] = (
    # ---------------------------------------------------------------- softmax
    Planted("softmax", "rescale_dropped",
            "block states and running state merged without rescaling the sums to the "
            "new maximum (in the block reduction and across blocks)",
            (("@triton.jit\ndef _softmax_kernel(",
              "@triton.jit\ndef _merge_without_rescale(a_m, a_s, b_m, b_s):\n"
              "    return tl.maximum(a_m, b_m), a_s + b_s\n\n\n"
              "@triton.jit\ndef _softmax_kernel("),
             ("block_m, block_s = tl.reduce((x, ones), 0, online_softmax)\n"
              "        m, s = online_softmax(m, s, block_m, block_s)",
              "block_m, block_s = tl.reduce((x, ones), 0, _merge_without_rescale)\n"
              "        m, s = _merge_without_rescale(m, s, block_m, block_s)"))),
    Planted("softmax", "mask_off_by_one",
            "the statistics pass loads one column too few (mask off by one)",
            ((_SOFTMAX_STAT_LOAD,
              _SOFTMAX_STAT_LOAD.replace("cols < n_cols", "cols < n_cols - 1")),)),
    # ---------------------------------------------------------------- attention
    Planted("attention", "rescale_dropped",
            "the old accumulator keeps its stale scale when the running maximum grows",
            (("        m_i, l_i, acc = flash_state(m_i, l_i, acc, m_b, l_b, o_b)\n",
              "        m_new, l_new, acc_new = flash_state(m_i, l_i, acc, m_b, l_b, o_b)\n"
              "        _, _, acc_new = flash_state(m_new, l_i, acc, m_b, l_b, o_b)\n"
              "        m_i, l_i, acc = m_new, l_new, acc_new\n"),)),
    Planted("attention", "diagonal_block_skipped",
            "causal block skipping also skips the key block on the diagonal",
            (("hi = tl.minimum(kv_end, start_m + BLOCK_M)", "hi = tl.minimum(kv_end, start_m)"),)),
    Planted("attention", "m_starts_at_zero",
            "the running maximum starts at 0 instead of −∞",
            (('m_i = tl.full((BLOCK_M, 1), -float("inf"), tl.float32)',
              "m_i = tl.full((BLOCK_M, 1), 0.0, tl.float32)"),)),
    Planted("attention", "max_before_mask",
            "the block maximum is taken over the masked scores too",
            (('s = tl.where(visible, s, -float("inf"))\n'
              "        m_b = tl.max(s, axis=1, keep_dims=True)",
              "m_b = tl.max(s, axis=1, keep_dims=True)\n"
              '        s = tl.where(visible, s, -float("inf"))'),)),
    # ---------------------------------------------------------------- paged_attention
    Planted("paged_attention", "page_off_by_one",
            "the page index off by one: the last token of every page is looked up through "
            "the next logical page's table entry (its page computed from n + 1)",
            ((_PAGE_LOOKUP, _PAGE_LOOKUP.replace("offs_n // PAGE", "(offs_n + 1) // PAGE")),)),
    Planted("paged_attention", "table_ignored",
            "the block table ignored: logical page i read from physical page i, as a "
            "kernel written for a contiguous cache does",
            ((_PAGE_LOOKUP, "page = offs_n // PAGE"),)),
    # ---------------------------------------------------------------- ring_attention
    Planted("ring_attention", "rescale_dropped_between_shards",
            "the shards' (ℓ, o) added around the ring without rescaling to the common "
            "maximum, each still relative to its own (ring_attention.no_rescale)",
            ((_RING_MERGE, "m_i, l_i, acc = tl.maximum(m_i, m_s), l_i + l_s, acc + o_s"),)),
    Planted("ring_attention", "ring_stops_early",
            "the ring stops one step early: the last shard to arrive is never merged",
            (("for step in range(0, SHARDS):", "for step in range(0, SHARDS - 1):"),)),
    # ---------------------------------------------------------------- matmul
    Planted("matmul", "k_tail_dropped", "the last partial K tile is never loaded",
            (("for k0 in range(0, K, BLOCK_K):",
              "for k0 in range(0, (K // BLOCK_K) * BLOCK_K, BLOCK_K):"),)),
    # ---------------------------------------------------------------- int8_matmul
    Planted("int8_matmul", "scale_per_row",
            "the scale indexed by the row, not the output channel",
            (("    s = tl.load(s_ptr + offs_n, mask=offs_n < N, other=0.0)\n"
              "    y = acc * s[None, :]\n",
              "    s = tl.load(s_ptr + offs_m, mask=offs_m < N, other=1.0)\n"
              "    y = acc * s[:, None]\n"),)),
    Planted("int8_matmul", "quantizer_floors",
            "the quantizer floors W/s instead of rounding it",
            (("wq = torch.clamp(torch.round(w / s), -127, 127)",
              "wq = torch.clamp(torch.floor(w / s), -127, 127)"),)),
    # ---------------------------------------------------------------- var_mean, layer_norm
    Planted("var_mean", "variance_add",
            "partial M2 merged by adding, without the between-group term", _VARIANCE_ADD),
    Planted("var_mean", "mask_off_by_one",
            "the row statistics load one column too few (mask off by one)",
            ((_ROW_STAT_LOAD, _ROW_STAT_LOAD.replace("cols < n_cols", "cols < n_cols - 1")),)),
    Planted("layer_norm", "eps_outside_sqrt", "rstd = 1/(√var + eps) instead of 1/√(var + eps)",
            (("rstd = tl.div_rn(1.0, tl.sqrt_rn(var + eps))",
              "rstd = tl.div_rn(1.0, tl.sqrt_rn(var) + eps)"),)),
    Planted("layer_norm", "variance_add",
            "partial M2 merged by adding, without the between-group term (in the row "
            "statistics layer_norm shares with var_mean)", _VARIANCE_ADD,
            file="impls/var_mean.py"),
    # ---------------------------------------------------------------- scan, linear_scan
    Planted("scan", "wrong_merge_order",
            "each block's carry sums the totals of the later blocks, not the earlier ones",
            (("for i in range(0, blk):", "for i in range(blk + 1, n_blocks):"),)),
    Planted("scan", "carry_dropped", "the carry of the earlier blocks is never added",
            (("y = combines.add(carry, prefix)", "y = prefix"),)),
    Planted("linear_scan", "wrong_merge_order",
            "the carry applied after the block's prefix instead of before it (the "
            "non-commutative combine's operands swapped)",
            (("_, h = combines.linear_recurrence(carry_a, carry_b, pre_a, pre_b)",
              "_, h = combines.linear_recurrence(pre_a, pre_b, carry_a, carry_b)"),)),
    Planted("linear_scan", "carry_dropped", "the carry of the earlier blocks is never applied",
            (("_, h = combines.linear_recurrence(carry_a, carry_b, pre_a, pre_b)",
              "h = pre_b"),)),
    Planted("selective_scan", "no_decay_in_carry",
            "the carried state is added without the chunk's decay",
            (("_, h = combines.linear_recurrence(carry_a[None, :], carry_b[None, :], pre_a, pre_b)",
              "h = carry_b[None, :] + pre_b"),)),
    # ---------------------------------------------------------------- matmul family
    Planted("lora", "wrong_order",
            "the factors in reverse order, y = xW + x(BA)ᵀ: the layout mix-up of storing A "
            "as (r, d_in) and B as (d_out, r); shapes allow it only when d_in = d_out",
            (("    return _launch(x, w, b, (r, 1), a, (d_out, 1), r)\n",
              "    if d_out != d_in:\n"
              '        raise ValueError("lora: the reversed order needs d_in = d_out")\n'
              "    return _launch(x, w, a, (1, d_in), b, (1, r), r)\n"),)),
    # ---------------------------------------------------------------- nbody
    Planted("nbody", "asymmetric_force",
            "body j's reaction uses body i's mass twice (Newton's third law broken)",
            (("    # newton_third_law.antisymmetric: body j receives −Fᵢⱼ\n",
              "    f = tl.where(pair, (gm_i[:, None] * m_i[:, None]) * inv, 0.0)\n"
              "    # newton_third_law.antisymmetric: body j receives −Fᵢⱼ\n"),)),
    # ---------------------------------------------------------------- topk
    Planted("topk", "merge_drops_ties",
            "the merge levels compare values only, so on equal values one key is "
            "duplicated and the other lost",
            (("def _top_keys(keys, R: tl.constexpr, LOG_N: tl.constexpr, LOG_K: tl.constexpr):",
              "def _top_keys(keys, R: tl.constexpr, LOG_N: tl.constexpr, LOG_K: tl.constexpr,\n"
              "              TIES_COLLIDE: tl.constexpr = False):"),
             ("                small, large = tl.minimum(lo, hi), tl.maximum(lo, hi)\n",
              "                if TIES_COLLIDE:\n"
              "                    small = tl.where((lo >> 32) <= (hi >> 32), lo, hi)\n"
              "                    large = tl.where((lo >> 32) >= (hi >> 32), lo, hi)\n"
              "                else:\n"
              "                    small, large = tl.minimum(lo, hi), tl.maximum(lo, hi)\n"),
             ("top = _top_keys(keys, GROUPS, LOG_M, LOG_KP)",
              "top = _top_keys(keys, GROUPS, LOG_M, LOG_KP, True)"))),
    Planted("topk", "truncated", "each chunk keeps only its k − 1 largest candidates",
            (("    slot = tl.arange(0, KP)[None, :]\n    tl.store(cand_ptr",
              "    slot = tl.arange(0, KP)[None, :]\n"
              "    top = tl.where(slot < k - 1, top, -2**63)\n    tl.store(cand_ptr"),)),
    Planted("topk", "signed_zero_distinct", "−0 keyed below +0 (the sign bit of zero kept)",
            (("    v = tl.where(magnitude == 0, 0, v)\n", ""),)),
    Planted("topk", "nan_by_bits",
            "NaNs ordered by their bits (a negative NaN then sorts below −∞)",
            (("    v = tl.where(magnitude > INF_BITS, ABS_MASK, v)\n", ""),)),
)
