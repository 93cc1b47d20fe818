"""Domains a user states for an audited function: annotations and --domain; an unknown
kind or parameter is bad input (one line on stderr, exit 2, nothing on stdout)."""
import contextlib
import io
from pathlib import Path

import pytest

from verify.auditing import declared
from verify.auditing.load import AuditError
from verify.auditing.signature import analyse
from verify.cli.main import main as cli_main

CASES = Path(__file__).resolve().parents[1] / "audit_cases"


def _cli(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli_main(argv)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("option", ["a=postive", "a", "=real", "q=positive"])
def test_a_bad_domain_option_is_bad_input(option):
    code, out, err = _cli(["audit", f"{CASES / 'add.py'}:f", "--domain", option, "--json"])
    assert code == 2 and out == ""
    assert err.startswith("verify: error: --domain") and err.count("\n") == 1


def test_an_unknown_annotated_domain_is_bad_input(tmp_path):
    path = tmp_path / "bad.py"
    path.write_text('def f(a: "postive", b):\n    return a + b\n')
    code, out, err = _cli(["audit", f"{path}:f", "--json"])
    assert code == 2 and out == ""
    assert "unknown domain 'postive'" in err


def _f(na: "natural", ma, nb, mb: float):  # noqa: F821 (a domain name, not a type)
    n = na + nb
    return n, ma + (mb - ma) * nb / max(n, 1)


def test_annotations_and_options_give_each_component_its_domain():
    sig = declared.apply(_f, analyse(_f))
    assert sig.params[0].var("a").component_domains() == ["natural", "real"]
    sig = declared.apply(_f, analyse(_f), {"nb": "natural", "ma": "unit", "mb": "unit"})
    assert sig.params[0].var("a").component_domains() == ["natural", "unit"]
    assert any("domains stated" in n for n in sig.notes)
    with pytest.raises(AuditError, match="neither of which lies within the other"):
        declared.apply(_f, analyse(_f), {"nb": "positive"})


def test_nested_domains_of_one_variable_take_the_narrowest():
    # na: natural (annotated), nb: integer: a law swaps them, so both range over ℕ
    sig = declared.apply(_f, analyse(_f), {"nb": "integer"})
    assert sig.params[0].var("a").component_domains() == ["natural", "real"]
    assert any("narrowest domain stated, x ∈ ℕ" in n for n in sig.notes)


def _g(a: int, b: "natural"):  # noqa: F821
    return a + b


def test_a_binary_function_with_nested_domains_takes_the_narrowest():
    sig = declared.apply(_g, analyse(_g))
    assert [p.domain for p in sig.params] == ["natural", "natural"]


@pytest.mark.parametrize("inner, outer, expected", [
    ("natural", "integer", True), ("integer", "natural", False), ("small", "natural", True),
    ("unit", "nonneg", True), ("positive", "nonneg", True), ("nonneg", "positive", False),
    ("natural", "positive", False), ("integer", "real", True), ("real", "integer", False),
    ("unit", "small", False), ("small", "unit", False), ("real", "real", True)])
def test_domain_nesting(inner, outer, expected):
    from verify.engine import domains
    assert domains.get(inner).within(domains.get(outer)) is expected
