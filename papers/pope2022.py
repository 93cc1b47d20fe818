from .core import Claim, Paper

PAPER = Paper(
    id="pope2022", title="Efficiently Scaling Transformer Inference",
    authors="Reiner Pope, Sholto Douglas, Aakanksha Chowdhery, Jacob Devlin, James "
            "Bradbury, Anselm Levskaya, Jonathan Heek, Kefan Xiao, Shivani Agrawal, "
            "Jeff Dean",
    year=2022, venue="arXiv:2211.05102 (MLSys 2023)",
    claims=(
        Claim("During generation the attention keys and values of earlier tokens are "
              "kept (the KV cache) and reused, so each step processes only the new "
              "token, with the same result as running the whole prefix again.",
              ("kv_cache.incremental",), "background on decoding with a KV cache"),
        Claim("The new token's own key and value belong in the cache before it attends.",
              ("kv_cache.forget_newest",), "background on decoding with a KV cache"),
    ))
