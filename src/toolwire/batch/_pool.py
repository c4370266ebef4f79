"""Worker processes for ``-j N``: chunks out, rows back in input order; a dead worker ends the run.

Each worker has two pipes of its own, one for its chunks and one for its answers, and
speaks in frames (an 8-byte length, then a pickle; length 0: stop). The parent never
blocks on a pipe: it writes and reads without blocking and waits, in one ``select``, on
every pipe and on every worker's sentinel (readable once the process has ended). So:

- a worker that dies at any point — before its first chunk, while reading one, while
  working, halfway through writing its answer, right after — is seen dead at once and
  the run ends with :class:`WorkerDied`, its half-written answer dropped. (A pool whose
  workers share one answer pipe reads a half-written answer forever: a sibling still
  holds the pipe open, so its end never comes.)
- SIGINT and SIGTERM reach the parent while it waits, whatever a worker is doing; a run
  that ends early kills its workers and waits a bounded time for them, never forever.

Workers ignore SIGINT (a Ctrl-C reaches the whole process group; the parent stops the
run) and build their registry once, before their first chunk.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import selectors
import signal
import sys
from collections import deque
from collections.abc import Callable, Iterator
from typing import Any

from .._registry.registry import Registry
from ._records import Chunk, Done, LineReader, process_chunk

__all__ = ["WorkerDied", "run_pool"]

IN_FLIGHT_PER_JOB = 4
"""Chunks given to each worker ahead of its answers: enough to keep it busy, few enough
that memory stays flat in the input size."""

_HEADER = 8
_READ = 1 << 20
_REAP_SECONDS = 10.0
"""How long an ended run waits for a killed (or finished) worker to be gone."""


class WorkerDied(Exception):
    """A worker process ended without answering: the rows from ``source`` line ``line`` on
    were not written."""

    def __init__(self, source: str, line: int) -> None:
        shown = "standard input" if source == "-" else source
        super().__init__(f"a worker process ended without an answer (killed? out of memory?)"
                         f" while reading {shown} from line {line:,} on")
        self.source = source
        self.line = line


def _frame(value: object) -> bytes:
    body = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    return len(body).to_bytes(_HEADER, "big") + body


def _read_exactly(fd: int, size: int) -> bytes | None:
    """``size`` bytes from ``fd`` (blocking); None at the end of the pipe."""
    parts = bytearray()
    while len(parts) < size:
        piece = os.read(fd, min(size - len(parts), _READ))
        if not piece:
            return None
        parts += piece
    return bytes(parts)


def _send(fd: int, data: bytes) -> None:
    """A worker's answer, written whole (blocking)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _init_worker() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops the run (module doc)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the parent's handler, if it had one
    Registry.default()  # built once per worker, before the first chunk


def _work(chunk: Chunk, reader: LineReader, as_text: bool) -> Done:
    return process_chunk(chunk, reader, as_text)


def _serve(tasks: Any, answers: Any, reader: LineReader, as_text: bool) -> None:
    """A worker's life: each chunk read from ``tasks`` answered on ``answers``, until a
    stop frame or the end of ``tasks``."""
    _init_worker()
    tasks_fd, answers_fd = tasks.fileno(), answers.fileno()
    while True:
        header = _read_exactly(tasks_fd, _HEADER)
        size = int.from_bytes(header, "big") if header is not None else 0
        body = _read_exactly(tasks_fd, size) if size else None
        if body is None:
            return
        chunk = pickle.loads(body)
        _send(answers_fd, _frame(_work(chunk, reader, as_text)))


def _context() -> Any:
    """Fork where there is fork (a worker starts in milliseconds, nothing re-imported);
    the platform's default elsewhere."""
    import multiprocessing  # lazy: multiprocessing (11 ms) only for -j 2 and more

    if "fork" in multiprocessing.get_all_start_methods() and sys.platform != "darwin":
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context()


class _Worker:
    """One worker process and the parent's ends of its pipes, with what it owes."""

    def __init__(self, context: Any, reader: LineReader, as_text: bool) -> None:
        tasks_in, tasks_out = context.Pipe(duplex=False)
        answers_in, answers_out = context.Pipe(duplex=False)
        self.process = context.Process(target=_serve, args=(tasks_in, answers_out, reader,
                                                            as_text), daemon=True)
        self.tasks = tasks_out  # the parent writes chunks here
        self.answers = answers_in  # and reads answers here
        try:
            self.process.start()
        finally:
            tasks_in.close()  # the worker's ends: the parent keeps none
            answers_out.close()
        os.set_blocking(self.tasks.fileno(), False)
        os.set_blocking(self.answers.fileno(), False)
        self.owed: deque[tuple[int, Chunk]] = deque()  # chunks sent, not yet answered
        self.outbox = bytearray()  # frames not yet written to the worker
        self.inbox = bytearray()  # answer bytes not yet a whole frame

    def answers_read(self) -> Iterator[tuple[int, Done]]:
        """The answers whole in the inbox, each with its chunk's number."""
        while len(self.inbox) >= _HEADER:
            size = int.from_bytes(self.inbox[:_HEADER], "big")
            if len(self.inbox) < _HEADER + size:
                return
            done = pickle.loads(self.inbox[_HEADER:_HEADER + size])
            del self.inbox[:_HEADER + size]
            number, _chunk = self.owed.popleft()
            yield number, done

    def stop(self, kill: bool) -> None:
        """Told to stop (a stop frame: its pipe is empty once every chunk was answered) or,
        when ``kill``, killed; the parent's pipe ends closed either way."""
        if kill:
            with contextlib.suppress(OSError, ValueError):
                self.process.kill()
        else:
            with contextlib.suppress(OSError):
                os.write(self.tasks.fileno(), bytes(_HEADER))
        self.tasks.close()
        self.answers.close()

    def reap(self) -> None:
        """The process gone: waited for a bounded time, then killed if it is still there."""
        self.process.join(_REAP_SECONDS)
        if self.process.is_alive():  # pragma: no cover - a worker that ignores its stop
            self.process.kill()
            self.process.join(_REAP_SECONDS)


def run_pool(
    work: Iterator[Chunk], jobs: int, reader: LineReader, as_text: bool,
    take: Callable[[Done], None],
) -> None:
    """Every chunk of ``work`` done by ``jobs`` workers, each ``Done`` given to ``take`` in
    the order of ``work``. Raises :class:`WorkerDied` when a worker ends before it is told
    to stop; an error of ``work`` itself (an input that cannot be read on) is raised once
    the chunks before it were taken."""
    context = _context()
    workers: list[_Worker] = []
    finished = False
    try:
        for _n in range(jobs):
            workers.append(_Worker(context, reader, as_text))
        _loop(work, workers, take)
        finished = True
    finally:
        for worker in workers:
            worker.stop(kill=not finished)
        for worker in workers:
            worker.reap()


def _watching(workers: list[_Worker]) -> selectors.BaseSelector:
    """A selector on every worker's answers and on its end (chunk pipes join while owed)."""
    selector = selectors.DefaultSelector()
    for worker in workers:
        for kind, fd in (("answer", worker.answers.fileno()), ("ended", worker.process.sentinel)):
            selector.register(fd, selectors.EVENT_READ, (kind, worker))
    return selector


def _died(in_flight: dict[int, Chunk], last: tuple[str, int] | None) -> WorkerDied:
    """A worker ended early: named by the first line not yet answered (else after the last)."""
    if in_flight:
        chunk = in_flight[min(in_flight)]
        return WorkerDied(chunk.source, chunk.first)
    source, line = last if last is not None else ("-", 1)
    return WorkerDied(source, line)


def _loop(work: Iterator[Chunk], workers: list[_Worker], take: Callable[[Done], None]) -> None:
    selector = _watching(workers)
    limit = len(workers) * IN_FLIGHT_PER_JOB
    in_flight: dict[int, Chunk] = {}  # every chunk sent and not yet taken, by number
    answered: dict[int, Done] = {}
    sent = taken = 0
    last: tuple[str, int] | None = None  # where the rows taken so far end
    failure: BaseException | None = None
    more = True

    def sending(worker: _Worker) -> None:
        """Watch the worker's chunk pipe for room while there is something to write."""
        fd = worker.tasks.fileno()
        watched = fd in selector.get_map()
        if worker.outbox and not watched:
            selector.register(fd, selectors.EVENT_WRITE, ("task", worker))
        elif not worker.outbox and watched:
            selector.unregister(fd)

    try:
        while True:
            while more and len(in_flight) < limit:
                try:
                    chunk = next(work)
                except StopIteration:
                    more = False
                    break
                except Exception as exc:  # the input: raised once the chunks before it are in
                    failure, more = exc, False
                    break
                worker = min(workers, key=lambda w: len(w.owed))
                worker.owed.append((sent, chunk))
                worker.outbox += _frame(chunk)
                in_flight[sent] = chunk
                sent += 1
                sending(worker)
            if not in_flight:
                break
            for key, _mask in selector.select():
                kind, worker = key.data
                if kind == "ended":
                    raise _died(in_flight, last)
                if kind == "task":
                    try:
                        written = os.write(key.fd, worker.outbox)
                    except BlockingIOError:
                        continue
                    except OSError:  # its end closed: it ended
                        raise _died(in_flight, last) from None
                    del worker.outbox[:written]
                    sending(worker)
                    continue
                try:
                    piece = os.read(key.fd, _READ)
                except BlockingIOError:
                    continue
                if not piece:  # its end closed: it ended
                    raise _died(in_flight, last)
                worker.inbox += piece
                for number, done in worker.answers_read():
                    answered[number] = done
            while taken in answered:
                done = answered.pop(taken)
                chunk = in_flight.pop(taken)
                taken += 1
                take(done)
                last = (chunk.source, chunk.first + len(chunk.lines))
    finally:
        selector.close()
    if failure is not None:
        raise failure
