"""An external implementation behind the protocol: one process, one JSON line each way.

The program is started once and answers requests in order, one line per request, until
its standard input closes (specs/README.md §10). If it dies or does not answer within the
timeout, the request fails naming why (with the end of what it wrote to stderr) and the
next request starts it anew, so one crash costs one case, not the run.

Nothing the program does can make the harness hold more than a bounded amount or wait
without end: an answer line longer than ``max_line`` bytes fails the request, only the last
few KiB of stderr are kept, lines written ahead of their request wait in a short queue (the
program blocks on its full pipe), every wait ends at the run's ``deadline``, and the program
runs in a process group of its own that is killed whole, so children it started do not
outlive it.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import shlex
import signal
import subprocess
import threading
import time
from typing import IO, Any

__all__ = ["Program", "ProgramError", "ProgramMissing"]

_STDERR_TAIL = 4096
"""Bytes of the program's stderr kept (the end, shown when a request fails)."""

_AHEAD = 64
"""Answer lines read ahead of the harness at most; then the program waits on its pipe."""

_EXIT_GRACE = 5.0
"""Seconds a program whose input closed gets to exit before its group is killed."""


class ProgramError(Exception):
    """The program died, hung, or wrote a line that is not the answer to the request."""


class ProgramMissing(ProgramError):
    """The program cannot be started at all (no such file, not executable)."""


class _TooLong:
    """The marker the reader hands over for a line past the limit."""


class _Tail:
    """The last ``size`` bytes of a stream, read by a thread of its own."""

    def __init__(self, stream: IO[bytes], size: int = _STDERR_TAIL) -> None:
        self._data = b""
        self._size = size
        self._lock = threading.Lock()
        self._reader = threading.Thread(target=self._pump, args=(stream,), daemon=True)
        self._reader.start()

    def _pump(self, stream: IO[bytes]) -> None:
        with contextlib.suppress(OSError, ValueError):
            while chunk := stream.read1(65536):  # type: ignore[attr-defined]
                with self._lock:
                    self._data = (self._data + chunk)[-self._size:]

    def text(self) -> str:
        self._reader.join(timeout=1.0)  # the program is gone: its last words are in the pipe
        with self._lock:
            return self._data.decode("utf-8", errors="replace").strip()


class Program:
    """``command`` (split as a POSIX shell splits words, not run through a shell).

    ``timeout`` bounds the wait for one answer, ``deadline`` (a :func:`time.monotonic`
    instant, or None) the whole run, ``max_line`` the bytes of one answer line."""

    def __init__(self, command: str, *, timeout: float = 60.0, deadline: float | None = None,
                 max_line: int = 64 * 1024 * 1024) -> None:
        self.argv = shlex.split(command)
        if not self.argv:
            raise ValueError("the implementation's command is empty")
        self.timeout = timeout
        self.deadline = deadline
        self.max_line = max_line
        self.started = 0
        self._process: subprocess.Popen[bytes] | None = None
        self._lines: queue.Queue[bytes | _TooLong | None] = queue.Queue(_AHEAD)
        self._stderr: _Tail | None = None

    def start(self) -> None:
        """Start the program now (a program that cannot start is :class:`ProgramMissing`)."""
        if self._process is None:
            self._start()

    def _start(self) -> subprocess.Popen[bytes]:
        try:
            process = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, start_new_session=True,
            )
        except OSError as exc:
            raise ProgramMissing(f"cannot start {self.argv[0]!r}:"
                                 f" {exc.strerror or exc}") from None
        self.started += 1
        lines: queue.Queue[bytes | _TooLong | None] = queue.Queue(_AHEAD)
        out = process.stdout
        assert out is not None and process.stderr is not None
        limit = self.max_line

        def pump() -> None:
            with contextlib.suppress(OSError, ValueError):
                while line := out.readline(limit + 1):
                    if len(line) > limit and not line.endswith(b"\n"):
                        lines.put(_TooLong())
                        return
                    lines.put(line)
            lines.put(None)

        threading.Thread(target=pump, daemon=True).start()
        self._stderr = _Tail(process.stderr)
        self._process, self._lines = process, lines
        return process

    def _stderr_tail(self) -> str:
        tail = self._stderr.text()[-600:] if self._stderr is not None else ""
        return f"; its stderr ends: {tail}" if tail else ""

    def _fail(self, why: str, *, kill: bool = False) -> ProgramError:
        self.close(kill=kill)
        return ProgramError(f"{why}{self._stderr_tail()}")

    def _left(self) -> float:
        return float("inf") if self.deadline is None else self.deadline - time.monotonic()

    def ask(self, requests: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Send requests, read one answer line for each, in order, parsed.

        The requests are written by a thread of their own while the answers are read: a
        batch (a stream test's thousands of cuts and splits) then costs throughput, not a
        round trip each, and neither side blocks on a full pipe."""
        if self._left() <= 0:
            raise ProgramError("the run's time budget is spent")
        process = self._process if self._process is not None else self._start()
        stdin = process.stdin
        assert stdin is not None

        def write() -> None:
            with contextlib.suppress(BrokenPipeError, OSError, ValueError):
                for request in requests:
                    stdin.write(_request_line(request))
                stdin.flush()

        writer = threading.Thread(target=write, daemon=True)
        writer.start()
        answers = [self._answer(process, request) for request in requests]
        writer.join()
        return answers

    def _answer(self, process: subprocess.Popen[bytes], request: dict[str, Any]
                ) -> dict[str, Any]:
        wait = min(self.timeout, self._left())
        try:
            line = self._lines.get(timeout=max(wait, 0.0))
        except queue.Empty:
            why = (f"no answer to {request['id']} within {self.timeout:g} s"
                   if wait == self.timeout else
                   f"the run's time budget was spent waiting for {request['id']}")
            raise self._fail(why, kill=True) from None
        if isinstance(line, _TooLong):
            raise self._fail(f"the answer to {request['id']} is longer than"
                             f" {self.max_line} bytes", kill=True)
        if line is None:
            self.close()  # waits for the exit, so its status and last words are known
            raise ProgramError(f"the program exited (status {process.returncode}) without"
                               f" answering {request['id']}{self._stderr_tail()}")
        try:
            data = json.loads(line)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            why = exc.msg if isinstance(exc, json.JSONDecodeError) else "not UTF-8"
            raise self._fail(f"the answer line is not JSON ({why}): {line[:200]!r}",
                             kill=True) from None
        if not isinstance(data, dict) or data.get("id") != request["id"]:
            got = data.get("id") if isinstance(data, dict) else data
            raise self._fail(f"the answer is not to request {request['id']!r} (got id"
                             f" {got!r})", kill=True)
        return data

    def close(self, *, kill: bool = False) -> None:
        """Close the program's input and wait for it to exit (``kill``: don't wait), then
        kill its process group: whatever it started goes with it."""
        process, self._process = self._process, None
        if process is None:
            return
        with contextlib.suppress(OSError, ValueError):
            if process.stdin is not None:
                process.stdin.close()
        if not kill:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=max(0.0, min(_EXIT_GRACE, self._left())))
        _kill_group(process)
        process.wait()


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    """Kill the process and every process of its group (it leads a session of its own)."""
    if hasattr(os, "killpg"):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(OSError):
        process.kill()


def _request_line(request: dict[str, Any]) -> bytes:
    """One request as a UTF-8 line; a lone surrogate (no UTF-8 spelling) as a ``\\u`` escape."""
    try:
        return (json.dumps(request, ensure_ascii=False) + "\n").encode("utf-8")
    except UnicodeEncodeError:
        return (json.dumps(request) + "\n").encode("ascii")
