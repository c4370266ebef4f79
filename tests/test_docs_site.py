"""The documentation site builds with ``mkdocs build --strict``, clean of warnings: no broken
link or anchor, no page left out of the nav, no docstring mkdocstrings cannot read; and the
API reference shows every public name.
"""

from __future__ import annotations

import importlib
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
PUBLIC = ["toolwire", "toolwire.errors", "toolwire.types", "toolwire.batch", "toolwire.spark",
          "toolwire.interop.langchain", "toolwire.interop.pydantic_ai", "toolwire.interop.mcp"]


SITE_PACKAGES = {"mkdocs", "mkdocs-material", "mkdocstrings-python"}


def test_the_docs_and_test_extras_install_what_the_site_build_needs() -> None:
    """CI installs the test extras, so the build below runs there rather than skipping; the
    ``docs`` extra is the same for a writer who wants only the site."""
    with (ROOT / "pyproject.toml").open("rb") as file:
        extras = tomllib.load(file)["project"]["optional-dependencies"]
    for extra in ("test", "docs"):
        names = {re.split(r"[<>=!~;\[ ]", requirement, maxsplit=1)[0].lower()
                 for requirement in extras[extra]}
        assert names >= SITE_PACKAGES, f"the {extra} extra lacks {SITE_PACKAGES - names}"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    for module in ("mkdocs", "material", "mkdocstrings", "mkdocstrings_handlers.python"):
        pytest.importorskip(module, reason="the docs site needs mkdocs-material and"
                            " mkdocstrings-python (test extras); CI installs them")
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file",
         str(ROOT / "mkdocs.yml"), "--site-dir", str(out)],
        cwd=out, env=env, capture_output=True, text=True, check=False, timeout=600)
    printed = done.stdout + done.stderr
    assert done.returncode == 0, printed
    assert [line for line in printed.splitlines() if "WARNING" in line] == []
    return out


def test_the_site_builds_in_strict_mode_without_a_warning(site: Path) -> None:
    assert (site / "index.html").is_file()


def test_the_documents_outside_docs_are_pages_of_the_site(site: Path) -> None:
    """The README is the home page; the spec language, its changelog and checklist, and the
    JavaScript package's README are published from where they live."""
    home = (site / "index.html").read_text(encoding="utf-8")
    assert "A five-minute tour" in home and 'href="streaming/"' in home
    reference = (site / "spec" / "reference" / "index.html").read_text(encoding="utf-8")
    assert 'href="../../writing-specs/"' in reference  # ../docs/writing-specs.md, on the site
    assert (site / "spec" / "changelog" / "index.html").is_file()
    assert (site / "spec" / "VERSION").is_file()
    assert (site / "javascript" / "index.html").is_file()


@pytest.mark.parametrize("module", PUBLIC)
def test_the_api_reference_shows_every_public_name(site: Path, module: str) -> None:
    page = module.removeprefix("toolwire.").split(".")[0]
    html = (site / "api" / page / "index.html").read_text(encoding="utf-8")
    public = importlib.import_module(module)
    missing = []
    for name in public.__all__:
        if isinstance(getattr(public, name), ModuleType):  # a module has a page of its own
            own = site / "api" / name / "index.html"
            if f'id="{module}.{name}"' not in own.read_text(encoding="utf-8"):
                missing.append(name)
        elif f'id="{module}.{name}"' not in html:
            missing.append(name)
    assert missing == []


def _class_member(path: str) -> tuple[type, str] | None:
    """The class and member name ``path`` (``toolwire.ToolCall.__eq__``) names; None for a
    module's own name (``toolwire.__version__``, listed in ``__all__``)."""
    parts = path.split(".")
    for split in range(len(parts) - 1, 0, -1):
        try:
            owner: object = importlib.import_module(".".join(parts[:split]))
        except ImportError:
            continue
        for step in parts[split:-1]:
            owner = getattr(owner, step)
        return (owner, parts[-1]) if isinstance(owner, type) else None
    return None


def test_the_api_reference_lists_no_undocumented_special_member(site: Path) -> None:
    undocumented = []
    for page in sorted((site / "api").rglob("index.html")):
        for path in re.findall(r'id="(toolwire[\w.]*\.__\w+__)"', page.read_text("utf-8")):
            found = _class_member(path)
            if found is None:
                continue
            doc = getattr(vars(found[0]).get(found[1]), "__doc__", None)  # its own, not object's
            if not (isinstance(doc, str) and doc.strip()):
                undocumented.append(path)
    assert undocumented == []


def _extensions() -> list[str]:
    """The Griffe extensions mkdocs.yml loads (tools/site/*.py)."""
    return re.findall(r"^\s*- (tools/site/\w+\.py)\s*$", (ROOT / "mkdocs.yml").read_text("utf-8"),
                      re.M)


def test_the_configured_reference_hides_only_undocumented_special_members(
    tmp_path: Path,
) -> None:
    griffe = pytest.importorskip("griffe")
    assert "tools/site/special_members.py" in _extensions()
    assert re.search(r"^\s*merge_init_into_class: true$", (ROOT / "mkdocs.yml").read_text("utf-8"),
                     re.M)  # __init__ shows as the class's signature, never as a member
    package = tmp_path / "demo"
    package.mkdir()
    (package / "__init__.py").write_text('''"""A package."""

class Value:
    """A value."""

    __slots__ = ("a",)

    def __init__(self, a: int) -> None:
        self.a = a

    def __eq__(self, other: object) -> bool:
        return self is other

    def __iter__(self):
        """Its parts, in order."""
        return iter(())

    def parts(self) -> list[int]:
        return []
''', encoding="utf-8")
    extensions = griffe.load_extensions(*(str(ROOT / e) for e in _extensions()))
    demo = griffe.load("demo", search_paths=[str(tmp_path)], extensions=extensions)
    assert set(demo["Value"].members) == {"__init__", "__iter__", "a", "parts"}
    real = griffe.load("toolwire", search_paths=[str(ROOT / "src")], extensions=extensions)
    shown = []
    for module in PUBLIC:
        public = importlib.import_module(module)
        for name in public.__all__:
            target = real[f"{module}.{name}".removeprefix("toolwire.")]
            if target.is_class:
                shown += [f"{module}.{name}.{m}" for m, member in target.all_members.items()
                          if m.startswith("__") and m.endswith("__") and m != "__init__"
                          and member.is_public and not member.docstring]
    assert shown == []
