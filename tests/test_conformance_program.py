"""``toolwire conformance --implementation``: what a misbehaving program can cost the harness.

Small programs written here hang, start a child and hang, write an endless line, or do not
exist; each is held to a bound (one answer's timeout, the run's budget, the line limit, the
process group) rather than to a duration, so the tests hold on a loaded machine. Every run
goes through a subprocess with a generous ``timeout`` of its own: a harness that waits without
end fails the test instead of hanging it.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from toolwire.cli import main
from toolwire.conformance._program import Program, ProgramError

ROOT = Path(__file__).resolve().parent.parent
SUITE = ROOT / "specs" / "conformance"
CASE = "openai/parallel_function_calls_yield_every_call_in_order.json"
SRC = str(ROOT / "src")

_HANG = "import sys, time\nsys.stdin.readline()\ntime.sleep(3600)\n"
_CHILD_AND_HANG = """import subprocess, sys, time
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])
open({pid_file!r}, "w").write(str(child.pid))
sys.stdin.readline()
time.sleep(3600)
"""
_ENDLESS_LINE = """import sys
sys.stdin.readline()
block = "x" * 65536
while True:
    sys.stdout.write(block)
"""


def _program(tmp_path: Path, source: str, name: str = "program.py") -> str:
    path = tmp_path / name
    path.write_text(source, encoding="utf-8")
    return f"{sys.executable} {path}"


def _suite(tmp_path: Path, copies: int = 1) -> Path:
    suite = tmp_path / "suite"
    (suite / "openai").mkdir(parents=True)
    text = (SUITE / CASE).read_text("utf-8")
    for number in range(copies):
        (suite / "openai" / f"case_{number}.json").write_text(text, encoding="utf-8")
    return suite


def _conformance(*args: str) -> subprocess.CompletedProcess[str]:
    """The command in a process of its own, bounded far above what it should take."""
    return subprocess.run(
        [sys.executable, "-m", "toolwire", "conformance", *args], capture_output=True,
        text=True, timeout=300, env={**os.environ, "PYTHONPATH": SRC}, check=False)


def test_a_hanging_program_costs_its_timeout_once_and_the_budget_bounds_the_run(
    tmp_path: Path,
) -> None:
    suite = _suite(tmp_path, copies=40)  # unbounded: 40 timeouts
    done = _conformance("--suite", str(suite), "--json", "--timeout", "2", "--budget", "6",
                        "--implementation", _program(tmp_path, _HANG))
    summary = json.loads(done.stdout)
    assert done.returncode == 1
    assert summary["totals"]["failed"] == 40
    reasons = [f["differences"][0] for f in summary["failures"]]
    assert "no answer to" in reasons[0] and "within 2 s" in reasons[0]
    unrun = [r for r in reasons if r.startswith("not run: the run's time budget")]
    assert len(unrun) >= 36  # at most a few timeouts fit into the budget
    assert summary["processes_started"] <= 4


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie left for a parent that never reaps it does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_the_children_of_a_hanging_program_are_killed_with_it(tmp_path: Path) -> None:
    pid_file = tmp_path / "child.pid"
    suite = _suite(tmp_path)
    done = _conformance("--suite", str(suite), "--json", "--timeout", "2", "--implementation",
                        _program(tmp_path, _CHILD_AND_HANG.format(pid_file=str(pid_file))))
    assert done.returncode == 1
    child = int(pid_file.read_text())
    for _ in range(300):  # the kill is sent before the harness exits; reaping may lag
        if not _alive(child):
            break
        time.sleep(0.1)
    else:
        os.kill(child, 9)
        pytest.fail("the program's child outlived the run")


def test_an_endless_answer_line_fails_the_request_at_the_line_limit(tmp_path: Path) -> None:
    program = Program(_program(tmp_path, _ENDLESS_LINE), timeout=120, max_line=1 << 20)
    try:
        with pytest.raises(ProgramError, match=r"longer than 1048576 bytes"):
            program.ask([{"id": "a", "op": "sniff", "response": {}}])
    finally:
        program.close(kill=True)
    assert program.started == 1


def test_a_program_that_cannot_start_is_a_one_line_usage_error(tmp_path: Path) -> None:
    done = _conformance("--suite", str(_suite(tmp_path)), "--implementation",
                        str(tmp_path / "no-such-program"))
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert "cannot start" in done.stderr and "no-such-program" in done.stderr


_SURROGATE = """import json, sys
sys.path.insert(0, {src!r})
from toolwire.conformance._reference import answer
for line in sys.stdin:
    a = answer(json.loads(line))
    a["result"]["calls"][0]["name"] = "\\ud800"
    print(json.dumps(a), flush=True)
"""


def test_a_difference_holding_a_lone_surrogate_is_printed_escaped(tmp_path: Path) -> None:
    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="utf-8", write_through=True)  # strict, as a console
    code = main(["conformance", "--suite", str(_suite(tmp_path)), "--optional",
                 "--implementation", _program(tmp_path, _SURROGATE.format(src=SRC))], out=out)
    printed = raw.getvalue().decode("utf-8")
    assert code == 1
    assert "FAILED openai/case_0.json" in printed
    assert "\\ud800" in printed
    assert printed.rstrip().endswith("0 passed, 1 failed, 0 skipped (optional),"
                                     " 0 not implemented")


# The reference's own answers with a field no case compares changed: the Reply's items.
_ITEMS_DIFFER = """import json, sys
sys.path.insert(0, {src!r})
from toolwire.conformance._reference import answer
for line in sys.stdin:
    a = answer(json.loads(line))
    if "result" in a and isinstance(a["result"], dict) and "items" in a["result"]:
        a["result"]["items"] = []
    print(json.dumps(a), flush=True)
"""


def test_diff_reference_lists_a_field_no_case_compares_without_failing_the_case(
    tmp_path: Path,
) -> None:
    program = _program(tmp_path, _ITEMS_DIFFER.format(src=SRC))
    suite = str(_suite(tmp_path))
    code, printed = _main("--suite", suite, "--json", "--diff-reference",
                          "--implementation", program)
    summary = json.loads(printed)
    assert code == 0
    assert summary["totals"]["passed"] == 1
    lines = summary["reference_differences"]["openai/case_0.json"]
    assert lines and all(line.startswith("openai/case_0.json::0: /result/items")
                         for line in lines)
    assert "the reference has [{" in lines[0]
    code, printed = _main("--suite", suite, "--diff-reference=fail", "--implementation",
                          program)
    assert code == 1
    assert "DIFFERS FROM THE REFERENCE openai/case_0.json" in printed
    assert "1 case(s) answered otherwise than the reference" in printed


def test_diff_reference_finds_nothing_in_the_reference_itself(tmp_path: Path) -> None:
    source = _ITEMS_DIFFER.replace('a["result"]["items"] = []', "pass")
    code, printed = _main("--suite", str(_suite(tmp_path)), "--json", "--diff-reference=fail",
                          "--implementation", _program(tmp_path, source.format(src=SRC)))
    assert code == 0
    assert json.loads(printed)["reference_differences"] == {}


def _main(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(["conformance", *args], out=out), out.getvalue()
