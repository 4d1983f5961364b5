"""The declared system contract (DESIGN.md, "The system contract"): every registered system, the
test-only toy included, provides every part its ``envs.SystemEntry`` names, and a system that lacks
a part fails with a message naming that part.

``contract_problems(entry)`` lists what is wrong with one entry, one line per part; the tests assert
that the list is empty for every registered system and that it names the missing part of
deliberately incomplete fake entries.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import subprocess
import sys
import types
from pathlib import Path

import pytest

import envs
from envs import RULES_MEMBERS, SYSTEMS, SystemEntry, load_part

ROOT = Path(__file__).resolve().parents[1]


def _load(entry: SystemEntry, part: str) -> tuple[object, str | None]:
    path = getattr(entry, part)
    try:
        return load_part(path), None
    except (ImportError, AttributeError) as e:
        return None, f"{entry.name}: part {part!r} ({path}) cannot be loaded: {e}"


def encounter_problems(entry: SystemEntry, rules: object) -> list[str]:
    """The members of ``envs.core.Encounter`` that the system's first encounter lacks."""
    from envs.core import SeededDice
    from envs.core.encounter import Encounter

    first = rules.encounter_names()[0]  # type: ignore[attr-defined]
    enc = rules.new_encounter(first, None, SeededDice(0))  # type: ignore[attr-defined]
    wanted = {n for n in dir(Encounter) if not n.startswith("_")} | set(Encounter.__annotations__)
    lacking = sorted(n for n in wanted if not hasattr(enc, n))
    if lacking:
        return [
            f"{entry.name}: part 'rules': encounter {first!r} lacks {', '.join(lacking)} "
            "(envs.core.Encounter)"
        ]
    return []


def contract_problems(entry: SystemEntry) -> list[str]:
    """What ``entry`` lacks, one line per part (empty when the system meets the contract)."""
    from agents.base import RulesPolicy
    from envs.core.starter import CombatantStarter, FileStarter
    from envs.rl import CombatAECEnv, SystemEncoding

    out: list[str] = []
    for part in ("rules", "env", "encoding", "heuristic", "invariants", "describe", "spec"):
        if not getattr(entry, part):
            out.append(f"{entry.name}: part {part!r} is not given")
    if out:
        return out
    rules, err = _load(entry, "rules")
    if err:
        out.append(err)
    else:
        missing = envs.missing_rules_members(rules)
        if missing:
            out.append(
                f"{entry.name}: part 'rules' ({entry.rules}) lacks {', '.join(missing)} "
                "(envs.RulesModule)"
            )
        elif rules.SYSTEM != entry.name:  # type: ignore[union-attr]
            system = rules.SYSTEM  # type: ignore[union-attr]
            out.append(f"{entry.name}: part 'rules': SYSTEM is {system!r}")
        elif not rules.encounter_names():  # type: ignore[union-attr]
            out.append(f"{entry.name}: part 'rules': no encounters")
        else:
            out += encounter_problems(entry, rules)
    env, err = _load(entry, "env")
    if err:
        out.append(err)
    else:
        lacking = [name for name in ("env", "raw_env", "ENCODING") if not hasattr(env, name)]
        if lacking:
            out.append(f"{entry.name}: part 'env' ({entry.env}) has no {', '.join(lacking)}")
        raw = getattr(env, "raw_env", None)
        if raw is not None and not (inspect.isclass(raw) and issubclass(raw, CombatAECEnv)):
            out.append(f"{entry.name}: part 'env': raw_env is not a CombatAECEnv")
    encoding, err = _load(entry, "encoding")
    if err:
        out.append(err)
    elif not isinstance(encoding, SystemEncoding):
        out.append(f"{entry.name}: part 'encoding' ({entry.encoding}) is not a SystemEncoding")
    elif not encoding.name.startswith(f"{entry.name}_v"):
        out.append(
            f"{entry.name}: part 'encoding': name {encoding.name!r} is not {entry.name}_v<N>"
        )
    heuristic, err = _load(entry, "heuristic")
    if err:
        out.append(err)
    elif not (inspect.isclass(heuristic) and issubclass(heuristic, RulesPolicy)):
        out.append(f"{entry.name}: part 'heuristic' ({entry.heuristic}) is not a RulesPolicy class")
    invariants, err = _load(entry, "invariants")
    if err:
        out.append(err)
    elif not callable(invariants):
        out.append(f"{entry.name}: part 'invariants' ({entry.invariants}) is not callable")
    describe, err = _load(entry, "describe")
    if err:
        out.append(err)
    elif not callable(describe):
        out.append(f"{entry.name}: part 'describe' ({entry.describe}) is not callable")
    for part in ("shaping", "renderer", "text_map"):  # optional parts: checked when given
        if getattr(entry, part) is not None:
            value, err = _load(entry, part)
            if err or not callable(value):
                out.append(
                    err or f"{entry.name}: part {part!r} ({getattr(entry, part)}) is not callable"
                )
    if entry.balance is not None:  # optional: names of options for arena balance
        names, err = _load(entry, "balance")
        if err or not callable(getattr(names, "option_keys", None)):
            out.append(err or f"{entry.name}: part 'balance' ({entry.balance}) has no option_keys")
    if entry.starter is not None:
        starter, err = _load(entry, "starter")
        if err:
            out.append(err)
        elif not isinstance(starter, CombatantStarter | FileStarter):
            out.append(
                f"{entry.name}: part 'starter' ({entry.starter}) is neither a CombatantStarter "
                "nor a FileStarter (envs.core.starter)"
            )
    return out


@pytest.mark.parametrize("system", list(SYSTEMS))
def test_every_registered_system_meets_the_contract(system: str):
    problems = contract_problems(SYSTEMS[system])
    assert not problems, "; ".join(problems)


def test_the_toy_is_registered_for_the_tests_only():
    assert SYSTEMS["toy"].test_only and "toy" in envs.list_systems()
    assert "toy" not in envs.list_systems(include_test_only=False)
    code = "import envs; print(','.join(envs.SYSTEMS))"
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    real = ",".join(envs.list_systems(include_test_only=False))
    assert real.startswith("metanoia,mano_a_mano,")
    assert out.stdout.strip() == real, "outside the tests only the real systems"


def test_the_record_names_every_part():
    assert SystemEntry.parts() == [
        "name",
        "rules",
        "env",
        "encoding",
        "heuristic",
        "invariants",
        "describe",
        "spec",
        "shaping",
        "renderer",
        "starter",
        "text_map",
        "balance",
        "campaign",
        "test_only",
    ]
    assert RULES_MEMBERS == (
        "SYSTEM",
        "encounter_names",
        "new_encounter",
        "from_situation",
        "parse_options",
        "stat_blocks",
    )
    declared = {n for n in dir(envs.RulesModule) if not n.startswith("_")} | set(
        envs.RulesModule.__annotations__
    )
    assert set(RULES_MEMBERS) == declared


@pytest.mark.parametrize("system", list(SYSTEMS))
def test_registry_accessors_return_the_named_parts(system: str):
    entry = SYSTEMS[system]
    assert envs.get_rules(system) is importlib.import_module(entry.rules)
    assert isinstance(envs.get_rules(system), envs.RulesModule)
    assert envs.get_encoding(system) is envs.get_env_module(system).ENCODING
    assert envs.get_heuristic(system) is load_part(entry.heuristic)
    assert envs.get_invariants(system) is load_part(entry.invariants)
    assert (envs.get_renderer(system) is None) == (entry.renderer is None)
    assert envs.get_describe(system) is load_part(entry.describe)
    assert (envs.get_shaping(system) is None) == (entry.shaping is None)
    assert envs.get_starter(system) is (entry.starter and load_part(entry.starter))
    assert envs.get_text_map(system) is (entry.text_map and load_part(entry.text_map))
    campaign = envs.get_campaign(system)
    assert (campaign is None) == (entry.campaign is None)
    assert campaign is None or all(callable(getattr(campaign, f, None))
                                   for f in ("carry", "rest", "health"))


def test_the_tools_write_the_starter_and_the_text_map_the_registry_names(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
):
    """``arena situation new|check`` and ``arena play`` know a system's starter and text map only
    through its registry record (here the toy's, swapped for fakes)."""
    from envs.core.starter import Line
    from eval.play import map_lines
    from eval.situation_tools import check_situation, new_situation

    class WholeFile:
        def lines(self, name: str, own: bool) -> list[Line]:
            return [Line("system", "toy", "fake"), Line("encounter", name, f"own: {own}")]

    parts = types.ModuleType("fake_parts")
    parts.STARTER = WholeFile()  # type: ignore[attr-defined]
    parts.text_map = lambda enc, viewer: [  # type: ignore[attr-defined]
        f"the map of {enc.system} as {viewer} knows it"
    ]
    monkeypatch.setitem(sys.modules, "fake_parts", parts)
    entry = dataclasses.replace(
        SYSTEMS["toy"], starter="fake_parts:STARTER", text_map="fake_parts:text_map"
    )
    monkeypatch.setitem(SYSTEMS, "toy", entry)
    assert contract_problems(entry) == []
    text = new_situation("toy")
    assert text.splitlines()[-2:] == [
        "system: toy                         # fake",
        "encounter: duel                     # own: True",
    ]
    path = tmp_path / "fake.yaml"
    path.write_text(text)
    report = check_situation(str(path)).splitlines()
    assert report[1:5] == [
        "system toy, round 1",
        "  id   side      points  hp",
        "> ann  heroes    0       2/2",
        "  bob  monsters  0       2/2",
    ]
    assert report[5] == "the map of toy as None knows it"
    enc = envs.get_rules("toy").new_encounter("duel")
    assert map_lines(enc, "ann") == ["the map of toy as ann knows it"]
    monkeypatch.setitem(SYSTEMS, "toy", dataclasses.replace(entry, text_map=None))
    assert map_lines(enc, "ann") == []


# ---------------------------------------------------------------------------- incomplete entries

TOY_PARTS = dict(
    rules="envs.toy.rules",
    env="envs.toy.env",
    encoding="envs.toy.encoding:ENCODING",
    heuristic="agents.heuristic.toy:ToyHeuristic",
    invariants="envs.toy.invariants:state_invariants",
    describe="envs.toy.rules.describe:describe",
    spec="toy",
    starter="envs.toy.starter:STARTER",
)


def fake(**changes: str | None) -> SystemEntry:
    return SystemEntry(name="toy", **{**TOY_PARTS, **changes})  # type: ignore[arg-type]


def test_a_complete_fake_entry_has_no_problems():
    assert contract_problems(fake()) == []


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"invariants": ""}, "toy: part 'invariants' is not given"),
        ({"describe": ""}, "toy: part 'describe' is not given"),
        (
            {"describe": "envs.toy.rules.describe:nothing"},
            "toy: part 'describe' (envs.toy.rules.describe:nothing) cannot be loaded",
        ),
        (
            {"invariants": "envs.toy.invariants:no_such_check"},
            "toy: part 'invariants' (envs.toy.invariants:no_such_check) cannot be loaded",
        ),
        (
            {"heuristic": "agents.heuristic.toy:nothing"},
            "toy: part 'heuristic' (agents.heuristic.toy:nothing) cannot be loaded",
        ),
        ({"heuristic": "envs.toy.invariants:state_invariants"}, "is not a RulesPolicy class"),
        (
            {"encoding": "envs.toy.rules:FULL"},
            "toy: part 'encoding' (envs.toy.rules:FULL) is not a SystemEncoding",
        ),
        (
            {"env": "envs.toy.rules"},
            "toy: part 'env' (envs.toy.rules) has no env, raw_env, ENCODING",
        ),
        (
            {"rules": "envs.no_such_system.rules"},
            "toy: part 'rules' (envs.no_such_system.rules) cannot be loaded",
        ),
        (
            {"renderer": "envs.toy.rules:SYSTEM"},
            "toy: part 'renderer' (envs.toy.rules:SYSTEM) is not callable",
        ),
        (
            {"text_map": "envs.toy.rules:SYSTEM"},
            "toy: part 'text_map' (envs.toy.rules:SYSTEM) is not callable",
        ),
        (
            {"text_map": "envs.toy.textmap:text_map"},
            "toy: part 'text_map' (envs.toy.textmap:text_map) cannot be loaded",
        ),
        (
            {"starter": "envs.toy.rules:SYSTEM"},
            "toy: part 'starter' (envs.toy.rules:SYSTEM) is neither a CombatantStarter nor a "
            "FileStarter",
        ),
        (
            {"starter": "envs.toy.starter:NO_STARTER"},
            "toy: part 'starter' (envs.toy.starter:NO_STARTER) cannot be loaded",
        ),
    ],
)
def test_an_entry_that_lacks_a_part_names_it(changes: dict[str, str], message: str):
    problems = contract_problems(fake(**changes))
    assert len(problems) == 1 and message in problems[0], problems


def test_a_rules_module_that_lacks_a_function_names_it(monkeypatch: pytest.MonkeyPatch):
    import envs.toy.rules as toy_rules

    partial = types.ModuleType("fake_rules")
    for name in RULES_MEMBERS:
        if name not in ("from_situation", "stat_blocks"):
            setattr(partial, name, getattr(toy_rules, name))
    monkeypatch.setitem(sys.modules, "fake_rules", partial)
    problems = contract_problems(fake(rules="fake_rules"))
    assert problems == [
        "toy: part 'rules' (fake_rules) lacks from_situation, stat_blocks (envs.RulesModule)"
    ]
    assert not isinstance(partial, envs.RulesModule)


def test_reading_the_registry_imports_no_rl_library():
    code = (
        "import sys, envs\n"
        "for e in envs.SYSTEMS.values(): e.heuristic, e.invariants, e.encoding\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'numpy', 'gymnasium', 'pettingzoo', 'torch', 'agents'}))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_the_starters_and_text_maps_load_no_rl_library_and_nothing_above_envs():
    code = (
        "import sys, envs\n"
        "for s in envs.SYSTEMS: envs.get_starter(s), envs.get_text_map(s)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'gymnasium', 'pettingzoo', 'torch', 'agents', 'eval'}))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_the_guide_to_adding_a_system_names_tests_that_exist():
    """Every ``tests/...py::name`` (and ``::name`` after it, same file) in docs/adding_a_system.md
    is a test function of that file, and every step names at least one test."""
    import re

    text = (ROOT / "docs" / "adding_a_system.md").read_text(encoding="utf-8")
    steps = re.split(r"^## ", text, flags=re.M)[1:]
    assert len(steps) >= 8
    missing = []
    for step in steps:
        refs = re.findall(r"`(tests/[\w/]+\.py)(?:::(\w+))?`|`::(\w+)`", step)
        assert refs, f"step {step.splitlines()[0]!r} names no test"
        current = ""
        for path, name, same_file in refs:
            current = path or current
            source = (ROOT / current).read_text(encoding="utf-8")
            test = name or same_file
            if test and not re.search(rf"^def {test}\(", source, re.M):
                missing.append(f"{current}::{test}")
    assert not missing, f"docs/adding_a_system.md names missing tests: {', '.join(missing)}"


def test_an_encounter_that_lacks_a_member_names_it(monkeypatch: pytest.MonkeyPatch):
    from envs.toy.rules.state import RaceEncounter

    monkeypatch.delattr(RaceEncounter, "harm")
    assert contract_problems(fake()) == [
        "toy: part 'rules': encounter 'duel' lacks harm (envs.core.Encounter)"
    ]


def test_describe_action_puts_a_legal_action_in_plain_words():
    from envs.core import ScriptedDice

    enc = envs.get_rules("toy").new_encounter("duel", "full", ScriptedDice([5, 2]))
    words = {a.label: envs.describe_action(enc, a) for a in enc.legal_actions()}
    assert words == {
        "ann: pass": "pass the turn",
        "ann: score": "try to score a point (d6 4+)",
        "ann: attack -> bob": "attack bob (2 hit points left; d6 3+ hits)",
    }
