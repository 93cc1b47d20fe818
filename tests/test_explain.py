"""``explain``: the teaching view works for every law in the catalog, and for the laws
with near misses it shows their counterexamples step by step."""
from __future__ import annotations

import contextlib
import io
import json
import os
from types import SimpleNamespace

import pytest

from laws import REGISTRY
from laws.core import FAILS
from laws.teaching import QUESTIONS, TEACHING, Teaching
from verify.teaching import explain as E
from verify.decide import oracle
from verify.engine.shapes import flatten, shape_like

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

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
        code = E.cmd_explain(SimpleNamespace(law_id=law_id, json=as_json))
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
    from rich.console import Console
    E.render(doc, Console(file=buf, width=100))
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
