"""The wheel carries the specs: built, installed into a fresh venv, and run from there."""

from __future__ import annotations

import json
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "--no-build-isolation",
         "--quiet", "-w", str(out)],
        check=True,
    )
    (built,) = out.glob("toolwire-*.whl")
    return built


def test_wheel_holds_the_specs_and_type_marker(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for spec in sorted((ROOT / "specs" / "wire").glob("*.yaml")):
        assert f"toolwire/_specs/wire/{spec.name}" in names
    assert "toolwire/_specs/schema/wire-spec.v1.schema.json" in names
    assert "toolwire/_specs/examples/openai.json" in names
    assert "toolwire/py.typed" in names


def test_installed_wheel_reads_a_reply_from_its_own_specs(wheel: Path, tmp_path: Path) -> None:
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", str(wheel)], check=True)
    where = subprocess.run(
        [str(python), "-c", "import toolwire.paths as p; print(p.bundled_specs_dir())"],
        check=True, capture_output=True, text=True, cwd=tmp_path,
    ).stdout.strip()
    assert "site-packages" in where and where.endswith("_specs")
    result = subprocess.run(
        [str(env_dir / "bin" / "toolwire"), "extract", "--example", "openai"],
        check=True, capture_output=True, text=True, cwd=tmp_path,
    )
    reply = json.loads(result.stdout)
    assert reply["format"] == "openai"
    assert [c["name"] for c in reply["calls"]] == ["get_weather", "get_time"]
