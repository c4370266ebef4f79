"""The wheel carries the specs, the schemas and the conformance suite: built once, installed
into a fresh venv, and run from there (``toolwire conformance`` included)."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

from toolwire.cli import main

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
    for schema in sorted((ROOT / "specs" / "schema").glob("*.json")):
        assert f"toolwire/_specs/schema/{schema.name}" in names
    suite = ROOT / "specs" / "conformance"
    cases = {f"toolwire/_specs/conformance/{p.relative_to(suite).as_posix()}"
             for p in suite.rglob("*.json")}
    assert len(cases) >= 600 and cases <= names


# A path a skeleton cites: a file name with its folders, or a bare file name.
_CITED = re.compile(r"(?<![\w./-])((?:[\w-]+/)*[\w.-]+\.(?:py|md|json|ya?ml|txt))\b")


def _in_wheel(cited: str, names: set[str]) -> bool:
    """Whether the wheel holds the file ``cited`` names (the repository's ``specs/`` is the
    package's ``toolwire/_specs/``, ``src/toolwire/`` its ``toolwire/``)."""
    for repo, packaged in (("specs/", "toolwire/_specs/"), ("src/toolwire/", "toolwire/")):
        if cited.startswith(repo):
            return packaged + cited[len(repo):] in names
    if "/" in cited:
        return cited in names
    return any(name.rsplit("/", 1)[-1] == cited for name in names)


@pytest.mark.parametrize("extends", [None, "openai", "anthropic"])
def test_a_spec_skeleton_cites_only_files_the_wheel_holds(
    wheel: Path, tmp_path: Path, extends: str | None,
) -> None:
    argv = ["specs", "new", "acme", "--out", str(tmp_path)]
    assert main([*argv, *(["--extends", extends] if extends else [])], io.StringIO()) == 0
    skeleton = (tmp_path / "acme.yaml").read_text(encoding="utf-8")
    cited = set(_CITED.findall(skeleton))
    assert "specs/README.md" in cited  # the reference it points every author to
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {path for path in cited if not _in_wheel(path, names)} == set()


def test_the_spark_extra_brings_pyspark(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        (metadata,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        lines = archive.read(metadata).decode("utf-8").splitlines()
    assert "Provides-Extra: spark" in lines
    spark = [line.removeprefix("Requires-Dist: ") for line in lines
             if line.startswith("Requires-Dist:") and re.search(r"extra == .spark.", line)]
    assert {re.split(r"[^A-Za-z0-9_-]", line)[0] for line in spark} == {
        "pyspark", "pyarrow", "pandas"}


def test_installed_wheel_reads_a_reply_from_its_own_specs(wheel: Path, tmp_path: Path) -> None:
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", str(wheel)], check=True)
    where = subprocess.run(
        [str(python), "-c", "import toolwire._paths as p; print(p.bundled_specs_dir())"],
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
    # The suite and its comparison ship too: the installed toolwire runs every case on itself.
    conformance = subprocess.run(
        [str(env_dir / "bin" / "toolwire"), "conformance", "--json"],
        capture_output=True, text=True, cwd=tmp_path,
    )
    summary = json.loads(conformance.stdout)
    assert conformance.returncode == 0, summary["failures"][:3]
    assert summary["totals"]["passed"] >= 600 and summary["totals"]["failed"] == 0
