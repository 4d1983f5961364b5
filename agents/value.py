"""A value estimate for cut-short rollouts: the probability that a side wins from a state, fitted
on simulated fights, for any registered system.

``search`` (and so ``arena suggest``) can stop a rollout a few rounds ahead instead of playing it
to the end, and score it by this estimate. The model is a logistic regression on the system's own
observation vector (``ENCODING.observe``) seen by the side's first active member: no
system-specific code, only the encoding every system already has.

* ``fit_value(system, games)`` plays ``games`` fights over every encounter under CORE and FULL,
  the heuristic on both sides (every fifth move of a game random, so the states off the
  heuristic's path that a rollout visits are seen too), records each side's observation at every
  decision with the final result (1 win, 0.5 draw, 0 loss), and fits the regression (Newton's
  method, L2 penalty) on four fifths of the games; the other fifth measures it (Brier score, and
  the Brier score of always answering the base rate).
* ``save_value`` / ``load_value`` keep it as ``agents/values/<system>.npz`` (plain arrays, loaded
  with ``allow_pickle=False``) next to a JSON sidecar (system, encoding name, observation size,
  games, scores, and ``play``: whether the ``search`` agent plays with it, set by hand after
  measuring ``search`` with and without it against the heuristic; ``arena suggest`` uses it
  either way, for its 2 s answer; a refit keeps the flag). A file fitted for another encoding
  is refused with a one-line message that says how to refit (``arena fit-value SYSTEM``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["ValueModel", "fit_value", "save_value", "load_value", "value_path", "VALUES"]

VALUES = Path(__file__).resolve().parent / "values"
"""where the shipped value models live"""


def value_path(system: str, folder: Path | None = None) -> Path:
    return (folder or VALUES) / f"{system}.npz"


@dataclass
class ValueModel:
    system: str
    encoding: str
    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray
    bias: float
    meta: dict[str, Any]

    def predict_obs(self, obs: np.ndarray) -> np.ndarray:
        z = ((obs - self.mean) / self.scale) @ self.weights + self.bias
        return 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))

    def __call__(self, enc: Any, side: str) -> float:
        """The estimated probability that ``side`` wins the fight ``enc`` (in progress)."""
        from envs import get_encoding

        info = next(s for s in enc.sides() if s.side == side)
        cid = next((m for m in info.members if enc.is_active(m)), info.members[0])
        obs = get_encoding(enc.system).observe(enc, cid)
        return float(self.predict_obs(obs[None, :])[0])


def _epsilon_agent(base: Any, rng: np.random.Generator, every: int = 5) -> Any:
    class Mixed:
        name = "heuristic+random"

        def choose(self, enc: Any) -> Any:
            legal = enc.legal_actions()
            if rng.integers(every) == 0:
                return legal[int(rng.integers(len(legal)))]
            return base.choose(enc)

    return Mixed()


def _samples(system: str, games: int, seed: int,
             progress: Callable[[int], None] | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(X, y, game)``: every decision's observation per side, that side's result, the game."""
    from envs import get_encoding, get_heuristic, get_rules

    from .episode import encounter_sides, play

    R, encoding = get_rules(system), get_encoding(system)
    combos = [(e, r) for e in R.encounter_names() for r in ("core", "full")]
    X: list[np.ndarray] = []
    meta: list[tuple[int, str]] = []
    y: list[float] = []
    for g in range(games):
        encounter, rules = combos[g % len(combos)]
        rng = np.random.default_rng(seed + g)
        agent = _epsilon_agent(get_heuristic(system)(seed + g), rng)
        start = len(X)

        def record(enc: Any, stage: str, g: int = g) -> None:
            if stage != "decide":
                return
            for info in enc.sides():
                cid = next((m for m in info.members if enc.is_active(m)), None)
                if cid is not None:
                    X.append(encoding.observe(enc, cid))
                    meta.append((g, info.side))

        sides = encounter_sides(system, encounter, rules)
        rec = play(system, encounter, dict.fromkeys(sides, agent), seed + g, options=rules,
                   check=record)
        for _, side in meta[start:]:
            y.append(0.5 if rec.winner is None else float(rec.winner == side))
        if progress is not None:
            progress(g + 1)
    return np.asarray(X, np.float64), np.asarray(y), np.asarray([g for g, _ in meta])


def _newton(X: np.ndarray, y: np.ndarray, l2: float, steps: int = 25) -> tuple[np.ndarray, float]:
    n, d = X.shape
    A = np.hstack([X, np.ones((n, 1))])
    w = np.zeros(d + 1)
    penalty = np.full(d + 1, l2)
    penalty[-1] = 0.0
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-np.clip(A @ w, -30, 30)))
        grad = A.T @ (p - y) / n + penalty * w
        H = (A * (p * (1 - p))[:, None]).T @ A / n + np.diag(penalty) + 1e-9 * np.eye(d + 1)
        step = np.linalg.solve(H, grad)
        w -= step
        if np.max(np.abs(step)) < 1e-6:
            break
    return w[:-1], float(w[-1])


def fit_value(system: str, games: int = 600, seed: int = 0, l2: float = 1e-3,
              progress: Callable[[int], None] | None = None) -> ValueModel:
    """Fit the value model of ``system`` on ``games`` simulated fights (module docstring)."""
    from envs import get_encoding

    X, y, game = _samples(system, games, seed, progress)
    test = game % 5 == 4
    mean = X[~test].mean(axis=0)
    scale = X[~test].std(axis=0)
    scale[scale < 1e-6] = 1.0
    Z = (X - mean) / scale
    w, b = _newton(Z[~test], y[~test], l2)
    model = ValueModel(system, get_encoding(system).name, mean, scale, w, b, {})
    p = model.predict_obs(X[test])
    base = float(y[~test].mean())
    model.meta = {
        "system": system,
        "encoding": model.encoding,
        "obs_size": int(X.shape[1]),
        "games": games,
        "seed": seed,
        "samples": int(len(y)),
        "test_samples": int(test.sum()),
        "brier": round(float(np.mean((p - y[test]) ** 2)), 4),
        "brier_base_rate": round(float(np.mean((base - y[test]) ** 2)), 4),
        "l2": l2,
    }
    return model


def save_value(model: ValueModel, folder: Path | None = None) -> Path:
    from envs.core.files import atomic_write

    path = value_path(model.system, folder)
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez(path, mean=model.mean, scale=model.scale, weights=model.weights,
             bias=np.asarray([model.bias]))
    atomic_write(path.with_suffix(".json"), json.dumps(model.meta, indent=1) + "\n")
    return path


def load_value(system: str, folder: Path | None = None) -> ValueModel | None:
    """The value model of ``system``, or ``None`` when there is none; ``ValueError`` (one line)
    for a file that is unreadable or fitted for another encoding."""
    from envs import get_encoding

    path = value_path(system, folder)
    if not path.exists():
        return None
    how = f"refit it with: arena fit-value {system}"
    try:
        meta = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
        with np.load(path, allow_pickle=False) as f:
            arrays = {k: f[k] for k in ("mean", "scale", "weights", "bias")}
    except (OSError, ValueError, KeyError) as e:
        raise ValueError(f"{path}: cannot read the value model ({e}); {how}") from None
    encoding = get_encoding(system)
    if meta.get("encoding") != encoding.name or arrays["weights"].shape != (
        encoding.obs_spec.size,
    ):
        raise ValueError(
            f"{path}: fitted for {meta.get('encoding')} with {arrays['weights'].shape[0]} "
            f"observation values, the env is {encoding.name} with {encoding.obs_spec.size}; {how}"
        )
    return ValueModel(system, meta["encoding"], arrays["mean"], arrays["scale"],
                      arrays["weights"], float(arrays["bias"][0]), meta)


def main(argv: list[str] | None = None) -> int:
    """``arena fit-value SYSTEM [--games N] [--seed S] [--out DIR]`` (also ``python -m
    agents.value``): fit and save a system's value model, with progress on stderr."""
    import argparse
    import sys

    from envs import list_systems

    p = argparse.ArgumentParser(prog="arena fit-value", description=main.__doc__)
    p.add_argument("system", choices=list_systems())
    p.add_argument("--games", type=int, default=600)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path, default=None, help="folder (default: agents/values)")
    args = p.parse_args(argv)
    if args.games < 5:
        p.error(f"--games must be at least 5, got {args.games}")

    def progress(done: int) -> None:
        if done % 20 == 0 or done == args.games:
            print(f"  {done}/{args.games} games", file=sys.stderr, flush=True)

    model = fit_value(args.system, args.games, args.seed, progress=progress)
    old = value_path(args.system, args.out).with_suffix(".json")
    if old.exists():  # the measured play flag survives a refit
        kept = json.loads(old.read_text(encoding="utf-8"))
        model.meta.update({k: kept[k] for k in ("play", "play_note") if k in kept})
    path = save_value(model, args.out)
    m = model.meta
    print(
        f"{args.system}: {m['samples']} states from {m['games']} games; held-out Brier "
        f"{m['brier']} (base rate {m['brier_base_rate']}) on {m['test_samples']} states; "
        f"saved {path}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
