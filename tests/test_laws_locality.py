"""Locality laws: verdicts, the near miss's replayed counterexample, and a planted wrong
variant that must be refuted."""
import dataclasses

import pytest

from laws import REGISTRY
from verify.decide.check import check_law
from replay import replays

EXPECTED = {
    "block_matmul.blocks": "proved-bounded",
    "tiled_conv.halo": "proved-bounded",
    "tiled_conv.no_halo": "refuted",
    "stencil_radius.window": "proved-bounded",
    "sliding_window_attention.band": "proved-bounded",
}
@pytest.fixture(scope="module")
def results():
    return {law_id: check_law(REGISTRY[law_id], floats=False) for law_id in EXPECTED}


@pytest.mark.parametrize("law_id", sorted(EXPECTED))
def test_verdict(results, law_id):
    r = results[law_id]
    assert r["verdict"] == EXPECTED[law_id], (r["reason"], r["counterexample"])
    assert r["ok"]
    if r["verdict"] == "proved-bounded":
        assert r["bound"]


def test_instances_include_ragged_tiles_and_two_dimensions():
    blocks = REGISTRY["block_matmul.blocks"].instances
    assert any(inst["n"] % inst["bk"] for inst in blocks)
    halo = REGISTRY["tiled_conv.halo"].instances
    assert {inst["dims"] for inst in halo} == {1, 2}
    assert any(inst["n"] % inst["T"] for inst in halo)


def test_sliding_window_covers_every_query_row():
    law = REGISTRY["sliding_window_attention.band"]
    n = law.instances[0]["n"]
    assert sorted(inst["i"] for inst in law.instances) == list(range(n))


def test_no_halo_counterexample_replays(results):
    law = REGISTRY["tiled_conv.no_halo"]
    assert law.teaches == "tiled_conv.halo"
    assert replays(law, results["tiled_conv.no_halo"]["counterexample"])


def test_planted_block_matmul_dropping_the_ragged_inner_block_is_refuted():
    from laws.locality import block_matmul as bm

    def full_blocks_only(A, B, m, n, p, bm_, bn, bk):
        # Loops over whole inner blocks only: the ragged last block of k is lost.
        return bm.blocked_product(A[:, :n - n % bk], B[:n - n % bk, :], bm_, bn, bk)
    good = REGISTRY["block_matmul.blocks"]
    planted = dataclasses.replace(
        good, instances=({"m": 3, "n": 5, "p": 3, "bm": 2, "bn": 2, "bk": 2},),
        rhs=lambda A, B, m, n, p, bm, bn, bk: full_blocks_only(A, B, m, n, p, bm, bn, bk))
    r = check_law(planted, floats=False)
    assert r["verdict"] == "refuted"
    assert replays(planted, r["counterexample"])


def test_planted_stencil_with_too_small_window_is_refuted():
    # Claiming radius-2 outputs depend only on inputs within 1 is false.
    from laws.locality import stencil_radius as sr
    good = REGISTRY["stencil_radius.window"]
    planted = dataclasses.replace(
        good, instances=({"dims": 1, "n": 5, "R": 2},),
        rhs=lambda x, y, w, dims, n, R: [sr.conv1d_at(sr._window_1d(x, y, i, R - 1), w, R, i)
                                         for i in range(n)])
    r = check_law(planted, floats=False)
    assert r["verdict"] == "refuted"
    assert replays(planted, r["counterexample"])
