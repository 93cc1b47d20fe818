"""KV cache: incremental decoding with cached keys and values equals recomputing
causal attention over the whole prefix at every step, and a cache that misses the
newest token does not."""
import triton.language as tl

from ..core import FAILS, SEARCH, Law, Property, Var


def project(h, W):
    """Row vector times matrix: h·W."""
    return [sum(h[a] * W[a][c] for a in range(len(h))) for c in range(W.shape[1])]


def attend(q, keys, values):
    """Softmax attention of one query over the keys given (safe softmax; unscaled
    scores — a 1/√d scale is folded into W_q). No key at all gives 0."""
    if not keys:
        return [0.0] * len(q)
    scores = [sum(qa * ka for qa, ka in zip(q, k)) for k in keys]
    m = max(scores)
    p = [tl.exp(s - m) for s in scores]
    z = sum(p)
    return [sum(pj * v[c] for pj, v in zip(p, values)) / z for c in range(len(values[0]))]


def causal_layer(hs, W):
    """One attention-only layer with a residual over positions 0 … len(hs) − 1:
    hᵢ ← hᵢ + attend(hᵢW_q, {h_jW_k}_{j≤i}, {h_jW_v}_{j≤i})."""
    Wq, Wk, Wv = W
    keys = [project(h, Wk) for h in hs]
    values = [project(h, Wv) for h in hs]
    out = []
    for i, h in enumerate(hs):
        a = attend(project(h, Wq), keys[:i + 1], values[:i + 1])
        out.append([h[c] + a[c] for c in range(len(h))])
    return out


def recompute(x, layers, n):
    """Without a cache: at step t run every layer over tokens 0 … t again and keep the
    output at position t."""
    outputs = []
    for t in range(n):
        hs = [list(x[j]) for j in range(t + 1)]
        for W in layers:
            hs = causal_layer(hs, W)
        outputs.append(hs[t])
    return outputs


def incremental(x, layers, n, newest_first=True):
    """With a cache: at step t only token t is projected; each layer appends its key and
    value to the layer's cache and attends over the cache. ``newest_first=False`` is the
    near miss that attends before appending."""
    cache = [([], []) for _ in layers]
    outputs = []
    for t in range(n):
        h = list(x[t])
        for (Wq, Wk, Wv), (K, V) in zip(layers, cache):
            q = project(h, Wq)
            if newest_first:
                K.append(project(h, Wk))
                V.append(project(h, Wv))
            a = attend(q, K, V)
            if not newest_first:
                K.append(project(h, Wk))
                V.append(project(h, Wv))
            h = [h[c] + a[c] for c in range(len(h))]
        outputs.append(h)
    return outputs


def _vars(n, d):
    mats = tuple(Var(f"{w}{layer}", (d, d)) for layer in (1, 2) for w in ("Wq", "Wk", "Wv"))
    return (Var("x", (n, d)),) + mats


def _layers(W):
    return [tuple(W[0:3]), tuple(W[3:6])]


_REASON = ("the attention scores q·k are products of variables, and the z3 encoding of "
           "exp needs exponents linear in the variables; the searcher compares both "
           "sides on random inputs and weights at 113 and 177 bits")

INCREMENTAL = Law(
    id="kv_cache.incremental", property=Property.REDUNDANCY,
    statement="cached decoding: step t projects token t only and attends over cached "
              "(K, V)₀…ₜ per layer = full causal recomputation over tokens 0 … t, "
              "output at t",
    licenses="autoregressive decoding reuses every past token's keys and values (one "
             "token's projections per step instead of t): the KV cache of every LLM "
             "serving system (vLLM, TensorRT-LLM, Hugging Face generate)",
    vars=_vars,
    lhs=lambda x, *W, n, d: recompute(x, _layers(W), n),
    rhs=lambda x, *W, n, d: incremental(x, _layers(W), n),
    instances=({"n": 3, "d": 1},),
    bounded_by="3 decoding steps, 2 attention layers, model width 1",
    method=SEARCH, reason=_REASON,
    references=("pope2022",),
    doc="A two-layer attention-only model with residuals (width 1, 3 tokens, one head, "
        "unscaled scores): recomputing everything at each step equals projecting only "
        "the new token and attending over the cached keys and values, at every step. It "
        "holds because attention is causal: position j's layer outputs, hence its keys "
        "and values in the next layer, depend only on tokens ≤ j, so they are the same "
        "at every later step. Tested (not proved) by the searcher. Does not cover MLPs "
        "or normalization layers (position-wise, so they do not change the argument), "
        "positional encodings (RoPE is position-wise too), paged or quantized caches, "
        "or float rounding (batched recomputation may sum in another order).")

FORGET_NEWEST = Law(
    id="kv_cache.forget_newest", property=Property.REDUNDANCY, expect=FAILS,
    statement="attending over the cache before appending token t's key and value "
              "= full causal recomputation",
    licenses="nothing: the newest token must attend to itself; a cache updated after "
             "the attention call drops the diagonal of the causal mask",
    vars=_vars,
    lhs=lambda x, *W, n, d: recompute(x, _layers(W), n),
    rhs=lambda x, *W, n, d: incremental(x, _layers(W), n, newest_first=False),
    instances=({"n": 3, "d": 1},),
    method=SEARCH, reason=_REASON,
    teaches="kv_cache.incremental", references=("pope2022",),
    doc="Token t attends to tokens 0 … t−1 only (at step 0 to nothing: its attention "
        "output is 0). In a layer this differs from causal attention whenever token t's "
        "value differs from the attention average over tokens 0 … t−1 (at step 0, "
        "whenever it is nonzero).")

LAWS = [INCREMENTAL, FORGET_NEWEST]
