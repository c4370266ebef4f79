"""How fast toolwire reads tool calls, side by side with what a user would otherwise run.

    python tools/bench.py [--quick] [--formats openai,responses] [--no-cli] [--no-text]

For every bundled wire format (taken from the registry at run time) and four replies — a
realistic one (3 calls with reasoning and text around them), 100 calls, 10,000 calls and
no call (``tools/bench_replies.py``) — it times:

- toolwire ``extract`` and ``read`` (the public functions, on the parsed body), and
  ``read`` of the JSON text (``read text``);
- LangChain's conversion of the same reply to its message (``langchain``: OpenAI's
  ``_convert_dict_to_message``, ``ChatAnthropic._format_output``; the ``bench`` extras);
- a hand-written extractor of the same semantics (``tools/bench_reference.py``;
  ``tests/test_bench_reference.py`` holds it to toolwire's answers);
- the naive interpretation: the same spec walked with ``jmespath.search`` per expression;
- ``json.loads`` of the body: the floor for a caller holding text;
- the official SDK reading the body as its client does (the ``bench`` extras): the
  response object built by ``construct`` — what the openai and anthropic clients run on
  every reply unless strict response validation is on — and each call's arguments
  decoded, which ``extract`` does too; beside it, informational, the strict client's
  path: ``model_validate`` plus the same decoding;

then whole processes: a cold ``toolwire extract --example openai`` against
``python -c pass`` (from ``.pyc`` files, as an installed package runs; ``--instructions``
also counts what each executes, under valgrind). Every figure is a
median (``time.perf_counter_ns``) over rounds in which each contender is sampled once, in
a rotating order, each sample repeating its call for ~0.3 ms; a ratio is the median of
the per-round ratios, so a burst of load on a shared machine hits both sides of a pair
alike. It prints the machine, a table of medians and ratios, and PASS or FAIL per
target; the exit status is 0 only when every target passes. ``tools/bench_growth.py``'s
rows follow: 4n against n for every cost the suite holds to linear growth (target 6x).
``tools/bench_text.py``'s rows (text formats, time per MB) follow when that file exists,
with its two targets per format: time per MB flat from 1 to 10 MB, and within 2x of
Hermes's.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import importlib.util
import inspect
import itertools
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tools"))

import bench_reference  # noqa: E402
import bench_replies  # noqa: E402

import toolwire  # noqa: E402

# The targets (docs/decisions records why each is what it is).
MAX_EXTRACT_OVER_HAND = 1.25
MIN_NAIVE_OVER_EXTRACT = 5.0
MIN_SDK_OVER_EXTRACT = 10.0
MAX_PER_CALL_DRIFT = 1.5
MAX_CLI_OVER_PYTHON = 2.5  # a cold command: 2026-12-03-cold-start-without-typing-json-dataclasses
# extract against hand-written code returning immutable named tuples.
MAX_EXTRACT_OVER_TUPLES = 1.1
# The check of a 3-call reply against 20 tools adds at most read's own time.
MAX_TOOLS_CHECK_OVER_READ = 1.0
# read (everything a tool loop needs) against extract (the calls alone), realistic reply.
MAX_READ_OVER_EXTRACT = 1.3
# read of the parsed body against LangChain's conversion of the same reply to its message.
MAX_READ_OVER_LANGCHAIN = 0.5
# read of the JSON text (into a Reply) against json.loads of that text alone.
MAX_READ_TEXT_OVER_JSON = 2.5

SDK_MODELS: dict[str, tuple[str, str, str]] = {
    # format: (pip package, module, class)
    "openai": ("openai", "openai.types.chat", "ChatCompletion"),
    "responses": ("openai", "openai.types.responses", "Response"),
    "anthropic": ("anthropic", "anthropic.types", "Message"),
}


def _chat_arguments(reply: Any) -> list[Any]:
    message = reply.choices[0].message if reply.choices else None
    return [json.loads(c.function.arguments) for c in (message and message.tool_calls) or ()]


def _responses_arguments(reply: Any) -> list[Any]:
    return [json.loads(item.arguments) for item in reply.output if item.type == "function_call"]


def _anthropic_arguments(reply: Any) -> list[Any]:
    return [block.input for block in reply.content if block.type == "tool_use"]  # objects


# format: the calls' arguments as a user of the SDK object gets them (what extract returns).
SDK_ARGUMENTS: dict[str, Callable[[Any], list[Any]]] = {
    "openai": _chat_arguments,
    "responses": _responses_arguments,
    "anthropic": _anthropic_arguments,
}


@dataclass
class Settings:
    rounds: int
    big_rounds: int
    sample_ns: int
    cli_runs: int


@dataclass
class Group:
    """Contenders timed together on one reply, round by round."""

    label: str
    contenders: dict[str, Callable[[], object]]
    samples: dict[str, list[float]] = field(default_factory=dict)

    def median(self, name: str) -> float | None:
        values = self.samples.get(name)
        return statistics.median(values) if values else None

    def ratio(self, slow: str, fast: str, scale: float = 1.0) -> float | None:
        """Median over rounds of ``slow / fast`` (times ``scale``), each pair timed back to
        back: a burst of load on a shared machine hits both sides of a pair alike."""
        a, b = self.samples.get(slow), self.samples.get(fast)
        if not a or not b:
            return None
        return statistics.median(x / y * scale for x, y in zip(a, b, strict=True))


def steady(fmt: str, reply: Any) -> None:
    """Read ``reply`` until ``fmt``'s generated extract and read are compiled: the timings
    below are of a process that reads many replies. A spec walks its first reply instead
    and compiles on its second (short-lived processes read one); the cold rows measure
    that."""
    for _ in range(2):
        toolwire.extract(fmt, reply)
        toolwire.read(fmt, reply)


def _loops_for(fn: Callable[[], object], sample_ns: int) -> int:
    """How many calls fill a sample of ``sample_ns``: timed once warm (a first call may
    build a spec's fast path or an SDK model's validator, a second one a spec's generated
    read), the fastest of three, so a slow first call never shrinks a sample to one call."""
    fn()
    fn()
    once = sample_ns
    for _ in range(3):
        start = time.perf_counter_ns()
        fn()
        once = min(once, max(time.perf_counter_ns() - start, 1))
    return max(1, min(100_000, sample_ns // once))


def measure(group: Group, settings: Settings, rounds: int) -> Group:
    """Time every contender once per round (in a rotating order); ns per call."""
    loops = {name: _loops_for(fn, settings.sample_ns) for name, fn in group.contenders.items()}
    names = list(group.contenders)
    group.samples = {name: [] for name in names}
    gc.collect()
    for index in range(rounds):
        for name in names[index % len(names):] + names[: index % len(names)]:
            fn, n = group.contenders[name], loops[name]
            start = time.perf_counter_ns()
            for _ in range(n):
                fn()
            group.samples[name].append((time.perf_counter_ns() - start) / n)
    return group


# --- contenders -------------------------------------------------------------------------

def langchain_peer(fmt: str, reply: dict[str, Any]) -> Callable[[], object] | str:
    """LangChain's conversion of ``reply`` to its message (the ``bench`` extras:
    langchain-openai, langchain-anthropic), or why there is none. OpenAI: the message dict
    through ``_convert_dict_to_message``; Anthropic: ``ChatAnthropic._format_output`` of the
    SDK's Message built once beforehand (LangChain's own step from the client's object: its
    parse is not counted)."""
    try:
        if fmt == "openai":
            from langchain_openai.chat_models.base import _convert_dict_to_message

            message = reply["choices"][0]["message"]
            return lambda: _convert_dict_to_message(message)
        if fmt == "anthropic":
            from anthropic.types import Message
            from langchain_anthropic import ChatAnthropic

            model = ChatAnthropic(model="claude-sonnet-4-5", api_key="unused")  # type: ignore[call-arg]
            built = Message.model_validate(reply)
            return lambda: model._format_output(built)
    except ImportError as exc:
        return f"not installed ({exc.name})"
    return "no LangChain peer"


def sdk_model(lineage: Sequence[str]) -> tuple[str, Any, Callable[[Any], list[Any]]] | str | None:
    """The SDK class for the nearest format of ``lineage`` and how its calls' arguments
    are read off an object; a note if not installed."""
    for fmt in lineage:
        if fmt in SDK_MODELS:
            package, module, name = SDK_MODELS[fmt]
            if importlib.util.find_spec(package) is None:
                return f"{package} not installed (pip install 'toolwire[bench]')"
            model = getattr(importlib.import_module(module), name)
            return f"{package}.{name}", model, SDK_ARGUMENTS[fmt]
    return None


def machine() -> list[str]:
    versions = []
    for package in ("jmespath", "pydantic", "openai", "anthropic"):
        try:
            versions.append(f"{package} {importlib.import_module(package).__version__}")
        except (ImportError, AttributeError):
            versions.append(f"{package} -")
    return [
        f"machine: {platform.platform()}, {platform.machine()}, {os.cpu_count()} CPU(s)"
        f" ({platform.processor() or 'processor unknown'})",
        f"python:  {platform.python_implementation()} {platform.python_version()}"
        f" ({sys.executable})",
        f"toolwire {toolwire.__version__}; " + ", ".join(versions),
        f"date:    {time.strftime('%Y-%m-%d %H:%M:%S %Z')}",
    ]


def _us(ns: float | None) -> str:
    if ns is None:
        return "-"
    us = ns / 1000
    return f"{us:,.1f}" if us >= 100 else f"{us:.2f}"


def _ratio(a: float | None, b: float | None) -> float | None:
    return a / b if a is not None and b else None


def _x(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}x"


class Verdicts:
    def __init__(self) -> None:
        self.rows: list[tuple[str, str, str, bool]] = []

    def add(self, target: str, subject: str, figure: str, ok: bool) -> None:
        self.rows.append((target, subject, figure, ok))

    @property
    def passed(self) -> bool:
        return all(ok for *_, ok in self.rows)


def print_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    line = "  ".join(f"{{:<{w}}}" if i < 2 else f"{{:>{w}}}" for i, w in enumerate(widths))
    print(line.format(*header))
    print(line.format(*("-" * w for w in widths)))
    for row in rows:
        print(line.format(*row))


# --- the run ----------------------------------------------------------------------------

def bench_formats(formats: Sequence[str], settings: Settings, verdicts: Verdicts) -> list[str]:
    registry = toolwire.Registry.bundled()
    specs = registry.specs()
    notes: list[str] = []

    def extends(fmt: str) -> str | None:
        return specs[fmt].extends if fmt in specs else None

    header = ["format", "reply", "extract", "read", "read text", "langchain", "hand", "tuples",
              "naive", "json.loads", "sdk", "sdk strict", "extract/hand", "extract/tuples",
              "naive/extract", "sdk/extract", "strict/extract", "read/extract", "extract/call"]
    rows: list[list[str]] = []
    for fmt in formats:
        lineage = bench_replies.lineage(fmt, extends)
        builder = bench_replies.builder_for(fmt, extends)
        found = bench_reference.reference_for(lineage)
        if builder is None or found is None:
            notes.append(f"{fmt}: no reply builder or reference (tools/bench_replies.py,"
                         " tools/bench_reference.py)")
            verdicts.add("extract <= 1.25x hand", fmt, "not measured", False)
            continue
        hand = found[1]
        tuples = bench_reference.tuple_reference_for(lineage)
        assert tuples is not None
        spec = registry.spec(fmt)
        sdk = sdk_model(lineage)
        sdk_name = sdk[0] if isinstance(sdk, tuple) else ""
        if isinstance(sdk, str):
            notes.append(f"{fmt}: SDK skipped, {sdk}")
        elif sdk is None:
            notes.append(f"{fmt}: no SDK peer in the bench extras")
        if found[0] != fmt:
            notes.append(f"{fmt}: read like {found[0]} (extends); its hand-written code is used")
        steady(fmt, builder(bench_replies.KINDS[0][1]))
        for kind, count in bench_replies.KINDS:
            reply = builder(count)
            body = json.dumps(reply)
            contenders: dict[str, Callable[[], object]] = {
                "extract": lambda r=reply, f=fmt: toolwire.extract(f, r),
                "read": lambda r=reply, f=fmt: toolwire.read(f, r),
                "hand": lambda r=reply, h=hand: h(r),
                "tuples": lambda r=reply, t=tuples: t(r),
                "json.loads": lambda b=body: json.loads(b),
            }
            big = count >= 10_000
            if big:
                # Per call flat: the 100-call reply is timed in the same rounds, as 100
                # distinct copies taken in turn, so both sides read 10,000 calls' worth of
                # memory: the ratio shows how the work scales, not what fits in the cache.
                smalls = itertools.cycle([builder(100) for _ in range(count // 100)])
                contenders["extract@100"] = (
                    lambda it=smalls, f=fmt: toolwire.extract(f, next(it))
                )
                contenders["hand@100"] = lambda it=smalls, h=hand: h(next(it))
            else:  # the naive walk and the SDKs take seconds per 10,000-call reply
                contenders["naive"] = lambda r=reply, s=spec: bench_reference.naive_extract(s, r)
                contenders["read text"] = lambda b=body, f=fmt: toolwire.read(f, b)
                peer = langchain_peer(fmt, reply)
                if callable(peer):
                    contenders["langchain"] = peer
                if isinstance(sdk, tuple):
                    _, model, arguments = sdk
                    # The client's own reading of a reply (construct, no validation), then
                    # the arguments decoded: the same result extract hands back.
                    contenders["sdk"] = (
                        lambda r=reply, m=model, a=arguments: a(m.construct(**r))
                    )
                    contenders["sdk strict"] = (
                        lambda r=reply, m=model, a=arguments: a(m.model_validate(r))
                    )
            group = measure(Group(f"{fmt} {kind}", contenders), settings,
                            settings.big_rounds if big else settings.rounds)
            med = {name: group.median(name) for name in
                   [*contenders, "naive", "sdk", "sdk strict", "read text", "langchain"]}
            over_hand = group.ratio("extract", "hand")
            over_tuples = group.ratio("extract", "tuples")
            naive = group.ratio("naive", "extract")
            sdk_ratio = group.ratio("sdk", "extract")
            strict_ratio = group.ratio("sdk strict", "extract")
            read_ratio = group.ratio("read", "extract")
            extract = med["extract"]
            rows.append([
                fmt, kind, _us(extract), _us(med["read"]), _us(med["read text"]),
                _us(med["langchain"]), _us(med["hand"]), _us(med["tuples"]),
                _us(med["naive"]), _us(med["json.loads"]), _us(med["sdk"]),
                _us(med["sdk strict"]), _x(over_hand), _x(over_tuples), _x(naive),
                _x(sdk_ratio), _x(strict_ratio), _x(read_ratio),
                _us(extract / count) if count and extract else "-",
            ])
            if kind == "realistic":
                verdicts.add("extract <= 1.25x hand", fmt, _x(over_hand),
                             over_hand is not None and over_hand <= MAX_EXTRACT_OVER_HAND)
                verdicts.add("extract <= 1.1x named tuples", fmt, _x(over_tuples),
                             over_tuples is not None and over_tuples <= MAX_EXTRACT_OVER_TUPLES)
                verdicts.add("read <= 1.3x extract", fmt, _x(read_ratio),
                             read_ratio is not None and read_ratio <= MAX_READ_OVER_EXTRACT)
                text_ratio = group.ratio("read text", "json.loads")
                verdicts.add("read(text) <= 2.5x json.loads", fmt, _x(text_ratio),
                             text_ratio is not None and text_ratio <= MAX_READ_TEXT_OVER_JSON)
                if fmt in ("openai", "anthropic"):
                    peer_ratio = group.ratio("read", "langchain")
                    peer_name = ("_convert_dict_to_message" if fmt == "openai"
                                 else "ChatAnthropic._format_output")
                    verdicts.add("read <= 0.5x LangChain", f"{fmt} ({peer_name})",
                                 _x(peer_ratio) if peer_ratio is not None
                                 else str(langchain_peer(fmt, reply)),
                                 peer_ratio is not None
                                 and peer_ratio <= MAX_READ_OVER_LANGCHAIN)
                verdicts.add(">= 5x faster than naive", fmt, _x(naive),
                             naive is not None and naive >= MIN_NAIVE_OVER_EXTRACT)
                if sdk_ratio is not None:
                    verdicts.add(">= 10x faster than SDK", f"{fmt} ({sdk_name}.construct"
                                 " + arguments)", _x(sdk_ratio),
                                 sdk_ratio >= MIN_SDK_OVER_EXTRACT)
                    notes.append(f"{fmt}: the strict SDK client's path ({sdk_name}."
                                 f"model_validate + arguments) takes {_x(strict_ratio)}"
                                 " extract's time on the realistic reply (informational)")
            if big:
                drift = group.ratio("extract", "extract@100", scale=100 / count)
                hand_drift = group.ratio("hand", "hand@100", scale=100 / count)
                per_100 = group.median("extract@100")
                figure = (f"{_us((per_100 or 0) / 100)} -> {_us((extract or 0) / count)} us"
                          f" ({_x(drift)}; hand {_x(hand_drift)})")
                verdicts.add("per call flat 100 -> 10,000", fmt, figure,
                             drift is not None and 1 / MAX_PER_CALL_DRIFT <= drift
                             <= MAX_PER_CALL_DRIFT)
        print(f"  {fmt} done", file=sys.stderr)
    print("Medians in microseconds per reply (extract/call: per call). Ratios are medians of"
          " per-round ratios (both timed back to back); >1x: the left one takes longer.\n")
    print_table(header, rows)
    return notes


def _instructions(command: Sequence[str], env: dict[str, str]) -> int | None:
    """Instructions ``command`` executes (valgrind's callgrind), or None without valgrind.

    Unlike wall time, the count does not move with the load of a shared machine, so a
    change to the cold start can be weighed there (it leaves out system-call time)."""
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False,
    )
    for line in done.stderr.splitlines():
        if "refs:" in line:  # "==123== I   refs:      84,084,351"
            return int(line.rsplit(":", 1)[1].replace(",", "").strip())
    return None


def bench_cli(settings: Settings, verdicts: Verdicts, instructions: bool = False) -> None:
    """Cold processes, interleaved: ``toolwire extract --example openai`` vs ``python -c pass``."""
    script = Path(sys.executable).with_name("toolwire")
    cli = [str(script)] if script.is_file() else [sys.executable, "-m", "toolwire.cli"]
    commands = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "toolwire extract --example openai": [*cli, "extract", "--example", "openai"],
    }
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(ROOT / "src"), env.get("PYTHONPATH", "")) if p
    )
    # As installed code runs: from .pyc files (pip writes them on install). They go to a
    # scratch folder, not the checkout, even where PYTHONDONTWRITEBYTECODE is set.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = tempfile.mkdtemp(prefix="toolwire-bench-pycache-")
    for _ in range(2):  # warm the disk cache and write the .pyc files
        for command in commands.values():
            subprocess.run(command, env=env, stdout=subprocess.DEVNULL, check=True)
    samples: dict[str, list[int]] = {name: [] for name in commands}
    for _ in range(settings.cli_runs):
        for name, command in commands.items():
            start = time.perf_counter_ns()
            subprocess.run(command, env=env, stdout=subprocess.DEVNULL, check=True)
            samples[name].append(time.perf_counter_ns() - start)
    base = statistics.median(samples["python -c pass"])
    print(f"\nCold processes, median of {settings.cli_runs} interleaved runs"
          f" ({' '.join(commands['toolwire extract --example openai'])}):")
    for name, values in samples.items():
        median = statistics.median(values)
        print(f"  {name:<36} {median / 1e6:7.1f} ms  ({median / base:.2f}x)")
    if instructions and shutil.which("valgrind"):
        counts = {name: _instructions(command, env) for name, command in commands.items()}
        floor = counts["python -c pass"]
        print("  instructions (valgrind --tool=callgrind, the same under any load):")
        for name, count in counts.items():
            share = f"  ({count / floor:.2f}x)" if count and floor else ""
            print(f"  {name:<36} {count or 0:>13,}{share}")
    ratio = statistics.median(samples["toolwire extract --example openai"]) / base
    verdicts.add(f"cold CLI <= {MAX_CLI_OVER_PYTHON:g}x python -c pass",
                 "extract --example openai", f"{ratio:.2f}x", ratio <= MAX_CLI_OVER_PYTHON)


def bench_text(quick: bool, verdicts: Verdicts) -> None:
    """Time per MB of the text formats, from ``tools/bench_text.py`` when it exists."""
    if not (ROOT / "tools" / "bench_text.py").is_file():
        return
    module = importlib.import_module("bench_text")
    parameters = inspect.signature(module.run).parameters
    sizes = (1, 2) if quick else None
    print("\nText formats (tools/bench_text.py): seconds per MB of extract_text"
          + (", 1 and 2 MB only (--quick)" if quick else ""))
    rows = module.run(sizes) if sizes and "sizes" in parameters else module.run()
    table: dict[tuple[str, str], dict[int, float]] = {}
    for row in rows:
        table.setdefault((row["format"], row["input"]), {})[row["mb"]] = row["seconds_per_mb"]
    all_sizes = sorted({mb for per in table.values() for mb in per})
    judged = {(v["format"], v["input"]): v for v in module.verdicts(rows)}
    over_hermes = {v["format"]: v for v in module.hermes_verdicts(rows)}
    flat_target = f"text: s/MB flat {all_sizes[0]} -> {all_sizes[-1]} MB"
    hermes_target = f"text: normal s/MB <= {module.HERMES_WITHIN:g}x Hermes"
    lines = []
    for (fmt, kind), per in sorted(table.items()):
        verdict = judged.get((fmt, kind), {})
        ratio = verdict.get("ratio")
        hermes = over_hermes.get(fmt) if kind == "normal" else None
        lines.append([fmt, kind, *(f"{per[mb]:.3f}" if mb in per else "-" for mb in all_sizes),
                      "-" if ratio is None else f"{ratio:.2f}x",
                      "-" if hermes is None else f"{hermes['ratio']:.2f}x"])
        if verdict:
            verdicts.add(flat_target, f"{fmt} {kind}",
                         "-" if ratio is None else f"{ratio:.2f}x", bool(verdict["passed"]))
    print_table(["format", "input", *(f"{mb} MB" for mb in all_sizes), "slowest/fastest",
                 "/ Hermes"], lines)
    for fmt, verdict in sorted(over_hermes.items()):
        verdicts.add(hermes_target, fmt, f"{verdict['ratio']:.2f}x", bool(verdict["passed"]))


def bench_stream(quick: bool, verdicts: Verdicts) -> None:
    """The stream rows (``tools/bench_stream.py``): Accumulator beside the SDKs' own."""
    module = importlib.import_module("bench_stream")
    print("\nStreams (tools/bench_stream.py):")
    for target, figure, ok in module.report(module.run(quick)):
        verdicts.add(f"stream: {target}", "openai" if "anthropic" not in target
                     else "anthropic", figure, ok)


def bench_growth(quick: bool, verdicts: Verdicts) -> None:
    """4n against n (``tools/bench_growth.py``) for every cost the suite holds to linear."""
    module = importlib.import_module("bench_growth")
    print("\nGrowth, 4n against n (tools/bench_growth.py): medians, and the median per-round"
          " ratio")
    for verdict in module.report(module.run(quick)):
        verdicts.add(*verdict)


MAX_SDK_OBJECT_OVER_BODY = 1.2
MAX_READ_OVER_LANGCHAIN = 0.5

# format: (package, how the SDK builds its response object from the body)
SDK_OBJECTS: dict[str, tuple[str, str]] = {
    "openai": ("openai", "openai.types.chat:ChatCompletion.model_validate"),
    "responses": ("openai", "openai.types.responses:Response.model_validate"),
    "anthropic": ("anthropic", "anthropic.types:Message.model_validate"),
    "gemini": ("google.genai", "google.genai.types:GenerateContentResponse._from_response"),
    "ollama": ("ollama", "ollama:ChatResponse.model_validate"),
    "cohere": ("cohere", "cohere:V2ChatResponse.model_validate"),
}


def _sdk_object(fmt: str, body: dict[str, Any]) -> Any:
    module, _, attribute = SDK_OBJECTS[fmt][1].partition(":")
    owner, _, method = attribute.partition(".")
    build = getattr(getattr(importlib.import_module(module), owner), method)
    if method == "_from_response":
        return build(response=body, kwargs={})
    return build(body)


def _dump(obj: Any) -> dict[str, Any]:
    """What a user who dumps the object first would run (the JSON body, by alias)."""
    dumped: dict[str, Any] = obj.model_dump(mode="json", by_alias=True, exclude_none=True)
    return dumped


def langchain_object_peer(fmt: str, obj: Any) -> Callable[[], object] | str:
    """LangChain's conversion of the SDK's own response object to its result (the ``bench``
    extras), or why there is none: ``ChatOpenAI._create_chat_result`` (Chat Completions),
    ``ChatAnthropic._format_output`` (Messages)."""
    try:
        if fmt == "openai":
            from langchain_openai import ChatOpenAI

            chat = ChatOpenAI(model="gpt-4o", api_key="unused")  # type: ignore[arg-type]
            return lambda: chat._create_chat_result(obj)
        if fmt == "anthropic":
            from langchain_anthropic import ChatAnthropic

            model = ChatAnthropic(model="claude-sonnet-4-5", api_key="unused")  # type: ignore[call-arg]
            return lambda: model._format_output(obj)
    except ImportError as exc:
        return f"not installed ({exc.name})"
    return "no LangChain peer"


def bench_sdk_objects(settings: Settings, verdicts: Verdicts) -> None:
    """Reading what the SDK returned against dumping it and reading the dump: the object
    costs at most 1.2x that (``read`` and ``extract``), and ``read`` of the object at most
    half of LangChain's conversion of the same object."""
    rows = []
    for fmt, (package, _) in SDK_OBJECTS.items():
        if importlib.util.find_spec(package.split(".")[0]) is None:
            verdicts.add("SDK object <= 1.2x dump + read", fmt, "not installed", False)
            continue
        body = bench_replies.BUILDERS[fmt](8)
        obj = _sdk_object(fmt, body)
        steady(fmt, body)
        steady(fmt, obj)
        contenders: dict[str, Callable[[], object]] = {
            "read(object)": lambda o=obj, f=fmt: toolwire.read(f, o),
            "read(dump)": lambda o=obj, f=fmt: toolwire.read(f, _dump(o)),
            "extract(object)": lambda o=obj, f=fmt: toolwire.extract(f, o),
            "extract(dump)": lambda o=obj, f=fmt: toolwire.extract(f, _dump(o)),
        }
        peer = langchain_object_peer(fmt, obj)
        if callable(peer):
            contenders["langchain"] = peer
        group = measure(Group(f"{fmt} object", contenders), settings, settings.rounds)
        read_ratio = group.ratio("read(object)", "read(dump)")
        extract_ratio = group.ratio("extract(object)", "extract(dump)")
        peer_ratio = group.ratio("read(object)", "langchain") if callable(peer) else None
        rows.append([fmt, type(obj).__name__, _us(group.median("read(object)")),
                     _us(group.median("read(dump)")), _x(read_ratio), _x(extract_ratio),
                     _us(group.median("langchain")) if callable(peer) else str(peer),
                     _x(peer_ratio)])
        for name, ratio in (("read", read_ratio), ("extract", extract_ratio)):
            verdicts.add(f"SDK object {name} <= 1.2x dump + {name}", fmt, _x(ratio),
                         ratio is not None and ratio <= MAX_SDK_OBJECT_OVER_BODY)
        if peer_ratio is not None:
            verdicts.add("SDK object read <= 0.5x LangChain", fmt, _x(peer_ratio),
                         peer_ratio <= MAX_READ_OVER_LANGCHAIN)
    print("\nSDK response objects (8-call realistic replies), medians in microseconds; 'dump':"
          " model_dump(mode='json', by_alias=True, exclude_none=True) then the same call;"
          " ratios per round:")
    print_table(["format", "object", "read(object)", "read(dump)", "read ratio",
                 "extract ratio", "langchain(object)", "read/langchain"], rows)


def _tool_request(count: int) -> dict[str, Any]:
    """An OpenAI Chat request offering ``count`` tools of realistic size."""
    tools = []
    for index in range(count):
        tools.append({"type": "function", "function": {
            "name": f"tool_{index}", "description": "Look something up.",
            "parameters": {"type": "object", "required": ["city", "days"], "properties": {
                "city": {"type": "string", "minLength": 1},
                "days": {"type": "integer", "minimum": 1, "maximum": 14 + index},
                "unit": {"enum": ["celsius", "fahrenheit"]},
                "filters": {"type": "object", "properties": {"tags": {
                    "type": "array", "items": {"type": "string"}}}},
            }}}})
    return {"model": "m", "messages": [], "tools": tools}


def bench_tools(settings: Settings, verdicts: Verdicts) -> None:
    """Checking calls against the offered tools: a 3-call reply against a
    20-tool list adds at most extract's own time once the Tools object is built."""
    request = _tool_request(20)
    arguments = json.dumps({"city": "Paris", "days": 3, "unit": "celsius",
                            "filters": {"tags": ["a", "b"]}})
    body = {"choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
        "role": "assistant", "content": None, "tool_calls": [
            {"id": f"call_{i}", "type": "function",
             "function": {"name": f"tool_{i * 7}", "arguments": arguments}}
            for i in range(3)]}}]}
    tools = toolwire.Tools("openai", request)
    steady("openai", body)
    # The memos of schemas found valid and of their written checks (definition.py,
    # fastcheck.py), cleared so that every schema is new to the process, as at first.
    from toolwire._tools import definition, fastcheck

    def build_unseen() -> object:
        definition._VALID_SCHEMAS.clear()
        fastcheck._CHECKS.clear()
        return toolwire.Tools("openai", request)

    group = measure(Group("tools", {
        "extract": lambda: toolwire.extract("openai", body),
        "read": lambda: toolwire.read("openai", body),
        "read(tools=Tools)": lambda: toolwire.read("openai", body, tools=tools),
        "Tools(20 tools)": build_unseen,
        "Tools(20 tools), seen": lambda: toolwire.Tools("openai", request),
    }), settings, settings.rounds)
    added = statistics.median(
        (t - r) / e for t, r, e in zip(group.samples["read(tools=Tools)"],
                                       group.samples["read"], group.samples["extract"],
                                       strict=True))
    print("\nTools (a 3-call Chat reply, 20 offered tools), medians in microseconds;"
          " added: (read(tools=Tools) - read) / extract, per round:")
    print_table(["extract", "read", "read(tools=Tools)", "added / extract",
                 "Tools(20 tools) build", "again (schemas seen)"],
                [[_us(group.median("extract")), _us(group.median("read")),
                  _us(group.median("read(tools=Tools)")), _x(added),
                  _us(group.median("Tools(20 tools)")),
                  _us(group.median("Tools(20 tools), seen"))]])
    verdicts.add("check adds <= 1x extract", "openai, 3 calls, 20 tools", _x(added),
                 added <= MAX_TOOLS_CHECK_OVER_READ)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer samples: a rough look")
    parser.add_argument("--formats", help="comma-separated formats (default: all bundled)")
    parser.add_argument("--no-text", action="store_true", help="skip tools/bench_text.py")
    parser.add_argument("--no-cli", action="store_true", help="skip the cold processes")
    parser.add_argument("--instructions", action="store_true",
                        help="also count the cold processes' instructions (needs valgrind)")
    parser.add_argument("--no-sdk-objects", action="store_true",
                        help="skip reading SDK response objects against their bodies")
    parser.add_argument("--no-batch", action="store_true", help="skip tools/bench_batch.py")
    parser.add_argument("--no-stream", action="store_true", help="skip tools/bench_stream.py")
    parser.add_argument("--no-growth", action="store_true", help="skip tools/bench_growth.py")
    parser.add_argument("--no-tools", action="store_true",
                        help="skip checking calls against the offered tools")
    args = parser.parse_args(argv)
    settings = (
        Settings(rounds=15, big_rounds=5, sample_ns=200_000, cli_runs=15)
        if args.quick
        else Settings(rounds=61, big_rounds=15, sample_ns=300_000, cli_runs=40)
    )
    formats = list(toolwire.Registry.bundled().formats())
    if args.formats:
        formats = [f for f in args.formats.split(",") if f]
    print("\n".join(machine()))
    print(f"command: python tools/bench.py{' --quick' if args.quick else ''}"
          f" ({settings.rounds} rounds, {settings.big_rounds} for 10,000 calls;"
          f" samples of ~{settings.sample_ns // 1000} us; gc enabled)\n")
    verdicts = Verdicts()
    notes = bench_formats(formats, settings, verdicts)
    if not args.no_sdk_objects:
        bench_sdk_objects(settings, verdicts)
    if not args.no_tools:
        bench_tools(settings, verdicts)
    if not args.no_stream:
        bench_stream(args.quick, verdicts)
    if not args.no_growth:
        bench_growth(args.quick, verdicts)
    if not args.no_cli:
        bench_cli(settings, verdicts, instructions=args.instructions)
    if not args.no_text:
        bench_text(args.quick, verdicts)
    if not args.no_batch:  # toolwire batch: its own table, then its verdicts here
        print("\nBatch (tools/bench_batch.py):")
        batch = importlib.import_module("bench_batch")
        for verdict in batch.run(25_000 if args.quick else 100_000):
            verdicts.add(*verdict)
    if notes:
        print("\nNotes:")
        for note in notes:
            print(f"  {note}")
    print("\nTargets:")
    print_table(["target", "subject", "figure", "verdict"],
                [[t, s, f, "PASS" if ok else "FAIL"] for t, s, f, ok in verdicts.rows])
    print(f"\n{'PASS' if verdicts.passed else 'FAIL'}: "
          f"{sum(ok for *_, ok in verdicts.rows)}/{len(verdicts.rows)} targets met")
    return 0 if verdicts.passed else 1


if __name__ == "__main__":
    raise SystemExit(main())
