"""``train.py`` configs (STYLE C16): YAML maps one-to-one onto ``TrainConfig``; bad input is one
line."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

import train
from agents.config import field_docs

ROOT = Path(__file__).resolve().parents[2]


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "cfg.yaml"
    path.write_text(text)
    return str(path)


def test_every_field_has_a_docstring_and_the_help_lists_it():
    docs = field_docs(train.TrainConfig)
    names = [f.name for f in dataclasses.fields(train.TrainConfig)]
    assert [n for n in names if not docs.get(n)] == []
    help_text = train.config_help(train.TrainConfig)
    for name in names:
        assert f"  {name} " in help_text


@pytest.mark.parametrize(
    "path", sorted((ROOT / "configs" / "train").glob("*.yaml")), ids=lambda p: p.name
)
def test_shipped_configs_load(path: Path):
    from envs import SYSTEMS, get_rules

    cfg = train.load_config(str(path))
    assert cfg.system in SYSTEMS
    assert cfg.encounter in get_rules(cfg.system).encounter_names()


def test_yaml_and_overrides_give_typed_values(tmp_path):
    path = write(
        tmp_path, "total_timesteps: 1000\nnet_arch: [8, 8]\nopponents: {random: 1, self: 2}\n"
    )
    cfg = train.load_config(
        path, ["learning_rate=1e-3", "share_side=false", "eval_opponents=[random]"]
    )
    assert cfg.total_timesteps == 1000
    assert cfg.net_arch == (8, 8)
    assert cfg.opponents == {"random": 1.0, "self": 2.0}
    assert cfg.learning_rate == 0.001 and isinstance(cfg.learning_rate, float)
    assert cfg.share_side is False
    assert cfg.eval_opponents == ("random",)
    assert cfg.seed == train.TrainConfig().seed  # untouched keys keep their defaults


@pytest.mark.parametrize(
    ("text", "overrides", "message"),
    [
        ("total_timestep: 5\n", [], "unknown key 'total_timestep'"),
        (
            "total_timesteps: lots\n",
            [],
            "key 'total_timesteps': expected a whole number, got 'lots'",
        ),
        ("total_timesteps: 1.5\n", [], "key 'total_timesteps': expected a whole number"),
        ("share_side: 1\n", [], "key 'share_side': expected true or false"),
        ("net_arch: 64\n", [], "key 'net_arch': expected a list"),
        (
            "opponents: {random: -1}\n",
            [],
            "key 'opponents': opponent 'random': weight must be a number >= 0",
        ),
        ("opponents: {alphazero: 1}\n", [], "key 'opponents': opponent 'alphazero' is not one of"),
        ("opponents: {self: 1}\n", [], "needs a positive weight on an entry other than 'self'"),
        ("encounter: nowhere\n", [], "key 'encounter': unknown metanoia encounter 'nowhere'"),
        ("system: chess\n", [], "key 'system': unknown system 'chess'"),
        ("gamma: 1.5\n", [], "key 'gamma': must be in (0, 1]"),
        ("n_envs: 0\n", [], "key 'n_envs': must be >= 1"),
        (
            "n_envs: 2\nn_steps: 8\nbatch_size: 64\n",
            [],
            "key 'batch_size': 64 is more than a rollout",
        ),
        ("vec_env: ray\n", [], "key 'vec_env': must be subproc or dummy"),
        ("eval_opponents: [oracle]\n", [], "key 'eval_opponents': unknown agent 'oracle'"),
        ("best_of: oracle\n", [], "key 'best_of': 'oracle' is not one of eval_opponents"),
        ("", ["seed"], "command line: 'seed' is not key=value"),
        ("", ["seed=[1"], "command line: 'seed=[1': the value is not valid YAML"),
        ("", ["sede=1"], "+ command line: unknown key 'sede'"),
        ("- a\n- b\n", [], "a config must be a mapping"),
    ],
)
def test_bad_configs_fail_with_one_line_naming_the_file_and_key(tmp_path, text, overrides, message):
    path = write(tmp_path, text)
    with pytest.raises(ValueError) as info:
        train.load_config(path, overrides)
    text = str(info.value)
    assert message in text
    assert "\n" not in text
    if not overrides:
        assert path in text


def test_duplicate_keys_are_refused(tmp_path):
    path = write(tmp_path, "seed: 1\nseed: 2\n")
    with pytest.raises(ValueError, match="seed"):
        train.load_config(path)
