"""Mixture-of-experts top-k routing: running only the k selected experts equals the
dense mixture whose gates are zero outside the top k."""
import triton.language as tl

from ..core import Law, Property, Var


def top_k(logits, k):
    """Indices of the k largest logits, largest first, ties to the lower index: a
    sequential selection by comparisons (what torch.topk returns for distinct values)."""
    chosen = []
    for _ in range(k):
        best = None
        for e in range(len(logits)):
            if e in chosen:
                continue
            if best is None or logits[e] > logits[best]:
                best = e
        chosen.append(best)
    return chosen


def routed(*experts, k, **_):
    """Sparse: select the top k, then evaluate only those experts. Returns the gated sum
    Σ_{e∈top} e^{h_e}·y_e and the normalizer Σ_{e∈top} e^{h_e}; the layer's output is
    their ratio (Shazeer et al.'s Softmax(KeepTopK(H, k)) applied to the outputs)."""
    logits = [x[0] for x in experts]
    chosen = top_k(logits, k)
    w = [tl.exp(logits[e]) for e in chosen]
    return sum(w[t] * experts[e][1] for t, e in enumerate(chosen)), sum(w)


def in_top_k(logits, e, k):
    """Whether expert e is among the top k: fewer than k experts beat it (a larger
    logit, or an equal one at a lower index)."""
    beaten_by = sum(tl.where((logits[f] > logits[e]) | ((logits[f] == logits[e]) & (f < e)),
                             1, 0)
                    for f in range(len(logits)) if f != e)
    return beaten_by < k


def dense(*experts, k, **_):
    """Dense: every expert's output weighted by its gate e^{h_e}, the gate zeroed outside
    the top k (a −∞ logit's weight); the same (gated sum, normalizer) pair."""
    logits = [x[0] for x in experts]
    g = [tl.where(in_top_k(logits, e, k), tl.exp(logits[e]), 0.0) for e in range(len(experts))]
    return sum(g[e] * experts[e][1] for e in range(len(experts))), sum(g)


def _vars(E, k):
    return tuple(Var(f"e{j}", (2,), labels=("logit", "output")) for j in range(E))


ROUTING = Law(
    id="moe_topk.routing", property=Property.SPARSITY,
    statement="(Σ_{e∈top_k(h)} e^{h_e}y_e, Σ_{e∈top_k(h)} e^{h_e}) = (Σ_e g_e y_e, Σ_e g_e), "
              "g_e = e^{h_e}·[e ∈ top_k(h)]; the output is the ratio of the pair",
    licenses="a mixture-of-experts layer evaluates k of E experts per token (k/E of the "
             "expert flops): Shazeer et al.'s sparsely-gated MoE, Switch Transformer "
             "(k = 1), Mixtral (k = 2 of 8)",
    vars=_vars,
    lhs=routed, rhs=dense,
    instances=({"E": 3, "k": 1}, {"E": 4, "k": 2}, {"E": 4, "k": 3}),
    bounded_by="E ≤ 4 experts (E = 3, k = 1; E = 4, k = 2; E = 4, k = 3), one output "
               "component per expert",
    float_check=False,
    references=("shazeer2017",),
    doc="The routed side selects the top k logits by comparisons (ties to the lower "
        "index; z3 follows every branch) and evaluates only those experts. The dense "
        "side evaluates every expert and zeroes the gate of each expert outside the top "
        "k, decided by counting the experts that beat it (the same tie rule). Both sides "
        "return the pair (gated sum, normalizer) whose ratio is the MoE output "
        "Softmax(KeepTopK(h, k))·y; equal pairs give equal outputs, and comparing the "
        "pair keeps the z3 query free of division. Softmax is written without the max "
        "shift (a shift scales both members of the pair by the same e^{−max}). Logits "
        "and expert outputs are free reals (each expert's output for this token, one "
        "component). Proved by z3 over ℝ with the exp encoding at the listed sizes. No "
        "float verdict: the selection branches on data, which the batched float "
        "interpretation cannot follow. Does not cover noisy gating, capacity limits "
        "(dropped tokens), load balancing, or gates normalized over all E experts "
        "before truncation (the same argument with another normalizer).")

LAWS = [ROUTING]
