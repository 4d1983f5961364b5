"""PettingZoo API compliance and env behaviour of every registered system (DESIGN.md, "The
environment").

Generic checks run for every system, every encounter and both rule sets; the SB3 adapter check and
the situation/round-cap checks use Metanoia, the only system so far.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from envs import SYSTEMS, get_env_module, get_rules, make_env
from envs.core import IllegalActionError
from envs.rl import ActionMaskAdapter, random_policy

RULE_SETS = ("core", "full")
CASES = [(s, e, r) for s in SYSTEMS for e in get_rules(s).encounter_names() for r in RULE_SETS]
IDS = [f"{s}-{e}-{r}" for s, e, r in CASES]


@pytest.fixture(autouse=True)
def _quiet_api_test_advice():
    """api_test's style advice (Dict observations, agent name format) is not a failure."""
    with warnings.catch_warnings():
        warnings.filterwarnings(
            "ignore", message=r".*(probably should be|We recommend agents|is not a NumPy array).*"
        )
        yield


def random_play(env, rng: np.random.Generator, on_decision=None, max_steps: int = 5000,
                infos: dict | None = None) -> dict[str, float]:
    """Play ``env`` (already reset) to the end with uniform random legal indices.

    ``on_decision(env, agent, obs)`` is called before every live decision. Returns each agent's
    reward as ``last()`` reported it on its final (dead) step; ``infos`` (if given) receives each
    agent's info and termination/truncation flags of that step.
    """
    final: dict[str, float] = {}
    for agent in env.agent_iter(max_steps):
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            final[agent] = reward
            if infos is not None:
                infos[agent] = {**info, "_term": term, "_trunc": trunc}
            env.step(None)
            continue
        if on_decision is not None:
            on_decision(env, agent, obs)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert not env.agents, f"the fight did not end within {max_steps} agent steps"
    return final


# ------------------------------------------------------------------------ pettingzoo's own tests


@pytest.mark.parametrize(("system", "encounter", "rules"), CASES, ids=IDS)
def test_api_test(system: str, encounter: str, rules: str):
    api_test(make_env(system, encounter, rules=rules), num_cycles=200)


@pytest.mark.parametrize(("system", "encounter", "rules"), CASES, ids=IDS)
def test_seed_test(system: str, encounter: str, rules: str):
    seed_test(lambda: make_env(system, encounter, rules=rules), num_cycles=100)


@pytest.mark.parametrize("system", list(SYSTEMS))
def test_metadata_and_spaces(system: str):
    module = get_env_module(system)
    env = make_env(system)
    env.reset(seed=0)
    assert env.metadata["name"] == module.ENCODING.name
    n = module.ENCODING.layout.size
    for agent in env.possible_agents:
        side, _, slot = agent.rpartition("_")
        assert side and slot.isdigit(), f"agent {agent!r} is not <side>_<slot>"
        assert env.action_space(agent).n == n
        assert env.observation_space(agent)["observation"].shape == (module.ENCODING.obs_spec.size,)
        obs = env.observe(agent)
        assert obs["observation"].dtype == np.float32 and obs["action_mask"].dtype == np.int8
        assert env.observation_space(agent).contains(obs)
        if agent != env.agent_selection:
            assert not obs["action_mask"].any(), "non-acting agents get an all-zero mask"
    # the env module's docstring table states the sizes it has (or N/M where they vary)
    import re

    doc = module.__doc__ or ""
    for stated in re.findall(r"Discrete\((\d+)\)|Box\(0, 1, \((\d+),\)", doc):
        assert int(next(x for x in stated if x)) == n, f"{module.__name__} docstring: {stated}"
    for stated in re.findall(r"Box\(-1, 1, \((\d+),\)", doc):
        assert int(stated) == module.ENCODING.obs_spec.size, f"{module.__name__} docstring"


def test_unknown_encounter_and_rules_are_rejected():
    with pytest.raises(ValueError, match="unknown metanoia encounter"):
        make_env("metanoia", "no_such_fight")
    with pytest.raises(ValueError, match="unknown rules"):
        make_env("metanoia", "duel_seed", rules="medium")
    with pytest.raises(ValueError, match="unknown system"):
        make_env("no_such_system")


# ----------------------------------------------------------------- mask == encoded legal actions


@pytest.mark.parametrize(("system", "encounter", "rules"), CASES, ids=IDS)
def test_mask_is_exactly_the_encoded_legal_actions(system: str, encounter: str, rules: str):
    """At every decision of several random games: the mask's index set is ``{encode(a)}`` over the
    legal actions, and ``decode(encode(a)) == a`` for each of them."""
    encoding = get_env_module(system).ENCODING
    checked = 0

    def check(env, agent, obs):
        nonlocal checked
        raw = env.unwrapped
        enc = raw.encounter
        cid = raw.combatant(agent)
        assert enc.current_actor() == cid, "agent_selection follows current_actor()"
        legal = enc.legal_actions()
        indices = [encoding.encode_action(enc, cid, a) for a in legal]
        assert len(set(indices)) == len(indices), "two legal actions share an index"
        for i, a in zip(indices, legal, strict=True):
            assert encoding.decode_action(enc, cid, i) == a, f"decode(encode({a.label})) != itself"
        assert set(np.flatnonzero(obs["action_mask"]).tolist()) == set(indices)
        checked += 1

    for seed in range(20):  # at least 3 games and 20 decisions (a Metaforce duel can end at
        if seed >= 3 and checked > 20:  # once: Withdraw is legal from the starting edge)
            break
        env = make_env(system, encounter, rules=rules)
        env.reset(seed=seed)
        random_play(env, np.random.default_rng(seed), check)
    assert checked > 20


def test_illegal_index_raises_in_raw_env_and_ends_the_game_when_wrapped():
    raw = make_env("metanoia", "duel_seed", wrapped=False)
    raw.reset(seed=0)
    illegal = int(np.flatnonzero(raw.observe(raw.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match="not legal"):
        raw.step(illegal)
    env = make_env("metanoia", "duel_seed")
    env.reset(seed=0)
    offender = env.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(illegal)
    assert env.rewards[offender] == -1
    assert all(env.terminations.values())


# ---------------------------------------------------------------------------- SB3 adapter


def test_sb3_adapter_exposes_the_current_mask():
    env = make_env("metanoia", "pvp_2v2")
    adapter = ActionMaskAdapter(
        env, learner="A_0", opponents=random_policy(np.random.default_rng(1))
    )
    obs, info = adapter.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(200):
        assert info["agent"] == "A_0" == env.agent_selection
        current = env.observe("A_0")
        mask = adapter.action_masks()
        assert mask.dtype == bool and mask.shape == (env.action_space("A_0").n,)
        assert np.array_equal(mask, current["action_mask"].astype(bool))
        assert np.array_equal(obs, current["observation"])
        assert adapter.observation_space.contains(obs)
        obs, reward, terminated, truncated, info = adapter.step(
            int(rng.choice(np.flatnonzero(mask)))
        )
        if terminated or truncated:
            assert reward in (-1.0, 0.0, 1.0)
            assert not adapter.action_masks().any()
            obs, info = adapter.reset()
    with pytest.raises(ValueError, match="not an agent"):
        ActionMaskAdapter(env, learner="C_0")


def test_maskable_ppo_learns_a_few_steps():
    from sb3_contrib import MaskablePPO

    adapter = ActionMaskAdapter(make_env("metanoia", "duel_seed"), learner="A_0",
                                opponents=random_policy(np.random.default_rng(0)))
    model = MaskablePPO(
        "MlpPolicy",
        adapter,
        n_steps=32,
        batch_size=32,
        n_epochs=1,
        seed=0,
        device="cpu",
        policy_kwargs={"net_arch": [32]},
        verbose=0,
    )
    model.learn(128)
    assert model.num_timesteps >= 128
    obs, _ = adapter.reset(seed=5)
    action, _ = model.predict(obs, action_masks=adapter.action_masks(), deterministic=True)
    assert adapter.action_masks()[int(action)], "a masked prediction is always legal"


# ------------------------------------------------------------------ render, situations, rewards


def test_render_ansi_returns_the_event_log():
    env = make_env("metanoia", "duel_seed", render_mode="ansi")
    env.reset(seed=4)
    pieces = [env.render()]
    assert pieces[0].startswith("initiative:"), pieces[0]
    rng = np.random.default_rng(4)
    for _ in env.agent_iter(2000):
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        pieces.append(env.render())
    text = "\n".join(p for p in pieces if p)
    log = env.unwrapped.log_text()
    assert text == log
    assert log == "\n".join(map(str, env.unwrapped.event_log))
    assert "fight over" in log.splitlines()[-1]
    assert env.render() == "", "nothing new since the last render()"


def test_render_without_mode_returns_none():
    env = make_env("metanoia", "duel_seed")
    env.reset(seed=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert env.render() is None


def test_reset_from_a_situation_dict():
    situation = {
        "system": "metanoia",
        "options": {"version": "core", "round_limit": 5},
        "combatants": [
            {
                "id": "hero",
                "side": "A",
                "zone": 1,
                "stats": "rotblade_duelist",
                "state": {"strain": 2, "stacks": 3},
            },
            {"id": "foe", "side": "B", "zone": 1, "stats": "gravel_brute"},
            {"id": "foe2", "side": "B", "zone": 2, "stats": "hexbow_skirmisher"},
        ],
        "order": ["foe", "hero", "foe2"],
        "actor": "hero",
        "round": 3,
    }
    env = make_env("metanoia", "duel_seed")
    env.reset(seed=0, options={"situation": situation})
    raw = env.unwrapped
    assert env.possible_agents == ["A_0", "B_0", "B_1"] == env.agents
    assert env.agent_selection == "A_0" and raw.combatant("A_0") == "hero"
    enc = raw.encounter
    assert enc.round == 3 and enc.options.round_limit == 5
    snap = enc.snapshot()
    assert snap["combatants"]["hero"]["stacks"] == 3
    assert snap["combatants"]["hero"]["strain"] == 2
    obs = env.observe("A_0")
    assert obs["action_mask"].any() and env.observation_space("A_0").contains(obs)
    final = random_play(env, np.random.default_rng(0))
    assert set(final) == {"A_0", "B_0", "B_1"}
    assert raw.encounter.outcome().round <= 5
    # the next plain reset goes back to the env's own encounter and roster
    env.reset(seed=1)
    assert env.agents == ["A_0", "B_0"]


def test_reset_from_a_named_encounter_situation_and_a_bad_one():
    env = make_env("metanoia", "pvp_2v2")
    env.reset(
        seed=0,
        options={
            "situation": {"system": "metanoia", "encounter": "duel_seed", "actor": "shadow_warden"}
        },
    )
    assert env.agents == ["A_0", "B_0"] and env.agent_selection == "B_0"
    with pytest.raises(ValueError, match="field 'system'"):
        env.reset(options={"situation": {"system": "chess", "encounter": "duel_seed"}})


def _first_fight_ending(
    encounter: str, reason: str, rules: str = "full", seeds: range = range(200), **kw
):
    """A random game that ends with ``reason``: env, final rewards, final infos and the outcome."""
    for seed in seeds:
        env = make_env("metanoia", encounter, rules=rules, **kw)
        env.reset(seed=seed)
        infos: dict = {}
        final = random_play(env, np.random.default_rng(seed), infos=infos)
        outcome = env.unwrapped.encounter.outcome()
        if outcome.reason == reason:
            return env, final, infos, outcome
    pytest.fail(f"no random {encounter} game ended by {reason}")


@pytest.mark.parametrize("encounter", ["duel_seed", "pvp_2v2"])
def test_winner_gets_plus_one_and_loser_minus_one(encounter: str):
    env, final, infos, outcome = _first_fight_ending(encounter, "defeat")
    assert outcome.winner is not None
    assert not env.agents, "every agent is removed after its final step"
    for agent in env.possible_agents:
        want = 1.0 if agent.startswith(outcome.winner + "_") else -1.0
        assert final[agent] == want, (agent, final)
        assert infos[agent]["terminal_reward"] == want
        assert infos[agent]["outcome"] == {
            "winner": outcome.winner,
            "reason": "defeat",
            "round": outcome.round,
        }
        assert infos[agent]["_term"] and not infos[agent]["_trunc"]


def test_round_cap_is_a_truncated_draw():
    env = make_env("metanoia", "party_vs_monsters", rules={"version": "full", "round_limit": 1})
    assert env.unwrapped.rule_options.round_limit == 1
    env.reset(seed=0)
    infos: dict = {}
    final = random_play(env, np.random.default_rng(0), infos=infos)
    outcome = env.unwrapped.encounter.outcome()
    assert (outcome.winner, outcome.reason, outcome.round) == (None, "round_cap", 1)
    assert final == dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.possible_agents:
        assert infos[agent]["_trunc"] and not infos[agent]["_term"]
        assert infos[agent]["terminal_reward"] == 0.0


def test_round_cap_from_a_situation():
    situation = {
        "system": "metanoia",
        "encounter": "duel_seed",
        "options": {"version": "core", "round_limit": 2},
        "actor": "rotblade_duelist",
        "round": 2,
    }
    env = make_env("metanoia", "duel_seed")
    env.reset(seed=0, options={"situation": situation})
    infos: dict = {}
    final = random_play(env, np.random.default_rng(0), infos=infos)
    outcome = env.unwrapped.encounter.outcome()
    if outcome.reason == "round_cap":
        assert final == {"A_0": 0.0, "B_0": 0.0}
        assert all(i["_trunc"] for i in infos.values())
    else:  # someone fell in the last round
        assert sorted(final.values()) == [-1.0, 1.0]
    assert outcome.round == 2


def test_shaping_is_reported_separately():
    """Shaping terms go to ``infos[agent]["shaping"]``; the terminal reward stays exactly +1/-1."""
    env, _, infos, outcome = _first_fight_ending("duel_seed", "defeat", shaping=True)
    hurt = any(
        type(e).__name__ in ("InjuryLanded", "ConvictionsChanged") for e in env.unwrapped.event_log
    )
    for agent, info in infos.items():
        assert info["terminal_reward"] == (1.0 if agent.startswith(outcome.winner + "_") else -1.0)
        if hurt:
            assert set(info["shaping"]) == {"harm"}
    assert hurt
