"""CombatAECEnv and ActionMaskAdapter on the toy game of ``envs.rl.toy`` ("race to 3 points" with a
reaction phase; its docstring gives the rules)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from envs.core import (
    DataError,
    IllegalActionError,
)
from envs.rl import (
    ActionMaskAdapter,
    EncodingError,
    legal_index_map,
    mask_from_legal,
    random_policy,
)
from envs.rl.toy import DUEL, ENCODING, TWO_VS_TWO, RaceEncounter, Scored, ToyEncoding, env, raw_env

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
    assert e.metadata == {"render_modes": ["ansi"], "name": "toy_v0", "is_parallelizable": False}
    assert str(e) == "toy_v0"
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
    assert set(np.flatnonzero(mask)) == {
        ENCODING.layout.index("react", 0)
    }  # no points: cannot block
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
        if (
            agent in attack_ann
            and mask[ENCODING.layout.index("attack", 0)]
            and e.encounter.is_active("ann")
        ):
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
    e.reset(
        seed=0,
        options={
            "situation": {"system": "toy", "points": {"ann": 2}, "hp": {"bob": 1}, "round": 4}
        },
    )
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
    adapter = ActionMaskAdapter(
        env(max_rounds=100), learner="blue_0", opponents=lambda obs, mask: score
    )
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
        obs, reward, terminated, truncated, info = adapter.step(
            int(rng.choice(np.flatnonzero(adapter.action_masks())))
        )
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
    adapter = ActionMaskAdapter(
        env(rosters=TWO_VS_TWO), learner="red_0", opponents=random_policy(np.random.default_rng(0))
    )
    model = sb3_contrib.MaskablePPO(
        "MlpPolicy", adapter, n_steps=64, batch_size=32, n_epochs=1, seed=0, device="cpu"
    )
    model.learn(total_timesteps=256)
    obs, _ = adapter.reset(seed=1)
    action, _ = model.predict(obs, action_masks=adapter.action_masks(), deterministic=True)
    assert adapter.action_masks()[int(action)]
