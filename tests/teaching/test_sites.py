"""One finder for "where a kernel uses this combine": ``verify law`` and ``verify
explain`` report the same sites, and only real uses in code count."""
from __future__ import annotations

import textwrap

import pytest

from laws import REGISTRY
from verify.api import kernel_sites as law_command_sites
from verify.teaching import explain as E
from verify.teaching import sites


def _lines(path: str) -> list[str]:
    with open(path, encoding="utf-8") as fh:
        return fh.read().splitlines()


def _explain_lines(law_id: str) -> list[str]:
    """The sites as ``explain`` shows them, in ``verify law``'s string form."""
    doc = E.explain(law_id, check=False)
    if not doc["call_sites"]:
        return []
    src = doc["combine"]
    lines = [f"{src['file']}:{src['line']} (definition of {src['name']})"]
    lines += [f"{c['file']}:{c['line']} (the shared combine {c['name']})" for c in src["calls"]]
    return lines + [f"{s['file']}:{s['line']}: {s['text']}" for s in doc["call_sites"]]


# law id → the kernel files that call its combine (empty: no kernel does)
EXPECTED_FILES = {
    "online_softmax.associative": {"impls/softmax.py"},
    "welford.associative": {"impls/var_mean.py", "impls/layer_norm.py"},
    "linear_recurrence.associative": {"impls/linear_scan.py", "impls/selective_scan.py"},
    "sum.associative": {"impls/scan.py"},
    "max.associative": set(),            # kernels call tl.maximum, never combines.maximum
    "online_softmax.no_rescale": set(),  # an anti-law: no kernel uses it
    "lora.factored_product": set(),      # no combine at all
}


@pytest.mark.parametrize("law_id", sorted(EXPECTED_FILES))
def test_law_and_explain_report_the_same_sites(law_id):
    law = REGISTRY[law_id]
    from_law = law_command_sites(law)
    assert from_law == _explain_lines(law_id)
    files = {s.file for s in sites.kernel_sites(law)}
    assert files == EXPECTED_FILES[law_id]
    for site in sites.kernel_sites(law):
        assert site.kind in ("call", "argument", "reference")
        assert site.name in site.text


def test_strings_and_docstrings_in_kernels_are_not_sites():
    """impls/scan.py names ``add`` inside string literals (its ``passes`` notes) and
    impls/layer_norm.py names ``welford`` in one: neither line is a site."""
    scan = {s.line: s for s in sites.kernel_sites(REGISTRY["sum.associative"])}
    source = _lines(sites.IMPLS + "/scan.py")
    in_strings = [i for i, text in enumerate(source, 1)
                  if "associative_scan(add)" in text]
    assert in_strings and not set(in_strings) & set(scan)
    norm = [s for s in sites.kernel_sites(REGISTRY["welford.associative"])
            if s.file == "impls/layer_norm.py"]
    assert [s.text for s in norm] == ["combine=welford,"]


def test_only_resolved_uses_count(tmp_path):
    (tmp_path / "kernel.py").write_text(textwrap.dedent('''
        """A kernel that merges with welford (this docstring is not a site)."""
        import triton.language as tl
        from laws.associativity import combines as c
        from laws.associativity.combines import welford
        NOTE = "tl.reduce(x, 0, welford)"   # a string, and welford in a comment

        def welford_free(x):
            """welford(a, b) here is text."""
            return tl.maximum(x, 0)

        def uses(x, a, b):
            y = welford(*a, *b)
            z = tl.reduce(x, 0, c.welford)
            return y, z
        '''), encoding="utf-8")
    found = sites.kernel_sites(REGISTRY["welford.associative"], impls_dir=str(tmp_path))
    assert [(s.line, s.kind) for s in found] == [(13, "call"), (14, "argument")]
    assert sites.kernel_sites(REGISTRY["max.associative"], impls_dir=str(tmp_path)) == []


def test_definitions_point_at_the_defining_lines():
    law = REGISTRY["online_softmax.associative"]
    defs = sites.definitions(law)
    assert [(d.kind, d.name) for d in defs] == [("definition", "_online"),
                                               ("shared", "online_softmax")]
    for d in defs:
        line = _lines(f"{sites.ROOT}/{d.file}")[d.line - 1]
        assert d.name in line or line.lstrip().startswith("@")
