"""``toolwire.spark`` on a local Spark session: every conformance reply's rows against ``read``.

Starting Spark (a JVM) costs tens of seconds, so this is marked ``slow``; the default
``pytest`` command still runs it. Without pyspark or Java it skips, saying which.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from test_batch_rows import check_rows_against_read

import toolwire.spark

from conformance import cases, each_test

pytestmark = pytest.mark.slow

WIRE = [(name, c.data["format"], t) for name, c, t in each_test(cases())]


@pytest.fixture(scope="module")
def spark() -> Iterator[Any]:
    pytest.importorskip("pyspark", reason="pyspark (in the test extra) is not installed")
    pytest.importorskip("pyarrow", reason="pyarrow (in the test extra) is not installed")
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        pytest.skip("Spark needs Java (17 or later): no java on PATH and no JAVA_HOME")
    from pyspark.sql import SparkSession

    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    session = (
        SparkSession.builder.master("local[2]").appName("toolwire-test")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.driver.host", "127.0.0.1")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def _logged(spark: Any) -> Any:
    # The column holds each body's JSON text (a body given as text is its own text).
    records = [(name, fmt, r if isinstance(r := t["response"], str) else json.dumps(r))
               for name, fmt, t in WIRE]
    records.append(("null-reply", None, None))
    return spark.createDataFrame(records, "case STRING, provider STRING, response STRING")


def _grouped(collected: list[Any]) -> dict[str, list[dict[str, Any]]]:
    grouped: dict[str, list[dict[str, Any]]] = {}
    for row in collected:
        found = row.asDict()
        grouped.setdefault(found["record_id"], []).append(found)
    return grouped


def _in_order(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A record's rows in their order of emission (collect() promises no order)."""
    order = {"reply": 0, "call": 1, "server_call": 2, "refused": 3}
    return sorted(rows, key=lambda r: (order[r["kind"]], r["index"] or 0))


def test_map_in_arrow_gives_every_replys_rows_as_read_does(spark: Any) -> None:
    df = _logged(spark).repartition(3)
    out = df.mapInArrow(toolwire.spark.calls_from("response", id_column="case"),
                        toolwire.spark.schema)
    assert tuple(out.columns) == toolwire.batch.NAMES
    grouped = _grouped(out.collect())
    assert len(grouped) == len(WIRE) + 1  # every record: its summary row, none lost
    for name, _fmt, test in WIRE:
        check_rows_against_read(_in_order(grouped[name]), None, test["response"], None)
    assert grouped["null-reply"][0]["error_code"] == "bad_record"


def test_map_in_pandas_with_a_format_column_does_the_same(spark: Any) -> None:
    pytest.importorskip("pandas", reason="pandas (in the test extra) is not installed")
    out = _logged(spark).mapInPandas(
        toolwire.spark.calls_from("response", format_column="provider", id_column="case"),
        toolwire.spark.struct_type(),
    )
    grouped = _grouped(out.collect())
    for name, fmt, test in WIRE:
        check_rows_against_read(_in_order(grouped[name]), fmt, test["response"], None)
