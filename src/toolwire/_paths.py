"""Where the bundled specs live, in a wheel and in a source checkout alike.

A wheel carries the repository's ``specs/`` folder inside the package as ``_specs``;
an editable install (or ``PYTHONPATH=src``) finds the checkout's own ``specs/`` two
levels above this file. Both give the same files, so a test run from the checkout
checks exactly what users install.

Plain ``os.path`` underneath: ``pathlib`` (with the ``urllib.parse`` it imports) costs a
short-lived process a few milliseconds, and reading a reply needs only the folder's
name (:func:`bundled_specs_path`); :func:`bundled_specs_dir` gives a ``Path``.
"""

from __future__ import annotations

import os

from ._speed import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["PACKAGE_DIR", "bundled_specs_dir", "bundled_specs_path"]

PACKAGE_DIR = os.path.dirname(os.path.realpath(__file__))
"""The ``toolwire`` package's folder, symbolic links resolved (once: each ``realpath``
costs a cold process a system call per path component)."""
_PACKAGE = PACKAGE_DIR


def bundled_specs_path() -> str:
    """The folder holding ``schema/``, ``wire/`` and ``text/`` of the bundled specs."""
    inside = os.path.join(_PACKAGE, "_specs")
    if os.path.isdir(inside):
        return inside
    checkout = os.path.join(os.path.dirname(os.path.dirname(_PACKAGE)), "specs")
    if os.path.isdir(checkout):
        return checkout
    raise FileNotFoundError(
        f"toolwire's bundled specs are missing: looked in {inside} and {checkout}"
    )


def bundled_specs_dir() -> Path:
    """:func:`bundled_specs_path` as a ``Path``."""
    from pathlib import Path  # lazy: pathlib (7 ms) only for callers that want a Path

    return Path(bundled_specs_path())
