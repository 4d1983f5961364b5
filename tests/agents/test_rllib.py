"""``--backend rllib`` (agents/rllib): config refusals, the masked module and its export, the
self-play mapping, the env's draw reward, and a tiny run that round-trips to a policy file.

The tiny run starts a local Ray (about 10-30 s on 2 cores); everything else needs no Ray process.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

pytest.importorskip("ray.rllib")

import torch  # noqa: E402
from ray.rllib.core.columns import Columns  # noqa: E402
from ray.rllib.core.rl_module.rl_module import RLModuleSpec  # noqa: E402

from agents.episode import encounter_sides, play  # noqa: E402
from agents.random_agent import RandomAgent  # noqa: E402
from agents.rllib.config import load_rllib_config  # noqa: E402
from agents.rllib.env import LEARNER, RANDOM, ArenaPettingZooEnv, mapping_fn  # noqa: E402
from agents.rllib.module import MASKED, MaskedMLPModule, export_weights  # noqa: E402
from agents.trained import MLPPolicy, TrainedAgent, load_policy  # noqa: E402
from agents.training import main  # noqa: E402
from envs import SYSTEMS, make_env  # noqa: E402
from envs.core import IllegalActionError  # noqa: E402

DUEL = ("metanoia", "duel_seed")


def _sample_observations(n: int = 12, seed: int = 0, system: str = "metanoia"
                         ) -> dict[str, np.ndarray]:
    """``n`` observations of deciding agents from random play on ``system``'s first encounter."""
    env = make_env(system, wrapped=False)
    rng = np.random.default_rng(seed)
    obs, masks = [], []
    env.reset(seed=seed)
    while len(obs) < n:
        agent = env.agent_selection
        o, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            if not env.agents:
                env.reset()
            continue
        obs.append(o["observation"])
        masks.append(o["action_mask"])
        env.step(int(rng.choice(np.flatnonzero(o["action_mask"]))))
        del agent
    return {"observation": np.stack(obs), "action_mask": np.stack(masks)}


def _module(uniform: bool = False, hidden: tuple[int, ...] = (32, 16), system: str = "metanoia"
            ) -> MaskedMLPModule:
    env = make_env(system, wrapped=False)
    agent = env.possible_agents[0]
    torch.manual_seed(0)
    return RLModuleSpec(
        module_class=MaskedMLPModule,
        observation_space=env.observation_space(agent),
        action_space=env.action_space(agent),
        model_config={"hidden": list(hidden), "activation": "tanh", "uniform": uniform},
    ).build()


# ---------------------------------------------------------------------------------- config


@pytest.mark.parametrize(
    ("override", "key"),
    [
        ("opponents={heuristic: 1}", "opponents"),
        ("imitation_games=10", "imitation_games"),
        ("n_envs=3", "n_envs"),  # workers=2 in the file
        ("workers=-1", "workers"),
        ("learning_rate=0", "learning_rate"),  # the shared checks still run
    ],
)
def test_config_the_rllib_backend_cannot_run_is_one_line_naming_the_key(override, key, capsys):
    code = main(["configs/train/metanoia_rllib.yaml", override, "--backend", "rllib"],
                prog="arena train")
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert len(err.splitlines()) == 1
    assert f"key {key!r}" in err and "metanoia_rllib.yaml" in err


def test_self_play_alone_and_in_process_sampling_are_allowed_for_rllib_only():
    cfg = load_rllib_config("configs/train/metanoia_rllib.yaml", ["opponents={self: 1}",
                                                                   "workers=0"])
    assert cfg.opponents == {"self": 1.0} and cfg.workers == 0


def test_ray_address_needs_the_rllib_backend(capsys):
    with pytest.raises(SystemExit) as e:
        main(["configs/train/smoke.yaml", "--ray", "ray://head:10001"], prog="arena train")
    assert e.value.code == 2
    assert "--ray needs --backend rllib" in capsys.readouterr().err


# ---------------------------------------------------------------------------------- module


@pytest.mark.parametrize("system", list(SYSTEMS))
def test_exported_policy_computes_the_modules_masked_logits_and_values(system):
    module = _module(system=system)
    batch = _sample_observations(system=system)
    obs = {k: torch.as_tensor(v) for k, v in batch.items()}
    with torch.no_grad():
        logits = module.forward_inference({Columns.OBS: obs})[Columns.ACTION_DIST_INPUTS].numpy()
        values = module.compute_values({Columns.OBS: obs}).numpy()
    legal = batch["action_mask"] != 0
    assert np.all(logits[~legal] == MASKED)  # off the mask: the smallest float32

    weights = export_weights(module.state_dict())
    assert sorted(weights) == sorted(f"{h}.{i}.{p}" for h in ("pi", "vf") for i in range(3)
                                     for p in ("weight", "bias"))
    policy = MLPPolicy(weights, {"activation": "tanh"})
    np.testing.assert_allclose(policy.logits(batch["observation"])[legal], logits[legal],
                               rtol=1e-5, atol=1e-5)
    for i in range(len(values)):
        assert policy.value(batch["observation"][i]) == pytest.approx(float(values[i]), abs=1e-5)
        want = torch.log_softmax(torch.as_tensor(logits[i], dtype=torch.float64), -1).numpy()
        got = policy.log_probs(batch["observation"][i], batch["action_mask"][i])
        np.testing.assert_allclose(got[legal[i]], want[legal[i]], atol=1e-5)
        assert np.all(np.isneginf(got[~legal[i]]))


def test_the_random_module_is_uniform_over_the_mask():
    module = _module(uniform=True)
    batch = _sample_observations(4)
    obs = {k: torch.as_tensor(v) for k, v in batch.items()}
    with torch.no_grad():
        logits = module.forward_exploration({Columns.OBS: obs})[Columns.ACTION_DIST_INPUTS]
    probs = torch.softmax(logits, -1).numpy()
    legal = batch["action_mask"] != 0
    for row, ok in zip(probs, legal, strict=True):
        np.testing.assert_allclose(row[ok], 1.0 / ok.sum(), rtol=1e-6)
        assert np.all(row[~ok] == 0.0)


# ---------------------------------------------------------------------------------- env, mapping


def test_mapping_puts_each_side_on_one_module_and_the_learner_on_both_sides_over_episodes():
    agents = ["A_0", "A_1", "B_0"]
    vs_random = mapping_fn({"random": 1.0}, ["A", "B"])
    learner_sides = set()
    for i in range(40):
        got = {a: vs_random(a, f"episode-{i}") for a in agents}
        assert got["A_0"] == got["A_1"] and got["A_0"] != got["B_0"]  # a side is one module
        assert set(got.values()) == {LEARNER, RANDOM}
        learner_sides.add("A" if got["A_0"] == LEARNER else "B")
        assert got == {a: vs_random(a, f"episode-{i}") for a in agents}  # stable per episode
    assert learner_sides == {"A", "B"}
    selfplay = mapping_fn({"self": 1.0}, ["A", "B"])
    assert {selfplay(a, f"episode-{i}") for a in agents for i in range(20)} == {LEARNER}
    mixed = mapping_fn({"self": 1.0, "random": 1.0}, ["A", "B"])
    kinds = [len({mixed(a, f"e{i}") for a in agents}) for i in range(200)]
    assert 70 <= kinds.count(2) <= 130  # about half the episodes face random (binomial, 200)


def _play_out(env: ArenaPettingZooEnv, seed: int) -> tuple[dict, dict, dict]:
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while True:
        (agent, o), = obs.items()
        action = int(rng.choice(np.flatnonzero(o["action_mask"])))
        obs, rew, term, trunc, _ = env.step({agent: action})
        if term["__all__"] or trunc["__all__"]:
            return rew, term, trunc
        assert len(obs) == 1  # one decider at a time: the AEC order, reactions included


def test_round_cap_draws_pay_draw_reward_and_wins_pay_plus_minus_one():
    capped = ArenaPettingZooEnv({"system": "metanoia", "encounter": "duel_seed",
                                 "rules": {"version": "full", "round_limit": 1},
                                 "draw_reward": -0.5})
    rew, term, trunc = _play_out(capped, seed=1)
    assert trunc["__all__"] and not term["__all__"]
    assert rew == {"A_0": -0.5, "B_0": -0.5}
    full = ArenaPettingZooEnv({"system": "metanoia", "encounter": "duel_seed",
                               "draw_reward": -0.5})
    rew, term, _ = _play_out(full, seed=1)
    assert term["__all__"] and sorted(rew.values()) == [-1.0, 1.0]
    with pytest.raises(IllegalActionError):
        obs, _ = full.reset(seed=2)
        (agent, o), = obs.items()
        full.step({agent: int(np.flatnonzero(o["action_mask"] == 0)[0])})


# ---------------------------------------------------------------------------------- a tiny run


@pytest.fixture(scope="module")
def ray_up():
    """One local Ray for the module's runs (``train_rllib`` leaves a Ray it did not start up)."""
    import ray

    from agents.rllib.algo import init_ray

    init_ray(None)
    yield
    ray.shutdown()


def test_tiny_run_ctrl_c_keeps_a_policy_that_plays_legal_games_and_resume_goes_on(
    tmp_path, capsys, monkeypatch, ray_up
):
    from ray.rllib.algorithms.ppo import PPO

    run = tmp_path / "run"
    args = ["configs/train/metanoia_rllib.yaml", "--backend", "rllib", f"run_dir={run}",
            "workers=0", "n_envs=2", "n_steps=64", "batch_size=64", "n_epochs=1",
            "net_arch=[16, 16]", "eval_games=2", "eval_every=100", "checkpoint_every=100",
            "opponents={self: 0.5, random: 0.5}", "total_timesteps=256"]
    calls = []
    real_train = PPO.train

    def ctrl_c_on_the_second_round(self):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real_train(self)

    monkeypatch.setattr(PPO, "train", ctrl_c_on_the_second_round)
    assert main(args, prog="arena train") == 130
    monkeypatch.undo()
    err = capsys.readouterr().err
    done = [int(n) for n in re.findall(r"steps (\d+)/256", err)]
    assert len(done) == 1 and done[0] >= 128 and "eval vs random" in err  # one round of 128
    ckpt = run / "checkpoints" / f"step_{done[0]}"
    assert f"interrupted at {done[0]} steps" in err and str(ckpt) in err
    assert (ckpt / "state.json").is_file()
    policy = load_policy(run / "policy.pt", "metanoia")
    meta = json.loads((run / "policy.json").read_text())
    assert meta["format"] == "arena-policy/1" and meta["backend"] == "rllib"
    assert meta["pi"] == [16, 16] and meta["timesteps"] == done[0]
    first, second = encounter_sides(*DUEL, "full")
    rec = play(*DUEL, {first: TrainedAgent(policy, "metanoia"), second: RandomAgent(seed=3)},
               seed=3, options="full")  # play() applies every choice through the rules' checks
    assert rec.winner in (first, second, None)

    assert main(args, prog="arena train") == 2  # the run is there: refuse to start over
    assert "--resume" in capsys.readouterr().err
    assert main([*args, "--resume"], prog="arena train") == 0
    err = capsys.readouterr().err
    assert f"resumed from {ckpt} at {done[0]} steps" in err
    more = [int(n) for n in re.findall(r"steps (\d+)/256", err)]
    assert len(more) == 1 and more[0] >= 256  # one more round of 128 on top of the checkpoint
    assert json.loads((run / "policy.json").read_text())["timesteps"] == more[0]
