"""Planted bugs are rows applied to scratch copies of a kernel's source: every row still
fits today's source, every kernel has some, a copy never leaks into the modules the
rest of the process uses, and a row that edits a shared module (layer_norm's, in
var_mean.py) reaches the kernel that imports it."""
from __future__ import annotations

import ast
import sys

import pytest
import torch

import impls
from impls.spec import Case
from verify.certification.binding import as_spec
from verify.certification.planted_bugs import ROWS, Planted
from verify.certification.planting import (SnippetError, apply_edits, edited_source,
                                           planted_bugs, planted_spec)


@pytest.mark.parametrize("row", ROWS, ids=[f"{r.kernel}.{r.name}" for r in ROWS])
def test_every_row_fits_the_source_once_and_parses(row):
    ast.parse(edited_source(row))
    assert row.models and row.edits


def test_every_kernel_has_planted_bugs_and_every_row_names_a_kernel():
    names = set(impls.kernel_names())
    assert {r.kernel for r in ROWS} == names
    assert len({(r.kernel, r.name) for r in ROWS}) == len(ROWS)
    for name in names:
        assert planted_bugs(as_spec(impls.load(name))), name


def test_a_snippet_that_does_not_occur_once_is_refused():
    with pytest.raises(SnippetError, match="occurs 0 times"):
        apply_edits("a = 1\n", [("b = 2", "b = 3")], "x")
    with pytest.raises(SnippetError, match="occurs 2 times"):
        apply_edits("a = 1\na = 1\n", [("a = 1", "a = 2")], "x")
    with pytest.raises(SnippetError, match="equals"):
        apply_edits("a = 1\n", [("a = 1", "a = 1")], "x")
    # edits apply in turn: the second sees the first's result
    assert apply_edits("a = 1\n", [("a = 1", "a = 2"), ("a = 2", "a = 3")]) == "a = 3\n"


def test_a_row_that_no_longer_fits_plants_nothing():
    spec = as_spec(impls.load("softmax"))
    before = dict(sys.modules)
    stale = Planted("softmax", "gone", "a snippet the kernel lost", (("no such text", "x"),))
    with pytest.raises(SnippetError):
        with planted_spec(spec, stale):
            pass
    assert sys.modules.get("impls.softmax") is before["impls.softmax"]


def test_a_row_in_a_shared_module_reaches_the_kernel_and_leaks_nowhere():
    import impls.layer_norm as layer_norm
    import impls.var_mean as var_mean
    spec = as_spec(impls.load("layer_norm"))
    rng = torch.Generator().manual_seed(0)
    x = 3.0 + torch.randn(2, 80, generator=rng, dtype=torch.float64)
    case = Case("2 rows of 80", {"x": x, "weight": torch.ones(80, dtype=torch.float64),
                                  "bias": torch.zeros(80, dtype=torch.float64)}, {"eps": 1e-5})
    with planted_spec(spec, "variance_add") as planted:
        assert sys.modules["impls.var_mean"] is var_mean        # restored already
        wrong = planted.execution.run(case, "float32")
    right = spec.execution.run(case, "float32")
    assert torch.equal(wrong["mean"], right["mean"])            # the mean merge is intact
    assert float((wrong["rstd"] - right["rstd"]).abs().max()) > 1e-3
    assert sys.modules["impls.layer_norm"] is layer_norm
    assert layer_norm.KERNEL is impls.load("layer_norm")
