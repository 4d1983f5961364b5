"""``arena bench --suggest``'s pieces: mid-fight states from seeded games, the speed rows and the
stability rows (tiny budgets here; the benchmark itself prints the real figures)."""

from __future__ import annotations

from eval.bench_suggest import midfight_states, shipped, speed_rows, stability_rows


def test_midfight_states_are_seeded_fights_in_progress_with_a_choice():
    a = midfight_states("metanoia", 3, seed=1)
    b = midfight_states("metanoia", 3, seed=1)
    assert [n for n, _ in a] == [n for n, _ in b] and len(a) == 3
    for (_, x), (_, y) in zip(a, b, strict=True):
        assert x.snapshot() == y.snapshot()
        assert not x.is_over() and len(x.legal_actions()) > 1


def test_every_real_system_ships_three_situations_or_more():
    assert len(shipped("metanoia")) >= 3
    assert all(f.suffix == ".yaml" for f in shipped())


def test_speed_and_stability_rows_report_their_figures():
    (row,) = list(speed_rows(shipped("metanoia")[:1], seconds=0.2))
    assert row["system"] == "metanoia" and row["rollouts"] > 0 and len(row["half_widths"]) == 3
    assert row["ok"] == (row["wall"] <= 2.0 and max(row["half_widths"]) <= 0.05)
    rows = list(stability_rows("metanoia", short=0.1, long=0.3, fights=4))
    assert len(rows) == 4 and all(isinstance(r["ok"], bool) for r in rows)
    names = [f.name for f in shipped("metanoia")]
    assert [r["fight"] for r in rows[: len(names)]] == names[:4]  # the shipped ones first
    assert all(" seed " in r["fight"] for r in rows[len(names) :])  # then seeded mid-fight states
