"""Every file of tests/bad_bindings/ is refused the way ``certify FILE.py`` refuses it
before any work — loaded (``load_binding``), then tried once on its smallest case per
dtype (``probe.check_binding``) — with one line that contains what the file's first
line expects. tests/cli/test_certify_bad_bindings.py runs two of them through the
command line."""
from pathlib import Path

import pytest

from impls.spec import backend as running_backend
from verify.certification.loading import load_binding
from verify.certification.probe import check_binding
from verify.errors import BadInput

FOLDER = Path(__file__).resolve().parents[1] / "bad_bindings"
FILES = sorted(p for p in FOLDER.glob("*.py") if not p.name.startswith("_"))


def expectation(path: Path) -> str:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("# expect: "), f"{path.name}: first line must be '# expect: …'"
    return first[len("# expect: "):]


def refusal(path: Path) -> str:
    with pytest.raises(BadInput) as info:
        spec = load_binding(str(path))
        check_binding(spec, str(path), running_backend())
    return str(info.value)


def test_there_are_bad_bindings_of_every_kind():
    assert len(FILES) >= 12


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_a_bad_binding_is_one_line_naming_what_is_wrong(path):
    message = refusal(path)
    assert "\n" not in message and message.strip() == message
    assert expectation(path) in message, message
    assert message.startswith(str(path)), message      # names the file


def test_a_raising_wrapper_is_located_in_its_file():
    path = FOLDER / "wrapper_raises.py"
    assert refusal(path).endswith(f"wrapper_raises.py:{_raise_line(path)}")


def _raise_line(path: Path) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if "raise RuntimeError" in line)


def test_the_near_miss_a_good_map_of_the_same_wrapper_passes_the_check():
    from verify.certification.binding import bind
    from verify.certification.outputs import OutputMismatch  # noqa: F401  (the refused kind)
    import sys
    sys.path.insert(0, str(FOLDER))
    try:
        from _rms import rms_norm_liger
    finally:
        sys.path.remove(str(FOLDER))
    spec = bind(rms_norm_liger, reference="rms_norm", outputs={"y": 0, "rstd": 2})
    check_binding(spec, "liger", running_backend())                  # no raise
