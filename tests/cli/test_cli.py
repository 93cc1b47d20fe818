"""The command line contract: exit statuses, one JSON document, one-line errors."""
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(*args, timeout=300):
    return subprocess.run([sys.executable, "-m", "verify", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)


def test_law_json_is_one_document():
    p = run("law", "online_softmax.associative", "--json")
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    for key in ("id", "property", "expect", "verdict", "ok", "bound", "method",
                "counterexample", "floats", "seconds"):
        assert key in doc
    assert doc["verdict"] == "proved" and doc["floats"]["float32"]["exact"] is False


def test_law_readable_shows_both_sides_of_the_counterexample():
    p = run("law", "mean.of_means")
    assert p.returncode == 0
    assert "lhs =" in p.stdout and "rhs =" in p.stdout and "x1 =" in p.stdout


@pytest.mark.slow
def test_laws_for_one_property_json():
    p = run("laws", "--property", "associativity", "--json", "--no-floats", "--jobs", "2")
    assert p.returncode == 0, p.stderr[-2000:]
    doc = json.loads(p.stdout)
    assert doc["summary"]["disagree"] == [] and doc["summary"]["total"] == len(doc["laws"])


@pytest.mark.parametrize("args", [("law", "no.such_law"), ("frobnicate",), (),
                                  ("laws", "--jobs", "0"), ("laws", "--property", "beauty"),
                                  ("law",)])
def test_bad_usage_is_one_line_and_status_2(args):
    p = run(*args)
    assert p.returncode == 2
    assert p.stdout == ""
    assert len(p.stderr.strip().splitlines()) == 1 and "Traceback" not in p.stderr


def test_unknown_law_suggests_close_ids():
    p = run("law", "online_softmax.associativ")
    assert "did you mean online_softmax.associative" in p.stderr


def test_list_json():
    doc = json.loads(run("list", "--json").stdout)
    assert any(r["id"] == "sum.associative" for r in doc["laws"])


def test_papers_json():
    p = run("papers", "--json")
    doc = json.loads(p.stdout)
    assert p.returncode == (0 if all(x["ok"] for x in doc["papers"]) else 1)
    assert any(x["id"] == "milakov2018" for x in doc["papers"])


@pytest.mark.slow
def test_all_json_is_one_document_covering_six_properties(tmp_path):
    report = tmp_path / "report"
    p = run("all", "--no-certify", "--json", "--jobs", "2", "--report", str(report))
    assert p.returncode == 0, p.stderr[-2000:]
    doc = json.loads(p.stdout)
    assert set(doc) == {"laws", "papers", "certificates", "stale", "summary", "report"}
    # the report reuses this run's results: a page per law, written in a fraction of it
    assert doc["report"]["laws"] == len(doc["laws"])
    assert doc["report"]["seconds"] < 0.25 * doc["report"]["run_seconds"]
    for r in doc["laws"]:
        assert (report / "laws" / f"{r['id']}.html").is_file()
    assert (report / "index.html").is_file() and (report / "papers.html").is_file()
    assert {r["property"] for r in doc["laws"]} == {
        "associativity", "separability", "locality", "sparsity", "redundancy", "symmetry"}
    assert doc["summary"]["ok"] and doc["summary"]["laws"]["disagree"] == []


# ----------------------------------------------------------------------------- output
def test_laws_progress_goes_to_stderr_when_piped():
    p = run("laws", "--property", "symmetry", "--json", "--jobs", "1")
    assert p.returncode == 0, p.stderr[-2000:]
    json.loads(p.stdout)
    assert "verify: checking laws:" in p.stderr


def test_jobs_above_the_core_count_is_reduced_with_a_note():
    p = run("laws", "--property", "symmetry", "--no-floats", "--json", "--jobs", "999")
    assert p.returncode == 0, p.stderr[-2000:]
    assert f"--jobs 999 reduced to {os.cpu_count()}" in p.stderr
    assert json.loads(p.stdout)["summary"]["disagree"] == []


def _narrow(*args):
    env = dict(os.environ, COLUMNS="80")
    return subprocess.run([sys.executable, "-m", "verify", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)


def test_list_fits_80_columns_without_cutting_ids():
    p = _narrow("list")
    assert p.returncode == 0
    assert max(len(line) for line in p.stdout.splitlines()) <= 80
    ids = json.loads(run("list", "--json").stdout)["laws"]
    for row in ids:
        assert row["id"] in p.stdout


def test_list_long_adds_statements_within_80_columns():
    p = _narrow("list", "--long")
    assert p.returncode == 0
    assert max(len(line) for line in p.stdout.splitlines()) <= 80
    for row in json.loads(run("list", "--json").stdout)["laws"]:
        assert row["id"] in p.stdout
    assert "    (a ⊕ b) ⊕ c = a ⊕ (b ⊕ c)" in p.stdout


def test_list_prints_one_line_per_law():
    p = _narrow("list")
    ids = [r["id"] for r in json.loads(run("list", "--json").stdout)["laws"]]
    lines = [line for line in p.stdout.splitlines() if line.split(" ", 1)[0] in ids]
    assert len(lines) == len(ids)


def test_laws_table_fits_80_columns():
    p = _narrow("laws", "--property", "symmetry")
    assert p.returncode == 0, p.stderr[-2000:]
    lines = p.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert "symmetry" in p.stdout and "…" not in p.stdout
    # one line per law: id, property, verdict with its mark, float marks, seconds
    rows = [line for line in lines if line.startswith("newton_third_law.")]
    assert len(rows) == 2
    for row in rows:
        cells = row.split()
        assert cells[1] == "symmetry" and cells[2] in ("proved", "refuted")
        assert cells[3] == "✓" and float(cells[-1]) >= 0


def test_laws_long_shows_each_statement():
    p = _narrow("laws", "--property", "symmetry", "--no-floats", "--long", "--jobs", "1")
    assert p.returncode == 0, p.stderr[-2000:]
    assert max(len(line) for line in p.stdout.splitlines()) <= 80
    from laws import REGISTRY
    for law in REGISTRY:
        if law.property.value == "symmetry":
            assert law.statement.split()[0] in p.stdout
            assert "    expect " + law.expect in p.stdout


def test_audit_table_fits_80_columns():
    p = _narrow("audit", "tests/audit_cases/vector_moving_average.py:smooth")
    assert p.returncode == 0, p.stderr[-2000:]
    assert max(len(line) for line in p.stdout.splitlines()) <= 80
    assert "permutation" in p.stdout and "…" not in p.stdout


def test_certificates_table_fits_80_columns():
    from rich.console import Console

    from verify.cli.kernel_cmd import certificates_table
    cert = {"kernel": "selective_scan", "backend": "triton-interpreter", "rho": 0.999,
            "dtypes": {"float32": {"status": "certified"}, "float16": {"status": "certified"},
                       "bfloat16": {"status": "skipped"}},
            "planted": {"a": {"caught": True}, "b": {"caught": True}}, "pass": True}
    console = Console(width=80, record=True, file=open(os.devnull, "w"))
    console.print(certificates_table([cert], "certificates"))
    text = console.export_text()
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "selective_scan" in text and "triton-interpreter" in text and "pass" in text


@pytest.mark.parametrize("command", ["all", "laws", "list", "law", "explain", "audit",
                                     "certify", "references", "papers", "bench", "exercise",
                                     "report"])
def test_every_option_is_documented(command):
    from verify.cli.main import _parser
    parser = _parser()
    sub = next(a for a in parser._actions if a.dest == "command").choices[command]
    for action in sub._actions:
        assert action.help, f"{command} {action.option_strings or action.dest}"


def test_law_counterexample_sides_are_shown_as_numbers():
    """A high-precision decimal carried as a string in JSON is printed as a number."""
    from verify.cli.commands import plain
    assert plain([2, "1.367879441171442321595523770"]) == "[2, 1.367879441171442321595523770]"
    assert plain([[1, "0.5"], -3]) == "[[1, 0.5], -3]"
    p = run("law", "online_softmax.no_rescale")
    assert p.returncode == 0, p.stderr
    rhs = [line for line in p.stdout.splitlines() if line.strip().startswith("rhs = ")]
    assert rhs and "'" not in rhs[0], p.stdout
