"""Running a batch: inputs → chunks → rows (here, or in worker processes) → one sink, in order.

The output is the same with one process or many: chunks go out to the workers and
their rows come back in input order. At most a few chunks per worker are in flight,
so memory stays flat in the input size (a ``Pool.imap`` would read the whole input
ahead). Each worker builds its registry once; the main process only moves bytes.
"""

from __future__ import annotations

import os
import time
from collections import deque
from collections.abc import Callable, Iterator
from typing import Any

from .._record import Record, setfield
from .records import Chunk, Done, LineReader, Tally, process_chunk
from .sink import Sink
from .source import Input, chunks

__all__ = ["Progress", "cpu_count", "run_batch"]

IN_FLIGHT_PER_JOB = 4


class Progress(Record):
    """Where a run stands: records done, input bytes read and their total (None: unknown)."""

    __slots__ = ("bytes_done", "bytes_total", "records", "seconds")
    records: int
    bytes_done: int
    bytes_total: int | None
    seconds: float

    def __init__(
        self, records: int, bytes_done: int, bytes_total: int | None, seconds: float
    ) -> None:
        setfield(self, "records", records)
        setfield(self, "bytes_done", bytes_done)
        setfield(self, "bytes_total", bytes_total)
        setfield(self, "seconds", seconds)


def cpu_count() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


_WORKER: tuple[LineReader, bool] | None = None


def _init_worker(reader: LineReader, as_text: bool) -> None:
    global _WORKER
    _WORKER = (reader, as_text)
    from ..registry import Registry

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
    """Every line of every input as rows into ``sink``; the tally of what went through."""
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
        sink.write(done.payload)
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
    import multiprocessing

    pending: deque[Any] = deque()
    with multiprocessing.get_context().Pool(
        jobs, initializer=_init_worker, initargs=(reader, as_text)
    ) as pool:
        for chunk in work:
            pending.append(pool.apply_async(_work, (chunk,)))
            while len(pending) >= jobs * IN_FLIGHT_PER_JOB:
                take(pending.popleft().get())
        while pending:
            take(pending.popleft().get())
