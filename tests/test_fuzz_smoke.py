"""A short, bounded pass of the fuzz harnesses (``tools/fuzz/``) for CI.

Two layers. Everywhere: every seed the corpus script generates is replayed through each
harness's oracle in plain Python, so a harness that rots, or a seed that breaks a
promise, fails here. Where atheris is installed (``pip install atheris``; wheels exist
for Linux x86_64): each harness runs coverage-guided for two seconds with
the flags of ``tools/fuzz/run.sh``. The ten-minute runs are ``tools/fuzz/run.sh 600``.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import toolwire

FUZZ = Path(__file__).resolve().parent.parent / "tools" / "fuzz"
HARNESSES = ("read", "extract_sniff", "text", "spec_loader", "tools", "stream_framing")
SECONDS = 2
"""Per harness: a smoke pass, not a campaign. libFuzzer runs every seed through the
instrumented harness first, whatever this allows, so two seconds still prove the
harness starts, its seeds pass under instrumentation and mutation runs without a finding;
finding bugs is the ten-minute runs' work (``tools/fuzz/run.sh 600``)."""


@pytest.fixture(scope="module")
def seeds(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("fuzz-seeds")
    subprocess.run(
        [sys.executable, str(FUZZ / "make_corpus.py"), str(out)],
        check=True, capture_output=True, timeout=300,
        env={**os.environ, "PYTHONPATH": str(FUZZ.parent.parent / "src")},
    )
    return out


def harness(name: str) -> Any:
    """A harness module with its oracle wired to the plain (uninstrumented) toolwire."""
    if str(FUZZ) not in sys.path:
        sys.path.insert(0, str(FUZZ))
    module = importlib.import_module(f"fuzz_{name}")
    module.toolwire = toolwire
    if name == "read":
        module.FORMATS = toolwire.Registry.default().formats()
    if name == "text" and not module.CHOICES:
        module.CHOICES.extend(module.text_choices(toolwire))
    if name == "spec_loader" and not module.RESPONSES:
        module.RESPONSES.extend(module.sample_responses())
    if name == "tools" and not module.CHOICES:
        module.CHOICES.extend(module.tool_choices(toolwire))
    elif name == "stream_framing" and not module.FORMATS:
        module.FORMATS.extend(module.stream_formats(toolwire))
    return module


@pytest.mark.parametrize("name", HARNESSES)
def test_every_seed_keeps_the_harness_oracle(name: str, seeds: Path) -> None:
    module = harness(name)
    files = sorted((seeds / name).iterdir())
    assert files, f"make_corpus.py wrote no seeds for {name}"
    for path in files:
        module.test_one_input(path.read_bytes())


UNIT_TIMEOUT = 120
"""libFuzzer's limit for one input, in wall-clock seconds. It is there to catch a hang; a busy
machine can make one heavy seed (a regular-expression search spending its whole budget of
steps, under instrumentation) take longer than the 10 s of ``run.sh``, a finding that is only
the load's."""


def _run_sh_flags(name: str) -> list[str]:
    """The flags ``tools/fuzz/run.sh`` gives the harness, read from it: the same pass, with
    this file's time and per-input limit."""
    script = (FUZZ / "run.sh").read_text(encoding="utf-8")
    max_len = dict(re.findall(r"\[(\w+)\]=(\d+)", script))[name]
    assert "-timeout=10" in script and "-rss_limit_mb=2048" in script
    return [f"-max_len={max_len}", "-rss_limit_mb=2048", "-print_final_stats=1"]


@pytest.mark.skipif(importlib.util.find_spec("atheris") is None, reason="atheris not installed")
@pytest.mark.parametrize("name", HARNESSES)
def test_harness_runs_a_bounded_pass_without_findings(name: str, seeds: Path,
                                                      tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    done = subprocess.run(
        [sys.executable, str(FUZZ / f"fuzz_{name}.py"), str(corpus), str(seeds / name),
         f"-dict={seeds / f'{name}.dict'}", f"-max_total_time={SECONDS}",
         f"-timeout={UNIT_TIMEOUT}", *_run_sh_flags(name), f"-artifact_prefix={tmp_path}/"],
        capture_output=True, text=True, timeout=UNIT_TIMEOUT * 5 + 300,
    )
    log = done.stdout + done.stderr
    assert done.returncode == 0, log[-4000:]
    runs = re.search(r"stat::number_of_executed_units: (\d+)", log)
    assert runs and int(runs.group(1)) > 0, log[-2000:]


def test_the_mutator_moves_values_json_cannot_hold() -> None:
    # Bodies the mutator grows may hold NaN or Infinity (Python's json reads them); the
    # reader must refuse such a body, the mutator must go on copying its values around.
    # (mutate_json itself calls into libFuzzer, which only runs inside a fuzzing run.)
    if str(FUZZ) not in sys.path:
        sys.path.insert(0, str(FUZZ))
    common = importlib.import_module("_common")
    value = [float("-inf"), 1, {"b": float("nan"), "c": [float("inf")]}]
    copied = common.copy_value(value)
    assert copied is not value and copied[2] is not value[2]
    assert repr(copied) == repr(value)
    assert common.copy_value({"a": [1, "x"]}) == {"a": [1, "x"]}
