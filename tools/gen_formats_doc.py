"""Write ``docs/formats.md``, the audit table of the bundled wire specs.

The page is exactly what ``toolwire specs table --bundled`` prints; this script writes it
to its place (or, with ``--check``, only says whether it is current, exit 1 when stale).

Usage: ``PYTHONPATH=src python tools/gen_formats_doc.py [--check]``
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from toolwire import Registry
from toolwire.cli._audit import formats_markdown

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "formats.md"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check that the page is current")
    args = parser.parse_args(argv)
    page = formats_markdown(Registry.bundled())
    current = DOC.read_text(encoding="utf-8") if DOC.is_file() else None
    if args.check:
        if current != page:
            print(f"{DOC} is stale: run `PYTHONPATH=src python tools/gen_formats_doc.py`")
            return 1
        print(f"{DOC} is current")
        return 0
    DOC.parent.mkdir(parents=True, exist_ok=True)
    DOC.write_text(page, encoding="utf-8")
    print(f"wrote {DOC}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
