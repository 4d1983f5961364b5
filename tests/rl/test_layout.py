"""ActionLayout, ObsSpec and ego_order: index round trips, printable tables, named views."""

from __future__ import annotations

import numpy as np
import pytest

from envs.core import SideInfo
from envs.rl import ActionLayout, Block, ObsSpec, ego_order

# The Metanoia layout of spec §12.5, as a realistic multi-axis example.
METANOIA_LIKE = ActionLayout(
    [
        Block("recover"),
        Block("withdraw"),
        Block("move", (("dir", 2), ("pool", 4))),
        Block("hide", (("pool", 4),)),
        Block("sense", (("enemy", 4), ("pool", 4))),
        Block("guard", (("ally", 3),)),
        Block("mark", (("enemy", 4), ("pool", 4))),
        Block("engage", (("option", 8), ("target", 8), ("mode", 2), ("pool", 4))),
        Block("react", (("choice", 4), ("pool", 4))),
        Block("intercept", (("yes", 2),)),
        Block("challenge", (("yes", 2),)),
    ]
)


def test_size_and_offsets_match_the_spec_table():
    assert METANOIA_LIKE.size == len(METANOIA_LIKE) == 581
    assert METANOIA_LIKE.offset("engage") == 49
    assert METANOIA_LIKE.range("react") == range(561, 577)
    assert METANOIA_LIKE.index("challenge", 1) == 580


def test_index_is_mixed_radix_first_axis_most_significant():
    o, t, m, p = 5, 6, 1, 3
    assert METANOIA_LIKE.index("engage", o, t, m, p) == 49 + ((o * 8 + t) * 2 + m) * 4 + p
    assert METANOIA_LIKE.index("recover") == 0


def test_every_index_round_trips_through_coords():
    seen = set()
    for i in range(METANOIA_LIKE.size):
        block, coords = METANOIA_LIKE.coords(i)
        assert METANOIA_LIKE.index(block, *coords.values()) == i
        seen.add((block, tuple(coords.items())))
    assert len(seen) == METANOIA_LIKE.size


def test_coords_names_axes():
    assert METANOIA_LIKE.coords(49 + ((1 * 8 + 4) * 2 + 0) * 4 + 3) == (
        "engage",
        {"option": 1, "target": 4, "mode": 0, "pool": 3},
    )
    assert METANOIA_LIKE.coords(1) == ("withdraw", {})
    assert METANOIA_LIKE.label(2 + 1 * 4 + 2) == "move(dir=1, pool=2)"


def test_bad_indices_and_coordinates_fail_clearly():
    with pytest.raises(IndexError, match="outside 0..580"):
        METANOIA_LIKE.coords(581)
    with pytest.raises(IndexError, match="outside 0..3"):
        METANOIA_LIKE.index("hide", 4)
    with pytest.raises(IndexError, match="2 axes"):
        METANOIA_LIKE.index("move", 1)
    with pytest.raises(KeyError, match="no action block 'fly'"):
        METANOIA_LIKE.index("fly")


def test_layout_rejects_duplicate_names_and_empty_axes():
    with pytest.raises(ValueError, match="declared twice"):
        ActionLayout([Block("a"), Block("a")])
    with pytest.raises(ValueError, match="size must be an integer >= 1"):
        ActionLayout([Block("a", (("x", 0),))])
    with pytest.raises(ValueError, match="axis names repeat"):
        ActionLayout([Block("a", (("x", 2), ("x", 2)))])


def test_describe_prints_ranges_axes_and_formulas():
    text = METANOIA_LIKE.describe()
    print(text)
    lines = text.splitlines()
    assert lines[0] == "ActionLayout: Discrete(581)"
    assert lines[1].split() == ["index", "block", "axes", "formula"]
    engage = next(line for line in lines if " engage " in line)
    assert engage.startswith("49..560")
    assert "option(8) x target(8) x mode(2) x pool(4)" in engage
    assert "49 + ((option*8 + target)*2 + mode)*4 + pool" in engage
    assert any(line.split()[:3] == ["0", "recover", "-"] for line in lines)


def test_mask_sets_ones_at_indices():
    m = METANOIA_LIKE.mask([0, 49, 580])
    assert m.dtype == np.int8 and m.shape == (581,)
    assert m.sum() == 3 and m[49] == 1
    assert METANOIA_LIKE.mask([]).sum() == 0
    with pytest.raises(IndexError):
        METANOIA_LIKE.mask([581])


SPEC = ObsSpec([("self", 4), ("allies", 8), ("enemies", 8), ("round", 1, 0.0, 1.0)])


def test_obs_spec_sizes_and_slices():
    assert SPEC.size == len(SPEC) == 21
    assert SPEC.names == ("self", "allies", "enemies", "round")
    assert SPEC["enemies"] == slice(12, 20)
    assert SPEC.low[-1] == 0.0 and SPEC.low[0] == -1.0 and SPEC.high.max() == 1.0


def test_named_views_write_through_to_the_vector():
    vec = SPEC.new()
    assert vec.dtype == np.float32 and not vec.any()
    views = SPEC.named(vec)
    views["round"][0] = 0.5
    views["enemies"][:] = 1.0
    assert vec[20] == 0.5 and vec[12:20].sum() == 8.0
    with pytest.raises(ValueError, match="shape"):
        SPEC.named(np.zeros(3, np.float32))


def test_obs_spec_describe_and_validation():
    text = SPEC.describe()
    assert "ObsSpec: 21 floats" in text and "12..19" in text and "[0, 1]" in text
    with pytest.raises(ValueError, match="repeat"):
        ObsSpec([("a", 1), ("a", 2)])
    with pytest.raises(ValueError, match="size"):
        ObsSpec([("a", 0)])


class _Rosters:
    """Just enough of an Encounter for ego_order."""

    def __init__(self, **sides: tuple[str, ...]) -> None:
        self._sides = tuple(SideInfo(s, m) for s, m in sides.items())

    def sides(self) -> tuple[SideInfo, ...]:
        return self._sides

    def side_of(self, combatant: str) -> str:
        return next(i.side for i in self._sides if combatant in i.members)


def test_ego_order_puts_self_first_then_allies_then_enemies_padded():
    enc = _Rosters(heroes=("h0", "h1", "h2"), monsters=("m0",))
    me, allies, enemies = ego_order(enc, "h1", 4)
    assert me == "h1"
    assert allies == ["h0", "h2", None]
    assert enemies == ["m0", None, None, None]
    me, allies, enemies = ego_order(enc, "m0", 4)
    assert allies == [None, None, None] and enemies == ["h0", "h1", "h2", None]


def test_ego_order_rejects_rosters_over_the_limit():
    enc = _Rosters(heroes=("h0", "h1", "h2"), monsters=("m0",))
    with pytest.raises(ValueError, match="at most"):
        ego_order(enc, "m0", 2)
