"""Group-wise INT4 quantization: one scale per group of g weights, 4-bit signed values
(|q| ≤ 7); each weight within half its group's step. And one scale for the whole column
claimed to give each group's bound (an outlier in one group costs every group)."""
from ..core import BOUNDED, FAILS, Law, Property, Var

QMAX = 7        # symmetric signed 4-bit range −7 … 7
G, GROUPS = 2, 2  # group size, groups in one column of 4 weights


def group_scales(w):
    """s_g = max_{i ∈ g} |w_i| / 7 for each group of G consecutive weights."""
    return [max(abs(w[g * G + i]) for i in range(G)) / QMAX for g in range(GROUPS)]


def column_scale(w):
    return max(abs(v) for v in w) / QMAX


def _pre(w, q, scales):
    """q is w/s rounded to the nearest integer (any tie rule), on groups not all zero."""
    return ([s > 0 for s in scales]
            + [abs(w[i] / scales[i // G] - q[i]) <= 0.5 for i in range(G * GROUPS)])


def _vars():
    return (Var("w", (G * GROUPS,), tuple_state=False),
            Var("q", (G * GROUPS,), "integer", tuple_state=False))


GROUPWISE_ROUNDING = Law(
    id="int4_quantization.groupwise_rounding", property=Property.REDUNDANCY,
    exactness=BOUNDED,
    statement="s_g = max_{i∈g}|w_i|/7, q = round(w/s_g) ⇒ |w_i − s_g·q_i| ≤ s_g/2 and "
              "|q_i| ≤ 7",
    licenses="store weights in 4 bits with one scale per group of g (typically 32–128) "
             "weights: the error of each weight is half its own group's step, unaffected "
             "by outliers elsewhere (GPTQ's and AWQ's group-wise INT4, llama.cpp's Q4 "
             "blocks, bitsandbytes' NF4 with block-wise scales)",
    vars=_vars(), pre=lambda w, q: _pre(w, q, group_scales(w)),
    lhs=lambda w, q: [list(w), list(q)],
    rhs=lambda w, q: [[group_scales(w)[i // G] * q[i] for i in range(G * GROUPS)],
                      [0] * (G * GROUPS)],
    error_bound=lambda w, q: [[group_scales(w)[i // G] / 2 for i in range(G * GROUPS)],
                              [QMAX] * (G * GROUPS)],
    bounded_by=f"one column of {G * GROUPS} weights in {GROUPS} groups of {G}",
    float_check=False, references=("jacob2018",),
    doc="Round to nearest modeled as in int8_quantization.rounding: q an integer within "
        "1/2 of w/s. Proved by z3 over ℝ and ℤ for 4 weights in 2 groups of 2. The "
        "redundancy it uses: most weights of a group need far fewer than 16 bits to be "
        "known to within half a step. Does not cover the scales' own storage (one fp16 "
        "per group: 16/g extra bits per weight), asymmetric or non-uniform (NF4) "
        "levels, or the float error of computing s and w/s.")

ONE_SCALE = Law(
    id="int4_quantization.one_scale", property=Property.REDUNDANCY, exactness=BOUNDED,
    expect=FAILS,
    statement="one scale s = max_i|w_i|/7 for the whole column, q = round(w/s) ⇒ "
              "|w_i − s·q_i| ≤ s_g/2 (the group's own step)",
    licenses="nothing: with one scale every weight errs by up to s/2, which an outlier in "
             "another group makes much larger than its own group's step",
    vars=_vars(), pre=lambda w, q: _pre(w, q, [column_scale(w)] * GROUPS),
    lhs=lambda w, q: list(w),
    rhs=lambda w, q: [column_scale(w) * q[i] for i in range(G * GROUPS)],
    error_bound=lambda w, q: [group_scales(w)[i // G] / 2 for i in range(G * GROUPS)],
    teaches="int4_quantization.groupwise_rounding", float_check=False,
    doc="The case for groups: a column with one large weight has a coarse step s, and "
        "the small weights of the other group, rounded on that step, miss their own "
        "group's bound.")

LAWS = [GROUPWISE_ROUNDING, ONE_SCALE]
