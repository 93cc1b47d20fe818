"""``load_binding("FILE.py:NAME")``: the spec a user's file binds, and one line of
BadInput for every unusable target."""
from pathlib import Path

import pytest

from impls.spec import KernelSpec
from verify.certification.loading import load_binding
from verify.errors import BadInput

RMS = str(Path(__file__).resolve().parents[1] / "user_kernels" / "rms_norm.py")


def _bad(target: str, match: str) -> str:
    with pytest.raises(BadInput, match=match) as info:
        load_binding(target)
    message = str(info.value)
    assert "\n" not in message and message.strip() == message
    return message


def _write(tmp_path, text: str, name: str = "user.py") -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_a_named_spec_a_default_kernel_and_a_binding_function_load():
    named = load_binding(f"{RMS}:KERNEL")
    assert isinstance(named, KernelSpec) and named.name == "rms_norm"
    assert load_binding(RMS).name == "rms_norm"              # FILE.py alone: its KERNEL
    made = load_binding(f"{RMS}:binding")                    # called with its defaults
    assert isinstance(made, KernelSpec) and made.dtypes == named.dtypes


def test_the_files_directory_is_importable_while_it_loads(tmp_path):
    _write(tmp_path, "from user_kernels_helper import SPEC\nKERNEL = SPEC\n", "main.py")
    _write(tmp_path, f"import importlib.util as u\n"
                     f"s = u.spec_from_file_location('rms_copy', {RMS!r})\n"
                     f"m = u.module_from_spec(s); s.loader.exec_module(m)\nSPEC = m.KERNEL\n",
           "user_kernels_helper.py")
    assert load_binding(str(tmp_path / "main.py")).name == "main"   # the file that names it


def test_missing_file(tmp_path):
    _bad(str(tmp_path / "absent.py") + ":KERNEL", "no such file")


def test_not_a_python_file(tmp_path):
    _bad(_write(tmp_path, "KERNEL = 1\n", "kernel.txt") + ":KERNEL", "not a .py file")


def test_malformed_target():
    _bad("KERNEL", "expected FILE.py or FILE.py:NAME")


def test_syntax_error(tmp_path):
    message = _bad(_write(tmp_path, "x = 1\ndef broken(:\n") + ":KERNEL", "syntax error")
    assert ":2:" in message


def test_import_failure(tmp_path):
    path = _write(tmp_path, "import no_such_module_for_lawcheck\n")
    _bad(path + ":KERNEL", "importing the file failed: ModuleNotFoundError")


def test_no_such_name_lists_the_specs_there():
    message = _bad(f"{RMS}:KERNAL", "no name 'KERNAL'")
    assert "KERNEL" in message


def test_no_default_kernel(tmp_path):
    _bad(_write(tmp_path, "X = 1\n"), "no name 'KERNEL'")


def test_a_name_that_is_not_a_spec(tmp_path):
    _bad(f"{RMS}:PLANTED", "is a dict, not a KernelSpec")
    _bad(f"{RMS}:rms_norm", "is a function, not a KernelSpec")   # required arguments
    path = _write(tmp_path, "def make():\n    return 42\n\n"
                            "def boom():\n    raise ValueError('x\\ny')\n")
    _bad(path + ":make", r"make\(\) returned a int, not a KernelSpec")
    _bad(path + ":boom", r"boom\(\) failed: ValueError: x y")
