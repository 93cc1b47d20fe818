"""`python -m verify references`: every catalog reference with its inputs, outputs and
declared formats, options with defaults and choices; one JSON document with --json; the
readable listing within 80 columns."""
import json
import os
import subprocess
import sys

from verify import api
from verify.certification.references import CATALOG

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(*args):
    env = dict(os.environ, COLUMNS="80")
    return subprocess.run([sys.executable, "-m", "verify", "references", *args], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=300)


def test_references_json_lists_every_reference_with_options_and_formats():
    p = run("--json")
    assert p.returncode == 0, p.stderr
    refs = {r["name"]: r for r in json.loads(p.stdout)["references"]}
    assert list(refs) == list(CATALOG)
    rms = refs["rms_norm"]
    assert rms["inputs"] == ["x", "weight"]
    assert rms["outputs"] == {"y": "input", "rstd": "float32"}
    assert rms["options"]["cast"] == {"default": "none", "choices": ["none", "llama", "gemma"]}
    assert refs["layer_norm"]["formats_by_option"] == {
        "stats='input'": {"mean": "input", "rstd": "input"}}
    assert refs["cross_entropy"]["inputs"] == ["x", "target"]
    assert refs["cross_entropy"]["options"]["ignore_index"] == {"default": -100}
    assert refs["topk"]["outputs"]["indices"] == "exact"
    assert all(r["description"] and "\n" not in r["description"] for r in refs.values())
    assert json.loads(p.stdout)["references"] == api.references()


def test_references_readable_names_each_within_80_columns():
    p = run()
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80
    for name in CATALOG:
        assert name in lines
    assert "    options  eps=1e-06; cast='none' (or 'llama' | 'gemma')" in lines
    assert "    formats  with stats='input': mean (input), rstd (input)" in lines
    assert f"{len(CATALOG)} references" in p.stdout


def test_references_rejects_arguments_with_one_line():
    p = run("rms_norm")
    assert p.returncode == 2 and p.stdout == ""
    assert len(p.stderr.strip().splitlines()) == 1
