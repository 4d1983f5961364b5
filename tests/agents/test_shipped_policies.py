"""The policies that ship in ``agents/policies/``: each loads against the current env and beats
random play, ``trained`` without a path plays it, a file made for another env version says how to
retrain it, and ``ActionMaskAdapter`` takes the project's agents as opponents.
"""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

import agents.trained as trained_module
from agents import make_agent
from agents.episode import encounter_sides, play
from agents.policies import SHIPPED_SYSTEMS, install, scrub
from agents.trained import (
    POLICY_DIR,
    PolicyFileError,
    TrainedAgent,
    load_policy,
    shipped_policy,
    sidecar_path,
)
from envs import SYSTEMS, get_encoding, get_rules, make_env
from envs.rl import ActionMaskAdapter

GAMES = 100
"""games against random, sides alternating; the shipped policy must win 90 of them"""


def real_systems() -> list[str]:
    return [s for s, entry in SYSTEMS.items() if not entry.test_only]


def test_every_real_system_ships_a_policy_for_its_main_encounter():
    assert sorted(SHIPPED_SYSTEMS) == sorted(real_systems())
    names = sorted(p.name for p in POLICY_DIR.iterdir() if p.suffix in (".pt", ".json"))
    expected = []
    for system in SHIPPED_SYSTEMS:
        main = get_rules(system).encounter_names()[0]
        expected += [f"{system}_{main}.json", f"{system}_{main}.pt"]
    assert names == sorted(expected)
    total = sum((POLICY_DIR / n).stat().st_size for n in names)
    assert total < 8_000_000, f"the shipped policies take {total} bytes"


@pytest.mark.parametrize("system", SHIPPED_SYSTEMS)
def test_a_shipped_policy_loads_and_its_sidecar_is_clean(system: str):
    path = shipped_policy(system)
    policy = load_policy(path, system)
    encoding = get_encoding(system)
    meta = policy.meta
    assert (meta["system"], meta["env"], meta["encounter"]) == (
        system,
        encoding.name,
        get_rules(system).encounter_names()[0],
    )
    assert (meta["obs_size"], meta["n_actions"]) == (encoding.obs_spec.size, encoding.layout.size)
    assert meta["config"]["run_dir"] == f"runs/{system}_ship"
    text = sidecar_path(path).read_text()
    assert scrub(meta) == meta
    for marker in ("/home/", "/work/", "/tmp/", "/Users/", "\\\\"):
        assert marker not in text, f"{sidecar_path(path).name} holds {marker!r}"


@pytest.mark.parametrize("system", SHIPPED_SYSTEMS)
def test_a_shipped_policy_beats_random_in_90_of_100_games(system: str):
    """Rules-level games on the main encounter, dice seeds 0..99, the trained side alternating;
    the random player's generator is seeded apart from the dice (1000 + seed), so its choices do
    not replay the dice stream."""
    encounter = get_rules(system).encounter_names()[0]
    sides = encounter_sides(system, encounter)
    trained = make_agent("trained", system, 0)
    wins = draws = 0
    for seed in range(GAMES):
        me, other = sides if seed % 2 == 0 else sides[::-1]
        random = make_agent("random", system, 1000 + seed)
        rec = play(system, encounter, {me: trained, other: random}, seed)
        wins += rec.winner == me
        draws += rec.winner is None
    assert wins >= 90, f"{system}: the shipped policy won {wins} of {GAMES} ({draws} draws)"


def test_trained_without_a_path_is_the_systems_shipped_policy():
    for system in SHIPPED_SYSTEMS:
        agent = make_agent("trained", system, 7)
        assert isinstance(agent, TrainedAgent)
        assert agent.name == "trained"
        assert agent.policy.meta["system"] == system
        main_file = f"{system}_{get_rules(system).encounter_names()[0]}.pt"
        assert agent.policy is load_policy(POLICY_DIR / main_file)
    with pytest.raises(PolicyFileError) as err:
        make_agent("trained", "toy")  # the test-only system registered by conftest ships none
    have = ", ".join(sorted(p.stem for p in POLICY_DIR.glob("*.pt")))
    assert str(err.value) == (
        f"no trained policy ships for system 'toy' (agents/policies/ has: {have}); "
        "train one with arena train CONFIG.yaml and play it as trained:PATH"
    )
    with pytest.raises(ValueError, match="^unknown system 'chess'; known: metanoia"):
        make_agent("trained", "chess")


def test_arena_match_plays_trained_without_a_path(capsys):
    from eval.cli import main

    assert main(["match", "metanoia", "duel_seed", "trained", "random", "--games", "2"]) == 0
    assert "trained" in capsys.readouterr().out


def _copy_with_sidecar(folder, system: str, name: str | None = None, **changes):
    """A copy of the shipped file (the package's, whatever ``POLICY_DIR`` is patched to) in
    ``folder``, its sidecar changed."""
    src = POLICY_DIR / f"{system}_{get_rules(system).encounter_names()[0]}.pt"
    dst = folder / (name or src.name)
    shutil.copyfile(src, dst)
    meta = json.loads(sidecar_path(src).read_text())
    meta.update(changes)
    sidecar_path(dst).write_text(json.dumps(meta))
    return dst


@pytest.mark.parametrize("system", SHIPPED_SYSTEMS)
def test_a_shipped_file_for_another_env_version_says_how_to_retrain_it(
    tmp_path, monkeypatch, system: str
):
    enc = get_encoding(system)
    old = enc.name.rsplit("_v", 1)[0] + "_v99"
    path = _copy_with_sidecar(tmp_path, system, env=old)
    monkeypatch.setattr(trained_module, "POLICY_DIR", tmp_path)  # the copy is the shipped file
    with pytest.raises(PolicyFileError) as err:
        make_agent("trained", system)
    now = f"{enc.name} with obs_size {enc.obs_spec.size}, n_actions {enc.layout.size}"
    assert str(err.value) == (
        f"{sidecar_path(path)}: field 'env' is {old!r}, but this version's env has {enc.name!r} "
        f"(trained for {old} with obs_size {enc.obs_spec.size}, n_actions {enc.layout.size}; "
        f"the env is now {now}); retrain it: python -m agents.policies retrain {system}"
    )


def test_a_file_of_other_sizes_outside_the_package_names_arena_train(tmp_path):
    enc = get_encoding("metanoia")
    path = _copy_with_sidecar(tmp_path, "metanoia", obs_size=enc.obs_spec.size - 3)
    with pytest.raises(PolicyFileError) as err:
        load_policy(path, "metanoia")
    message = str(err.value)
    assert message.startswith(f"{sidecar_path(path)}: field 'obs_size' is {enc.obs_spec.size - 3}")
    assert f"(trained for {enc.name} with obs_size {enc.obs_spec.size - 3}, " in message
    assert message.endswith(
        "retrain it: arena train CONFIG.yaml system=metanoia (its sidecar's 'config' holds the "
        "settings)"
    )
    assert "\n" not in message


def test_install_copies_a_policy_and_scrubs_absolute_paths(tmp_path, monkeypatch):
    src = _copy_with_sidecar(tmp_path, "metanoia")
    meta = json.loads(sidecar_path(src).read_text())
    meta["config"]["run_dir"] = str(tmp_path / "run")
    meta["config"]["opponents"] = {f"trained:{tmp_path}/old.pt": 1.0, "random": 0.5}
    sidecar_path(src).write_text(json.dumps(meta))
    target_dir = tmp_path / "ship"
    target_dir.mkdir()
    monkeypatch.setattr(trained_module, "POLICY_DIR", target_dir)
    monkeypatch.setattr("agents.policies.POLICY_DIR", target_dir)
    out = install("metanoia", src)
    assert out == target_dir / "metanoia_duel_seed.pt"
    assert out.read_bytes() == src.read_bytes()
    written = json.loads(sidecar_path(out).read_text())
    assert written["config"]["run_dir"] == "run"
    assert written["config"]["opponents"] == {"trained:old.pt": 1.0, "random": 0.5}
    assert str(tmp_path) not in sidecar_path(out).read_text()
    other = _copy_with_sidecar(tmp_path, "metanoia", "other.pt", encounter="pvp_2v2")
    with pytest.raises(PolicyFileError) as err:
        install("metanoia", other)
    assert str(err.value) == (
        f"{sidecar_path(other)}: field 'encounter' is 'pvp_2v2'; "
        "the shipped metanoia policy is trained on 'duel_seed'"
    )
    assert out.read_bytes() == src.read_bytes()  # the refused file changed nothing


# ------------------------------------------------------------------------------- the adapter


def _opponent_specs() -> list[str]:
    return ["heuristic", "search:16", "trained", f"trained:{shipped_policy('metanoia')}"]


@pytest.mark.parametrize("spec", _opponent_specs(), ids=lambda s: s.split(":")[0] + (
    ":PATH" if s.startswith("trained:") else s[len(s.split(":")[0]):]))
@pytest.mark.parametrize("built", [False, True], ids=["spec", "built"])
def test_the_adapter_plays_project_agents_as_opponents(spec: str, built: bool):
    """An episode runs to its end; every opponent move is legal and is the agent's own choice
    (a twin of the agent, built with the same seed, picks the same index at each decision)."""
    env = make_env("metanoia", "duel_seed")
    learner = env.possible_agents[0]
    opponent = make_agent(spec, "metanoia", 3) if built else spec
    adapter = ActionMaskAdapter(env, learner, opponents=opponent, opponent_seed=3)
    twin = make_agent(spec, "metanoia", 3)
    raw = env.unwrapped
    moves: list[tuple[str, int]] = []
    step = env.step

    def spy(action):
        agent = env.agent_selection
        if not adapter.controls(agent) and not (env.terminations[agent] or env.truncations[agent]):
            mask = env.observe(agent)["action_mask"]
            assert mask[action] == 1, f"{spec}: {agent} played masked-out index {action}"
            enc = raw.encounter
            want = raw.encoding.encode_action(enc, enc.current_actor(), twin.choose(enc))
            assert action == want
            moves.append((agent, int(action)))
        step(action)

    env.step = spy
    rng = np.random.default_rng(0)
    obs, info = adapter.reset(seed=11)
    done = False
    for _ in range(2000):
        action = int(rng.choice(np.flatnonzero(adapter.action_masks())))
        obs, reward, term, trunc, info = adapter.step(action)
        if term or trunc:
            done = True
            break
    assert done and info["outcome"]["reason"]
    assert len(moves) >= 3, f"{spec}: only {len(moves)} opponent moves"
    assert {a for a, _ in moves} == {a for a in env.possible_agents if a != learner}


def test_the_adapter_takes_a_mapping_of_specs_and_refuses_bad_ones():
    env = make_env("metanoia", "duel_seed")
    learner, other = env.possible_agents
    adapter = ActionMaskAdapter(env, learner, opponents={other: "heuristic"}, opponent_seed=0)
    adapter.reset(seed=1)
    with pytest.raises(ValueError) as err:
        ActionMaskAdapter(make_env("metanoia"), learner, opponents={other: "genius"})
    assert str(err.value).startswith(f"opponents[{other!r}]: unknown agent 'genius'; known: ")
    with pytest.raises(TypeError, match="^opponents: 42 is not a policy, an agent or an agent"):
        ActionMaskAdapter(make_env("metanoia"), learner, opponents=42)


class ScoresOnly:
    """A policy with only ``scores`` (the ``Policy`` protocol, no ``choose``/``pick``)."""

    name = "scores-only"

    def __init__(self) -> None:
        self.inner = make_agent("heuristic", "metanoia", 0)

    def scores(self, observation, mask, encounter):
        return self.inner.scores(observation, mask, encounter)


def test_the_adapter_plays_a_scores_only_policy_by_its_best_score():
    env = make_env("metanoia", "duel_seed")
    learner = env.possible_agents[0]
    adapter = ActionMaskAdapter(env, learner, opponents=ScoresOnly())
    judge = ScoresOnly()
    step, played = env.step, []

    def spy(action):
        agent = env.agent_selection
        if not adapter.controls(agent) and not (env.terminations[agent] or env.truncations[agent]):
            obs = env.observe(agent)
            s = judge.scores(obs["observation"], obs["action_mask"], env.unwrapped.encounter)
            assert action == int(np.flatnonzero(s == s[obs["action_mask"] == 1].max())[0])
            played.append(action)
        step(action)

    env.step = spy
    adapter.reset(seed=2)
    rng = np.random.default_rng(1)
    for _ in range(2000):
        *_, term, trunc, _ = adapter.step(int(rng.choice(np.flatnonzero(adapter.action_masks()))))
        if term or trunc:
            break
    assert term or trunc
    assert len(played) >= 3


# ------------------------------------------------------------------------------- the tool


def test_retrain_trains_with_the_ship_config_and_installs_the_result(tmp_path, monkeypatch, capsys):
    """``python -m agents.policies retrain`` (the command the mismatch message names), on a tiny
    budget and into a temporary package folder."""
    from agents.policies.__main__ import main

    monkeypatch.setattr(trained_module, "POLICY_DIR", tmp_path / "ship")
    monkeypatch.setattr("agents.policies.POLICY_DIR", tmp_path / "ship")
    (tmp_path / "ship").mkdir()
    run = tmp_path / "run"
    tiny = ["total_timesteps=64", "n_envs=2", "n_steps=32", "batch_size=32", "n_epochs=1",
            "imitation_games=0", "eval_games=1", "net_arch=[8]", f"run_dir={run}"]
    assert main(["retrain", "metanoia", *tiny]) == 0
    out = capsys.readouterr().out
    assert f"installed {tmp_path / 'ship' / 'metanoia_duel_seed.pt'}" in out
    assert "metanoia: the new policy won " in out
    meta = json.loads((tmp_path / "ship" / "metanoia_duel_seed.json").read_text())
    assert (meta["pi"], meta["config"]["run_dir"], meta["timesteps"]) == ([8], "run", 64)
    assert meta["config"]["torch_threads"] == 1 and meta["config"]["vec_env"] == "dummy"


def test_the_tool_refuses_bad_input_in_one_line(tmp_path, capsys):
    from agents.policies.__main__ import main

    assert main(["check", "toy"]) == 2
    err = capsys.readouterr().err
    assert err == (
        "python -m agents.policies: error: no policy ships for 'toy'; known: "
        f"{', '.join(SHIPPED_SYSTEMS)}\n"
    )
    assert SHIPPED_SYSTEMS[:2] == ("metanoia", "mano_a_mano")
    assert main(["install", "metanoia", str(tmp_path / "none.pt")]) == 2
    err = capsys.readouterr().err
    assert err == f"python -m agents.policies: error: {tmp_path / 'none.pt'}: no such policy file\n"
    assert main(["retrain", "metanoia", "lr=1"]) == 2
    assert "unknown key 'lr'" in capsys.readouterr().err
