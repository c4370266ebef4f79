"""Regenerate ``src/toolwire/_spec/_bundle.json``: the bundled wire specs, precompiled.

    python tools/gen_bundle.py          # write the bundle
    python tools/gen_bundle.py --check  # exit 1 if the checked-in bundle is stale

Loads every bundled wire spec the slow way (strict YAML, meta-schema, ``extends``
resolution, JMESPath parser) and writes what :mod:`toolwire._spec.bundle` needs to rebuild the
same specs without any of that: each spec's resolved data with the AST of every
expression it uses (so that one spec decodes alone), every spec's sniff predicate (so
that sniffing compiles no spec), and a checksum of each source file. Run it after
editing anything under ``specs/wire``; ``tests/test_bundle.py`` fails until you do.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from toolwire._paths import bundled_specs_dir  # noqa: E402
from toolwire._registry.registry import Registry  # noqa: E402
from toolwire._spec.bundle import (  # noqa: E402
    BUNDLE_PATH,
    BUNDLE_VERSION,
    source_checksums,
    spec_expressions,
)

COMMAND = "python tools/gen_bundle.py"


def build_bundle() -> str:
    """The bundle's text, from the spec files as they are now."""
    root = bundled_specs_dir()
    registry = Registry.from_paths()  # the YAML path, never the bundle
    specs: list[dict[str, Any]] = []
    for fmt in registry.formats():
        spec = registry.spec(fmt)
        expressions = {e.source: e.ast for e in spec_expressions(spec)}
        specs.append({  # the format first: the reader finds each entry by it
            "format": fmt,
            "path": Path(spec.path).relative_to(root).as_posix(),
            "data": spec.declared(),
            "expressions": dict(sorted(expressions.items())),
        })
    sniff: dict[str, Any] = {}
    for fmt in registry.formats():  # sniffing a reply needs these, not the specs
        spec = registry.spec(fmt)
        sniff[fmt] = None if spec.sniff is None else {
            "priority": spec.sniff_priority, "when": spec.sniff.source, "ast": spec.sniff.ast}
        parts = spec.shape.parts if spec.shape is not None else ()
        if sniff[fmt] is not None and parts:  # a part of a reply is named before sniffing
            sniff[fmt]["parts"] = [{"when": w.source, "ast": w.ast, "is": is_} for w, is_ in parts]
    bundle = {
        "bundle_version": BUNDLE_VERSION,
        "generated_by": COMMAND,
        "sources": source_checksums(root),
        "specs": specs,  # the reader decodes everything above it as the header
        "sniff": sniff,  # and this only to sniff a reply
    }
    return json.dumps(bundle, ensure_ascii=False, indent=1) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check; exit 1 if stale")
    args = parser.parse_args(argv)
    text = build_bundle()
    bundle = Path(BUNDLE_PATH)
    current = bundle.read_text(encoding="utf-8") if bundle.is_file() else None
    if args.check:
        if current != text:
            print(f"{BUNDLE_PATH} is stale: run {COMMAND}", file=sys.stderr)
            return 1
        print(f"{BUNDLE_PATH} is up to date")
        return 0
    if current != text:
        bundle.write_text(text, encoding="utf-8")
        print(f"wrote {BUNDLE_PATH} ({len(text):,} bytes)")
    else:
        print(f"{BUNDLE_PATH} already up to date")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
