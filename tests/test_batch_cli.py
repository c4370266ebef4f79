"""``toolwire batch``: JSON Lines in (plain, gzip, a field), rows out, every line accounted for."""

from __future__ import annotations

import gzip
import io
import json
from pathlib import Path
from typing import Any

import pytest
from test_batch_rows import check_rows_against_read

import toolwire
from toolwire.cli import main

from conformance import cases, each_test

WIRE = [(c.data["format"], t) for _n, c, t in each_test(cases())]
READABLE = next(t for f, t in WIRE if f == "openai" and "error" not in t.get("expect", {})
                and toolwire.sniff_format(t["response"]) == "openai")
"""A conformance reply that reads, sniffed, without error: whatever order the cases come in."""


def _lines() -> list[str]:
    """Every conformance reply, then lines that are no reply at all."""
    return [json.dumps(t["response"]) for _f, t in WIRE] + [
        "{not json", "", "[1, 2]", '"just text"', json.dumps({"what": "ever"})]


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    import contextlib

    with contextlib.redirect_stderr(err):
        try:
            code = main(["batch", *argv], out=out)
        except SystemExit as exit_:  # argparse's own usage errors
            code = int(exit_.code or 0)
    return code, out.getvalue(), err.getvalue()


def _read_rows(path: Path) -> list[dict[str, Any]]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def _by_record(found: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    grouped: dict[str, list[dict[str, Any]]] = {}
    for row in found:
        grouped.setdefault(row["record_id"], []).append(row)
    return grouped


def test_every_line_gives_its_rows_and_the_counts_are_checked(tmp_path: Path) -> None:
    lines = _lines()
    source = tmp_path / "in.jsonl"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = _run(str(source), "--out", str(tmp_path / "out.jsonl"))
    assert code == 0 and err == ""  # not a terminal: no progress bar
    found = _read_rows(tmp_path / "out.jsonl")
    grouped = _by_record(found)
    assert list(grouped) == [f"{source}:{n}" for n, line in enumerate(lines, start=1) if line]
    for number, line in enumerate(lines[: len(WIRE)], start=1):  # the CLI sniffs, as read(None)
        check_rows_against_read(grouped[f"{source}:{number}"], None, line, None)
    blank = lines.index("") + 1
    assert f"{source}:{blank}" not in grouped  # a blank line is skipped, and counted
    tail = [grouped[f"{source}:{n}"][0] for n in range(len(WIRE) + 1, len(lines) + 1)
            if n != blank]
    assert [r["error_code"] for r in tail] == [
        "malformed_response", "malformed_response", "malformed_response", "unknown_format"]
    assert (f"check: {len(lines):,} lines in, 1 blank (skipped),"
            f" {len(lines) - 1:,} reply rows out: ok") in out
    assert "format" in out and "unreadable by code:" in out


def test_gzip_input_with_a_field_and_ids_reads_each_line(tmp_path: Path) -> None:
    source = tmp_path / "logs.jsonl.gz"
    with gzip.open(source, "wt", encoding="utf-8") as handle:
        for number, (fmt, test) in enumerate(WIRE):
            handle.write(json.dumps({"request_id": f"req-{number}", "provider": fmt,
                                     "response": test["response"]}) + "\n")
        handle.write(json.dumps({"request_id": "no-reply"}) + "\n")
        handle.write(json.dumps({"request_id": "null", "response": None}) + "\n")
    code, out, _err = _run(str(source), "--field", "response", "--format-field", "provider",
                           "--id-field", "request_id", "--out", str(tmp_path / "o.jsonl.gz"))
    assert code == 0
    grouped = _by_record(_read_rows(tmp_path / "o.jsonl.gz"))
    for number, (fmt, test) in enumerate(WIRE):
        check_rows_against_read(grouped[f"req-{number}"], fmt, test["response"], None)
    assert grouped["no-reply"][0]["error_code"] == "bad_record"
    assert "no field 'response'" in grouped["no-reply"][0]["error_message"]
    assert grouped["null"][0]["error_code"] == "bad_record"
    assert f"{len(WIRE) + 2:,} lines in, {len(WIRE) + 2:,} reply rows out: ok" in out


def test_two_processes_write_the_same_rows_in_the_same_order(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    source.write_text("\n".join(_lines() * 3) + "\n", encoding="utf-8")
    assert _run(str(source), "--out", str(tmp_path / "one.jsonl"))[0] == 0
    code, out, _err = _run(str(source), "-j", "2", "--out", str(tmp_path / "two.jsonl"))
    assert code == 0 and "with 2 process(es)" in out
    assert (tmp_path / "one.jsonl").read_bytes() == (tmp_path / "two.jsonl").read_bytes()


def test_parquet_output_holds_every_row_with_the_schema(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet", reason="pyarrow (the parquet extra) is needed")
    from toolwire.batch import NAMES

    source = tmp_path / "in.jsonl"
    source.write_text("\n".join(_lines()) + "\n", encoding="utf-8")
    assert _run(str(source), "--out", str(tmp_path / "rows.jsonl"))[0] == 0
    assert _run(str(source), "-j", "--out", str(tmp_path / "rows.parquet"))[0] == 0
    table = pq.read_table(tmp_path / "rows.parquet")
    assert tuple(table.column_names) == NAMES
    expected = [{name: row.get(name) for name in NAMES}
                for row in _read_rows(tmp_path / "rows.jsonl")]
    assert table.to_pylist() == expected


def test_rows_go_to_stdout_and_the_summary_to_stderr_with_out_dash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "in.jsonl"
    source.write_text(json.dumps(READABLE["response"]) + "\n", encoding="utf-8")
    assert main(["batch", str(source), "--out", "-"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out.splitlines()[0])["kind"] == "reply"
    assert "check: 1 lines in, 1 reply rows out: ok" in captured.err


def test_a_terminal_shows_a_progress_bar_with_rate_and_eta() -> None:
    from toolwire.batch import Progress
    from toolwire.cli._batch import _Bar

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Terminal()
    _Bar(screen).show(Progress(5000, 250, 1000, 2.0))
    shown = screen.getvalue()
    assert "25%" in shown and "5,000 replies" in shown and "2,500/s" in shown
    assert "ETA 0:00:06" in shown


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["missing.jsonl", "--out", "o.jsonl"], "missing.jsonl: No such file or directory"),
        (["IN", "--out", "IN"], "--out IN: that is the input IN"),
        (["IN", "--out", "./IN", "--force"], "--out ./IN: that is the input IN"),
        (["IN", "--out", "rows.csv"], "--out rows.csv: unknown output kind"),
        (["IN", "--out", "IN.jsonl"], "--out IN.jsonl exists; pass --force"),
        (["IN", "--out", "o.jsonl", "-j", "100000"], "-j 100000: at most"),
        (["IN", "--out", "o.jsonl", "--max-line-bytes", "12X"], "is not a size"),
        (["IN", "--out", "o.jsonl", "-j", "-3"], "must be 0 (every core) or more"),
        (["IN", "--out", "o.jsonl", "--format", "opena"], "--format opena: unknown"),
        (["IN", "--out", "o.jsonl", "--format", "openai", "--format-field", "f"],
         "exclude each other"),
        (["-", "-", "--out", "o.jsonl"], "only once"),
    ],
)
def test_a_bad_command_line_is_one_line_and_exit_2(
    tmp_path: Path, argv: list[str], message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "IN").write_text("{}\n", encoding="utf-8")
    (tmp_path / "IN.jsonl").write_text("", encoding="utf-8")
    code, _out, err = _run(*argv)
    assert code == 2
    assert err.count("\n") == 1 and message in err, err


def test_rows_piped_into_a_reader_that_stops_end_in_one_line_not_a_traceback(
    tmp_path: Path,
) -> None:
    import os
    import subprocess
    import sys

    source = tmp_path / "in.jsonl"
    source.write_text("\n".join(_lines() * 40) + "\n", encoding="utf-8")
    child = subprocess.Popen(
        [sys.executable, "-m", "toolwire.cli", "batch", str(source), "--out", "-"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent / "src")},
    )
    assert child.stdout is not None and child.stderr is not None
    json.loads(child.stdout.readline())
    child.stdout.close()
    err = child.stderr.read().decode()
    assert child.wait(timeout=60) == 1
    assert err == "toolwire: batch: the output was closed before the end\n"


def _wrapped_log(path: Path, wrap: Any) -> list[str]:
    """A gateway log of every conformance reply that reads, each wrapped by ``wrap``."""
    import toolwire.batch

    readable = [t["response"] for _f, t in WIRE
                if toolwire.batch.rows(t["response"])[0]["error_code"] in (None, "provider_error")]
    lines = [json.dumps(wrap(reply, number)) for number, reply in enumerate(readable)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return lines


@pytest.mark.parametrize(("wrap", "field"), [
    (lambda reply, n: {"request_id": f"req-{n}", "status": 200, "response": reply}, "response"),
    (lambda reply, n: {"id": n, "exchange": {"request": {"model": "m"}, "reply": reply}},
     "exchange.reply"),
    (lambda reply, n: {"id": n, "body": json.dumps(reply)}, "body"),
], ids=["top-level", "nested", "json-text"])
def test_a_wrapped_log_read_without_field_names_the_field_and_exits_1(
    tmp_path: Path, wrap: Any, field: str
) -> None:
    source = tmp_path / "gateway.jsonl"
    lines = _wrapped_log(source, wrap)
    code, out, err = _run(str(source), "--out", str(tmp_path / "rows.jsonl"))
    assert code == 1
    assert err == (f"toolwire: batch: no record could be read ({len(lines):,} unreadable);"
                   f" each line holds its reply in field {field!r}: pass --field {field}\n")
    assert f"hint: {len(lines):,} line(s) hold a reply in field {field!r}" in out
    replies = [r for r in _read_rows(tmp_path / "rows.jsonl") if r["kind"] == "reply"]
    assert len(replies) == len(lines)
    assert {r["error_code"] for r in replies} <= {"unknown_format", "malformed_response"}
    code, _out, err = _run(str(source), "--out", str(tmp_path / "again.jsonl"), "--field", field)
    assert (code, err) == (0, "")  # the advice, taken, reads every line


def test_a_log_with_no_readable_record_exits_1_and_says_where_to_look(tmp_path: Path) -> None:
    source = tmp_path / "junk.jsonl"
    source.write_text('{not json\n{"what": "ever"}\n[1, 2]\n', encoding="utf-8")
    code, _out, err = _run(str(source), "--out", str(tmp_path / "rows.jsonl"))
    assert code == 1
    assert err.count("\n") == 1 and err.startswith(
        "toolwire: batch: no record could be read (3 unreadable); see the rows' error_message"), err
    assert (tmp_path / "rows.jsonl").exists()  # the rows are complete: each says why


def test_a_log_with_some_readable_records_exits_0_and_hints_at_the_wrapped_ones(
    tmp_path: Path,
) -> None:
    first = READABLE
    source = tmp_path / "mixed.jsonl"
    source.write_text(json.dumps(first["response"]) + "\n"
                      + json.dumps({"response": first["response"]}) + "\n", encoding="utf-8")
    code, out, err = _run(str(source), "--out", str(tmp_path / "rows.jsonl"))
    assert (code, err) == (0, "")
    assert "hint: 1 line(s) hold a reply in field 'response': pass --field response" in out


def test_a_log_of_provider_error_bodies_was_read_and_exits_0(tmp_path: Path) -> None:
    source = tmp_path / "outage.jsonl"
    body = {"error": {"message": "Rate limit reached", "type": "requests", "code": "rate_limit"}}
    source.write_text((json.dumps(body) + "\n") * 2, encoding="utf-8")
    code, _out, err = _run(str(source), "--out", str(tmp_path / "rows.jsonl"))
    assert (code, err) == (0, "")
    assert {r["error_code"] for r in _read_rows(tmp_path / "rows.jsonl")} == {"provider_error"}
