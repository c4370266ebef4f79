"""``toolwire batch -j``: a worker that dies at any point ends the run with one line, and a
signal to the parent ends it even while a worker is stuck halfway through its answer.

Each run is a child process with a hook in its workers (they are forked, so they carry
it): the worker kills itself at a chosen point, or stalls halfway through an answer. The
waits are generous bounds against a hang (a loaded machine passes), never timings."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from test_batch_output import (
    LINE,
    ROOT,
    _batch_from_stdin,
    _children,
    _ended,
    _input,
    _left_only_partial,
    _rows,
    _until,
)

from toolwire.batch._pool import _context

pytestmark = pytest.mark.skipif(
    _context().get_start_method() != "fork",
    reason="the hooks reach the workers only when they are forked",
)

HOOKED = """
import os, pathlib, signal, sys, time
import toolwire.batch._pool as pool

point = sys.argv[1]
send, work = pool._send, pool._work

def die():
    os.kill(os.getpid(), signal.SIGKILL)

def hooked_send(fd, data):
    if point == "answering":  # half an answer written, then killed
        send(fd, data[: len(data) // 2])
        die()
    if point == "stalled":  # half an answer written, then stuck for good
        send(fd, data[: len(data) // 2])
        pathlib.Path("stalled").touch()
        time.sleep(3600)
    send(fd, data)
    if point == "answered":
        die()

def hooked_work(chunk, reader, as_text):
    if point == "working":
        die()
    return work(chunk, reader, as_text)

def hooked_init():
    if point == "starting":
        die()

init = pool._init_worker
pool._send, pool._work = hooked_send, hooked_work
pool._init_worker = lambda: (hooked_init(), init())

from toolwire.cli import main
sys.exit(main(sys.argv[2:]))
"""


def _hooked(folder: Path, point: str, jobs: int = 2) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-c", HOOKED, point, "batch", "logs.jsonl", "--out", "rows.jsonl",
         "-j", str(jobs)],
        cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
    )


@pytest.mark.parametrize("point", ["starting", "working", "answering", "answered"])
def test_a_worker_dead_at_any_point_ends_the_run_with_one_line(tmp_path: Path, point: str) -> None:
    _input(tmp_path, 2000)  # five chunks: every worker has work
    code, err = _ended(_hooked(tmp_path, point))
    assert code == 1, err
    assert err.count("\n") == 1, err
    assert err.startswith("toolwire: batch: a worker process ended without an answer"), err
    assert err.endswith("the rows so far are in rows.jsonl.partial\n"), err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["logs.jsonl", "rows.jsonl.partial"]
    line = int(err.split("while reading logs.jsonl from line ", 1)[1].split()[0])
    replies = [r for r in _rows(tmp_path / "rows.jsonl.partial") if r["kind"] == "reply"]
    assert len(replies) == line - 1  # every line before the one named has its rows
    if point != "answered":  # no worker answered: nothing was written
        assert line == 1


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)],
                         ids=["SIGTERM", "SIGINT"])
def test_a_signal_ends_the_run_while_a_worker_is_stuck_halfway_through_its_answer(
    tmp_path: Path, sig: signal.Signals, code: int
) -> None:
    _input(tmp_path, 2000)
    child = _hooked(tmp_path, "stalled")
    _until(lambda: (tmp_path / "stalled").exists(), "a worker stuck halfway")
    workers = _children(child.pid)
    assert workers
    child.send_signal(sig)
    exit_code, err = _ended(child)
    assert exit_code == code, err
    assert err.count("\n") == 1 and "the rows so far are in rows.jsonl.partial" in err, err
    _until(lambda: not any(Path(f"/proc/{pid}").exists() for pid in workers),
           "the workers gone")
    (tmp_path / "stalled").unlink()
    (tmp_path / "logs.jsonl").unlink()
    _left_only_partial(tmp_path, "rows.jsonl")


@pytest.mark.parametrize("seed", range(3))
def test_a_worker_killed_at_a_random_moment_ends_the_run(tmp_path: Path, seed: int) -> None:
    chance = random.Random(seed)
    child = _batch_from_stdin(tmp_path, "rows.jsonl", 2)
    _until(lambda: len(_children(child.pid)) >= 2, "the workers started")
    assert child.stdin is not None
    try:  # replies in flight while the kill lands
        for _n in range(chance.randrange(1, 4)):
            child.stdin.write(((LINE + "\n") * 1000).encode())
            child.stdin.flush()
        os.kill(chance.choice(_children(child.pid)), signal.SIGKILL)
        child.stdin.write(((LINE + "\n") * 1000).encode())
        child.stdin.close()
    except BrokenPipeError:  # it already stopped
        pass
    code, err = _ended(child)
    assert code == 1
    assert err.count("\n") == 1 and "a worker process ended without an answer" in err, err
    _left_only_partial(tmp_path, "rows.jsonl")
