"""The starter files and text maps are exactly the stored copies (``tests/data/starters/``).

Each copy was written before the starters and the text map moved out of eval/ into the system
packages (``envs.get_starter``, ``envs.get_text_map``): per system and encounter (``own``: the
GM's own fight, no encounter), ``<system>.<encounter>.yaml`` is ``new_situation``'s text and
``<system>.<encounter>.txt`` is the text map of that file as the GM sees it (``arena situation
check``) and as the one deciding sees it (``arena play``); ``shipped.<name>.txt`` is the same for
each situation of ``configs/situations/``. A deliberate change of a starter's or the map's text
rewrites them::

    PYTHONPATH=. python -m tests.eval.test_starter_copies      # writes tests/data/starters/
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
COPIES = ROOT / "tests" / "data" / "starters"
SYSTEMS_COPIED = ("metanoia", "mano_a_mano", "sizebound", "toy")
SHIPPED = sorted((ROOT / "configs" / "situations").glob("*.yaml"))


def map_text(path: Path) -> str:
    """The text map of the situation file ``path`` as the GM sees it (``arena situation check``)
    and as the one deciding sees it (``arena play``)."""
    from envs.core import SeededDice
    from envs.core.cases import encounter_from_situation, load_situation
    from eval.play import map_lines

    enc = encounter_from_situation(load_situation(path), path.name, SeededDice(0))
    actor = enc.current_actor()
    out = ["--- the map as the GM sees it", *map_lines(enc, None)]
    return "\n".join([*out, f"--- the map as {actor} sees it", *map_lines(enc, actor)]) + "\n"


def starter_and_map(system: str, encounter: str | None) -> tuple[str, str]:
    """``new_situation``'s text, and ``map_text`` of it."""
    from eval.situation_tools import new_situation

    text = new_situation(system, encounter)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "starter.yaml"
        path.write_text(text, encoding="utf-8")
        return text, map_text(path)


def _copies() -> list[Path]:
    return sorted(COPIES.glob("*.yaml"))


def _case(path: Path) -> tuple[str, str | None]:
    system, encounter = path.stem.split(".")
    return system, None if encounter == "own" else encounter


def test_every_system_and_encounter_of_the_time_of_the_move_has_a_copy():
    from envs import get_rules

    stored = {_case(p) for p in _copies()}
    for system in SYSTEMS_COPIED:
        for encounter in [None, *get_rules(system).encounter_names()]:
            assert (system, encounter) in stored, (system, encounter)


@pytest.mark.parametrize("path", _copies(), ids=lambda p: p.stem)
def test_the_starter_and_its_map_are_the_stored_copy(path: Path):
    text, maps = starter_and_map(*_case(path))
    assert text == path.read_text(encoding="utf-8")
    assert maps == path.with_suffix(".txt").read_text(encoding="utf-8")


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_the_map_of_a_shipped_situation_is_the_stored_copy(path: Path):
    copy = COPIES / f"shipped.{path.stem}.txt"
    assert map_text(path) == copy.read_text(encoding="utf-8")


def write_copies() -> None:
    """Rewrite every copy from the code as it is now."""
    import tests.conftest  # noqa: F401  (registers the toy)
    from envs import get_rules

    COPIES.mkdir(parents=True, exist_ok=True)
    for system in SYSTEMS_COPIED:
        for encounter in [None, *get_rules(system).encounter_names()]:
            text, maps = starter_and_map(system, encounter)
            stem = f"{system}.{encounter or 'own'}"
            (COPIES / f"{stem}.yaml").write_text(text, encoding="utf-8")
            (COPIES / f"{stem}.txt").write_text(maps, encoding="utf-8")
            print(f"wrote {COPIES / stem}.yaml and .txt", file=sys.stderr)
    for path in SHIPPED:
        copy = COPIES / f"shipped.{path.stem}.txt"
        copy.write_text(map_text(path), encoding="utf-8")
        print(f"wrote {copy}", file=sys.stderr)


if __name__ == "__main__":
    write_copies()
