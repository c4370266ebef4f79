"""Benchmark of ``toolwire batch``: replies/s per core, -j scaling, overhead, memory.

On a JSON Lines file of realistic mixed-format replies (the bodies of
``tools/bench_replies.py``: seven formats, 0 to 3 calls, reasoning and text around them,
with truncated replies, server calls and unreadable lines mixed in), it times, as fresh
processes in interleaved rounds (median):

* a bare loop: ``for line in file: toolwire.read(None, line)`` — the floor;
* ``toolwire batch FILE --out OUT`` with one process, and with ``-j 2`` (or ``-j N``);

and reports replies/s, replies/s per core, ``-j N`` against one process (target: at least
1.7x for ``-j 2``), one process against the bare loop (at most 1.3x), and each run's peak
memory (max RSS) on the full input and on a quarter of it: flat means the same (at most
1.2x). The load average is printed too: other work on the machine skews the -j figures.

Run: ``python tools/bench_batch.py`` (``--replies N``, ``--rounds R``, ``--jobs N``).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_replies import BUILDERS

ROOT = Path(__file__).resolve().parent.parent

# The share of each format in a gateway's traffic, and of call counts per reply.
FORMATS = (("openai", 35), ("responses", 20), ("anthropic", 20), ("gemini", 10),
           ("bedrock", 5), ("ollama", 5), ("cohere", 5))
CALLS = ((0, 45), (1, 35), (2, 12), (3, 8))

BARE_LOOP = """
import sys, toolwire
read, Error = toolwire.read, toolwire.errors.ToolwireError
with open(sys.argv[1], "rb") as handle:
    for line in handle:
        try:
            read(None, line)
        except Error:
            pass
"""


def _weighted(rng: random.Random, table: tuple[tuple[Any, int], ...]) -> Any:
    return rng.choices([v for v, _w in table], weights=[w for _v, w in table])[0]


def _reply(rng: random.Random, index: int) -> str:
    """One logged line: a body as the provider sent it, sometimes cut, sometimes broken."""
    fmt = _weighted(rng, FORMATS)
    body = BUILDERS[fmt](_weighted(rng, CALLS))
    body["id"] = f"{body.get('id', 'r')}-{index}"
    luck = rng.random()
    if luck < 0.002:
        return json.dumps(body)[:200]  # a line cut by the logger: unreadable (0.2%)
    if luck < 0.06 and fmt == "openai" and body["choices"][0]["message"].get("tool_calls"):
        choice = body["choices"][0]
        choice["finish_reason"] = "length"
        call = choice["message"]["tool_calls"][-1]["function"]
        call["arguments"] = call["arguments"][: len(call["arguments"]) // 2]
    elif luck < 0.05 and fmt == "responses":
        body["output"].insert(0, {"id": f"ws_{index}", "type": "web_search_call",
                                  "status": "completed",
                                  "action": {"type": "search", "query": "weather in Paris"}})
    return json.dumps(body, ensure_ascii=False)


def write_corpus(path: Path, count: int, seed: int = 15) -> None:
    rng = random.Random(seed)
    with path.open("w", encoding="utf-8") as handle:
        for index in range(count):
            handle.write(_reply(rng, index) + "\n")


# Runs one command and prints its wall seconds, peak RSS (KiB) and CPU seconds. The command
# is started from this small process, not from the bench: Linux carries the peak RSS of the
# process a child was spawned from into the child's own figure, so a command spawned from a
# bench that has grown to hundreds of MB would report the bench's peak as its own.
LAUNCHER = """
import os, subprocess, sys, time
started = time.perf_counter()
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
_pid, status, usage = os.wait4(child.pid, 0)
seconds = time.perf_counter() - started
if status != 0:
    sys.stderr.write(child.stderr.read().decode())
    raise SystemExit(f"failed ({status}): {' '.join(sys.argv[1:])}")
print(seconds, usage.ru_maxrss, usage.ru_utime + usage.ru_stime)
"""


def _timed(argv: list[str]) -> tuple[float, int, float]:
    """Wall seconds, peak RSS (KiB) and CPU seconds of one run (with its reaped workers)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    done = subprocess.run([sys.executable, "-c", LAUNCHER, *argv], env=env,
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{done.stderr}")
    seconds, rss, cpu = done.stdout.split()
    return float(seconds), int(rss), float(cpu)


def run(
    replies: int = 100_000, rounds: int = 3, jobs: int = 2
) -> list[tuple[str, str, str, bool]]:
    """Print the table; the verdicts as ``(target, subject, figure, ok)`` (tools/bench.py)."""
    args = argparse.Namespace(replies=replies, rounds=rounds, jobs=jobs)
    python = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        full, quarter, out = Path(tmp, "full.jsonl"), Path(tmp, "quarter.jsonl"), Path(tmp, "o")
        write_corpus(full, args.replies)
        write_corpus(quarter, args.replies // 4)
        size = full.stat().st_size
        runs = {
            "bare read loop": [python, "-c", BARE_LOOP, str(full)],
            "batch -j 1": [python, "-m", "toolwire.cli", "batch", str(full), "--out",
                           f"{out}.jsonl", "--force"],
            f"batch -j {args.jobs}": [python, "-m", "toolwire.cli", "batch", str(full),
                                      "-j", str(args.jobs), "--out", f"{out}.jsonl", "--force"],
        }
        seconds: dict[str, list[float]] = {name: [] for name in runs}
        cpu: dict[str, list[float]] = {name: [] for name in runs}
        memory: dict[str, int] = {}
        for _round in range(args.rounds):
            for name, command in runs.items():
                wall, rss, used = _timed(command)
                seconds[name].append(wall)
                cpu[name].append(used)
                memory[name] = max(memory.get(name, 0), rss)
        small = {name: _timed([a if a != str(full) else str(quarter) for a in command])[1]
                 for name, command in runs.items()}
    median = {name: statistics.median(times) for name, times in seconds.items()}
    n = args.replies
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"toolwire batch on {n:,} mixed-format replies ({size / 1e6:.0f} MB;"
          f" {args.rounds} interleaved rounds, median), {os.cpu_count()} cores,"
          f" load average {load} at the end")
    print(f"{'run':<16} {'seconds':>8} {'CPU s':>7} {'replies/s':>10} {'per core':>10}"
          f" {'max RSS':>9} {'RSS 1/4 input':>14}")
    for name in runs:
        cores = args.jobs if name.startswith(f"batch -j {args.jobs}") and args.jobs > 1 else 1
        rate = n / median[name]
        print(f"{name:<16} {median[name]:>8.2f} {statistics.median(cpu[name]):>7.2f}"
              f" {rate:>10,.0f} {rate / cores:>10,.0f}"
              f" {memory[name] / 1024:>7.0f}MB {small[name] / 1024:>12.0f}MB")
    scaling = median["batch -j 1"] / median[f"batch -j {args.jobs}"]
    overhead = median["batch -j 1"] / median["bare read loop"]
    flat = max(memory[name] / small[name] for name in runs if name.startswith("batch"))
    # What -j N would reach on N idle cores: the work is the CPU time, spread over N.
    ideal = args.jobs * statistics.median(cpu["batch -j 1"]) / statistics.median(
        cpu[f"batch -j {args.jobs}"])
    print(f"CPU time of -j {args.jobs} against one process:"
          f" {args.jobs / ideal:.2f}x, so on {args.jobs} idle cores at most {ideal:.2f}x"
          " the one-process rate (the wall-clock figures are what the machine gave now)")
    cpu_overhead = statistics.median(cpu["batch -j 1"]) / statistics.median(cpu["bare read loop"])
    print(f"CPU time of one process against the bare read loop: {cpu_overhead:.2f}x")
    return [
        (f"batch: -j {args.jobs} >= 1.7x one process", "replies/s", f"{scaling:.2f}x",
         scaling >= 1.7),
        ("batch: one process <= 1.3x a bare read loop", "seconds", f"{overhead:.2f}x",
         overhead <= 1.3),
        ("batch: peak memory flat (full / quarter input <= 1.2x)", "max RSS", f"{flat:.2f}x",
         flat <= 1.2),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replies", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    verdicts = run(args.replies, args.rounds, args.jobs)
    for target, _subject, figure, ok in verdicts:
        print(f"{'PASS' if ok else 'FAIL'} {target}: {figure}")
    return 0 if all(ok for *_rest, ok in verdicts) else 1


if __name__ == "__main__":
    raise SystemExit(main())
