"""Running a batch: inputs → chunks → rows (here, or in worker processes) → one sink, in order.

The output is the same with one process or many: chunks go out to the workers and
their rows come back in input order. At most a few chunks per worker are in flight,
so memory stays flat in the input size (a ``Pool.imap`` would read the whole input
ahead). Each worker builds its registry once; the main process only moves bytes.

A worker that dies (killed, out of memory), at whatever point, ends the run at once with
:class:`WorkerDied`, and a signal to the parent always ends it: the workers are
:mod:`toolwire.batch._pool`'s, which never waits on a pipe a dead worker may have left
half-written.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ._pool import WorkerDied, run_pool
from ._records import Chunk, Done, LineReader, Tally, process_chunk
from ._sink import Sink
from ._source import Input, chunks

__all__ = ["MAX_JOBS_PER_CORE", "Progress", "WorkerDied", "cpu_count", "max_jobs", "run_batch"]

MAX_JOBS_PER_CORE = 4
"""Worker processes allowed per core: past one per core a process adds memory (its own
registry, its chunks in flight), not speed; a bound that catches ``-j 400`` for ``-j 4``."""


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
    run_pool(every_chunk(), jobs, reader, sink.text, take)
    return tally
