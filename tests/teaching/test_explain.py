"""``explain``: the teaching view works for every law in the catalog, and for the laws
with near misses it shows their counterexamples step by step."""
from __future__ import annotations

import contextlib
import io
import json
import os
import random

import mpmath
import numpy as np
import pytest
from rich.console import Console

from laws import REGISTRY
from laws.associativity.shapes import power_by_squaring
from laws.core import FAILS
from laws.teaching import QUESTIONS, TEACHING, Teaching
from verify.decide import oracle
from verify.engine.mpwords import make_mpmath
from verify.engine.shapes import flatten, shape_like
from verify.cli.explain_cmd import render
from verify.cli.main import main as cli_main
from verify.teaching import explain as E

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Families written before the catalog grew further: each has its own entry.
FAMILIES_WITH_ENTRIES = (
    "sum", "count", "mean", "subtraction", "max", "argmax", "welford", "pooled_variance",
    "median", "mode", "linear_recurrence", "affine_recurrence", "power_by_squaring",
    "blelloch_scan", "chunked_fold", "online_softmax", "flash_state", "topk_merge",
    "lora", "low_rank_truncation", "matmul_reassociation", "separable_conv",
    "block_matmul", "sliding_window_attention", "stencil_radius", "tiled_conv",
    "causal_block_skip", "moe_topk", "relu_skip", "spmv_skip_zeros", "int8_quantization",
    "kv_cache", "prefix_cache", "attention_permutation", "barnes_hut", "conv_translation",
    "newton_third_law", "real_fft_symmetry")


def _run(law_id: str, as_json: bool = True):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli_main(["explain", law_id] + (["--json"] if as_json else []))
    return code, out.getvalue(), err.getvalue()


def test_entries_cover_the_families():
    for fam in FAMILIES_WITH_ENTRIES:
        t = TEACHING[fam]
        assert isinstance(t, Teaching) and t.question and t.state and len(t.derivation) >= 2
        assert t.systems, fam
    assert all(law.property in QUESTIONS for law in REGISTRY)


@pytest.mark.parametrize("law_id", REGISTRY.ids())
def test_every_law_explains(law_id):
    """The text of every law (verdicts are exercised below, on representative laws)."""
    doc = E.explain(law_id, check=False)
    law = REGISTRY[law_id]
    assert doc["id"] == law_id and doc["statement"] == law.statement
    assert doc["question"] and doc["state"] and doc["derivation"] and doc["licenses"]
    assert doc["teaching"] == ("family" if law.family in TEACHING else "generic")
    json.dumps(doc, ensure_ascii=False, default=str)
    buf = io.StringIO()
    render(doc, Console(file=buf, width=100))
    assert law_id in buf.getvalue()
    # where the combine lives: the reported line defines it
    if doc["combine"] and doc["combine"]["file"]:
        src = doc["combine"]
        with open(os.path.join(ROOT, src["file"]), encoding="utf-8") as fh:
            lines = fh.read().splitlines()
        assert src["name"] in lines[src["line"] - 1] or lines[src["line"] - 1].lstrip(
        ).startswith("@"), src
    for site in doc["call_sites"]:
        with open(os.path.join(ROOT, site["file"]), encoding="utf-8") as fh:
            assert site["name"] in fh.read().splitlines()[site["line"] - 1]


def _values(law, ce):
    inst = ce.get("instance") or {}
    vars_ = law.vars_for(inst)
    return [shape_like(v, flatten(E._from_plain(ce["bindings"][v.name]))) for v in vars_], inst


@pytest.mark.parametrize("law_id, anti", [
    ("online_softmax.associative", "online_softmax.no_rescale"),
    ("mean.homomorphism", "mean.of_means"),
    ("welford.associative", "welford.variance_add"),
    ("sum.associative", "subtraction.associative"),
])
def test_near_miss_step_by_step(law_id, anti):
    if law_id not in REGISTRY or anti not in REGISTRY:
        pytest.skip("law not in the catalog")
    code, out, err = _run(law_id)
    assert code == 0, err
    doc = json.loads(out)
    assert doc["verdict"]["ok"] and doc["verdict"]["verdict"] in ("proved", "proved-bounded")
    entry = next(a for a in doc["anti_laws"] if a["id"] == anti)
    assert entry["verdict"] == "refuted" and entry["ok"]
    ce = entry["counterexample"]
    values, inst = _values(REGISTRY[anti], ce)
    assert oracle.confirms(REGISTRY[anti], values, inst)
    steps = entry["steps"]
    assert steps["lhs"] != steps["rhs"]
    assert steps["calls"]["lhs"] or steps["calls"]["rhs"], steps


def test_float_story_and_call_sites():
    code, out, _ = _run("online_softmax.associative")
    doc = json.loads(out)
    f32 = doc["floats"]["float32"]
    assert f32["exact"] is False and f32["counterexample"]
    assert doc["combine"]["name"] == "_online"
    assert any(c["name"] == "online_softmax" for c in doc["combine"]["calls"])
    assert any(s["file"].startswith("impls") for s in doc["call_sites"])
    code, out, _ = _run("max.associative")
    assert json.loads(out)["floats"]["float32"]["exact"] is True


def test_readable_form():
    code, out, _ = _run("online_softmax.associative", as_json=False)
    assert code == 0
    for text in ("Question", "State", "Why it works", "Verdict", "Anti-law",
                 "no_rescale(", "left  side", "Floats", "Where it is used", "Licenses"):
        assert text in out, text


def test_anti_law_itself_and_free_monoid():
    code, out, _ = _run("mean.of_means")
    doc = json.loads(out)
    assert code == 0 and doc["expect"] == FAILS and doc["verdict"]["verdict"] == "refuted"
    assert doc["verdict"]["steps"]["lhs"] != doc["verdict"]["steps"]["rhs"]
    if "blelloch_scan.equals_sequential" in REGISTRY:
        code, out, _ = _run("blelloch_scan.equals_sequential")
        assert code == 0 and json.loads(out)["verdict"]["verdict"] == "proved-bounded"


def test_unknown_id():
    code, out, err = _run("mean.homomorphsm")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "mean.homomorphism" in err


# --------------------------------------------------------------------------- texts
# Each test below checks one teaching sentence against the law's own code, evaluated at
# concrete points, so a text that contradicts the code fails here.
def _mp(fn):
    return make_mpmath().rebind(fn)


def _rescaled_merge(x, y):
    m = max(x[0], y[0])
    return m, x[1] * mpmath.exp(x[0] - m) + y[1] * mpmath.exp(y[0] - m)


def _wrong_merges(law, states):
    """(x, y) pairs the law's combine merges wrongly, among every merge the law's two
    groupings of ``states`` perform."""
    merge = _mp(law.combine)
    a, b, c = states
    ab, bc = merge(a, b), merge(b, c)
    wrong = []
    for x, y in ((a, b), (ab, c), (b, c), (a, bc)):
        got, want = merge(x, y), _rescaled_merge(x, y)
        if abs(got[1] - want[1]) > mpmath.mpf(2) ** -60 * (1 + abs(want[1])):
            wrong.append((x, y))
    return wrong


def test_no_rescale_text_names_the_chunk_its_counterexample_shows():
    """The near-miss sentence of online_softmax says which chunk must hold the larger
    maximum for the unrescaled merge to go wrong; the law's counterexample decides it."""
    law = REGISTRY["online_softmax.no_rescale"]
    doc = E.explain(law.id)
    ce = doc["verdict"]["counterexample"]
    states = [tuple(mpmath.mpf(E._from_plain(v)) for v in ce["bindings"][name])
              for name in ("a", "b", "c")]
    wrong = _wrong_merges(law, states)
    assert wrong, "the counterexample performs no wrong merge"
    sides = {"left" if x[0] > y[0] else "right" for x, y in wrong}
    assert sides == {"left"}
    pitfall = TEACHING["online_softmax"].pitfall
    assert "left chunk holds the strictly larger maximum" in pitfall
    assert "right chunk holds the larger" not in pitfall
    assert "right chunk's max is not the overall max" in law.licenses
    # and in general: the merge is wrong exactly when the left maximum is larger
    merge = _mp(law.combine)
    for x0, y0 in ((3, 1), (1, 3), (2, 2), (-1, -4), (0, 5)):
        x, y = (mpmath.mpf(x0), mpmath.mpf(1)), (mpmath.mpf(y0), mpmath.mpf(1))
        assert (merge(x, y)[1] != _rescaled_merge(x, y)[1]) == (x0 > y0)


def test_mean_of_means_texts_match_the_code():
    law = REGISTRY["mean.of_means"]
    lhs, rhs = _mp(law.lhs), _mp(law.rhs)
    a, b, c = 1, 2, 6
    assert rhs(a, b, c) == (a + b + c) / 3 != (a + (b + c) / 2) / 2
    assert "= mean(x₁, x₂, x₃)" in law.statement
    assert lhs(a, b, c) == (a + b) / 4 + c / 2
    assert any("(a + b)/4 + c/2" in line for line in TEACHING["mean"].derivation)


def test_power_by_squaring_counts_its_squarings():
    for n in range(1, 65):
        squarings = []

        def op(u, v, _log=squarings):
            if u is v:
                _log.append(1)
            return (u, v)
        power_by_squaring(("x",), n, op, ())
        assert len(squarings) == n.bit_length()       # ⌊log₂ n⌋ + 1
    assert "⌊log₂ n⌋ + 1 squarings" in REGISTRY["power_by_squaring.equals_repeated"].statement


def test_median_and_mode_examples_evaluate_as_stated():
    median = REGISTRY["median.of_medians"]
    x = (1, 2, 9, 3, 4, 9, 5, 6, 9)
    assert (_mp(median.lhs)(*x), _mp(median.rhs)(*x)) == (4, 5)
    assert "whose median is 4, but the median of all nine values is 5" in \
        TEACHING["median"].derivation[0]
    rng = random.Random(0)
    lhs = _mp(median.lhs)
    ranks = set()
    for _ in range(400):
        values = rng.sample(range(100), 9)
        ranks.add(sorted(values).index(int(lhs(*values))) + 1)
    assert ranks == {4, 5, 6}
    assert "the 4th, 5th or 6th of the nine values" in TEACHING["median"].derivation[1]
    mode = REGISTRY["mode.of_modes"]
    x = (1, 1, 2, 3, 3, 2, 4, 4, 2)
    assert (_mp(mode.lhs)(*x), _mp(mode.rhs)(*x)) == (1, 2)


def test_no_halo_is_wrong_only_at_edges_between_tiles():
    law = REGISTRY["tiled_conv.no_halo"]
    inst = law.instances[0]
    assert (inst["n"], inst["T"], inst["R"]) == (4, 2, 1)
    ones = [1.0] * 4
    full, tiled = _mp(law.lhs)(ones, [1.0] * 3, **inst), _mp(law.rhs)(ones, [1.0] * 3, **inst)
    # tiles [0, 2) and [2, 4): outputs 1 and 2 sit at the shared edge, 0 and 3 at the
    # signal's ends, where zero padding is right
    assert [f == t for f, t in zip(full, tiled)] == [True, False, False, True]
    assert "every edge it shares with another tile" in law.licenses


def test_round_scale_error_is_as_large_as_stated():
    law = REGISTRY["int8_quantization.round_scale"]
    W = np.array([[0.25, 0.5], [-0.1, 0.2]], dtype=object)   # scales below 1/2: σ = 0
    sigma = [0, 0]
    err = [abs(w - r) for row_w, row_r in zip(W.tolist(), _mp(law.rhs)(W, sigma))
           for w, r in zip(row_w, row_r)]
    s = [0.25 / 127, 0.5 / 127]
    assert max(err) > 63.5 * max(s)          # the old text's "up to 63.5·s" is exceeded
    assert err[0] == 0.25 and err[1] == 0.5  # every weight lost
    assert "loses every weight" in law.doc and "63.5·s" not in law.doc


def test_anti_law_names_no_system_of_its_own():
    for law in REGISTRY:
        if law.expect == FAILS:
            doc = E.explain(law.id, check=False)
            buf = io.StringIO()
            render(doc, Console(file=buf, width=200))
            assert "In real systems" not in buf.getvalue(), law.id
