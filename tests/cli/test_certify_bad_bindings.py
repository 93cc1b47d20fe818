"""``certify FILE.py`` with a bad binding: exit 2, one line naming what is wrong,
nothing on stdout, nothing written — for a wrapper whose result does not fit the
outputs named and for a wrapper that raises on the first case (the other bad bindings
are refused in-process by tests/certification/test_bad_bindings.py, the same check)."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "tests" / "bad_bindings"


@pytest.mark.parametrize("name", ["more_values_than_names", "wrapper_raises"])
def test_certify_refuses_a_bad_binding_before_any_work(tmp_path, name):
    path = FOLDER / f"{name}.py"
    expected = path.read_text(encoding="utf-8").splitlines()[0][len("# expect: "):]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    p = subprocess.run([sys.executable, "-m", "verify", "certify", str(path), "--out",
                        str(tmp_path / "out")], cwd=tmp_path, env=env, capture_output=True,
                       text=True, timeout=300)
    assert p.returncode == 2, p.stderr[-2000:]
    assert p.stdout == ""
    lines = [line for line in p.stderr.splitlines() if " … " not in line]
    assert len(lines) == 1 and lines[0].startswith("verify: error: "), p.stderr
    assert expected in lines[0]
    assert not (tmp_path / "out").exists()
