"""Law references and paper claims point at ids that exist, both ways."""
from __future__ import annotations

import dataclasses

from laws import REGISTRY
from papers import PAPERS, Claim, Paper
from verify.links import BrokenLink, broken_links


def test_catalog_and_papers_link_both_ways():
    assert broken_links() == []
    assert any(law.references for law in REGISTRY) and PAPERS


def test_a_broken_link_is_reported_with_both_sides():
    good = REGISTRY["online_softmax.associative"]
    bad_law = REGISTRY["online_softmax.no_rescale"]
    bad_law = dataclasses.replace(bad_law, references=("nosuch2099",))
    papers = {"milakov2018": Paper("milakov2018", "Online softmax", "M. G.", 2018, "arXiv"),
              "fake2000": Paper("fake2000", "A claim", "N. N.", 2000, "nowhere",
                                (Claim("merging is fine", ("online_softmax.nonexistent",
                                                           good.id)),))}
    found = broken_links([good, bad_law], papers)
    assert found == [
        BrokenLink("online_softmax.no_rescale", "nosuch2099", "paper"),
        BrokenLink("online_softmax.nonexistent", "fake2000", "law", "merging is fine"),
    ]
    assert "online_softmax.no_rescale" in str(found[0]) and "nosuch2099" in str(found[0])
    assert "fake2000" in str(found[1]) and "online_softmax.nonexistent" in str(found[1])
