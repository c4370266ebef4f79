"""Every name that left the public face still works for one release, with a
``DeprecationWarning`` that names its new home (the list: ``toolwire._deprecated``)."""

from __future__ import annotations

import importlib
import json
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import toolwire
from toolwire._deprecated import MOVED_MODULES, MOVED_NAMES

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("name", sorted(MOVED_NAMES))
def test_an_old_top_level_name_warns_and_is_the_object_at_its_new_home(name: str) -> None:
    home, instead = MOVED_NAMES[name]
    expected = rf"toolwire\.{name} is deprecated.*{re.escape(instead)}"
    with pytest.warns(DeprecationWarning, match=expected):
        old = getattr(toolwire, name)
    assert old is getattr(importlib.import_module(home), name)


@pytest.mark.parametrize("path", sorted(MOVED_MODULES))
def test_an_old_module_path_imports_with_a_warning_and_forwards(path: str) -> None:
    """In a fresh interpreter: an import made once is cached, and warns no more."""
    new, instead = MOVED_MODULES[path]
    program = (
        "import importlib, json, warnings\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        f"    import {path} as old\n"
        f"new = importlib.import_module({new!r})\n"
        "names = [n for n in dir(new) if not n.startswith('_')]\n"
        "print(json.dumps({'warned': [str(w.message) for w in caught"
        " if w.category is DeprecationWarning],\n"
        "    'forwarded': all(getattr(old, n) is getattr(new, n) for n in names),\n"
        "    'where': [w.filename for w in caught]}))\n"
    )
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                          check=True, env={"PYTHONPATH": str(ROOT / "src")})
    found = json.loads(done.stdout)
    assert any(f"{path} is deprecated" in w and instead in w for w in found["warned"])
    assert found["forwarded"] is True
    assert "<string>" in found["where"], "the warning points at the importing line"


def test_the_documented_old_imports_still_run() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from toolwire.registry import Registry
        from toolwire.text import read_text
        from toolwire.wire.stream import Accumulator

        assert Registry is toolwire.Registry
        assert read_text("hermes", "hi").text == "hi"
        assert Accumulator is toolwire.Accumulator


def test_an_unknown_name_is_still_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        toolwire.nope  # noqa: B018
