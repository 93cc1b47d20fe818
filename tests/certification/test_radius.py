"""The derived bounds are sound: for every catalog reference, on adversarial inputs,
evaluations in float32 and float16 with several reduction orders (torch's, a sequential
fold, its reverse, a pairwise tree, blocked lanes) stay within the radius of the float64
oracle everywhere; and the radius is not vacuous (the worst error reaches a stated
fraction of it)."""
import dataclasses
import math

import numpy as np
import pytest
import torch
from radius_orders import ORDERS, simulate

from verify.cases import matrices, rows
from verify.certification import radius
from verify.certification.bounds import Ball, evaluate, model_for
from verify.certification.references import CATALOG

FORMATS = (("float32", "float32"), ("float16", "float32"), ("float16", "float16"))
BLOCK = 16
ROW_CLASSES = ("random", "ties", "huge-dynamic-range", "cancellation", "-inf-mask",
               "fully-masked-row", "large-offset", "negative-zero")


def _cases(name, options=None):
    ref = CATALOG[name].configured(options or {})
    if ref.cases == "matrices":
        return matrices([(5, 1, 3), (4, 33, 6), (3, 100, 2)])(0)
    if ref.cases == "attention":
        rng = np.random.default_rng(0)
        from verify.cases import representable
        from impls.spec import Case
        return [Case(f"attention L={n}", {k: representable(rng.normal(0, 2, (n, 8)))
                                          for k in "qkv"}, n=n) for n in (1, 7, 33)]
    if ref.cases == "explicit":
        return _explicit_cases(name)
    masks = ("softmax", "log_softmax", "logsumexp", "topk", "cross_entropy", "nll_log_softmax")
    classes = ROW_CLASSES if name in masks else \
        tuple(c for c in ROW_CLASSES if c not in ("-inf-mask", "fully-masked-row"))
    out = rows(n=(1, 7, 33, 100), classes=classes)(0)
    if ref.complete is not None:
        out = [dataclasses.replace(c, inputs=ref.complete(dict(c.inputs),
                                                          np.random.default_rng(i)))
               for i, c in enumerate(out)]
    return out


def _explicit_cases(name):
    """LoRA and int8 matmul operands: random, wide-range and integer (exact dot) ones."""
    from verify.cases import representable
    from impls.spec import Case
    rng = np.random.default_rng(1)
    out = []
    for m, k, n, r in ((3, 1, 4, 1), (5, 40, 6, 3), (2, 100, 3, 8)):
        if name == "lora":
            shapes = {"x": (m, k), "w": (k, n), "b": (k, r), "a": (r, n)}
            out.append(Case(f"lora k={k} r={r}", {
                key: representable(rng.normal(0, 1, shape) * 2.0 ** rng.integers(-6, 6, shape))
                for key, shape in shapes.items()}, n=k))
        else:
            wq = torch.as_tensor(rng.integers(-127, 128, (k, n)), dtype=torch.int8)
            x = rng.integers(-8, 9, (m, k)) if k < 50 else rng.normal(0, 1, (m, k))
            out.append(Case(f"int8 k={k}", {"x": representable(x), "wq": wq,
                                            "s": representable(rng.uniform(1e-3, 1e-2, n))},
                            n=k))
    return out


def _check(name, case, in_dtype, compute, order, model, options=None):
    ref = CATALOG[name].configured(options or {})
    def fn(**kw):
        return ref.fn(**kw, **dict(ref.options))
    v64, r64, _ = evaluate(fn, case.inputs, radius.HOST64)
    formats = ref.formats(in_dtype)
    _, r, flags = evaluate(fn, case.inputs, model, in_dtype, out_formats=formats)
    sim = simulate(fn, case.inputs, in_dtype, compute, order, BLOCK)
    worst = 0.0
    for key in ref.outputs:
        if key not in r:
            continue
        bound = r[key]
        got = sim[key].to(getattr(torch, formats[key])).to(torch.float64)
        want = v64[key]
        same = (got == want) | (torch.isnan(got) & torch.isnan(want))
        err = torch.where(same, torch.zeros_like(got), (got - want).abs())
        total = bound + r64[key]
        bad = err > total
        assert not bool(bad.any()), (
            f"{name} {case.name} {in_dtype}/{compute} {order} {key}: error "
            f"{float(err[bad].max()):.3g} > bound {float(total[bad][0]):.3g} at "
            f"{bad.nonzero()[0].tolist()}")
        ratio = torch.where(err == 0, torch.zeros_like(err), err / total)
        worst = max(worst, float(ratio.max()) if ratio.numel() else 0.0)
    return worst


SOUND = [n for n in CATALOG if n not in ("linear_recurrence",)]


CONVENTIONS = [("rms_norm", {"cast": "llama"}), ("rms_norm", {"cast": "gemma"}),
               ("layer_norm", {"stats": "input"}), ("group_norm", {"num_groups": 1}),
               ("swiglu", {"round_activation": True}), ("geglu", {"approximate": "tanh"}),
               ("geglu", {"round_activation": True})]


@pytest.mark.parametrize("name,options", [(n, {}) for n in SOUND] + CONVENTIONS)
def test_radius_holds_for_every_order(name, options):
    worst = {}
    for in_dtype, compute in FORMATS:
        any_order = model_for("host", compute)
        blocked = model_for("host", compute, block=BLOCK)
        for case in _cases(name, options):
            if not case.runs_in(in_dtype):
                continue
            for order in ORDERS:
                rho = _check(name, case, in_dtype, compute, order, any_order, options)
                if order == "blocked":
                    rho = max(rho, _check(name, case, in_dtype, compute, order, blocked,
                                          options))
                key = f"{in_dtype}/{compute}"
                worst[key] = max(worst.get(key, 0.0), rho)
    print(name, options, {k: round(v, 4) for k, v in worst.items()})
    # not vacuous: on the low-precision evaluation the error reaches a visible fraction
    if name != "topk":  # selection is exact: no rounding to approach
        assert worst["float16/float16"] > 1e-3, worst


def _tree_scan(a, b):
    """Linear recurrence by a pairwise (Hillis–Steele) scan of affine maps, in a's dtype."""
    n = a.shape[-1]
    step = 1
    while step < n:
        a_prev, b_prev = a[..., :-step], b[..., :-step]
        new_a = a[..., step:] * a_prev
        new_b = a[..., step:] * b_prev + b[..., step:]
        a = torch.cat([a[..., :step], new_a], -1)
        b = torch.cat([b[..., :step], new_b], -1)
        step *= 2
    return b


@pytest.mark.parametrize("in_dtype,compute", FORMATS)
def test_linear_recurrence_radius_holds_for_sequential_and_tree_scans(in_dtype, compute):
    ref = CATALOG["linear_recurrence"]
    model = model_for("host", compute)
    for case in _cases("linear_recurrence"):
        if not case.runs_in(in_dtype):
            continue
        v64, r64, _ = evaluate(ref.fn, case.inputs, radius.HOST64)
        _, r, _ = evaluate(ref.fn, case.inputs, model, in_dtype)
        t_in, t_c = getattr(torch, in_dtype), getattr(torch, compute)
        a, b = (case.inputs[k].to(t_in).to(t_c) for k in ("a", "b"))
        for got in (ref.fn(a=a, b=b)["h"], _tree_scan(a, b)):
            err = (got.to(t_in).double() - v64["h"]).abs()
            assert bool((err <= r["h"] + r64["h"]).all()), case.name


def test_straddled_branch_covers_both_sides_and_is_flagged():
    x = Ball(torch.tensor([1.0, 5.0], dtype=torch.float64), torch.tensor([0.5, 0.0],
                                                                         dtype=torch.float64))
    with radius.using(model_for("host", "float32")) as flags:
        y = radius.where(x > 1.2, x * 10.0, x)
    assert flags and "straddle" in flags[0]
    assert float(y.r[0]) >= 10.0 * 1.5 - 1.0  # covers 15 (upper branch) vs 1 (exact)
    assert float(y.r[1]) < 1e-4               # decided branch keeps its own radius


def test_exact_masks_stay_exact():
    x = torch.tensor([[0.5, -math.inf, 2.0], [-math.inf] * 3], dtype=torch.float64)
    v, r, _ = evaluate(lambda x: CATALOG["softmax"].fn(x, "zeros"), {"x": x},
                       model_for("triton-interpreter", "float32"), "float32",
                       out_formats={"softmax": "float32", "lse": "float32"})
    assert float(r["softmax"][0, 1]) == 0.0 and bool((r["softmax"][1] == 0).all())
    assert float(v["lse"][1]) == -math.inf and float(r["lse"][1]) == 0.0
    assert 0 < float(r["lse"][0]) < 1e-5


def test_unsupported_operation_is_refused_not_guessed():
    x = Ball.input(torch.ones(3, dtype=torch.float64), "float32")
    with pytest.raises(NotImplementedError, match="no derived error bound"):
        torch.sin(x)


def test_reduction_depth_uses_the_block_structure():
    any_order = model_for("host", "float32")
    blocked = model_for("host", "float32", block=32)
    assert any_order.depth(1024) == 1023
    assert blocked.depth(1024) == 31 + 31
    assert blocked.depth(20) == 19


def test_blocked_cumsum_counts_own_block_and_earlier_blocks_apart():
    """Element i at position p of block j: own leaves get depth p + [j > 0], earlier ones
    B + j; tighter than any order, and still covering a blocked scan (checked above)."""
    x = torch.ones(1, 100, dtype=torch.float64)
    _, r_any, _ = evaluate(lambda x: {"y": x.cumsum(-1)}, {"x": x}, model_for("host", "float32"),
                           "float32")
    _, r_blk, _ = evaluate(lambda x: {"y": x.cumsum(-1)}, {"x": x},
                           model_for("host", "float32", block=16), "float32")
    u = 2.0 ** -24
    assert float(r_blk["y"][0, 0]) < 1e-30          # a single leaf: no rounding, η only
    # element 40 = block 2, position 8: 9 own leaves at depth 9, 32 earlier at depth 18
    assert float(r_blk["y"][0, 40]) == pytest.approx(9 * 9 * u + 32 * 18 * u, rel=1e-4)
    assert bool((r_blk["y"] <= r_any["y"]).all())


def test_output_in_the_compute_format_is_not_rounded_again():
    x = torch.tensor([[1.0, 2.0 ** -30, 3.0]], dtype=torch.float64)
    ref = lambda x: {"y": x.sum(-1)}  # noqa: E731
    m32 = model_for("host", "float32")
    _, same, _ = evaluate(ref, {"x": x}, m32, "float32", out_formats={"y": "float32"})
    _, down, _ = evaluate(ref, {"x": x}, m32, "float32", out_formats={"y": "float16"})
    assert float(down["y"][0]) - float(same["y"][0]) >= 2.0 ** -11 * 4.0 * 0.99


def test_a_dot_of_small_integers_is_exact_and_a_large_one_is_not():
    a = torch.tensor([[3.0, -7.0, 100.0]], dtype=torch.float64)
    b = torch.tensor([[2.0], [5.0], [-1.0]], dtype=torch.float64)
    m32 = model_for("host", "float32")
    _, small, _ = evaluate(lambda a, b: {"c": a @ b}, {"a": a, "b": b}, m32, "float32")
    assert float(small["c"][0, 0]) == 0.0
    _, large, _ = evaluate(lambda a, b: {"c": a @ b}, {"a": a * 2.0 ** 20, "b": b}, m32,
                           "float32")
    assert float(large["c"][0, 0]) > 0.0
    _, frac, _ = evaluate(lambda a, b: {"c": a @ b}, {"a": a + 0.5, "b": b}, m32, "float32")
    assert float(frac["c"][0, 0]) > 0.0


def test_adding_an_exact_zero_to_an_exact_value_is_exact():
    """x + 0 = x in every format: no rounding and no underflow to charge. (An empty
    Welford state merged with another keeps its counts exact, so the n == 0 guard is
    decided, not straddled.)"""
    import torch
    from verify.certification import radius
    x = radius.Ball(torch.tensor([0.0, 3.0, 1e-40]), torch.zeros(3, dtype=torch.float64))
    zero = radius.Ball(torch.zeros(3, dtype=torch.float64), torch.zeros(3, dtype=torch.float64))
    with radius.using(radius.model_for("triton-interpreter", "float32")):
        assert radius.add(x, zero).r.tolist() == [0.0, 0.0, 0.0]
        assert radius.add(zero, x).r.tolist() == [0.0, 0.0, 0.0]
        fuzzy = radius.Ball(x.v, torch.full((3,), 1e-9, dtype=torch.float64))
        assert bool((radius.add(fuzzy, zero).r >= 1e-9).all())
        assert bool((radius.add(x, x).r[1:] > 0).all())
