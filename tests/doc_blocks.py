"""The fenced code blocks of the README and the documentation pages, and the program that runs
one page's blocks (``run_page`` starts it once per page, for ``tests/test_readme_examples.py``
and ``tests/test_doc_examples.py``).

What a page's blocks mean to the suite:

- ```` ```python ```` blocks run in one namespace per page, in order, so a block may use what an
  earlier block of its page defined; ```` ```sh ```` (``bash``, ``shell``) blocks run in bash
  with ``-e``; ```` ```console ```` blocks run each ``$ command`` line and must print exactly
  the lines shown under it. All of a page's blocks run in one working directory, in page order.
- A block preceded by ``<!-- not run: REASON -->`` (the nearest line above its fence that is not
  blank) is not run; the reason is required.
- A fenced block with no language is output: every line of it must be printed by the page's
  blocks (a line ending in ``...`` by the start of a printed line; a line ``...`` alone skips).
- Blocks in any other language (``json``, ``yaml``, ``js``, ``text``…) are shown, not run.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

LANGUAGES = {"python": "python", "py": "python", "sh": "shell", "bash": "shell",
             "shell": "shell", "console": "console", "": "output"}
NOT_RUN = re.compile(r"^<!--\s*not run:\s*(?P<reason>.*?)\s*-->$")
FENCE = re.compile(r"^(?P<indent>\s*)(?P<fence>`{3,}|~{3,})\s*(?P<info>[^`]*)$")

# Modules of the test extras a page's example may import: a page that needs one that is not
# installed is skipped, saying which (any other failure to import is a failure).
OPTIONAL = {"openai", "anthropic", "google", "mistralai", "cohere", "ollama", "pyarrow",
            "pandas", "pyspark", "langchain_core", "pydantic_ai", "mcp", "transformers"}
SKIP_STATUS = 77


@dataclass(frozen=True)
class Block:
    """One fenced block: where its code starts, what it is, and why it is not run (if not)."""

    page: str
    line: int
    language: str
    code: str
    not_run: str | None

    @property
    def kind(self) -> str:
        """``python``, ``shell``, ``console``, ``output``, or ``shown`` (any other language)."""
        return LANGUAGES.get(self.language, "shown")

    @property
    def runs(self) -> bool:
        return self.kind in ("python", "shell", "console") and self.not_run is None


def blocks(path: Path, name: str) -> list[Block]:
    """The fenced blocks of the Markdown file ``path`` (named ``name`` in messages), in order.

    A fence indented inside a list item is read with its indentation removed. A ``not run``
    marker without a reason, or before a block that would not run anyway, is an error."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found: list[Block] = []
    index = 0
    while index < len(lines):
        match = FENCE.match(lines[index])
        if match is None:
            index += 1
            continue
        indent, fence = len(match["indent"]), match["fence"]
        language = match["info"].strip().split(" ")[0].lower() if match["info"].strip() else ""
        end = index + 1
        while end < len(lines) and lines[end].strip() != fence:
            end += 1
        code = "\n".join(line[indent:] for line in lines[index + 1:end]) + "\n"
        found.append(Block(name, index + 2, language, code, _marker(lines, index, name)))
        index = end + 1
    for block in found:
        if block.not_run is not None and block.kind not in ("python", "shell", "console"):
            raise ValueError(f"{name}:{block.line - 1}: a 'not run' marker before a"
                             f" {block.language or 'output'} block, which never runs")
    return found


def _marker(lines: list[str], fence: int, name: str) -> str | None:
    above = fence - 1
    while above >= 0 and not lines[above].strip():
        above -= 1
    if above < 0:
        return None
    text = lines[above].strip()
    if text.startswith("<!--") and "not run" in text:
        match = NOT_RUN.match(text)
        if match is None or not match["reason"]:
            raise ValueError(f"{name}:{above + 1}: write the marker as <!-- not run: REASON -->")
        return match["reason"]
    return None


def printed(shown: str, output: list[str]) -> list[str]:
    """The lines of the output block ``shown`` that ``output`` (printed lines) lacks."""
    missing = []
    for line in shown.splitlines():
        if line.strip() == "...":
            continue
        if line.endswith("...") and any(p.startswith(line[:-3]) for p in output):
            continue
        if line not in output:
            missing.append(line)
    return missing


def run_page(found: list[Block], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """Run the blocks that run of one page as the suite does; the finished process.

    The page runs in a fresh interpreter (this file as a program) whose working directory is an
    empty folder holding copies of the bundled example replies (``openai.json``, … from
    ``specs/examples``), with ``toolwire`` on PATH running this checkout and no
    ``TOOLWIRE_SPEC_PATH`` from the caller."""
    work = tmp_path / "work"
    work.mkdir(parents=True)
    for example in sorted((ROOT / "specs" / "examples").glob("*.json")):
        shutil.copy(example, work / example.name)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    shim = bin_dir / "toolwire"
    shim.write_text(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} -m toolwire \"$@\"\n", "utf-8")
    shim.chmod(0o755)
    script = tmp_path / "blocks.json"
    script.write_text(json.dumps([
        {"page": b.page, "line": b.line, "kind": b.kind, "code": b.code}
        for b in found if b.runs
    ]), "utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"),
           "PATH": os.pathsep.join([str(bin_dir), str(Path(sys.executable).parent),
                                    os.environ.get("PATH", "")])}
    env.pop("TOOLWIRE_SPEC_PATH", None)
    return subprocess.run([sys.executable, str(Path(__file__).resolve()), str(script)],
                          cwd=work, env=env, capture_output=True, text=True, check=False,
                          timeout=600)


def check_page(found: list[Block], tmp_path: Path) -> str | None:
    """Run one page's blocks and check every output block's lines were printed; ``None`` when
    the page ran and printed what it shows, else the reason to skip it (an optional module of
    the test extras is missing). A block that fails, or output not printed, fails the test."""
    done = run_page(found, tmp_path)
    output = done.stdout + done.stderr
    if done.returncode == SKIP_STATUS:
        return done.stdout.strip().splitlines()[-1]
    assert done.returncode == 0, output
    lines = output.splitlines()
    for block in found:
        if block.kind == "output":
            missing = printed(block.code, lines)
            assert missing == [], f"{block.page}:{block.line}: not printed: {missing}\n{output}"
    return None


def run(page: list[dict[str, object]]) -> int:
    """Run one page's blocks (as ``Block`` fields) in the working directory; 0 when all ran."""
    namespace: dict[str, object] = {"__name__": "__main__"}
    for block in page:
        where = f"{block['page']}:{block['line']}"
        code = str(block["code"])
        sys.stdout.flush()
        if block["kind"] == "python":
            try:
                exec(compile("\n" * (int(str(block["line"])) - 1) + code, str(block["page"]),
                             "exec"), namespace)
            except ModuleNotFoundError as error:
                top = (error.name or "").split(".")[0]
                if top in OPTIONAL:
                    print(f"{where}: needs {top} (a test extra), not installed")
                    return SKIP_STATUS
                raise
        elif block["kind"] == "shell":
            done = subprocess.run(["bash", "-e", "-c", code], check=False)
            if done.returncode:
                print(f"{where}: the shell block exits {done.returncode}", file=sys.stderr)
                return 1
        else:
            status = _console(code, where)
            if status:
                return status
    return 0


def _console(code: str, where: str) -> int:
    """Run each ``$ command`` of a console block; its output must be the lines shown."""
    commands: list[tuple[str, list[str]]] = []
    for line in code.splitlines():
        if line.startswith("$ "):
            commands.append((line[2:], []))
        elif commands:
            commands[-1][1].append(line)
    for command, shown in commands:
        done = subprocess.run(["bash", "-c", command], capture_output=True, text=True,
                              check=False)
        out = (done.stdout + done.stderr).splitlines()
        print("\n".join(out))
        if out != shown:
            print(f"{where}: `{command}` printed {out!r}, the page shows {shown!r}",
                  file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(run(json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))))
