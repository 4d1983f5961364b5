"""``arena bench --scaling``'s cost model and table, on made-up timings (the measurement itself
needs Ray and a quiet machine: docs/scaling.md)."""

from __future__ import annotations

import io

import pytest

from eval.bench_scaling import Row, model, predicted, render


def rows() -> list[Row]:
    return [
        Row("local, 1 process", 1, False, 100, [1.0, 1.0]),
        Row("local, 2 processes", 2, False, 100, [0.8, 0.8], batch=6),
        Row("Ray, 1 worker", 1, True, 100, [1.1, 1.1], batch=10),
        Row("Ray, 2 workers", 2, True, 100, [0.55, 0.625], batch=10),
    ]


def test_the_model_reads_the_per_game_batch_and_parent_costs_off_the_rows():
    m = model(rows(), parent=0.0001)
    assert m["t"] == pytest.approx(0.010)  # 100 games in 1 s on one process
    assert m["o"] == pytest.approx(0.010)  # 1 ms a game more on Ray, batches of 10
    assert m["b"] == 10 and m["p"] == 0.0001
    assert predicted(m, 1) == pytest.approx(1 / 0.011)
    assert predicted(m, 2) == pytest.approx(2 / 0.011)
    assert predicted(m, 1000) == pytest.approx(10_000)  # the parent's 0.1 ms a game bounds it


def test_the_table_gives_each_rate_its_range_and_the_ratio_its_sample():
    out = io.StringIO()
    render(rows(), model(rows(), 0.0001), out)
    text = out.getvalue()
    assert "100 games a run (2 runs a row" in text
    assert "Ray, 2 workers          10     170.9   160.0-181.8       1.88x      1.71x" in text
    assert "Ray 2 workers / 1 worker: 1.88x (range 1.76-2.00x, 100 games a run)" in text
    assert "2 workers 182, 4 workers 364" in text
