#!/usr/bin/env bash
# Run every fuzz harness, each for SECONDS, one after the other (bounded: total ≈ 6 × SECONDS).
#
#   tools/fuzz/run.sh SECONDS [HARNESS...]     HARNESS: read extract_sniff text spec_loader tools
#                                              stream_framing
#
# Seeds come from the conformance suite (make_corpus.py) into a work folder that keeps the
# grown corpus between runs: FUZZ_WORKDIR, default tools/fuzz/corpus-work/ (git-ignored).
# A finding stops its harness with the crashing input saved as WORKDIR/<harness>-crash-*;
# the script goes on with the next harness and exits 1 at the end if any found something.
# Needs atheris (pip install atheris; wheels for Linux x86_64). PYTHON picks the interpreter.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
seconds="${1:?usage: run.sh SECONDS [read|extract_sniff|text|spec_loader|tools|stream_framing ...]}"
shift
harnesses=("$@")
[ ${#harnesses[@]} -gt 0 ] || harnesses=(read extract_sniff text spec_loader tools stream_framing)
python="${PYTHON:-python3}"
work="${FUZZ_WORKDIR:-$here/corpus-work}"
mkdir -p "$work"
"$python" "$here/make_corpus.py" "$work/seeds" || exit 1

declare -A max_len=([read]=4096 [extract_sniff]=4096 [text]=8192 [spec_loader]=12288 [tools]=8192
                  [stream_framing]=8192)
status=0
for name in "${harnesses[@]}"; do
    [ -n "${max_len[$name]:-}" ] || { echo "run.sh: unknown harness $name" >&2; exit 2; }
    mkdir -p "$work/corpus/$name"
    echo "== $name: ${seconds}s (work folder $work)" >&2
    "$python" "$here/fuzz_$name.py" "$work/corpus/$name" "$work/seeds/$name" \
        -dict="$work/seeds/$name.dict" -max_total_time="$seconds" -max_len="${max_len[$name]}" \
        -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$work/$name-" 2>&1 | tee "$work/$name.log" | grep -E \
        "^(#[0-9]+ +(INITED|DONE)|stat::|==|Uncaught|[A-Za-z]*Error: |Test unit written)" >&2
    rc=${PIPESTATUS[0]}
    if [ "$rc" -ne 0 ]; then
        echo "== $name: FINDING (exit $rc); see $work/$name.log" >&2
        status=1
    fi
done
exit $status
