"""Teaching text for the serving, distribution, approximation and structure families
(``python -m verify explain``): one ``Teaching`` entry each, merged into
``laws.teaching.TEACHING``. Declarations only."""
from __future__ import annotations

from .teaching_entry import Teaching

ENTRIES = [
    # ------------------------------------------------------------ serving
    Teaching(
        "paged_attention",
        "Does attention care where in memory each key sits? No: it reads keys through a "
        "table and merges per-block states, so blocks may live anywhere.",
        "a block table per sequence (logical block → physical block) and one flash "
        "state per block",
        ("The allocator writes logical block b to physical block table[b]; the kernel "
         "reads block b from table[b]: the gather undoes the scatter.",
         "Each block's (m, l, o) merges with flash_state, which is associative: block "
         "by block equals all at once.",
         "The saving is redundancy removed: no memory reserved for tokens that never "
         "come, and a block shared by sequences with a common prefix is stored once."),
        "vLLM's PagedAttention, FlashInfer and TensorRT-LLM paged KV caches",
        "a table entry that points at another sequence's block "
        "(paged_attention.wrong_entry)"),
    Teaching(
        "radix_attention",
        "Do two requests whose prompts start with the same tokens need two copies of "
        "the prefix's keys and values? No: the state of an identical prefix is the same "
        "state.",
        "a radix tree keyed by tokens, each node holding its prefix's attention state",
        ("Equal tokens at equal positions give equal keys and values, hence an equal "
         "state(prefix).",
         "state(prefix) ⊕ state(suffix) is each request's full attention state "
         "(flash_state is associative).",
         "The match must be exact: a state reused for a different prefix is wrong."),
        "SGLang's RadixAttention, vLLM's automatic prefix caching",
        "reusing a prefix state for a prompt that differs (radix_attention.stale_prefix)"),
    Teaching(
        "continuous_batching",
        "Can requests of different lengths share one kernel launch? Yes, if each row's "
        "padding is the identity of its softmax state.",
        "per request, its keys plus masked padding slots (score −∞, weight exactly 0)",
        ("A padding slot with score −∞ has weight e^(−∞) = 0: it is the identity of the "
         "(m, l, o) monoid and changes no sum.",
         "Rows never read each other's keys, so the batched step is each request's own "
         "step; requests may join and leave between steps.",
         "An unmasked padding slot takes weight from the real keys."),
        "Orca's iteration-level scheduling, vLLM, TensorRT-LLM in-flight batching",
        "letting the padding into the softmax (continuous_batching.padding_in_softmax)"),
    Teaching(
        "speculative_decoding",
        "Can a cheap model's guesses be checked without changing what the large model "
        "would sample? Yes, with the accept/resample rule.",
        "the draft's distribution q and the target's p at the proposed position",
        ("Accept a proposed x with probability min(1, p_x/q_x): x is emitted this way "
         "with probability min(p_x, q_x).",
         "Reject with probability 1 − Σ min(p, q) = Σ max(0, p − q), then sample from "
         "max(0, p − q) normalized by that same sum: adds max(0, p_x − q_x).",
         "min(p_x, q_x) + max(0, p_x − q_x) = p_x, for every x."),
        "speculative sampling in vLLM, TensorRT-LLM, Hugging Face assisted generation",
        "resampling from the residual without normalizing it "
        "(speculative_decoding.no_renormalization)"),
    Teaching(
        "beam_search",
        "Which candidates can the next beam come from? Only each hypothesis's own best "
        "k tokens; but the beam is not the most probable sequence.",
        "k hypotheses with their scores; per step, each one's top-k extensions",
        ("Extension scores h_i + t_i[x] are monotone in t_i[x]: a token outside "
         "hypothesis i's top k is beaten by k of i's own extensions, so it can be "
         "skipped (sparsity), and the top-k of the rest is a top-k merge.",
         "Pruning to k hypotheses is a heuristic: the best sequence may start with a "
         "token that looked worse (beam_search.not_argmax).",
         "So beam search has exact, cheaper steps (sparsity, associativity of the top-k "
         "merge), not an exact search; scores are additive in log-probabilities "
         "(separability), which is what lets prefixes be shared."),
        "beam search in Hugging Face, fairseq, TensorRT-LLM",
        "taking the beam for the argmax (beam_search.not_argmax)"),
    # ------------------------------------------------------------ distribution
    Teaching(
        "ring_attention",
        "Can attention over a sequence too long for one device be split across a ring "
        "of devices? Yes: pass key/value shards around and merge flash states.",
        "per device, the running (m, l, o) of its queries against the shards seen so far",
        ("Each shard's state is a flash_state; merging is associative, so the order "
         "of arrival (a rotation of the ring) does not matter over ℝ.",
         "Each merge must rescale both sides to the common maximum.",
         "The same holds for any associative, commutative combine: sums, max, top-k, "
         "Welford statistics can all ride a ring."),
        "Ring Attention, context parallelism in Megatron-LM and PyTorch",
        "adding the shards' sums without the rescale (ring_attention.no_rescale)"),
    Teaching(
        "ring_allreduce",
        "Can P devices all obtain the sum of their vectors with bandwidth independent "
        "of P? Yes: reduce-scatter then all-gather around a ring.",
        "per device, one chunk's running sum",
        ("In P − 1 steps each chunk travels the ring once, each device adding its own "
         "element; then P − 1 steps copy the finished chunks around.",
         "Chunk c is summed starting at a different device: over ℝ every order gives "
         "the sum (associativity and commutativity).",
         "In floats the order changes the bits, relative to a sum in device order; all "
         "devices still get identical bits (each chunk is summed once, then copied)."),
        "NCCL's ring all-reduce, Horovod, PyTorch DDP",
        "a lost send: one device's element missing from a chunk "
        "(ring_allreduce.dropped_chunk)"),
    Teaching(
        "data_parallel",
        "Can the gradient of a batch be computed in shards? Yes: a mean loss is a sum, "
        "and the gradient is linear.",
        "each device's mean gradient over its shard (and the shard's size)",
        ("∇(1/N)Σℓ_i = Σ_shards (n_s/N)·∇(1/n_s)Σ_{i∈s}ℓ_i.",
         "With equal shards the weights are 1/P: the all-reduce's mean.",
         "Unequal shards need weights by size: the mean of means again."),
        "PyTorch DistributedDataParallel, Horovod",
        "averaging shards of unequal size with equal weights (data_parallel.unequal_shards)"),
    Teaching(
        "fsdp",
        "Does each device need all of the parameters' gradients and optimizer state? "
        "No: an element-wise update separates by coordinate.",
        "each device's shard of parameters, gradients and optimizer state",
        ("All-gather the parameters for the forward and backward pass.",
         "Reduce-scatter the gradients: device d receives the average of its own "
         "coordinates only.",
         "SGD (or Adam) updates each coordinate from its own gradient: the shards' "
         "updates together are the single-device step."),
        "PyTorch FSDP, DeepSpeed ZeRO-3",
        "updating a shard with the local gradient, skipping the reduce-scatter "
        "(fsdp.local_gradient)"),
    Teaching(
        "tensor_parallel",
        "Can one matmul be split across devices? By output columns (no communication) "
        "or by inner rows (an all-reduce of partial products).",
        "each device's slice of W (columns, or rows with the matching inputs)",
        ("Columns: output column c needs only column c of W, and an element-wise "
         "activation acts per column.",
         "Rows: xW = Σ_i x_iW_i, one partial product per device, summed by an "
         "all-reduce.",
         "So an MLP splits its first matmul by columns and its second by rows: one "
         "all-reduce per MLP; the activation must not come after a row split's partial "
         "products."),
        "Megatron-LM's column- and row-parallel linear layers",
        "applying the activation to partial products "
        "(tensor_parallel.activation_before_sum)"),
    # ------------------------------------------------------------ approximation
    Teaching(
        "linformer",
        "Does attention need all n keys? Not if a few projected keys preserve the "
        "scores: the error is bounded by how much the projection moves them.",
        "k ≪ n projected keys EK and values Ev",
        ("With block-mean E, q·(EK)_b is the mean of the block's scores (linearity).",
         "Projected attention = attention over all n positions with each score moved "
         "by at most δ, so every weight changes by a factor in e^{±2δ}.",
         "The output moves by at most (e^{2δ} − 1)/2 times the range of the values."),
        "Linformer, pooled-key attention",
        "claiming the projection exact (linformer.exact)"),
    Teaching(
        "performer",
        "Can exp(q·k) be written as a dot product of features, so attention becomes "
        "linear in n? In expectation, with positive random features.",
        "φ_w(x) = exp(w·x − |x|²/2) for random Gaussian w, averaged over M features",
        ("E[exp(w·(x + y))] = exp(|x + y|²/2) for w ~ N(0, I).",
         "exp(|x + y|²/2 − |x|²/2 − |y|²/2) = exp(x·y): the product is unbiased.",
         "A statistical verdict tests the mean of many draws; it is never a proof, and "
         "a ratio of unbiased estimates (the normalized attention) is itself biased."),
        "Performer's FAVOR+, random-feature attention",
        "dropping the exp(−|x|²/2) normalization (performer.no_positive_normalization)"),
    Teaching(
        "count_min",
        "Does counting need a counter per distinct item? No, if an overestimate is "
        "acceptable: d rows of w shared counters.",
        "d × w counters; each item adds to one counter per row (by hash)",
        ("A counter holds the item's count plus its collisions' counts, all ≥ 0: the "
         "row minimum never underestimates (a proof, for every hash).",
         "Per row the expected overcount is ≤ N/w; with w = e/ε Markov gives "
         "P(over > εN) ≤ 1/e, and d = ln(1/δ) independent rows make it ≤ δ.",
         "The probability claim is checked statistically; with deletions (negative "
         "counts) the first claim fails."),
        "Count-Min sketches for heavy hitters, the book's approximate top-K",
        "counts that can be negative (count_min.with_deletions); a sketch too narrow "
        "(count_min.too_narrow)"),
    Teaching(
        "int4_quantization",
        "Does each weight need 16 bits? No: 4 bits with a scale per small group keep "
        "each weight within half its group's step.",
        "4-bit values q ∈ [−7, 7] and one scale per group of g weights",
        ("s_g = max_{i∈g}|w_i|/7, q = round(w/s_g): |w − s_g q| ≤ s_g/2, |q| ≤ 7.",
         "A group's step depends only on its own largest weight: an outlier costs its "
         "group, not the column."),
        "GPTQ, AWQ, llama.cpp Q4, bitsandbytes NF4",
        "one scale for the whole column (int4_quantization.one_scale)"),
    Teaching(
        "structured_pruning",
        "Which whole units contribute nothing? Those whose outgoing weights are zero: "
        "drop the unit and run a smaller dense layer.",
        "the kept units' columns of W1, biases and rows of W2",
        ("The layer is a sum of per-unit terms relu(x·W1[:, j] + b_j)·W2[j, :] "
         "(separability).",
         "A zero row of W2 makes the unit's term exactly 0 (sparsity), so the unit can "
         "go.",
         "Zero incoming weights are not enough: the bias still fires."),
        "structured pruning in PyTorch, channel and head pruning, LLM-Pruner",
        "pruning a unit for zero incoming weights (structured_pruning.zero_incoming)"),
    # ------------------------------------------------------------ structure
    Teaching(
        "fft_butterfly",
        "Does the DFT of N samples need N² products? No: even and odd samples give two "
        "half-size DFTs, combined by butterflies.",
        "two half-size transforms E and O and the twiddles ω^k",
        ("X_k = Σ_even + ω^k Σ_odd, and ω² is the primitive root of half the size, so "
         "each half is a DFT of size N/2.",
         "ω^{N/2} = −1: X_{k+N/2} = E_k − ω^k O_k reuses the same two values.",
         "log₂N levels of N/2 butterflies: O(N log N)."),
        "FFTW, cuFFT, torch.fft, FFT convolution",
        "butterflies without twiddles (fft_butterfly.no_twiddle)"),
    Teaching(
        "rotary",
        "Can positions be encoded so that a score depends only on the distance between "
        "query and key? Yes: rotate both by angles proportional to their positions.",
        "per pair of dimensions, a frequency θ and the rotation by m·θ",
        ("R_mᵀR_n = R_{n−m}: the rotation of the query is undone by the key's, up to the "
         "difference.",
         "So ⟨R_m q, R_n k⟩ = ⟨q, R_{n−m}k⟩: shifting both positions changes nothing.",
         "Keys cached at their positions stay valid as the sequence grows."),
        "RoPE in LLaMA, Mistral, Qwen",
        "rotating only the query (rotary.query_only)"),
    Teaching(
        "grouped_query_attention",
        "Do several query heads need their own keys and values? Not if their key and "
        "value projections are the same: store them once.",
        "one key/value head per group of query heads",
        ("Equal projections give equal keys and values: the cache keeps one copy.",
         "Each query head attends over the shared keys with its own scores.",
         "Converting a multi-head model by pooling its heads is not exact: it changes "
         "the model."),
        "GQA in LLaMA 2/3 and Mistral, MQA in PaLM and Falcon",
        "mean-pooling distinct heads (grouped_query_attention.mean_pooled)"),
    Teaching(
        "mamba_chunked_scan",
        "Can a linear recurrence be computed chunk by chunk, in parallel? Yes: scan "
        "inside chunks from 0, scan the chunks' summaries, correct each position.",
        "per chunk, its decay Π a and final local state; per position, the local state "
        "and the decay so far",
        ("A chunk is the affine map h ↦ (Π a)·h + l_end, and affine maps compose "
         "associatively (linear_recurrence).",
         "The state entering chunk c is the scan of the chunk maps before it.",
         "Inside the chunk: h_t = l_t + (Π_{s≤t} a_s)·h_in."),
        "Mamba and Mamba-2 chunked scan kernels",
        "adding the carried state without its decay (mamba_chunked_scan.no_decay_carry)"),
    Teaching(
        "quadratic_recurrence",
        "Which of the six properties does h_t = h_{t−1}² + x_t have? None: the book's "
        "exercise asks for such a computation.",
        "none of fixed size: a chunk's effect is a polynomial whose degree doubles per step",
        ("Two steps compose to (h² + x₁)² + x₂, degree 4 in h; n steps to degree 2ⁿ, so "
         "no summary of fixed size chunks it (unlike the affine h ↦ a·h + b).",
         "Every h_t depends on every earlier x through the chain: no locality; nothing "
         "is zero, repeated or invariant.",
         "What remains is constant-factor work: keep h in registers, fuse the loop."),
        "",
        "summarizing two steps as one step of the same form "
        "(quadratic_recurrence.closed_summary)"),
]
