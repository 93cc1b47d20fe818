"""The mutation suite: its table is well-formed against today's source, a small sample
is judged as expected, and (marked slow, and only with LAWCHECK_MUTATIONS=1, since it
takes about nine minutes of two cores) the whole suite meets its threshold."""
from __future__ import annotations

import ast
import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import harness  # noqa: E402
import run  # noqa: E402
from mutants import Mutant, SnippetError, all_mutants, apply  # noqa: E402

ROOT = harness.PROJECT_ROOT
TABLE = all_mutants()
SAMPLE = ("softmax.max-init-zero", "matmul.store-past-n", "topk.chunk-padding-zero",
          "eq.softmax.commuted-product", "eq.matmul.b-other-one")


@pytest.mark.parametrize("mutant", TABLE, ids=[m.id for m in TABLE])
def test_snippet_occurs_once_and_the_edit_parses(mutant):
    source = (ROOT / mutant.file).read_text(encoding="utf-8")
    ast.parse(apply(mutant, source))
    assert mutant.description and mutant.cls


def test_table_covers_every_kernel_and_the_combines():
    bugs = [m for m in TABLE if not m.equivalent]
    assert len(bugs) >= 80 and sum(m.equivalent for m in TABLE) >= 10
    touched = {Path(m.file).stem for m in bugs}
    assert set(harness.kernel_modules(ROOT)) <= touched
    assert harness.COMBINES in {m.file for m in bugs}
    for cls in ("output-scale-2^-12", "output-scale-2^-16", "output-scale-2^-20",
                "oob-read", "oob-write", "merge-tree/identity", "mask"):
        assert any(m.cls == cls for m in bugs), cls


def test_apply_refuses_a_snippet_that_does_not_occur_once():
    m = Mutant("x", "f.py", "a = 1", "a = 2", "index", "d")
    with pytest.raises(SnippetError):
        apply(m, "b = 0\n")
    with pytest.raises(SnippetError):
        apply(m, "a = 1\na = 1\n")
    assert apply(m, "a = 1\n") == "a = 2\n"


def test_affected_kernels_follow_the_imports():
    assert set(harness.affected_kernels(ROOT, "impls/launch.py")) == {
        "softmax", "var_mean", "layer_norm", "matmul", "lora", "int8_matmul", "attention",
        "nbody", "paged_attention", "ring_attention"}
    combines = set(harness.affected_kernels(ROOT, harness.COMBINES))
    assert {"attention", "softmax", "scan", "linear_scan", "layer_norm"} <= combines
    assert "matmul" not in combines
    assert "layer_norm" in harness.affected_kernels(ROOT, "impls/var_mean.py")


def test_edited_function_names_the_combine():
    m = next(m for m in TABLE if m.id == "combines.welford-no-guard")
    assert harness.edited_function(m, (ROOT / m.file).read_text()) == "welford"


def test_sample_is_judged_as_expected():
    by_id = {m.id: m for m in TABLE}
    for mutant_id in SAMPLE:
        outcome = harness.run_mutant(by_id[mutant_id], timeout=120)
        assert not outcome.error, outcome.reason
        expected = not by_id[mutant_id].equivalent
        assert outcome.caught == expected, f"{mutant_id}: {outcome.reason}"


@pytest.mark.slow
@pytest.mark.skipif(os.environ.get("LAWCHECK_MUTATIONS") != "1",
                    reason="the whole mutation suite takes ~13 min; set LAWCHECK_MUTATIONS=1")
def test_whole_suite_meets_the_threshold(tmp_path):
    assert run.main(["--jobs", "2", "--json", str(tmp_path / "mutations.json")]) == 0
