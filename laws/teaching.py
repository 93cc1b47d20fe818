"""Teaching text for ``python -m verify explain``: one entry per law family.

Each entry answers four things a learner needs to recognize the property in new code:
the *question* to ask of a computation, the *state* that makes the fast version work,
a *derivation* in a few lines, and *where* real systems use it. Families without an
entry get a text built from the law's own fields (``generic``), so every law in the
catalog can be explained. Declarations only: nothing here runs a check.
"""
from __future__ import annotations

from .core import FAILS, Law, Property
from .teaching_entry import Teaching
from .teaching_systems import ENTRIES as _SYSTEMS  # the serving, distribution, … families


# The recognizing question of each property, for families without their own entry.
QUESTIONS = {
    Property.ASSOCIATIVITY: "If I split the computation in half, can I combine the "
                            "two halves' results, in any grouping?",
    Property.SEPARABILITY: "Does the computation factor: a sum or product of pieces "
                           "that each depend on fewer of the inputs?",
    Property.LOCALITY: "Which inputs can one output actually see, and is that set "
                       "small and nearby?",
    Property.SPARSITY: "Which terms are exactly zero (or never selected), so that "
                       "skipping them changes nothing?",
    Property.REDUNDANCY: "Is something computed twice, or stored more precisely than "
                         "the answer needs?",
    Property.SYMMETRY: "Does reordering, shifting or swapping the inputs change the "
                       "result in a predictable way (or not at all)?",
}

_MONOID_STEPS = (
    "Associativity: the grouping of ⊕ does not matter, so any tree of partial results "
    "(chunks, thread blocks, devices) gives the fold's answer.",
    "Identity: an empty chunk or a masked lane holds e and changes nothing.",
    "Homomorphism: lower(lift(x₁) ⊕ … ⊕ lift(xₙ)) = spec(x₁, …, xₙ), so the fold of "
    "chunk states computes the specification.",
)

_ENTRIES = [
    # ------------------------------------------------------------ associativity
    Teaching(
        "sum",
        "If I split the sum in half, can I add the two partial sums? Yes: addition "
        "regroups and reorders freely over the reals.",
        "one number, the partial sum (identity 0)",
        ("(a + b) + c = a + (b + c) and a + b = b + a over ℝ.",
         "So Σ over a tree of chunks equals Σ left to right.",
         "In floats each addition rounds: regrouping changes the result in the last "
         "bits (the float verdicts show where), bounded by γ₍ₙ₋₁₎Σ|xᵢ| sequentially and "
         "γ₍⌈log₂n⌉₎Σ|xᵢ| for a tree."),
        "tree reductions in every GPU sum (torch.sum), cuBLAS split-K, CUB block scans",
        "subtraction does not regroup; rewrite a − b − c as a + (−b) + (−c)"),
    Teaching(
        "count",
        "Can I count in chunks and add the chunk counts? Yes: counts are sums of ones.",
        "one natural number per chunk (identity 0)",
        ("count(x₁..xₙ) = Σ 1, a sum, so it inherits the sum's associativity.",
         "Integer addition is exact in every integer format short of overflow."),
        "histograms, token counts per expert in MoE routing, mask counts"),
    Teaching(
        "mean",
        "If I split the data, can I combine the two halves' means? Not from the means "
        "alone: I need how many items each mean covers.",
        "(Σ, n): the sum and the count; the mean is Σ/n, computed at the end",
        ("mean(A ∪ B) = (Σ_A + Σ_B)/(n_A + n_B).",
         "(Σ, n) ⊕ (Σ', n') = (Σ + Σ', n + n') is a sum of pairs, hence associative "
         "with identity (0, 0).",
         "mean(mean(a, b), c) = (a + b)/4 + c/2, but mean(a, b, c) = (a + b + c)/3: "
         "averaging the means weights every chunk equally, which is right only for "
         "chunks of equal size."),
        "torch.mean's chunked reductions, running metrics in training loops",
        "averaging chunk means without their counts (mean.of_means)"),
    Teaching(
        "subtraction",
        "Does a − b regroup? No: (a − b) − c ≠ a − (b − c) whenever c ≠ 0.",
        "none: the fix is to change the operation, a − b = a + (−b)",
        ("(a − b) − c = a − b − c, a − (b − c) = a − b + c: they differ by 2c.",
         "Negate the data first; then the sum's monoid applies."),
        "every parallel 'difference' reduction is a sum of negated terms"),
    Teaching(
        "max",
        "If I split the row in half, is the maximum the larger of the two halves' "
        "maxima? Yes, and taking it twice does no harm.",
        "one number, the running maximum (identity −∞)",
        ("max(max(a, b), c) = max(a, max(b, c)) = the largest of the three.",
         "max(a, a) = a (idempotent): overlapping chunks are harmless.",
         "No rounding happens: max is exact in every float format."),
        "the max pass of a safe softmax, max-pooling, torch.amax"),
    Teaching(
        "argmax",
        "If I split the row, can I merge the two halves' (value, index) winners? Yes, "
        "if ties are broken by a rule that does not depend on the order of merging.",
        "(value, index), ties to the lower index (identity (−∞, +∞))",
        ("(v, i) ⊕ (v', i') picks the lexicographic maximum of (v, −i).",
         "A lexicographic maximum is a maximum in a total order, hence associative and "
         "commutative.",
         "Without the tie rule, 'keep the left one on ties' is associative but not "
         "commutative: merging chunks in arrival order would change the index."),
        "greedy decoding over a sharded vocabulary, torch.argmax's first-index rule"),
    Teaching(
        "welford",
        "If I split the data, can I combine the two halves' mean and variance? Yes, "
        "with the count and a correction for the distance between the two means.",
        "(n, μ, M₂): count, mean, and the sum of squared deviations from the mean",
        ("n = n_A + n_B, δ = μ_B − μ_A, μ = μ_A + δ·n_B/n.",
         "M₂ = M₂A + M₂B + δ²·n_A·n_B/n (Chan et al.): each half's deviations are "
         "measured from its own mean; moving them to the common mean adds "
         "n_A(μ − μ_A)² + n_B(μ − μ_B)², which simplifies to δ²n_An_B/n.",
         "variance = M₂/n. The merge never subtracts large nearly equal numbers, so it "
         "stays accurate when |mean| ≫ std, unlike Σx²/n − (Σx/n)²."),
        "LayerNorm and BatchNorm statistics, torch.var_mean, Apex's fused layer norm",
        "adding the M₂ of the chunks without the δ² correction (welford.variance_add)"),
    Teaching(
        "pooled_variance",
        "Can variance be chunked with plain sums? Over ℝ yes, (n, Σx, Σx²) is a sum "
        "monoid; in floats it cancels catastrophically.",
        "(n, Σx, Σx²); variance = Σx²/n − (Σx/n)²",
        ("Each component is a sum, so the combine is associative and commutative.",
         "The lower step subtracts two numbers of size mean²: when |mean| ≫ std every "
         "significant digit cancels. Welford's state avoids that subtraction."),
        "textbook one-pass variance; the reason kernels use Welford instead"),
    Teaching(
        "median",
        "If I split the data, is the median the median of the chunks' medians? No: "
        "a chunk's median forgets how the rest of the chunk is spread.",
        "no bounded state works: an exact chunked median needs the chunks' full "
        "contents (or a selection algorithm over all of them)",
        ("With chunks (1, 2, 9), (3, 4, 9), (5, 6, 9) the chunk medians are 2, 4, 6, "
         "whose median is 4, but the median of all nine values is 5.",
         "The median of medians only bounds the rank: of three chunks of three it is "
         "the 4th, 5th or 6th of the nine values (with groups of five, between about "
         "30% and 70% of the data), which is what linear-time selection uses."),
        "approximate quantile sketches (t-digest, KLL) exist precisely because the "
        "exact median does not chunk",
        "median of medians"),
    Teaching(
        "mode",
        "Is the most frequent value the most frequent of the chunks' modes? No: a "
        "value can be second in every chunk and first overall.",
        "the full histogram: a count monoid per distinct value",
        ("Chunks (1, 1, 2), (3, 3, 2), (4, 4, 2) have modes 1, 3, 4, but 2 occurs "
         "three times overall and wins: each chunk's mode forgot the runner-up.",
         "Keeping every value's count makes it a sum of histograms, which chunks."),
        "chunked histograms (torch.bincount per block, then summed)",
        "mode of modes"),
    Teaching(
        "linear_recurrence",
        "Can hₜ = aₜhₜ₋₁ + bₜ be split in time? Yes: each chunk is an affine map h ↦ "
        "Ah + B, and affine maps compose.",
        "(A, B): the chunk's map h ↦ A·h + B (identity (1, 0))",
        ("First (a, b), then (a', b'): h ↦ a'(a·h + b) + b' = (a·a')h + (a'·b + b').",
         "Composition of functions is associative, so a parallel scan over the pairs "
         "gives every hₜ in O(log n) depth.",
         "It is not commutative: the order of time steps matters."),
        "Mamba's selective scan, S5, linear RNNs, parallel IIR filters"),
    Teaching(
        "affine_recurrence",
        "Does the scalar-recurrence trick extend to vector states? Yes: hₜ = Aₜhₜ₋₁ + "
        "bₜ composes as (A, b) ⊕ (A', b') = (A'A, A'b + b').",
        "(A, b) with A a matrix: the chunk's affine map",
        ("The pair is the homogeneous matrix [[A, b], [0, 1]].",
         "Composition is a matrix product, which is associative."),
        "S5 and linear recurrent units with dense transitions"),
    Teaching(
        "power_by_squaring",
        "Can n copies of x be combined in log n steps? Yes, for any associative ⊕.",
        "x, x², x⁴, …: repeated squares of the running power",
        ("xⁿ = (x^(n/2))² for even n, x·xⁿ⁻¹ for odd n.",
         "Both shapes give the same word x·x·…·x in the free monoid, so they agree "
         "for every associative operation (no commutativity needed)."),
        "matrix powers, fast exponentiation, jump-ahead in random number generators"),
    Teaching(
        "blelloch_scan",
        "Can a prefix scan run in O(log n) depth? Yes, if ⊕ is associative and has an "
        "identity.",
        "a balanced tree of partial results: up-sweep sums, down-sweep prefixes",
        ("The up-sweep builds partial sums over aligned blocks; the down-sweep hands "
         "each block the combination of everything to its left.",
         "Evaluated in the free monoid both give x₁, x₁x₂, …: equal for every "
         "associative ⊕, in order (not commutative)."),
        "CUB's block scan, tl.associative_scan, stream compaction"),
    Teaching(
        "chunked_fold",
        "Does folding chunk results equal folding everything? Yes, for contiguous "
        "chunks and any associative ⊕.",
        "one partial result per contiguous chunk",
        ("fold(chunk₁) ⊕ … ⊕ fold(chunkₘ) is a regrouping of x₁ ⊕ … ⊕ xₙ.",
         "Reordering the chunks needs commutativity as well."),
        "split-K GEMM, multi-block reductions, gradient accumulation"),
    Teaching(
        "online_softmax",
        "If I split the softmax row, can I combine the two halves' normalizers? Yes, "
        "if each half carries its own maximum and rescales to the larger one.",
        "(m, d): the chunk's maximum and d = Σ exp(xᵢ − m) (identity (−∞, 0))",
        ("d·e^m = Σ exp(xᵢ), so two chunks give d·e^m + d'·e^m'.",
         "Rescale both to M = max(m, m'): (M, d·e^(m−M) + d'·e^(m'−M)). Every "
         "exponent is ≤ 0, so nothing overflows.",
         "The state is lowered to log-sum-exp: m + log d = log Σ exp(xᵢ)."),
        "every fused softmax (Milakov & Gimelshein's online softmax), FlashAttention",
        "rescaling only the left sum: wrong whenever the left chunk holds the strictly "
        "larger maximum, since the right sum then stays scaled to its own smaller "
        "maximum (online_softmax.no_rescale)"),
    Teaching(
        "flash_state",
        "Can attention over the keys be split in blocks and merged? Yes: carry the "
        "online-softmax state and the unnormalized output, all rescaled together.",
        "(m, l, o): row maximum, normalizer l = Σ e^(s−m), and o = Σ e^(s−m)·v",
        ("Both l and o are sums scaled by e^(−m): rescale both by α = e^(m−M), "
         "β = e^(m'−M) with M = max(m, m').",
         "The answer is o/l, divided once at the end."),
        "FlashAttention 1–3, PyTorch's scaled_dot_product_attention"),
    Teaching(
        "topk_merge",
        "Can the k largest be found chunk by chunk? Yes, if each chunk keeps k "
        "candidates: the overall winners are among the chunks' winners.",
        "the chunk's top k values, sorted (identity: k copies of −∞)",
        ("Each overall top-k element is in the top k of its own chunk (at most k−1 "
         "larger elements exist anywhere).",
         "So top_k of the union of the chunks' top k is the top k of everything."),
        "torch.topk on GPU, beam search, vector-search shards",
        "keeping only k−1 per chunk: one chunk may hold all k winners"),
    # ------------------------------------------------------------ separability
    Teaching(
        "lora",
        "Does the weight update factor into thin pieces? Yes: a rank-r update BA can "
        "be applied as two thin products without forming it.",
        "the factors B (d×r) and A (r×k): r(d + k) numbers instead of dk",
        ("x(W + BA) = xW + x(BA) by distributivity.",
         "x(BA) = (xB)A by associativity of the matrix product: m·r·(d + k) flops.",
         "(xA)B is a different matrix: products do not commute."),
        "LoRA fine-tuning in PEFT, multi-adapter serving in S-LoRA and vLLM",
        "applying the factors in the wrong order (lora.wrong_order)"),
    Teaching(
        "low_rank_truncation",
        "How much is lost by keeping only r singular directions? Exactly σ₍ᵣ₊₁₎ in "
        "the spectral norm, and no rank-r matrix does better.",
        "the top r singular triples (σₜ, uₜ, vₜ)",
        ("A − A_r = Σ_{t>r} σₜuₜvₜᵀ, whose largest singular value is σ₍ᵣ₊₁₎.",
         "Eckart–Young–Mirsky: every rank-r matrix errs by at least σ₍ᵣ₊₁₎.",
         "So |(Ax − A_r x)ᵢ| ≤ σ₍ᵣ₊₁₎‖x‖₂."),
        "SVD compression of linear layers, PiSSA and SVD-LLM"),
    Teaching(
        "matmul_reassociation",
        "Two linear maps in a row: multiply them first, or keep them apart? Either, "
        "since (xW₁)W₂ = x(W₁W₂); pick the cheaper grouping.",
        "the premultiplied weight W₁W₂, or the thin chain W₁, W₂",
        ("Matrix multiplication is associative.",
         "Cost m·h·(d + k) for the chain against m·d·k for the merged weight (plus "
         "d·h·k once to merge)."),
        "merging a LoRA adapter (merge_and_unload), absorbed projections in "
        "DeepSeek-V2's latent attention"),
    Teaching(
        "separable_conv",
        "Does the 2-D kernel factor as an outer product u vᵀ? Then filter the rows with "
        "v and the columns with u.",
        "the two 1-D kernels u and v",
        ("Σₐ Σ_b uₐv_b X[i+a][j+b] = Σₐ uₐ (Σ_b v_b X[i+a][j+b]).",
         "kh + kw multiplies per output instead of kh·kw.",
         "A rank-2 kernel needs two such passes, summed."),
        "Gaussian and box blurs (OpenCV sepFilter2D), Sobel filters",
        "splitting a kernel that is not rank 1 (separable_conv.rank2_kernel)"),
    # ------------------------------------------------------------ locality
    Teaching(
        "block_matmul",
        "Which part of A and B does one tile of C need? One row band of A and one "
        "column band of B, consumed block by block.",
        "one bm×bn accumulator tile, updated with bm×bk and bk×bn input tiles",
        ("c_ij = Σₖ a_ik b_kj, split over inner blocks K: (AB)_IJ = Σ_K A_IK B_KJ.",
         "Each tile of C reads its blocks once from slow memory, reuses them from fast "
         "memory."),
        "cuBLAS, CUTLASS, every Triton matmul"),
    Teaching(
        "sliding_window_attention",
        "Which keys can a query see? Only those within w positions: the rest have "
        "weight exactly 0.",
        "the band of scores |i − j| ≤ w, with a safe softmax over it",
        ("Masked scores are −∞, whose exponential is exactly 0.",
         "So the dense masked softmax equals a softmax over the window alone: O(n·w) "
         "scores instead of O(n²)."),
        "Longformer, Mistral's sliding-window attention, FlashAttention's window_size"),
    Teaching(
        "stencil_radius",
        "How far can a change in the input travel in one step? At most the stencil "
        "radius R.",
        "the window [i − R, i + R] of each output",
        ("Output i is a weighted sum of inputs i−R … i+R.",
         "Changing any input outside that window leaves output i unchanged, which is "
         "what z3 proves, one output at a time."),
        "halo exchange in domain decomposition, temporal blocking"),
    Teaching(
        "tiled_conv",
        "What must a tile load to compute its outputs? Its own inputs plus a halo of R "
        "on each side.",
        "an input buffer of the tile plus R neighbours per side",
        ("Tile [s, e) of outputs reads inputs [s − R, e + R).",
         "Without the halo, edge outputs read the neighbour's inputs as zeros."),
        "cuDNN's and Halide's tiled stencils, Triton convolution kernels",
        "loading the tile without its halo (tiled_conv.no_halo)"),
    # ------------------------------------------------------------ sparsity
    Teaching(
        "causal_block_skip",
        "Which key blocks can a causal query see? Only those up to its own block: the "
        "rest are fully masked and contribute exactly nothing.",
        "the flash_state of each visible key block, merged",
        ("Masked scores are −∞: weight exactly 0, so skipping those blocks changes no "
         "sum.",
         "Only the diagonal block needs a mask inside it."),
        "FlashAttention's causal path, scaled_dot_product_attention(is_causal=True)",
        "skipping the diagonal block too (causal_block_skip.drop_diagonal)"),
    Teaching(
        "moe_topk",
        "Which experts contribute to a token? Only the k selected ones: the others' "
        "gates are exactly 0.",
        "the top-k logits and their experts' outputs",
        ("The gate is e^(h_e) inside the top k and 0 outside.",
         "So the dense weighted sum equals the sum over the k routed experts: k/E of "
         "the expert flops."),
        "sparsely-gated MoE, Switch Transformer, Mixtral"),
    Teaching(
        "relu_skip",
        "Which terms of relu(x)·W are zero? Those with xᵢ ≤ 0: skip their weight rows.",
        "the indices of positive activations",
        ("relu(x) = max(x, 0) is exactly 0 where x ≤ 0.",
         "Those rows contribute 0·W_i = 0 (for finite weights)."),
        "activation-sparse inference in PowerInfer and Deja Vu"),
    Teaching(
        "spmv_skip_zeros",
        "Which products in Ax are zero by structure? Those at structural zeros of A: "
        "store and multiply only the nonzeros.",
        "the CSR arrays: values, column indices, row pointers",
        ("(Ax)ᵢ = Σⱼ a_ij x_j, and a_ij = 0 terms add nothing.",
         "nnz multiplies instead of m·n."),
        "cuSPARSE, torch.sparse.mm, SciPy sparse solvers"),
    # ------------------------------------------------------------ redundancy
    Teaching(
        "int8_quantization",
        "Does each weight need 32 bits? No: 8 bits and one scale per channel keep "
        "every element within half a quantization step.",
        "int8 values q and one float scale s per output channel",
        ("s = max|W|/127, q = round(W/s), so |W/s − q| ≤ 1/2 and |q| ≤ 127.",
         "|W − s·q| ≤ s/2 per element; summed in a matmul, |(xW)_c − s_c(xq)_c| ≤ "
         "Σ|xᵢ|·s_c/2."),
        "TensorRT, PyTorch quantized linear layers, LLM.int8(), bitsandbytes",
        "rounding the scale instead of the values (int8_quantization.round_scale)"),
    Teaching(
        "kv_cache",
        "Does decoding step t need to recompute the past tokens' keys and values? No: "
        "under causal attention they never change.",
        "per layer, the keys and values of tokens 0 … t−1",
        ("Position j's layer outputs depend only on tokens ≤ j (causality).",
         "So its keys and values are the same at every later step: compute once, "
         "append the new token's, attend."),
        "the KV cache of every LLM serving system (vLLM, TensorRT-LLM, generate)",
        "attending before appending the new token (kv_cache.forget_newest)"),
    Teaching(
        "prefix_cache",
        "Do two requests sharing a prompt prefix need to attend over it twice? No: "
        "the prefix's attention state merges with each suffix's.",
        "the prefix's flash_state (m, l, o)",
        ("Attention over prefix ∪ suffix is a flash_state fold, which is associative.",
         "So state(prefix) ⊕ state(suffix) is the full attention state."),
        "FlashInfer's cascade attention, SGLang's RadixAttention, vLLM prefix caching"),
    # ------------------------------------------------------------ symmetry
    Teaching(
        "attention_permutation",
        "Does the order of queries or keys matter? Permuting queries permutes the "
        "output rows; permuting keys with their values changes nothing.",
        "none beyond the attention itself: the symmetry is the license",
        ("Softmax acts row by row: P·S gives P·Attn(S, V).",
         "The weighted sum over keys is a sum: permuting its terms changes nothing.",
         "A transposition and an n-cycle generate every permutation, so checking those "
         "two suffices."),
        "query-block parallelism, paged KV caches, ring attention"),
    Teaching(
        "barnes_hut",
        "Does a distant cluster need every body? No: its centre of mass stands in for "
        "it, with an error bounded by the opening angle.",
        "each tree cell's total mass and centre of mass",
        ("Expand the field around the centre of mass: the first-order term vanishes "
         "because Σ m_k δ_k = 0.",
         "The remainder is bounded by (3M/d²)·θ²/(1 − θ)⁴ with θ = s/d."),
        "GADGET, t-SNE's Barnes–Hut gradient, molecular simulations"),
    Teaching(
        "conv_translation",
        "Does shifting the input shift the output? For circular convolution, exactly.",
        "the filter w, shared by every position",
        ("Both sides are Σₜ w[t]·x[(i − k − t) mod N].",
         "A shift coprime to N generates every circular shift."),
        "weight sharing in convolution layers, FFT convolution, FNO layers"),
    Teaching(
        "newton_third_law",
        "Is the pair force antisymmetric? Yes: compute it once and apply it to both "
        "bodies with opposite signs.",
        "one force per unordered pair",
        ("F(rᵢ, rⱼ) = G·mᵢmⱼ(rⱼ − rᵢ)/(|rⱼ − rᵢ|² + ε²)^{3/2}.",
         "Swapping i and j negates rⱼ − rᵢ and leaves everything else unchanged."),
        "GROMACS and LAMMPS neighbour lists, symmetric N-body codes",
        "accelerations are not antisymmetric: they differ by the mass ratio"),
    Teaching(
        "real_fft_symmetry",
        "Is half of a real signal's spectrum redundant? Yes: X[N − k] = conj(X[k]).",
        "the N/2 + 1 bins 0 … N/2",
        ("For real x, conj(X[k]) = Σ x[m]·e^{+2πimk/N} = X[−k] = X[N − k].",
         "So bins above N/2 are conjugates of bins below."),
        "numpy.fft.rfft, torch.fft.rfft, cuFFT R2C, FFTW r2c"),
]

TEACHING: dict[str, Teaching] = {t.family: t for t in _ENTRIES + _SYSTEMS}


def for_law(law: Law) -> Teaching:
    """The family's entry, or a generic one built from the law's own fields."""
    if law.family in TEACHING:
        return TEACHING[law.family]
    return generic(law)


def generic(law: Law) -> Teaching:
    question = QUESTIONS.get(law.property, "What structure does the fast version use?")
    steps = [law.statement]
    if law.doc:
        steps.append(law.doc.split(". ")[0].rstrip(".") + ".")
    if law.property == Property.ASSOCIATIVITY and law.id.endswith(
            (".associative", ".identity", ".homomorphism", ".commutative")):
        steps.extend(_MONOID_STEPS)
    # an anti-law licenses nothing, so there is no system to name
    systems = "" if law.expect == FAILS else law.licenses
    return Teaching(law.family, question, "as stated in the law", tuple(steps), systems)
