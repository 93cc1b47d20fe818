"""Writing the SMT-LIB2 query files never changes a verdict: a directory in the way, a
dangling link for the directory, or writers racing on one directory give a warning (or
whole files), never an error."""
import json
import multiprocessing
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from verify.decide import smt

ROOT = Path(__file__).resolve().parents[2]
LAW = "sum.associative"


def _verdict(smt_dir):
    from laws import REGISTRY
    from verify.decide.prover import prove
    law = REGISTRY[LAW]
    return prove(law, law.instances[0], smt_dir=smt_dir, witness_check=False).status


@pytest.fixture
def fresh_warnings():
    """Each test sees its own first warning (one per directory and process)."""
    getattr(smt, "_WARNED", set()).clear()
    yield
    getattr(smt, "_WARNED", set()).clear()


def test_a_directory_in_the_way_is_a_warning_not_a_verdict(tmp_path, fresh_warnings):
    plain = _verdict(None)
    assert plain == "proved"
    first = tmp_path / "first"
    _verdict(str(first))
    names = sorted(p.name for p in first.iterdir())
    assert names and all(n.endswith(".smt2") for n in names)
    blocked = tmp_path / "blocked"
    for name in names:
        (blocked / name).mkdir(parents=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert _verdict(str(blocked)) == plain
    assert [w.category for w in caught] == [smt.QueryFileWarning]
    assert "a directory is in the way" in str(caught[0].message)
    assert sorted(p.name for p in blocked.iterdir()) == names  # nothing else left


def test_a_dangling_link_for_the_directory_is_a_warning(tmp_path, fresh_warnings):
    plain = _verdict(None)
    link = tmp_path / "queries"
    link.symlink_to(tmp_path / "nowhere" / "at_all")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert _verdict(str(link)) == plain
    assert [w.category for w in caught] == [smt.QueryFileWarning]


def _hammer(directory: str) -> str:
    try:
        for _ in range(200):
            smt.write_text(directory, "same.1.smt2", "(check-sat)\n" * 50)
    except OSError as exc:
        return repr(exc)
    return "ok"


def test_racing_writers_each_write_whole_files(tmp_path):
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(4) as pool:
        assert pool.map(_hammer, [str(tmp_path)] * 4) == ["ok"] * 4
    assert [p.name for p in tmp_path.iterdir()] == ["same.1.smt2"]
    assert (tmp_path / "same.1.smt2").read_text() == "(check-sat)\n" * 50


def test_concurrent_runs_agree_and_a_blocked_file_is_one_warning(tmp_path):
    """Four runs writing one directory at once all prove the law; a fifth, whose files
    have directories in their way, proves it too and says so in one line."""
    blocked = tmp_path / "blocked"
    for i in range(1, 4):
        (blocked / f"{LAW}.{i}.smt2").mkdir(parents=True)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    procs = [subprocess.Popen([sys.executable, "-m", "verify", "law", LAW, "--json",
                               "--smt", str(where)], cwd=ROOT, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for where in [tmp_path / "q"] * 4 + [blocked]]
    outs = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0] * 5, [err for _, err in outs]
    assert [json.loads(out)["verdict"] for out, _ in outs] == ["proved"] * 5
    written = sorted(p.name for p in (tmp_path / "q").iterdir())
    assert written and all(n.startswith(f"{LAW}.") and n.endswith(".smt2") for n in written)
    for _, err in outs[:4]:
        assert "warning" not in err
    lines = [line for line in outs[4][1].splitlines() if " … " not in line]  # progress
    assert len(lines) == 1 and lines[0].startswith("verify: warning: --smt "), outs[4][1]
    assert "a directory is in the way; the verdicts are unaffected" in lines[0]


@pytest.mark.parametrize("args, message", [
    (["{d}/missing"], "no such directory"),
    (["{d}/a_file"], "no such directory"),
    (["{d}", "--timeout-ms", "-5"], "--timeout-ms"),
    (["{d}", "--timeout-ms", "0"], "--timeout-ms"),
    (["{d}", "--jobs", "0"], "--jobs"),
    (["{d}/a_file", "--dump"], "not a directory"),
])
def test_recheck_refuses_bad_usage_in_one_line(tmp_path, capsys, args, message):
    from verify.decide.recheck import main
    (tmp_path / "a_file").write_text("")
    assert main([a.format(d=tmp_path) for a in args]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("verify: error: ")
    assert message in lines[0]


def test_recheck_of_an_empty_directory_still_answers(tmp_path, capsys):
    from verify.decide.recheck import main
    assert main([str(tmp_path), "--jobs", "1"]) == 0
    assert '"files": 0' in capsys.readouterr().out


@pytest.mark.parametrize("content", [b"garbage (((\n", b"\xff\xfe\x00 not text",
                                     b"(check-sat)\n"])
def test_recheck_refuses_a_file_that_is_not_a_query(tmp_path, capsys, content):
    """Neither a skip nor a pass: a file with no z3 header cannot be compared."""
    from verify.decide.recheck import main, recheck
    (tmp_path / "junk.smt2").write_bytes(content)
    assert recheck(str(tmp_path), jobs=1)["counts"] == {"unreadable": 1}
    assert main([str(tmp_path), "--jobs", "1"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("verify: error: ")
    assert "1 unreadable query file(s)" in lines[0] and "junk.smt2" in lines[0]


def test_recheck_still_skips_what_z3_left_unknown(tmp_path, capsys):
    from verify.decide.recheck import main
    (tmp_path / "q.smt2").write_text("; z3: unknown\n(check-sat)\n")
    assert main([str(tmp_path), "--jobs", "1"]) == 0
    assert '"skipped": 1' in capsys.readouterr().out
