"""Policy files (DESIGN.md "Agents": trained): plain weights + sidecar, checked on load."""

from __future__ import annotations

import json
import pickle

import numpy as np
import pytest
import torch
from conftest import write_random_policy

from agents import make_agent
from agents.trained import PolicyFileError, TrainedAgent, load_policy, save_policy, sidecar_path
from envs import get_env_module, get_rules
from envs.core import SeededDice

ENC = get_env_module("metanoia").ENCODING


def edit_sidecar(path, **changes):
    side = sidecar_path(path)
    meta = json.loads(side.read_text())
    meta.update(changes)
    side.write_text(json.dumps(meta))


def test_weights_load_with_weights_only_and_round_trip(tmp_path):
    path = write_random_policy(tmp_path / "p.pt", "metanoia", hidden=(8, 4))
    raw = torch.load(path, weights_only=True)
    assert set(raw) == {
        f"{h}.{i}.{k}" for h in ("pi", "vf") for i in range(3) for k in ("weight", "bias")
    }
    policy = load_policy(path, "metanoia")
    obs = np.linspace(-1, 1, ENC.obs_spec.size, dtype=np.float32)
    x = obs
    for i in range(3):  # the same forward pass written out with torch
        x = torch.as_tensor(x) @ raw[f"pi.{i}.weight"].T + raw[f"pi.{i}.bias"]
        x = torch.tanh(x) if i < 2 else x
    np.testing.assert_allclose(policy.logits(obs), x.numpy(), rtol=1e-5, atol=1e-5)


def test_log_probs_are_minus_inf_exactly_off_the_mask_and_sum_to_one(tmp_path):
    policy = load_policy(write_random_policy(tmp_path / "p.pt", "metanoia"))
    mask = np.zeros(ENC.layout.size, dtype=np.int8)
    mask[[3, 10, 200]] = 1
    lp = policy.log_probs(np.zeros(ENC.obs_spec.size, dtype=np.float32), mask)
    assert np.array_equal(np.isfinite(lp), mask == 1)
    assert np.exp(lp[mask == 1]).sum() == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        (
            {"obs_size": ENC.obs_spec.size + 1},
            f"field 'obs_size' is {ENC.obs_spec.size + 1}, "
            f"but this version's env has {ENC.obs_spec.size}",
        ),
        ({"n_actions": 7}, "field 'n_actions' is 7"),
        ({"env": "metanoia_v99"}, "field 'env' is 'metanoia_v99', but this version's env has"),
        ({"system": "chess"}, "field 'system' is 'chess'"),
        ({"format": "pickle"}, "field 'format' is 'pickle'"),
        ({"pi": [32]}, "tensor pi.0.weight has shape (16, "),
        ({"activation": "gelu"}, "field 'activation' is 'gelu'"),
    ],
)
def test_a_mismatched_policy_is_refused_with_one_line(tmp_path, changes, message):
    path = write_random_policy(tmp_path / "p.pt", "metanoia")
    edit_sidecar(path, **changes)
    with pytest.raises(PolicyFileError) as info:
        load_policy(path, "metanoia")
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_missing_files_and_code_in_the_weights_are_refused(tmp_path):
    with pytest.raises(PolicyFileError, match="no such policy file"):
        load_policy(tmp_path / "none.pt")
    path = write_random_policy(tmp_path / "p.pt", "metanoia")
    sidecar_path(path).unlink()
    with pytest.raises(PolicyFileError, match="no sidecar p.json"):
        load_policy(path)
    evil = write_random_policy(tmp_path / "evil.pt", "metanoia")
    evil.write_bytes(pickle.dumps(print))  # an arbitrary object, not plain tensors
    with pytest.raises(PolicyFileError, match="not a plain-weights file"):
        load_policy(evil)


def test_wrong_shaped_tensors_are_refused(tmp_path):
    path = write_random_policy(tmp_path / "p.pt", "metanoia", hidden=(16,))
    raw = torch.load(path, weights_only=True)
    meta = json.loads(sidecar_path(path).read_text())
    raw["vf.0.weight"] = torch.zeros(16, 5)
    save_policy(path, raw, meta)
    with pytest.raises(PolicyFileError, match=r"tensor vf.0.weight has shape \(16, 5\)"):
        load_policy(path)


def test_trained_agent_plays_legal_moves_and_argmax_is_its_best_logit(tmp_path):
    path = write_random_policy(tmp_path / "p.pt", "metanoia")
    agent = make_agent(f"trained:{path}", "metanoia", 1)
    assert isinstance(agent, TrainedAgent) and agent.name == f"trained:{path}"
    R = get_rules("metanoia")
    dice = SeededDice(2)
    enc = R.new_encounter("duel_seed", "full", dice)
    while not enc.is_over():
        actor = enc.current_actor()
        action = agent.choose(enc)
        assert action in enc.legal_actions()
        index = ENC.encode_action(enc, actor, action)
        legal = [ENC.encode_action(enc, actor, a) for a in enc.legal_actions()]
        logits = agent.policy.logits(ENC.observe(enc, actor))
        assert logits[index] == max(logits[i] for i in legal)
        enc.apply(action, dice)


def test_a_policy_for_another_system_is_refused_by_make_agent(tmp_path):
    path = write_random_policy(tmp_path / "p.pt", "metanoia")
    edit_sidecar(path, system="metanoia")
    with pytest.raises(PolicyFileError, match="but the fight is 'other'"):
        load_policy(path, "other")


@pytest.mark.parametrize(
    "content",
    [b"\x00garbage, not a torch file\xff" * 4, pickle.dumps(print), b""],
    ids=["bytes", "pickled-code", "empty"],
)
def test_a_corrupt_policy_file_is_one_line_naming_the_file(tmp_path, content: bytes):
    """The defect: torch's message ran to six lines; now one line that names the file."""
    path = write_random_policy(tmp_path / "p.pt", "metanoia")
    path.write_bytes(content)
    with pytest.raises(PolicyFileError) as info:
        load_policy(path)
    message = str(info.value)
    assert message.startswith(f"{path}: not a plain-weights file (") and "\n" not in message, (
        message
    )
    assert len(message) < 160 + len(str(path)) + 60


def test_the_cli_turns_a_corrupt_policy_into_status_2(tmp_path, capsys):
    from eval.cli import main

    path = write_random_policy(tmp_path / "p.pt", "metanoia")
    path.write_bytes(pickle.dumps(print))
    code = main(["match", "metanoia", "duel_seed", f"trained:{path}", "random", "--games", "1"])
    err = capsys.readouterr().err
    assert code == 2
    assert (
        err.count("\n") == 1 and f"arena match: error: {path}: not a plain-weights file" in err
    ), err
