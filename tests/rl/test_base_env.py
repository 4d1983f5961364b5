"""CombatAECEnv and ActionMaskAdapter on a toy encounter ("race to 3 points" with a reaction phase).

The toy system, in full:

* Sides ``red`` and ``blue`` (1 or 2 combatants each, 2 hit points each). Initiative: one d6 per
  side at the start, higher side first (ties: red); turns then alternate sides in roster order.
* On its turn a combatant may ``pass``, ``score`` (d6 >= 4: +1 point) or ``attack -> enemy``.
* An attack opens a reaction: the defender decides ``react none`` or ``react block`` (costs 1
  point, legal only with a point). Then the attacker rolls d6 (>= 3 hits); a blocking defender rolls
  d6 (>= 4 cancels the hit). A hit costs 1 hit point; at 0 the defender is out of the fight.
* A side wins when one of its combatants reaches 3 points (``race``) or every enemy is out
  (``defeat``); after ``max_rounds`` rounds the fight is a draw (``round_cap``).
"""

from __future__ import annotations

import itertools
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from envs.core import (
    Action,
    ActionTaken,
    DataError,
    Dice,
    EncounterEnded,
    Event,
    IllegalActionError,
    Outcome,
    OutOfFight,
    RoundStarted,
    SideInfo,
    TurnStarted,
    parse_label,
)
from envs.rl import (
    ActionLayout,
    ActionMaskAdapter,
    Block,
    CombatAECEnv,
    EncodingError,
    ObsSpec,
    ego_order,
    env_factory,
    legal_index_map,
    mask_from_legal,
    random_policy,
)

# ---------------------------------------------------------------------------- the toy rules


@dataclass(frozen=True, slots=True)
class Rolled(Event):
    who: str
    what: str
    face: int
    success: bool

    def __str__(self) -> str:
        return f"{self.who} rolls {self.what}: d6={self.face} ({'success' if self.success else 'fail'})"


@dataclass(frozen=True, slots=True)
class Scored(Event):
    who: str
    points: int

    def __str__(self) -> str:
        return f"{self.who} scores ({self.points} points)"


@dataclass(frozen=True, slots=True)
class Wounded(Event):
    who: str
    hp: int

    def __str__(self) -> str:
        return f"{self.who} is hit ({self.hp} hp left)"


DUEL = (("red", ("ann",)), ("blue", ("bob",)))
TWO_VS_TWO = (("red", ("ann", "amy")), ("blue", ("bob", "ben")))


class RaceEncounter:
    """The toy encounter (see the module docstring); implements ``envs.core.Encounter``."""

    system = "toy"

    def __init__(self, rosters=DUEL, *, dice: Dice | None = None, hp: int = 2, target: int = 3, max_rounds: int = 6) -> None:
        self._sides = tuple(SideInfo(side, tuple(members)) for side, members in rosters)
        self._side_of = {cid: info.side for info in self._sides for cid in info.members}
        self.points = dict.fromkeys(self._side_of, 0)
        self.hp = dict.fromkeys(self._side_of, hp)
        self.max_hp, self.target, self.max_rounds = hp, target, max_rounds
        columns = [info.members for info in self._sides]
        self.start_events: list[Event] = []
        if dice is not None:
            red, blue = dice.roll(6, 2)
            self.start_events.append(Rolled(self._sides[0].side, "initiative", red, red >= blue))
            self.start_events.append(Rolled(self._sides[1].side, "initiative", blue, blue > red))
            if blue > red:
                columns.reverse()
        self.order = [c for row in itertools.zip_longest(*columns) for c in row if c is not None]
        self._round, self.turn = 1, 0
        self.pending: tuple[str, str] | None = None
        self._outcome: Outcome | None = None
        self.start_events += [RoundStarted(1), TurnStarted(1, self.order[0])]

    # -- protocol
    def sides(self) -> tuple[SideInfo, ...]:
        return self._sides

    def side_of(self, combatant: str) -> str:
        return self._side_of[combatant]

    def is_active(self, combatant: str) -> bool:
        return self.hp[combatant] > 0

    @property
    def round(self) -> int:
        return self._round

    def is_over(self) -> bool:
        return self._outcome is not None

    def outcome(self) -> Outcome | None:
        return self._outcome

    def current_actor(self) -> str | None:
        if self._outcome is not None:
            return None
        return self.pending[1] if self.pending else self.order[self.turn]

    def legal_actions(self) -> list[Action]:
        if self._outcome is not None:
            return []
        if self.pending:
            d = self.pending[1]
            acts = [Action(d, "react", ("none",))]
            return acts + [Action(d, "react", ("block",))] if self.points[d] else acts
        a = self.order[self.turn]
        foes = [c for info in self._sides if info.side != self._side_of[a] for c in info.members if self.is_active(c)]
        return [Action(a, "pass"), Action(a, "score")] + [Action(a, "attack", target=f) for f in foes]

    def apply(self, action: Action, dice: Dice) -> list[Event]:
        if action not in self.legal_actions():
            raise IllegalActionError(f"round {self._round}: {action.label} is not legal")
        events: list[Event] = [ActionTaken(action.label)]
        actor = action.actor
        if action.kind == "attack":
            self.pending = (actor, action.target)
            return events
        if action.kind == "score":
            face = dice.roll(6)[0]
            events.append(Rolled(actor, "score", face, face >= 4))
            if face >= 4:
                self.points[actor] += 1
                events.append(Scored(actor, self.points[actor]))
                if self.points[actor] >= self.target:
                    return events + self._end(self._side_of[actor], "race")
        elif action.kind == "react":
            attacker, defender = self.pending
            self.pending = None
            face = dice.roll(6)[0]
            hit = face >= 3
            events.append(Rolled(attacker, "attack", face, hit))
            if action.args == ("block",):
                self.points[defender] -= 1
                if hit:
                    b = dice.roll(6)[0]
                    events.append(Rolled(defender, "block", b, b >= 4))
                    hit = b < 4
            if hit:
                self.hp[defender] -= 1
                events.append(Wounded(defender, self.hp[defender]))
                if self.hp[defender] == 0:
                    events.append(OutOfFight(defender, "defeated"))
                    side = self._side_of[defender]
                    if not any(self.is_active(c) for c in self._side_of if self._side_of[c] == side):
                        return events + self._end(self._side_of[attacker], "defeat")
            actor = attacker
        return events + self._end_turn()

    def _end_turn(self) -> list[Event]:
        events: list[Event] = []
        while True:
            self.turn += 1
            if self.turn == len(self.order):
                self.turn = 0
                if self._round == self.max_rounds:
                    return self._end(None, "round_cap")
                self._round += 1
                events.append(RoundStarted(self._round))
            if self.is_active(self.order[self.turn]):
                return events + [TurnStarted(self._round, self.order[self.turn])]

    def _end(self, winner: str | None, reason: str) -> list[Event]:
        self._outcome = Outcome(winner, reason, self._round)
        return [EncounterEnded(winner, reason, self._round)]

    def clone(self) -> RaceEncounter:
        return RaceEncounter.from_snapshot(self.snapshot())

    def snapshot(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "sides": [[i.side, list(i.members)] for i in self._sides],
            "points": dict(self.points),
            "hp": dict(self.hp),
            "rules": [self.max_hp, self.target, self.max_rounds],
            "order": list(self.order),
            "round": self._round,
            "turn": self.turn,
            "pending": list(self.pending) if self.pending else None,
            "outcome": self._outcome.to_dict() if self._outcome else None,
        }

    @classmethod
    def from_snapshot(cls, data: dict[str, Any]) -> RaceEncounter:
        hp, target, max_rounds = data["rules"]
        enc = cls(tuple((s, tuple(m)) for s, m in data["sides"]), hp=hp, target=target, max_rounds=max_rounds)
        enc.points, enc.hp, enc.order = dict(data["points"]), dict(data["hp"]), list(data["order"])
        enc._round, enc.turn = data["round"], data["turn"]
        enc.pending = tuple(data["pending"]) if data["pending"] else None
        enc._outcome = Outcome(**data["outcome"]) if data["outcome"] else None
        enc.start_events = []
        return enc

    def parse_action(self, label: str) -> Action:
        return parse_label(label)

    def view(self, actor: str) -> RaceEncounter:
        return self  # no hidden information in the toy


def toy_from_situation(data: dict[str, Any], source: str, dice: Dice) -> RaceEncounter:
    """Situation fields: ``points`` and ``hp`` overrides by combatant, ``round``, ``max_rounds``."""
    enc = RaceEncounter(dice=dice, max_rounds=data.get("max_rounds", 6))
    for cid, value in data.get("points", {}).items():
        enc.points[cid] = value
    for cid, value in data.get("hp", {}).items():
        enc.hp[cid] = value
    enc._round = data.get("round", 1)
    return enc


# ---------------------------------------------------------------------------- the toy encoding


class ToyEncoding:
    """Spaces and Action <-> index mapping of the toy system."""

    name = "toy_race_v0"
    max_per_side = 2
    layout = ActionLayout(
        [Block("pass"), Block("score"), Block("attack", (("enemy", 2),)), Block("react", (("block", 2),))]
    )
    obs_spec = ObsSpec([("self", 3), ("allies", 3), ("enemies", 6), ("round", 1, 0.0, 1.0), ("phase", 2, 0.0, 1.0)])
    REACTIONS = ("none", "block")

    def encode_action(self, enc: RaceEncounter, combatant: str, action: Action) -> int:
        if action.kind == "attack":
            return self.layout.index("attack", ego_order(enc, combatant, 2)[2].index(action.target))
        if action.kind == "react":
            return self.layout.index("react", self.REACTIONS.index(action.args[0]))
        return self.layout.index(action.kind)

    def decode_action(self, enc: RaceEncounter, combatant: str, index: int) -> Action:
        block, coords = self.layout.coords(index)
        if block == "attack":
            target = ego_order(enc, combatant, 2)[2][coords["enemy"]]
            if target is None:
                raise ValueError(f"enemy slot {coords['enemy']} is empty")
            return Action(combatant, "attack", target=target)
        if block == "react":
            return Action(combatant, "react", (self.REACTIONS[coords["block"]],))
        return Action(combatant, block)

    def observe(self, enc: RaceEncounter, combatant: str) -> np.ndarray:
        vec = self.obs_spec.new()
        views = self.obs_spec.named(vec)
        me, allies, enemies = ego_order(enc, combatant, 2)
        for piece, ids in (("self", [me]), ("allies", allies), ("enemies", enemies)):
            for k, cid in enumerate(ids):
                if cid is not None:
                    views[piece][3 * k : 3 * k + 3] = (1.0, enc.points[cid] / enc.target, enc.hp[cid] / enc.max_hp)
        views["round"][0] = enc.round / enc.max_rounds
        views["phase"][0 if enc.pending is None else 1] = 1.0
        return vec


ENCODING = ToyEncoding()


class raw_env(CombatAECEnv):
    """The toy system's AEC env, written the way a system env module writes its ``raw_env``."""

    def __init__(self, rosters=DUEL, max_rounds: int = 6, render_mode: str | None = None, shaping=None) -> None:
        super().__init__(
            ENCODING,
            lambda dice, options: RaceEncounter(rosters, dice=dice, max_rounds=max_rounds),
            from_situation=toy_from_situation,
            render_mode=render_mode,
            shaping=shaping,
        )


env = env_factory(raw_env)


# ---------------------------------------------------------------------------- helpers


def play(e, rng: np.random.Generator, choose=None, max_steps: int = 10_000) -> list[int | None]:
    """Play to the end (dead steps included) with masked random choices; return the actions."""
    actions: list[int | None] = []
    for agent in e.agent_iter(max_steps):
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            action = None
        elif choose is not None:
            action = choose(agent, obs)
        else:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        actions.append(action)
        e.step(action)
    return actions


def final_rewards(e) -> dict[str, float]:
    """Finish the dead steps and return each agent's reward from ``last()``."""
    got = {}
    for agent in e.agent_iter(100):
        _, reward, terminated, truncated, _ = e.last()
        assert terminated or truncated
        got[agent] = reward
        e.step(None)
    return got


def until_done(e, choose) -> None:
    """Step chosen actions until every agent is terminated or truncated."""
    while not (e.terminations[e.agent_selection] or e.truncations[e.agent_selection]):
        e.step(choose(e.agent_selection, e.observe(e.agent_selection)))


# ---------------------------------------------------------------------------- PettingZoo API


@pytest.mark.parametrize("rosters", [DUEL, TWO_VS_TWO], ids=["duel", "2v2"])
@pytest.mark.parametrize("wrapped", [True, False], ids=["env", "raw_env"])
def test_pettingzoo_api(rosters, wrapped):
    e = env(rosters=rosters) if wrapped else raw_env(rosters=rosters)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any API warning fails, except the two below
        # PettingZoo only exempts its own classic env names from these dict-observation notes.
        warnings.filterwarnings("ignore", "Observation is not a NumPy array")
        warnings.filterwarnings("ignore", "Observation space for each agent probably should be")
        api_test(e, num_cycles=200)


def test_pettingzoo_seed_test():
    seed_test(lambda: env(rosters=TWO_VS_TWO), num_cycles=50)


def test_agents_spaces_and_metadata():
    e = raw_env(rosters=TWO_VS_TWO)
    assert e.possible_agents == ["red_0", "red_1", "blue_0", "blue_1"]
    assert e.metadata == {"render_modes": ["ansi"], "name": "toy_race_v0", "is_parallelizable": False}
    assert str(e) == "toy_race_v0"
    assert e.action_space("red_0").n == ENCODING.layout.size == 6
    assert e.observation_space("blue_1")["observation"].shape == (ENCODING.obs_spec.size,)
    assert e.observation_space("red_0") is e.observation_space("blue_1")
    e.reset(seed=0)
    assert e.combatant("red_1") == "amy" and e.agent_of("ben") == "blue_1"
    assert e.infos["blue_0"] == {"combatant": "bob", "side": "blue"}


# ---------------------------------------------------------------------------- determinism


def test_same_seed_and_actions_give_the_same_log_and_observations():
    def record(e, actions):
        logs, observations = [], []
        for agent, action in zip(e.agent_iter(), actions, strict=False):
            logs.append(e.log_text())
            observations.append({a: e.observe(a)["observation"].copy() for a in e.agents})
            assert e.agent_selection == agent
            e.step(action)
        return logs, observations

    first = raw_env(rosters=TWO_VS_TWO)
    first.reset(seed=11)
    actions = play(first, np.random.default_rng(5))
    text = first.log_text()
    assert "== fight over" in text

    runs = []
    for e in (raw_env(rosters=TWO_VS_TWO), first):  # a fresh env, and the same env reseeded
        e.reset(seed=11)
        runs.append(record(e, actions))
        assert e.log_text() == text
    (logs_a, obs_a), (logs_b, obs_b) = runs
    assert logs_a == logs_b
    assert len(obs_a) == len(obs_b) == len(actions)
    for step_a, step_b in zip(obs_a, obs_b, strict=True):
        assert step_a.keys() == step_b.keys()
        for agent in step_a:
            np.testing.assert_array_equal(step_a[agent], step_b[agent])


def test_reset_without_seed_keeps_rolling_the_same_dice():
    e = raw_env()
    starts = []
    for i in range(6):
        e.reset(seed=3 if i == 0 else None)
        starts.append(e.log_text())
    assert len(set(starts)) > 1  # the dice went on rolling
    e.reset(seed=3)
    assert e.log_text() == starts[0]


# ---------------------------------------------------------------------------- masks and turns


def test_mask_equals_encoded_legal_actions_at_every_decision():
    e = raw_env(rosters=TWO_VS_TWO)
    rng = np.random.default_rng(1)
    for episode in range(5):
        e.reset(seed=episode)
        while not (e.terminations[e.agent_selection] or e.truncations[e.agent_selection]):
            enc, agent = e.encounter, e.agent_selection
            cid = enc.current_actor()
            assert e.combatant(agent) == cid
            expected = {ENCODING.encode_action(enc, cid, a) for a in enc.legal_actions()}
            mask = e.observe(agent)["action_mask"]
            assert set(np.flatnonzero(mask)) == expected
            np.testing.assert_array_equal(mask, e.action_masks())
            np.testing.assert_array_equal(mask, mask_from_legal(ENCODING, enc, cid))
            for index, action in e.legal_index_map().items():
                assert ENCODING.decode_action(enc, cid, index) == action
            for other in e.agents:
                if other != agent:
                    assert not e.observe(other)["action_mask"].any()
            e.step(int(rng.choice(np.flatnonzero(mask))))
    assert not e.action_masks().any()


def test_an_attack_hands_the_turn_to_the_defender_mid_turn():
    e = raw_env()
    e.reset(seed=0)
    attacker = e.agent_selection
    defender = "blue_0" if attacker == "red_0" else "red_0"
    e.step(ENCODING.layout.index("attack", 0))
    assert e.agent_selection == defender
    assert e.encounter.current_actor() == e.combatant(defender)
    mask = e.observe(defender)["action_mask"]
    assert set(np.flatnonzero(mask)) == {ENCODING.layout.index("react", 0)}  # no points: cannot block
    assert e.observe(defender)["observation"][ENCODING.obs_spec["phase"]].tolist() == [0.0, 1.0]
    e.step(ENCODING.layout.index("react", 0))
    assert e.agent_selection == defender  # the defender's own turn comes next
    assert "hp left" in e.log_text() or "attack: d6=" in e.log_text()


def test_knocked_out_agents_stay_in_agents_but_are_never_selected():
    e = raw_env(rosters=TWO_VS_TWO, max_rounds=200)
    e.reset(seed=2)
    attack_ann = {"blue_0": 0, "blue_1": 0}  # enemy slot 0 is ann (red_0) for blue
    def choose(agent, obs):
        mask = obs["action_mask"]
        if agent in attack_ann and mask[ENCODING.layout.index("attack", 0)] and e.encounter.is_active("ann"):
            return ENCODING.layout.index("attack", 0)
        if mask[ENCODING.layout.index("react", 0)]:
            return ENCODING.layout.index("react", 0)
        return ENCODING.layout.index("pass")
    selected_after_ko = []
    while not (e.terminations[e.agent_selection] or e.truncations[e.agent_selection]):
        if not e.encounter.is_active("ann"):
            selected_after_ko.append(e.agent_selection)
            assert "red_0" in e.agents
        e.step(choose(e.agent_selection, e.observe(e.agent_selection)))
    assert "ann is defeated and out of the fight" in e.log_text()
    assert selected_after_ko and "red_0" not in selected_after_ko
    assert "red_0" in e.agents and e.truncations["red_0"]


# ---------------------------------------------------------------------------- rewards and endings


def always(block_name: str):
    """A chooser that takes ``block_name`` when legal, else reacts without blocking, else passes."""
    def choose(agent, obs):
        mask = obs["action_mask"]
        for index in (ENCODING.layout.index(block_name), ENCODING.layout.index("react", 0)):
            if mask[index]:
                return index
        return ENCODING.layout.index("pass")
    return choose


def test_winner_gets_plus_one_loser_minus_one_then_dead_steps_remove_everyone():
    e = env(max_rounds=100)
    e.reset(seed=4)
    def choose(agent, obs):  # red races, blue passes
        layout = ENCODING.layout
        return layout.index("score") if agent == "red_0" else layout.index("pass")
    until_done(e, choose)
    assert all(e.terminations.values()) and not any(e.truncations.values())
    assert e.infos["blue_0"]["outcome"]["winner"] == "red"
    assert e.infos["blue_0"]["terminal_reward"] == -1.0
    assert not e.observe("blue_0")["action_mask"].any()
    assert final_rewards(e) == {"red_0": 1.0, "blue_0": -1.0}
    assert e.agents == []


def test_round_cap_truncates_as_a_draw():
    e = env(max_rounds=3)
    e.reset(seed=0)
    until_done(e, always("pass"))
    assert all(e.truncations.values()) and not any(e.terminations.values())
    assert e.infos["red_0"]["outcome"] == {"winner": None, "reason": "round_cap", "round": 3}
    assert final_rewards(e) == {"red_0": 0.0, "blue_0": 0.0}


def test_illegal_index_raises_in_the_raw_env_and_loses_in_the_wrapped_env():
    raw = raw_env()
    raw.reset(seed=0)
    block = ENCODING.layout.index("react", 1)
    with pytest.raises(IllegalActionError, match=r"action 5 \(.*react block\) is not legal for"):
        raw.step(block)
    with pytest.raises(ValueError, match="must choose an action"):
        raw.step(None)
    wrapped = env()
    wrapped.reset(seed=0)
    offender = wrapped.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        wrapped.step(block)
    rewards = final_rewards(wrapped)
    assert rewards[offender] == -1.0 and sum(rewards.values()) == -1.0


def test_shaping_terms_are_added_and_reported_while_the_terminal_reward_stays_pure():
    def shaping(enc, events, actor):
        return {ev.who: {"scored": 0.1} for ev in events if isinstance(ev, Scored)}

    e = raw_env(max_rounds=100, shaping=shaping)
    e.reset(seed=4)
    until_done(e, always("score"))
    winner = next(a for a in e.agents if e.infos[a]["terminal_reward"] == 1.0)
    assert e.infos[winner]["shaping"]["scored"] == pytest.approx(0.3)
    assert e.infos[winner]["outcome"]["reason"] == "race"
    assert e.rewards[winner] == pytest.approx(1.1)  # the winning step: terminal + one shaping term


# ---------------------------------------------------------------------------- render, situations


def test_ansi_render_returns_new_log_lines_and_log_text_the_whole_log():
    e = raw_env(render_mode="ansi")
    e.reset(seed=0)
    first = e.render()
    assert first.splitlines()[-2:] == ["-- round 1 --", f"{e.combatant(e.agent_selection)}'s turn"]
    assert "initiative: d6=" in first
    assert e.render() == ""
    e.step(ENCODING.layout.index("score"))
    new = e.render()
    assert new.splitlines()[0].startswith("> ") and "rolls score: d6=" in new
    assert e.log_text() == first + "\n" + new
    assert e.log_text().splitlines() == [str(ev) for ev in e.event_log]
    assert raw_env().render_mode is None


def test_reset_from_a_situation_dict_or_file(tmp_path):
    e = raw_env()
    e.reset(seed=0, options={"situation": {"system": "toy", "points": {"ann": 2}, "hp": {"bob": 1}, "round": 4}})
    red = e.observe("red_0")["observation"]
    assert ENCODING.obs_spec.named(red)["self"].tolist() == pytest.approx([1.0, 2 / 3, 1.0])
    assert ENCODING.obs_spec.named(red)["enemies"][:3].tolist() == pytest.approx([1.0, 0.0, 0.5])
    assert e.encounter.round == 4

    path = tmp_path / "situation.yaml"
    path.write_text("system: toy\npoints: {bob: 1}\n")
    e.reset(options={"situation": str(path)})
    assert e.encounter.points == {"ann": 0, "bob": 1}
    e.reset()  # the situation holds for one episode only
    assert e.encounter.points == {"ann": 0, "bob": 0}

    path.write_text("system: metanoia\n")
    with pytest.raises(DataError, match="situation is for 'metanoia'; this env plays 'toy'"):
        e.reset(options={"situation": path})


def test_a_broken_encoding_fails_with_a_clear_message():
    class Clashing(ToyEncoding):
        def encode_action(self, enc, combatant, action):
            return 0

    enc = RaceEncounter()
    with pytest.raises(EncodingError, match="both encode to index 0"):
        legal_index_map(Clashing(), enc, enc.current_actor())

    class OutOfRange(ToyEncoding):
        def encode_action(self, enc, combatant, action):
            return 99

    with pytest.raises(EncodingError, match="outside 0..5"):
        legal_index_map(OutOfRange(), enc, enc.current_actor())

    class Unknown(ToyEncoding):
        def encode_action(self, enc, combatant, action):
            raise KeyError(action.kind)

    with pytest.raises(EncodingError, match="has no index"):
        legal_index_map(Unknown(), enc, enc.current_actor())


# ---------------------------------------------------------------------------- SB3 adapter


def test_adapter_gives_the_loser_minus_one_when_the_game_ends_on_the_opponents_step():
    score, pass_ = ENCODING.layout.index("score"), ENCODING.layout.index("pass")
    adapter = ActionMaskAdapter(env(max_rounds=100), learner="blue_0", opponents=lambda obs, mask: score)
    obs, info = adapter.reset(seed=4)
    assert obs.shape == adapter.observation_space.shape and info["agent"] == "blue_0"
    assert adapter.action_masks().dtype == bool and adapter.action_masks()[pass_]
    total, steps = 0.0, 0
    while True:
        obs, reward, terminated, truncated, info = adapter.step(pass_)
        total += reward
        steps += 1
        if terminated or truncated:
            break
    assert terminated and not truncated
    assert reward == -1.0 and total == -1.0
    assert info["outcome"]["winner"] == "red"
    assert not adapter.action_masks().any()


def test_adapter_with_a_shared_side_acts_for_every_agent_of_that_side():
    adapter = ActionMaskAdapter(env(rosters=TWO_VS_TWO), learner="red_0", share_side=True)
    seen = set()
    obs, info = adapter.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(500):
        seen.add(adapter.agent)
        obs, reward, terminated, truncated, info = adapter.step(int(rng.choice(np.flatnonzero(adapter.action_masks()))))
        assert reward in (-1.0, 0.0, 1.0)
        if terminated or truncated:
            obs, info = adapter.reset()
    assert seen == {"red_0", "red_1"}
    assert adapter.controls("red_1") and not adapter.controls("blue_0")


def test_adapter_passes_the_gymnasium_and_sb3_env_checkers():
    from gymnasium.utils.env_checker import check_env
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    adapter = ActionMaskAdapter(env(rosters=TWO_VS_TWO), learner="blue_1", share_side=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(adapter, skip_render_check=True)
        sb3_check_env(adapter, warn=True, skip_render_check=True)


def test_maskable_ppo_learns_on_the_adapter():
    sb3_contrib = pytest.importorskip("sb3_contrib")
    adapter = ActionMaskAdapter(env(rosters=TWO_VS_TWO), learner="red_0", opponents=random_policy(np.random.default_rng(0)))
    model = sb3_contrib.MaskablePPO("MlpPolicy", adapter, n_steps=64, batch_size=32, n_epochs=1, seed=0, device="cpu")
    model.learn(total_timesteps=256)
    obs, _ = adapter.reset(seed=1)
    action, _ = model.predict(obs, action_masks=adapter.action_masks(), deterministic=True)
    assert adapter.action_masks()[int(action)]
