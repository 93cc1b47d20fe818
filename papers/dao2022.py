from .core import Claim, Paper

PAPER = Paper(
    id="dao2022",
    title="FlashAttention: Fast and Memory-Efficient Exact Attention with IO-Awareness",
    authors="Tri Dao, Daniel Y. Fu, Stefano Ermon, Atri Rudra, Christopher Ré",
    year=2022, venue="arXiv:2205.14135 (NeurIPS 2022)",
    claims=(
        Claim("Attention can be computed block by block over the keys, keeping only a "
              "running row max, normalizer and rescaled output, and the result is exact "
              "(not an approximation).",
              ("flash_state.associative", "flash_state.identity",
               "flash_state.homomorphism")),
        Claim("The order in which key blocks are merged does not matter.",
              ("flash_state.commutative",)),
        Claim("Blocks of the attention matrix that the mask zeroes entirely can be "
              "skipped (block-sparse FlashAttention; the causal mask is the common case), "
              "but a block that is only partly masked cannot.",
              ("causal_block_skip.skip", "causal_block_skip.drop_diagonal")),
    ))
