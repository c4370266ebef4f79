"""Running a batch: inputs → chunks → rows (here, or in worker processes) → one sink, in order.

The output is the same with one process or many: chunks go out to the workers and
their rows come back in input order. At most a few chunks per worker are in flight,
so memory stays flat in the input size (a ``Pool.imap`` would read the whole input
ahead). Each worker builds its registry once; the main process only moves bytes.

A worker that dies (killed, out of memory) ends the run at once with
:class:`WorkerDied`: the pool is a ``concurrent.futures`` one, which notices a worker
gone and fails every chunk in flight, where ``multiprocessing.Pool`` waits forever for
the answer of a chunk its dead worker took. Workers ignore SIGINT: a Ctrl-C reaches the
whole process group, and it is the parent that stops the run and its workers.
"""

from __future__ import annotations

import os
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from .._registry.registry import Registry
from ._records import Chunk, Done, LineReader, Tally, process_chunk
from ._sink import Sink
from ._source import Input, chunks

__all__ = ["MAX_JOBS_PER_CORE", "Progress", "WorkerDied", "cpu_count", "max_jobs", "run_batch"]

IN_FLIGHT_PER_JOB = 4

MAX_JOBS_PER_CORE = 4
"""Worker processes allowed per core: past one per core a process adds memory (its own
registry, its chunks in flight), not speed; a bound that catches ``-j 400`` for ``-j 4``."""


class WorkerDied(Exception):
    """A worker process ended without answering: the rows from ``source`` line ``line`` on
    were not written."""

    def __init__(self, source: str, line: int) -> None:
        shown = "standard input" if source == "-" else source
        super().__init__(f"a worker process ended without an answer (killed? out of memory?)"
                         f" while reading {shown} from line {line:,} on")
        self.source = source
        self.line = line


@dataclass(frozen=True, slots=True, init=False)
class Progress:
    """Where a run stands: records done, input bytes read and their total (None: unknown)."""

    records: int
    bytes_done: int
    bytes_total: int | None
    seconds: float

    def __init__(
        self, records: int, bytes_done: int, bytes_total: int | None, seconds: float
    ) -> None:
        object.__setattr__(self, "records", records)
        object.__setattr__(self, "bytes_done", bytes_done)
        object.__setattr__(self, "bytes_total", bytes_total)
        object.__setattr__(self, "seconds", seconds)


def cpu_count() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def max_jobs() -> int:
    """The most worker processes a run takes: :data:`MAX_JOBS_PER_CORE` per core."""
    return MAX_JOBS_PER_CORE * cpu_count()


_WORKER: tuple[LineReader, bool] | None = None


def _init_worker(reader: LineReader, as_text: bool) -> None:
    import signal  # lazy: in the worker process only

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops the run (module doc)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the parent's handler, if it had one
    global _WORKER
    _WORKER = (reader, as_text)

    Registry.default()  # built once per worker, before the first chunk


def _work(chunk: Chunk) -> Done:
    assert _WORKER is not None, "batch worker not initialised"
    return process_chunk(chunk, *_WORKER)


def run_batch(
    inputs: list[Input],
    sink: Sink,
    reader: LineReader,
    jobs: int = 1,
    progress: Callable[[Progress], None] | None = None,
) -> Tally:
    """Every line of every input as rows into ``sink``; the tally of what went through.

    The caller ends the sink: :meth:`~toolwire.batch.sink.Sink.finish` when this returned,
    :meth:`~toolwire.batch.sink.Sink.abandon` when it raised. Raises :class:`ValueError`
    for more than :func:`max_jobs` processes, :class:`WorkerDied` when a worker dies and
    :class:`~toolwire.batch.source.UnreadableInput` for an input that cannot be read on
    and :class:`~toolwire.batch._sink.UnwritableOutput` for rows that cannot be written.
    """
    if jobs > max_jobs():
        raise ValueError(f"{jobs} processes: at most {max_jobs()} ({MAX_JOBS_PER_CORE} per core)")
    started = time.monotonic()
    total_bytes: int | None = sum(i.size or 0 for i in inputs)
    if any(i.size is None for i in inputs):
        total_bytes = None
    tally = Tally()
    finished_bytes = 0
    current: list[Input] = []

    def report() -> None:
        if progress is not None:
            done = finished_bytes + (current[0].position() if current else 0)
            progress(Progress(tally.records, done, total_bytes, time.monotonic() - started))

    def every_chunk() -> Iterator[Chunk]:
        nonlocal finished_bytes
        for source in inputs:
            current[:] = [source]
            yield from chunks(source)
            finished_bytes += source.size or 0
            current.clear()

    def take(done: Done) -> None:
        sink.put(done.payload)
        tally.merge(done.tally)
        report()

    if jobs <= 1:
        for chunk in every_chunk():
            take(process_chunk(chunk, reader, sink.text))
        return tally
    _run_pool(every_chunk(), jobs, reader, sink.text, take)
    return tally


def _run_pool(
    work: Iterator[Chunk], jobs: int, reader: LineReader, as_text: bool,
    take: Callable[[Done], None],
) -> None:
    import multiprocessing  # lazy: multiprocessing (11 ms) only for -j 2 and more
    from concurrent.futures import Future, ProcessPoolExecutor  # lazy: as above
    from concurrent.futures.process import BrokenProcessPool  # lazy: as above

    pending: deque[tuple[Chunk, Future[Done]]] = deque()

    def next_done() -> None:
        chunk, future = pending.popleft()
        try:
            done = future.result()
        except BrokenProcessPool:
            raise WorkerDied(chunk.source, chunk.first) from None
        take(done)

    pool = ProcessPoolExecutor(jobs, multiprocessing.get_context(), initializer=_init_worker,
                               initargs=(reader, as_text))
    try:
        for chunk in work:
            try:
                pending.append((chunk, pool.submit(_work, chunk)))
            except BrokenProcessPool:
                first = pending[0][0] if pending else chunk
                raise WorkerDied(first.source, first.first) from None
            while len(pending) >= jobs * IN_FLIGHT_PER_JOB:
                next_done()
        while pending:
            next_done()
    finally:
        # Chunks not started are dropped; the few running finish (each is bounded).
        pool.shutdown(wait=True, cancel_futures=True)
