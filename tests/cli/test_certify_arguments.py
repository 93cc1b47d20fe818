"""``certify`` checks every argument before any work: one line, exit 2, nothing on
stdout, no progress line, nothing written under --out."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

FILES = {
    "float128.py": "import dataclasses\nfrom impls.softmax import KERNEL as SOFTMAX\n"
                   "KERNEL = dataclasses.replace(SOFTMAX, name='softmax128', "
                   "dtypes=('float128',))\n",
    "bad_binding.py": "from verify.certification.binding import bind\n\n\n"
                      "def f(x):\n    return x\n\n\nKERNEL = bind(f, 'no_such_reference')\n",
    "a_file": "",
}


@pytest.fixture(scope="module")
def place(tmp_path_factory):
    d = tmp_path_factory.mktemp("certify_args")
    for name, text in FILES.items():
        (d / name).write_text(text)
    (d / "dangling").symlink_to(d / "nowhere")
    (d / "blocked" / "softmax.triton-interpreter.json").mkdir(parents=True)
    return d


CASES = [
    (["softmax", "--out", "{d}/dangling"], "a symbolic link to nothing"),
    (["softmax", "--out", "{d}/dangling/sub"], "a symbolic link to nothing"),
    (["softmax", "--out", ""], "an empty path"),
    (["softmax", "--out", "/proc/lawcheck"], "cannot be created"),
    (["softmax", "--out", "{d}/a_file"], "not a directory"),
    (["softmax", "--out", "{d}/blocked"], "a directory is in the way"),
    (["softmax", "--seed", "-1", "--out", "{d}/out"], "--seed"),
    (["softmax", "--seed", "4294967296", "--out", "{d}/out"], "--seed"),
    (["softmax", "{d}/float128.py", "--out", "{d}/out"], "float128"),
    (["softmax", "{d}/bad_binding.py", "--out", "{d}/out"], "no_such_reference"),
    (["softmax", "{d}/missing.py", "--out", "{d}/out"], "no such file"),
    (["softmax", "no_such_kernel", "--out", "{d}/out"], "unknown kernel"),
]


@pytest.mark.parametrize("args, message", CASES,
                         ids=[" ".join(a[:2]).replace("{d}/", "") for a, _ in CASES])
def test_certify_refuses_before_any_work(place, args, message):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    p = subprocess.run([sys.executable, "-m", "verify", "certify", "--backend",
                        "interpreter", *[a.format(d=place) for a in args]], cwd=place,
                       env=env, capture_output=True, text=True, timeout=300)
    assert p.returncode == 2, p.stderr[-2000:]
    assert p.stdout == ""
    lines = [line for line in p.stderr.splitlines() if " … " not in line or
             "certifying" in line]  # a waiting line while a file loads, never progress
    assert len(lines) == 1 and lines[0].startswith("verify: error: "), p.stderr
    assert message in lines[0]
    assert lines[0].count("BadInput") == 0
    assert not (place / "out").exists()
    assert not [p for p in place.rglob("*.json") if p.is_file()]
