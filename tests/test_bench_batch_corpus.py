"""The batch benchmark's corpus is what its figures claim: mixed formats, cuts, server calls."""

from __future__ import annotations

import sys
from pathlib import Path

from toolwire.batch import compact_rows

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

import bench_batch


def test_the_corpus_mixes_every_format_with_cut_replies_server_calls_and_broken_lines(
    tmp_path: Path,
) -> None:
    corpus = tmp_path / "corpus.jsonl"
    bench_batch.write_corpus(corpus, 3000)
    summaries = [compact_rows(line)[0] for line in corpus.read_bytes().splitlines()]
    assert len(summaries) == 3000
    formats = {s.get("format") for s in summaries if s.get("error_code") is None}
    assert formats == {f for f, _share in bench_batch.FORMATS}
    assert any(s.get("truncated") for s in summaries)
    assert any(s.get("n_server_calls") for s in summaries)
    assert 0 < sum(s.get("error_code") is not None for s in summaries) < 30
    assert sum(s.get("n_calls") or 0 for s in summaries) > 2000
