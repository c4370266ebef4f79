"""Write the docs' table of text formats from the bundled text specs (run after adding one).

    PYTHONPATH=src python tools/gen_text_formats.py          # rewrite the table
    PYTHONPATH=src python tools/gen_text_formats.py --check  # exit 1 if it is stale

The table sits between the ``<!-- text-formats:start -->`` and ``<!-- text-formats:end -->``
lines of docs/text-formats.md: one row per format with its aliases, the models that write it, the
payload grammar it uses and its number of conformance tests. ``tests/test_text_formats_doc.py``
fails when the table and the specs disagree.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from toolwire._text import bundled_text_specs

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "text-formats.md"
CASES = ROOT / "specs" / "conformance" / "text"
START, END = "<!-- text-formats:start -->", "<!-- text-formats:end -->"


def _grammars(data: dict[str, object]) -> str:
    if "messages" in data:
        return "harmony messages"
    payload = data.get("payload")
    entries = payload if isinstance(payload, list) else []
    return ", ".join(dict.fromkeys(str(entry["grammar"]) for entry in entries))


def _tests(fmt: str) -> int:
    return sum(
        len(json.loads(path.read_text("utf-8"))["tests"])
        for path in sorted((CASES / fmt).glob("*.json"))
    )


def table() -> str:
    """The Markdown table, one row per bundled text format."""
    rows = [
        "| format | also answers to | models | grammar | cases |",
        "|---|---|---|---|---|",
    ]
    for fmt, spec in sorted(bundled_text_specs().items()):
        aliases = ", ".join(f"`{a}`" for a in spec.aliases) or "—"
        models = ", ".join(spec.models) or "—"
        rows.append(
            f"| `{fmt}` | {aliases} | {models} | {_grammars(spec._data)} | {_tests(fmt)} |"
        )
    return "\n".join(rows)


def rendered(page: str) -> str:
    """``page`` with the table between the markers replaced by the current one."""
    head, found, rest = page.partition(START)
    if not found or END not in rest:
        raise SystemExit(f"{PAGE.name} has no {START} … {END} block")
    _, _, tail = rest.partition(END)
    return f"{head}{START}\n{table()}\n{END}{tail}"


def main(argv: list[str]) -> int:
    current = PAGE.read_text("utf-8")
    wanted = rendered(current)
    if "--check" in argv:
        if current != wanted:
            print(f"{PAGE}'s text-format table is stale: run tools/gen_text_formats.py")
            return 1
        return 0
    PAGE.write_text(wanted, "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
