"""An external implementation behind the protocol: one process, one JSON line each way.

The program is started once and answers requests in order, one line per request, until
its standard input closes (specs/README.md §10). If it dies or does not answer within the
timeout, the request fails naming why (with the end of what it wrote to stderr) and the
next request starts it anew, so one crash costs one case, not the run.
"""

from __future__ import annotations

import json
import queue
import shlex
import subprocess
import tempfile
import threading
from typing import IO, Any

__all__ = ["Program", "ProgramError"]


class ProgramError(Exception):
    """The program died, hung, or wrote a line that is not the answer to the request."""


class Program:
    """``command`` (split as a POSIX shell splits words, not run through a shell)."""

    def __init__(self, command: str, *, timeout: float = 60.0) -> None:
        self.argv = shlex.split(command)
        if not self.argv:
            raise ValueError("the implementation's command is empty")
        self.timeout = timeout
        self.started = 0
        self._process: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr: IO[str] | None = None

    def _start(self) -> subprocess.Popen[str]:
        # kept open for the process's life, closed by close()
        self._stderr = tempfile.TemporaryFile(  # noqa: SIM115
            "w+", encoding="utf-8", errors="replace")
        process = subprocess.Popen(
            self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr,
            text=True, encoding="utf-8", bufsize=1,
        )
        self.started += 1
        lines: queue.Queue[str | None] = queue.Queue()
        out = process.stdout

        def pump() -> None:
            assert out is not None
            for line in out:
                lines.put(line)
            lines.put(None)

        threading.Thread(target=pump, daemon=True).start()
        self._process, self._lines = process, lines
        return process

    def _stderr_tail(self) -> str:
        if self._stderr is None:
            return ""
        self._stderr.seek(0)
        tail = self._stderr.read()[-600:].strip()
        return f"; its stderr ends: {tail}" if tail else ""

    def _fail(self, why: str) -> ProgramError:
        error = ProgramError(f"{why}{self._stderr_tail()}")
        self.close()
        return error

    def ask(self, requests: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Send requests, read one answer line for each, in order, parsed.

        The requests are written by a thread of their own while the answers are read: a
        batch (a stream test's thousands of cuts and splits) then costs throughput, not a
        round trip each, and neither side blocks on a full pipe."""
        process = self._process if self._process is not None else self._start()
        stdin = process.stdin
        assert stdin is not None
        broken: list[BaseException] = []

        def write() -> None:
            try:
                for request in requests:
                    stdin.write(json.dumps(request, ensure_ascii=False) + "\n")
                stdin.flush()
            except (BrokenPipeError, OSError, ValueError) as exc:
                broken.append(exc)

        writer = threading.Thread(target=write, daemon=True)
        writer.start()
        answers = [self._answer(process, request) for request in requests]
        writer.join()
        return answers

    def _answer(self, process: subprocess.Popen[str], request: dict[str, Any]) -> dict[str, Any]:
        try:
            line = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            raise self._fail(f"no answer to {request['id']} within {self.timeout:g} s") from None
        if line is None:
            process.wait(timeout=5)
            raise self._fail(f"the program exited (status {process.returncode}) without"
                             f" answering {request['id']}")
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise self._fail(f"the answer line is not JSON ({exc.msg}): {line[:200]!r}") \
                from None
        if not isinstance(data, dict) or data.get("id") != request["id"]:
            got = data.get("id") if isinstance(data, dict) else data
            raise self._fail(f"the answer is not to request {request['id']!r} (got id"
                             f" {got!r})")
        return data

    def close(self) -> None:
        """Close the program's input and wait for it (killed if it lingers)."""
        process, self._process = self._process, None
        if process is None:
            return
        try:
            if process.stdin is not None:
                process.stdin.close()
            process.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            process.kill()
            process.wait()
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None
