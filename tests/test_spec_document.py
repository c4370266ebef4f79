"""The normative spec (specs/README.md) is a document another language can be implemented from.

Its section numbers are unique and in order, every ``§N`` citation in the repository's specs,
docs and JavaScript implementation names a section that exists, every key the meta-schemas
define has a row in its key table, the text outside the sections marked *Python-only* defines
nothing through one language's library, and nothing points outside the repository. The
versions the document states agree with ``specs/VERSION`` and the packages, and the case files
stay within what the document promises a runner (nesting depth, lone surrogates).
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
SPECS = ROOT / "specs"
SPEC_DOC = SPECS / "README.md"
GUIDE = ROOT / "docs" / "writing-specs.md"

HEADING = re.compile(r"^(#{2,4}) (\d+[a-z]?(?:\.\d+)*)\.? (.*)$", re.MULTILINE)
NUMBER = r"\d+[a-z]?(?:\.\d+)*"
DASH = "\N{EN DASH}"
# "§1.3", "§ 1.3", "§1.11-1.13" (with a hyphen or an en dash), "§9.3-§9.5"; and
# "specs/README.md section 1.6" in the meta-schemas' descriptions.
CITATION = re.compile(
    rf"(?P<before>(?:RFC|BCP|ECMA-)\s?\d*\s?)?§\s?(?P<first>{NUMBER})"
    rf"(?:\s?[{DASH}-]\s?§?(?P<last>{NUMBER}))?"
)
SECTION_WORD = re.compile(
    rf"specs/README\.md,? sections? (?P<first>{NUMBER})(?:, (?P<last>{NUMBER}))?"
)


def _sections() -> list[tuple[str, str]]:
    """(number, title) of every numbered heading of the normative spec, in document order."""
    text = SPEC_DOC.read_text(encoding="utf-8")
    return [(m.group(2), m.group(3)) for m in HEADING.finditer(_outside_fences(text))]


def _outside_fences(text: str) -> str:
    """The text with fenced code blocks blanked (a YAML comment there is no heading)."""
    return re.sub(r"^```.*?^```", lambda m: "\n" * m.group(0).count("\n"), text,
                  flags=re.MULTILINE | re.DOTALL)


def _order_key(number: str) -> tuple[int, ...]:
    """``1`` < ``1.3`` < ``1.3.1`` < ``1b`` < ``1b.1`` < ``2``: a letter is a part after 1."""
    head, *rest = number.split(".")
    match = re.fullmatch(r"(\d+)([a-z]?)", head)
    assert match is not None, number
    letter = ord(match.group(2)) - ord("a") + 1 if match.group(2) else 0
    return (int(match.group(1)), letter, *(int(part) for part in rest))


def _numbers() -> set[str]:
    return {number for number, _ in _sections()}


def test_section_numbers_are_unique() -> None:
    seen: dict[str, str] = {}
    for number, title in _sections():
        assert number not in seen, f"§{number} twice: {seen[number]!r} and {title!r}"
        seen[number] = title


def test_section_numbers_are_in_order_and_nested_under_their_parent() -> None:
    numbers = [number for number, _ in _sections()]
    keys = [_order_key(number) for number in numbers]
    for before, after, number in zip(keys, keys[1:], numbers[1:], strict=False):
        assert before < after, f"§{number} comes after a section numbered after it"
    for number in numbers:
        if "." in number:
            parent = number.rsplit(".", 1)[0]
            assert parent in numbers, f"§{number} has no §{parent}"


def _cited_files() -> Iterator[Path]:
    """The files whose citations must resolve: specs/ (spec files, schemas, cases, the two
    documents), the JavaScript implementation (its generated copy of specs/ aside), docs/,
    the README, the Python package and its tests."""
    for pattern in ("**/*.md", "**/*.yaml", "**/*.json", "VERSION"):
        yield from sorted(SPECS.glob(pattern))
    js = ROOT / "tools" / "js"
    for path in sorted(js.rglob("*")):
        parts = path.relative_to(js).parts
        if parts[0] in ("node_modules", "specs") or not path.is_file():
            continue
        if path.suffix in (".js", ".mjs", ".ts", ".md"):
            yield path
    yield from sorted((ROOT / "docs").rglob("*.md"))
    yield ROOT / "README.md"
    # The Python package and its tests cite sections in docstrings and messages too (this
    # file aside: it holds made-up citations to test the parser).
    yield from sorted((ROOT / "src" / "toolwire").rglob("*.py"))
    yield from (p for p in sorted((ROOT / "tests").glob("*.py")) if p.name != Path(__file__).name)


def _citations(text: str) -> Iterator[tuple[str, int]]:
    """Every section number cited in ``text``, with its offset (other documents' sections,
    "RFC 8259 §6", left out)."""
    for match in CITATION.finditer(text):
        if match.group("before"):
            continue
        for group in ("first", "last"):
            if match.group(group):
                yield match.group(group), match.start()
    for match in SECTION_WORD.finditer(text):
        for group in ("first", "last"):
            if match.group(group):
                yield match.group(group), match.start()


def test_every_citation_names_an_existing_section() -> None:
    numbers = _numbers()
    wrong = []
    for path in _cited_files():
        text = path.read_text(encoding="utf-8")
        for number, offset in _citations(text):
            if number not in numbers:
                line = text.count("\n", 0, offset) + 1
                wrong.append(f"{path.relative_to(ROOT)}:{line}: §{number}")
    assert wrong == [], "citations of sections that do not exist:\n" + "\n".join(wrong)


def test_the_citation_pattern_reads_ranges_and_skips_other_documents() -> None:
    text = (f"§1.11{DASH}1.13, §1b.6-1b.11, § 9.3{DASH}§9.5, RFC 4648 §4,"
            " specs/README.md section 9.14")
    assert [n for n, _ in _citations(text)] == [
        "1.11", "1.13", "1b.6", "1b.11", "9.3", "9.5", "9.14"
    ]


def _section_text(number: str) -> str:
    """The text of one section up to the next heading of any level."""
    text = _outside_fences(SPEC_DOC.read_text(encoding="utf-8"))
    headings = list(HEADING.finditer(text))
    for index, match in enumerate(headings):
        if match.group(2) == number:
            end = headings[index + 1].start() if index + 1 < len(headings) else len(text)
            return text[match.end():end]
    raise AssertionError(f"no §{number}")


def _table_keys(section: str) -> set[str]:
    """The backquoted keys in the first column of the section's first key table."""
    keys = set()
    for line in _section_text(section).splitlines():
        match = re.match(r"\| `([^`]+)` \|", line)
        if match:
            keys.add(match.group(1))
    return keys


def _schema(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((SPECS / "schema" / name).read_text(encoding="utf-8"))
    return data


WIRE = _schema("wire-spec.v1.schema.json")
TEXT = _schema("text-spec.v1.schema.json")


@pytest.mark.parametrize(
    ("section", "properties"),
    [
        ("1.1", WIRE["properties"]),
        ("1b", TEXT["properties"]),
        ("5", WIRE["properties"]["normalize"]["properties"]),
        ("6", WIRE["properties"]["render"]["properties"]),
        ("8.1", {k: v for k, v in WIRE["properties"]["tools"]["properties"].items()
                 if k != "definitions"} | {"definitions": {}}),
        ("9.1", WIRE["properties"]["stream"]["properties"]),
    ],
    ids=["wire spec §1.1", "text spec §1b", "normalize §5", "render §6", "tools §8.1",
         "stream §9.1"],
)
def test_every_meta_schema_key_has_a_row_in_its_key_table(
    section: str, properties: dict[str, Any]
) -> None:
    rows = _table_keys(section)
    missing = sorted(set(properties) - rows)
    assert missing == [], f"§{section}'s key table has no row for {missing}"
    unknown = sorted(rows - set(properties) - {"x-…"})
    assert unknown == [], f"§{section}'s key table has rows the meta-schema lacks: {unknown}"


# Names that define behaviour through one language's library. The normative text states the
# behaviour instead; only a section marked Python-only may lean on Python.
FORBIDDEN = {
    "Python's re module": re.compile(r"\bre\.\w|`re`|\bre's\b"),
    "str methods": re.compile(r"\bstr\.(strip|is\w+|lower|split)"),
    "json module": re.compile(r"\bjson\.(loads|dumps)"),
    "JSON object of JavaScript": re.compile(r"\bJSON\.(parse|stringify)"),
    "int()/float()": re.compile(r"\b(int|float)\(\)"),
    "Python exceptions": re.compile(r"\b(ValueError|TypeError|KeyError|RecursionError)\b"),
    "isinstance": re.compile(r"\bisinstance\b"),
    "a module path": re.compile(r"\b[\w/]+\.py\b|\bsrc/toolwire"),
}


def _normative_parts() -> Iterator[tuple[str, str]]:
    """(section number, text) of every section but those marked Python-only."""
    text = _outside_fences(SPEC_DOC.read_text(encoding="utf-8"))
    headings = list(HEADING.finditer(text))
    yield "header", text[: headings[0].start()]
    for index, match in enumerate(headings):
        end = headings[index + 1].start() if index + 1 < len(headings) else len(text)
        if "(Python-only)" not in match.group(3):
            yield match.group(2), text[match.end():end]


def test_the_normative_text_names_no_library_outside_python_only_sections() -> None:
    found = []
    for number, text in _normative_parts():
        for what, pattern in FORBIDDEN.items():
            for match in pattern.finditer(text):
                found.append(f"§{number}: {what}: {match.group(0)!r}")
    assert found == []


def test_python_only_sections_exist_and_are_optional() -> None:
    marked = [number for number, title in _sections() if "(Python-only)" in title]
    assert marked == ["1b.13"]
    assert "(§1b.13)" in _section_text("0.3")


OUTSIDE = re.compile(r"(?<![\w.:/-])(/(?:work|tmp|home|usr|etc|var|opt|Users|root)/\S*|~/\S+|file://\S*)")


def test_no_document_points_outside_the_repository() -> None:
    documents = [SPEC_DOC, SPECS / "CONTRIBUTING.md", SPECS / "CHANGELOG.md", GUIDE]
    found = []
    for path in documents:
        for match in OUTSIDE.finditer(path.read_text(encoding="utf-8")):
            found.append(f"{path.relative_to(ROOT)}: {match.group(0)}")
    assert found == []


def test_relative_links_of_the_documents_resolve_inside_the_repository() -> None:
    for path in (SPEC_DOC, SPECS / "CONTRIBUTING.md", SPECS / "CHANGELOG.md", GUIDE):
        text = _outside_fences(path.read_text(encoding="utf-8"))
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
            if re.match(r"[a-z]+:", target):
                continue  # a URL
            resolved = (path.parent / target).resolve()
            assert resolved.is_relative_to(ROOT), f"{path.name}: {target} leaves the repository"
            assert resolved.exists(), f"{path.name}: {target} does not exist"


def _versions() -> dict[str, str]:
    pairs = {}
    for line in (SPECS / "VERSION").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, version = line.partition(":")
            pairs[name.strip()] = version.strip()
    return pairs


def test_versions_agree_with_the_document_and_the_packages() -> None:
    versions = _versions()
    assert set(versions) == {"language", "specs"}
    header = SPEC_DOC.read_text(encoding="utf-8").split("\n## ", 1)[0]
    assert f"document revision **{versions['language']}**" in header
    assert f"bundled spec set **{versions['specs']}**" in header
    major = versions["language"].split(".")[0]
    languages = {schema["properties"]["spec_version"]["const"] for schema in (WIRE, TEXT)}
    assert languages == {int(major)}
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert versions["specs"] == pyproject["project"]["version"]
    package = json.loads((ROOT / "tools" / "js" / "package.json").read_text(encoding="utf-8"))
    assert versions["specs"] == package["version"]


def test_the_changelog_has_a_section_for_the_current_revision() -> None:
    changelog = (SPECS / "CHANGELOG.md").read_text(encoding="utf-8")
    versions = _versions()
    assert re.search(rf"^## {re.escape(versions['language'])}\b", changelog, re.MULTILINE)
    assert f"bundled specs {versions['specs']}" in changelog


def _depth(value: Any) -> int:
    depth, pending = 0, [(value, 1)]
    while pending:
        node, level = pending.pop()
        if isinstance(node, dict):
            node = list(node.values())
        if isinstance(node, list):
            depth = max(depth, level)
            pending.extend((child, level + 1) for child in node)
    return depth


def _has_lone_surrogate(value: Any) -> bool:
    """Whether a string (key or value) of the parsed case holds a lone surrogate: the JSON
    parser joins an escaped pair into one code point and keeps a lone half as it is."""
    pending = [value]
    while pending:
        node = pending.pop()
        if isinstance(node, dict):
            pending.extend(node)
            pending.extend(node.values())
        elif isinstance(node, list):
            pending.extend(node)
        elif isinstance(node, str) and any(0xD800 <= ord(c) <= 0xDFFF for c in node):
            return True
    return False


def test_case_files_stay_within_what_a_runner_is_promised() -> None:
    """§4: case files nest at most 520 levels, and a lone surrogate escape appears only in
    an optional case."""
    for path in sorted((SPECS / "conformance").rglob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        assert _depth(data) <= 520, path
        if "optional" not in data:
            assert not _has_lone_surrogate(data), f"{path}: a lone surrogate in a required case"


def test_a_lone_surrogate_is_told_from_a_pair() -> None:
    assert not _has_lone_surrogate(json.loads(r'{"a": ["\ud83d\ude00", "{\"d\": \"\\ud800\"}"]}'))
    assert _has_lone_surrogate(json.loads(r'{"a": {"b": "x\ud800"}}'))
    assert _has_lone_surrogate(json.loads(r'{"\udc00": 1}'))
