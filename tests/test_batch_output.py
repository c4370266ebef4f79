"""``toolwire batch``'s output cannot lie: never an input overwritten, never a partial file
under the final name, every stop (signal, dead worker, unreadable input) said and non-zero."""

from __future__ import annotations

import gzip
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from test_batch_cli import _read_rows, _run

ROOT = Path(__file__).resolve().parent.parent
REPLY = {"choices": [{"message": {"tool_calls": [{"id": "c1", "type": "function", "function": {
    "name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}}]},
    "finish_reason": "tool_calls"}]}
LINE = json.dumps(REPLY)
OUTPUTS = ["rows.jsonl", "rows.jsonl.gz", "rows.parquet"]


def _needs(out: str) -> None:
    if out.endswith(".parquet"):
        pytest.importorskip("pyarrow.parquet", reason="pyarrow (the parquet extra) is needed")


def _rows(path: Path) -> list[dict[str, Any]]:
    if path.name.endswith((".parquet", ".parquet.partial")):
        import pyarrow.parquet as pq

        return [{k: v for k, v in row.items() if v is not None}
                for row in pq.read_table(path).to_pylist()]
    if path.name.endswith((".gz", ".gz.partial")):
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            return [json.loads(line) for line in handle]
    return _read_rows(path)


def _input(folder: Path, count: int = 50) -> Path:
    source = folder / "logs.jsonl"
    source.write_text((LINE + "\n") * count, encoding="utf-8")
    return source


def _link(kind: str, source: Path) -> str:
    """A second name of ``source``: the path itself spelled otherwise, or a link to it."""
    if kind == "same":
        return str(source)
    if kind == "dotted":
        return str(source.parent / "." / source.name)
    other = source.parent / f"{kind}.jsonl"
    if kind == "symlink":
        other.symlink_to(source)
    else:
        os.link(source, other)
    return str(other)


@pytest.mark.parametrize("force", [False, True], ids=["plain", "force"])
@pytest.mark.parametrize("kind", ["same", "dotted", "symlink", "hardlink"])
def test_an_output_that_is_the_input_is_refused_and_the_input_kept(
    tmp_path: Path, kind: str, force: bool
) -> None:
    source = _input(tmp_path)
    before = source.read_bytes()
    code, out, err = _run(str(source), "--out", _link(kind, source), *(["--force"] * force))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and f"that is the input {source}" in err, err
    assert source.read_bytes() == before


def test_standard_input_read_from_the_output_file_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = _input(tmp_path)
    before = source.read_bytes()
    with source.open("rb") as handle:
        monkeypatch.setattr(sys, "stdin", handle)
        code, _out, err = _run("-", "--out", str(source), "--force")
    assert code == 2 and "that is the input standard input" in err
    assert source.read_bytes() == before


def test_an_existing_output_is_replaced_only_with_force(tmp_path: Path) -> None:
    source = _input(tmp_path, 3)
    target = tmp_path / "rows.jsonl"
    target.write_text("keep\n", encoding="utf-8")
    code, _out, err = _run(str(source), "--out", str(target))
    assert code == 2 and err == f"toolwire: usage: --out {target} exists; pass --force to" \
        " replace it\n"
    assert target.read_text(encoding="utf-8") == "keep\n"
    assert _run(str(source), "--out", str(target), "--force")[0] == 0
    assert [r["kind"] for r in _rows(target)] == ["reply", "call"] * 3


def test_a_link_at_the_output_is_replaced_not_written_through(tmp_path: Path) -> None:
    source = _input(tmp_path, 3)
    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_text("keep\n", encoding="utf-8")
    target = tmp_path / "rows.jsonl"
    target.symlink_to(elsewhere)
    assert _run(str(source), "--out", str(target), "--force")[0] == 0
    assert not target.is_symlink() and len(_rows(target)) == 6
    assert elsewhere.read_text(encoding="utf-8") == "keep\n"


@pytest.mark.parametrize("out", OUTPUTS)
def test_rows_are_written_under_a_temporary_name_and_renamed_when_complete(
    tmp_path: Path, out: str
) -> None:
    _needs(out)
    from toolwire.batch import LineReader, Progress, run_batch
    from toolwire.batch._sink import open_sink
    from toolwire.batch._source import open_inputs

    source = _input(tmp_path, 2000)
    target = tmp_path / out
    seen: list[list[str]] = []

    def watch(_progress: Progress) -> None:
        seen.append(sorted(p.name for p in tmp_path.iterdir()))

    inputs = open_inputs([str(source)])
    sink = open_sink(str(target))
    run_batch(inputs, sink, LineReader(), 1, watch)
    inputs[0].close()
    assert seen and all(out not in names and len(names) == 2 for names in seen), seen
    assert any(name.startswith(f".{out}.") and name.endswith(".tmp") for name in seen[-1])
    sink.finish()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([out, source.name])
    assert len(_rows(target)) == 4000


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (read from /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry))
    return found


def _until(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + 60
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened: {what}")
        time.sleep(0.02)


def _batch_from_stdin(folder: Path, out: str, jobs: int) -> subprocess.Popen[bytes]:
    """``toolwire batch - --out OUT -j JOBS`` in ``folder``, its stdin ours to write and keep
    open: the run cannot be complete until we close it."""
    child = subprocess.Popen(
        [sys.executable, "-m", "toolwire", "batch", "-", "--out", out, "-j", str(jobs)],
        cwd=folder, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
    )
    assert child.stdin is not None
    child.stdin.write(((LINE + "\n") * 2000).encode())
    child.stdin.flush()
    return child


def _ended(child: subprocess.Popen[bytes]) -> tuple[int, str]:
    try:
        code = child.wait(timeout=60)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()
        raise AssertionError("the run did not end") from None
    assert child.stderr is not None
    return code, child.stderr.read().decode()


def _left_only_partial(folder: Path, out: str) -> list[dict[str, Any]]:
    """The folder holds no output under its name and no temporary file: only OUT.partial
    (whose rows are whole), beside nothing else."""
    assert sorted(p.name for p in folder.iterdir()) == [f"{out}.partial"]
    found = _rows(folder / f"{out}.partial")
    assert all(row["kind"] in ("reply", "call") for row in found)
    return found


@pytest.mark.parametrize(("sig", "out", "jobs", "code"), [
    (signal.SIGINT, "rows.jsonl", 2, 130),
    (signal.SIGINT, "rows.parquet", 1, 130),
    (signal.SIGTERM, "rows.jsonl.gz", 1, 143),
    (signal.SIGTERM, "rows.parquet", 2, 143),
], ids=["SIGINT-jsonl-j2", "SIGINT-parquet-j1", "SIGTERM-gz-j1", "SIGTERM-parquet-j2"])
def test_a_signal_mid_run_leaves_only_a_partial_file_and_exits_non_zero(
    tmp_path: Path, sig: signal.Signals, out: str, jobs: int, code: int
) -> None:
    _needs(out)
    child = _batch_from_stdin(tmp_path, out, jobs)
    _until(lambda: any(p.name.endswith(".tmp") for p in tmp_path.iterdir()), "a temporary file")
    if jobs > 1:
        _until(lambda: len(_children(child.pid)) >= jobs, "the workers started")
    child.send_signal(sig)
    exit_code, err = _ended(child)
    assert exit_code == code
    assert err.count("\n") == 1 and f"the rows so far are in {out}.partial" in err, err
    _left_only_partial(tmp_path, out)


def test_a_dead_worker_ends_the_run_promptly_with_one_line(tmp_path: Path) -> None:
    child = _batch_from_stdin(tmp_path, "rows.jsonl", 2)
    _until(lambda: len(_children(child.pid)) >= 2, "the workers started")
    os.kill(_children(child.pid)[0], signal.SIGKILL)
    assert child.stdin is not None
    try:  # more work, then the end of the input: the parent must not wait for the dead one
        child.stdin.write(((LINE + "\n") * 2000).encode())
        child.stdin.close()
    except BrokenPipeError:  # it already stopped
        pass
    code, err = _ended(child)
    assert code == 1
    assert err.count("\n") == 1 and "a worker process ended without an answer" in err, err
    assert "the rows so far are in rows.jsonl.partial" in err
    _left_only_partial(tmp_path, "rows.jsonl")


def _gzip_of(lines: list[str]) -> bytes:
    return gzip.compress("".join(line + "\n" for line in lines).encode(), mtime=0)


def _varied(count: int) -> list[str]:
    """Replies that do not compress to nothing: a cut file then ends in the middle."""
    return [json.dumps({**REPLY, "id": f"resp-{n}-{n * 7919 % 104729:x}" * 4})
            for n in range(count)]


def test_a_cut_gzip_input_is_one_line_naming_the_file_and_the_line_reached(
    tmp_path: Path,
) -> None:
    data = _gzip_of(_varied(3000))
    source = tmp_path / "logs.jsonl.gz"
    source.write_bytes(data[: len(data) // 2])
    code, out, err = _run(str(source), "--out", str(tmp_path / "rows.jsonl"))
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and err.startswith(f"toolwire: batch: {source}: line "), err
    assert "cut short" in err and "the rows so far are in" in err
    reached = int(err.split(": line ", 1)[1].split(":", 1)[0].replace(",", ""))
    assert 1 < reached < 3000
    replies = [r for r in _rows(tmp_path / "rows.jsonl.partial") if r["kind"] == "reply"]
    assert len(replies) == reached - 1  # every line read whole has its row
    assert not (tmp_path / "rows.jsonl").exists()


def test_a_corrupt_gzip_input_is_one_line_naming_the_file(tmp_path: Path) -> None:
    data = bytearray(_gzip_of(_varied(3000)))
    middle = len(data) // 2
    data[middle : middle + 64] = bytes(range(64))
    source = tmp_path / "logs.jsonl.gz"
    source.write_bytes(bytes(data))
    code, _out, err = _run(str(source), "--out", str(tmp_path / "rows.jsonl"))
    assert code == 1
    assert err.count("\n") == 1 and f"{source}: line " in err and "gzip data" in err, err
    assert not (tmp_path / "rows.jsonl").exists()


@pytest.mark.parametrize("field", [False, True], ids=["whole-line", "field"])
def test_a_line_nested_100000_deep_is_its_own_error_row(tmp_path: Path, field: bool) -> None:
    deep = "[" * 100_000 + "]" * 100_000
    lines = [LINE, deep, LINE]
    if field:
        lines = [f'{{"response": {line}}}' for line in lines]
    source = tmp_path / "logs.jsonl"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, _err = _run(str(source), "--out", str(tmp_path / "rows.jsonl"),
                           *(["--field", "response"] if field else []))
    assert code == 0 and "check: 3 lines in, 3 reply rows out: ok" in out
    replies = [r for r in _rows(tmp_path / "rows.jsonl") if r["kind"] == "reply"]
    assert [r.get("error_code") for r in replies] == [
        None, "bad_record" if field else "malformed_response", None]
    assert "too deep" in replies[1]["error_message"]


def test_a_record_whose_reading_fails_is_its_error_row_and_the_run_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from toolwire.batch import _records as records

    calls = {"n": 0}
    real = records.LineReader.rows

    def flaky(self: records.LineReader, line: bytes, record_id: str) -> list[dict[str, Any]]:
        calls["n"] += 1
        if calls["n"] == 2:
            raise MemoryError("a record too big")
        return real(self, line, record_id)

    monkeypatch.setattr(records.LineReader, "rows", flaky)
    source = _input(tmp_path, 3)
    code, out, _err = _run(str(source), "--out", str(tmp_path / "rows.jsonl"))
    assert code == 0 and "check: 3 lines in, 3 reply rows out: ok" in out
    replies = [r for r in _rows(tmp_path / "rows.jsonl") if r["kind"] == "reply"]
    assert [r.get("error_code") for r in replies] == [None, "internal_error", None]
    assert replies[1]["error_message"] == "MemoryError: a record too big"


def test_a_line_longer_than_the_bound_is_its_error_row(tmp_path: Path) -> None:
    long = json.dumps({**REPLY, "id": "x" * 5000})
    fits = json.dumps({**REPLY, "id": "y" * (2048 - len(LINE) - 10)})
    assert len(fits) == 2048
    source = tmp_path / "logs.jsonl"
    source.write_bytes(f"{LINE}\n{long}\r\n{fits}\r\n{long}".encode())  # the last, unended
    code, out, _err = _run(str(source), "--out", str(tmp_path / "rows.jsonl"),
                           "--max-line-bytes", "2K")
    assert code == 0 and "check: 4 lines in, 4 reply rows out: ok" in out
    replies = [r for r in _rows(tmp_path / "rows.jsonl") if r["kind"] == "reply"]
    assert [r.get("error_code") for r in replies] == [None, "bad_record", None, "bad_record"]
    assert replies[1]["error_message"] == (
        f"the line is {len(long):,} bytes, more than the 2,048 read (--max-line-bytes)")
    assert replies[3]["record_id"] == f"{source}:4"


def test_a_line_too_long_is_never_held_whole() -> None:
    """The reader hands on pieces of at most the bound, whatever the line's length."""
    import io

    from toolwire.batch._records import LongLine
    from toolwire.batch._source import Input

    class Recorded(io.BytesIO):
        largest = 0

        def readline(self, size: int | None = -1) -> bytes:
            piece = super().readline(size)
            Recorded.largest = max(Recorded.largest, len(piece))
            return piece

    source = Input.__new__(Input)
    source.name, source.max_line, source.size = "x", 1024, None
    source._raw = source._stream = Recorded(b"{}\n" + b"x" * 10_000_000 + b"\n{}\n")
    found = list(source.lines())
    assert found == [b"{}", LongLine(10_000_000, 1024), b"{}"]
    assert Recorded.largest <= 1 << 20


def test_blank_lines_are_skipped_and_counted_with_several_processes(tmp_path: Path) -> None:
    source = tmp_path / "logs.jsonl"
    source.write_text((LINE + "\n\n  \t\n\r\n") * 500, encoding="utf-8")
    code, out, _err = _run(str(source), "-j", "2", "--out", str(tmp_path / "rows.jsonl"))
    assert code == 0
    assert "check: 2,000 lines in, 1,500 blank (skipped), 500 reply rows out: ok" in out
    assert "500 records from 1 input(s)" in out


def test_run_batch_refuses_more_processes_than_its_bound() -> None:
    from toolwire.batch import LineReader, max_jobs, run_batch
    from toolwire.batch._sink import Sink

    with pytest.raises(ValueError, match="per core"):
        run_batch([], Sink(), LineReader(), max_jobs() + 1)


def test_an_output_that_cannot_be_finished_is_left_partial_with_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from toolwire.batch import _sink as sink

    def full(self: sink.Target) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(sink.Target, "finish", full)
    source = _input(tmp_path, 3)
    code, _out, err = _run(str(source), "--out", str(tmp_path / "rows.jsonl"))
    assert code == 1
    assert err == (f"toolwire: batch: cannot write {tmp_path / 'rows.jsonl'}: No space left on"
                   f" device; the rows so far are in {tmp_path / 'rows.jsonl.partial'}\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["logs.jsonl", "rows.jsonl.partial"]


def test_an_existing_partial_output_is_refused_without_force_and_kept(tmp_path: Path) -> None:
    source = _input(tmp_path, 3)
    earlier = tmp_path / "rows.jsonl.partial"
    earlier.write_text("rows an earlier run left\n", encoding="utf-8")
    code, _out, err = _run(str(source), "--out", str(tmp_path / "rows.jsonl"))
    assert code == 2 and err.count("\n") == 1, err
    assert f"{earlier} exists" in err and "--force" in err
    assert earlier.read_text(encoding="utf-8") == "rows an earlier run left\n"
    assert not (tmp_path / "rows.jsonl").exists()


@pytest.mark.parametrize("force", [False, True], ids=["plain", "force"])
def test_an_input_where_an_early_stop_would_leave_its_rows_is_refused(
    tmp_path: Path, force: bool
) -> None:
    source = tmp_path / "rows.jsonl.partial"
    source.write_text((LINE + "\n") * 3, encoding="utf-8")
    before = source.read_bytes()
    code, _out, err = _run(str(source), "--out", str(tmp_path / "rows.jsonl"),
                           *(["--force"] if force else []))
    assert code == 2 and err.count("\n") == 1, err
    assert f"{source}, where an early stop leaves the rows, is the input {source}" in err
    assert source.read_bytes() == before


def test_an_early_stop_never_replaces_a_partial_file_that_appeared_meanwhile(
    tmp_path: Path,
) -> None:
    from toolwire.batch._sink import open_sink

    target = tmp_path / "rows.jsonl"
    sink = open_sink(str(target))
    sink.put(LINE + "\n")
    (tmp_path / "rows.jsonl.partial").write_text("someone else's\n", encoding="utf-8")
    left = sink.abandon()
    assert left is not None and Path(left).name.startswith(".rows.jsonl.")
    assert Path(left).read_text(encoding="utf-8") == LINE + "\n"
    assert (tmp_path / "rows.jsonl.partial").read_text(encoding="utf-8") == "someone else's\n"


def test_an_early_stop_with_force_replaces_a_partial_file(tmp_path: Path) -> None:
    from toolwire.batch._sink import open_sink

    (tmp_path / "rows.jsonl.partial").write_text("an earlier run's\n", encoding="utf-8")
    sink = open_sink(str(tmp_path / "rows.jsonl"), force=True)
    sink.put(LINE + "\n")
    assert sink.abandon() == str(tmp_path / "rows.jsonl.partial")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rows.jsonl.partial"]
    assert (tmp_path / "rows.jsonl.partial").read_text(encoding="utf-8") == LINE + "\n"


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_full_disk_while_writing_rows_is_one_line_not_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, jobs: str
) -> None:
    from toolwire.batch import _sink as sink

    def full(self: sink.JsonLinesSink, payload: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(sink.JsonLinesSink, "write", full)
    source = _input(tmp_path, 3)
    code, out, err = _run(str(source), "--out", str(tmp_path / "rows.jsonl"), "-j", jobs)
    assert code == 1 and out == ""
    assert err == (f"toolwire: batch: cannot write {tmp_path / 'rows.jsonl'}: No space left on"
                   f" device; the rows so far are in {tmp_path / 'rows.jsonl.partial'}\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["logs.jsonl", "rows.jsonl.partial"]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("out", ["-", "rows.jsonl"], ids=["rows", "summary"])
def test_a_full_standard_output_is_one_line_not_a_traceback(tmp_path: Path, out: str) -> None:
    source = _input(tmp_path, 3)
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "toolwire", "batch", str(source), "--out", out],
            cwd=tmp_path, stdout=full, stderr=subprocess.PIPE, timeout=120,
            env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
        )
    err = done.stderr.decode()
    assert done.returncode == 1
    assert err.count("\n") == 1 and err.startswith("toolwire: batch: cannot write "), err
    assert "No space left on device" in err and "Traceback" not in err
