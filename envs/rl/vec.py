"""``BatchedSubprocVecEnv``: SB3's ``SubprocVecEnv`` with several envs per worker process.

SB3's ``SubprocVecEnv`` runs one env per process, so on a 2-core machine either two envs feed the
learner (too few to batch the policy's forward pass) or many processes fight over two cores and
pay a pipe round trip per env per step. Here ``workers`` processes each step a slice of the envs in
turn and answer with one message per slice; the action masks ride along with every step and reset,
so ``MaskablePPO``'s ``env_method("action_masks")`` costs no extra round trip.

Semantics follow ``SubprocVecEnv``: auto-reset on done with ``info["terminal_observation"]`` and
``info["TimeLimit.truncated"]``, ``seed``/``set_options`` applied at the next ``reset``, and
``env_method``/``get_attr``/``set_attr`` addressed by global env index. Env factories run inside the
workers (``forkserver`` start, as SB3 does).
"""

from __future__ import annotations

import multiprocessing as mp
from collections.abc import Callable, Sequence
from typing import Any, cast

import gymnasium
import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import CloudpickleWrapper, VecEnv, VecEnvIndices

__all__ = ["BatchedSubprocVecEnv"]


def _masks(envs: list[gymnasium.Env]) -> np.ndarray | None:
    if not hasattr(envs[0], "action_masks"):
        return None
    return np.stack([np.asarray(cast(Any, e).action_masks(), dtype=np.bool_) for e in envs])


def _worker(remote: Any, parent_remote: Any, fns: CloudpickleWrapper) -> None:
    parent_remote.close()
    envs = [fn() for fn in fns.var]
    while True:
        try:
            cmd, data = remote.recv()
        except (EOFError, KeyboardInterrupt):
            break
        if cmd == "step":
            obs, rews, dones, infos, resets = [], [], [], [], []
            for env, action in zip(envs, data, strict=True):
                o, r, term, trunc, info = env.step(action)
                done = term or trunc
                info["TimeLimit.truncated"] = trunc and not term
                reset_info: dict[str, Any] = {}
                if done:
                    info["terminal_observation"] = o
                    o, reset_info = env.reset()
                obs.append(o)
                rews.append(r)
                dones.append(done)
                infos.append(info)
                resets.append(reset_info)
            remote.send(
                (
                    np.stack(obs),
                    np.asarray(rews, dtype=np.float32),
                    np.asarray(dones),
                    infos,
                    resets,
                    _masks(envs),
                )
            )
        elif cmd == "reset":
            out = [
                env.reset(seed=s, **({"options": o} if o else {}))
                for env, (s, o) in zip(envs, data, strict=True)
            ]
            remote.send((np.stack([o for o, _ in out]), [i for _, i in out], _masks(envs)))
        elif cmd == "env_method":
            name, args, kwargs, local = data
            remote.send([getattr(envs[i], name)(*args, **kwargs) for i in local])
        elif cmd == "get_attr":
            name, local = data
            remote.send([getattr(envs[i], name) for i in local])
        elif cmd == "has_attr":
            remote.send(all(hasattr(env, data) for env in envs))
        elif cmd == "set_attr":
            name, value, local = data
            for i in local:
                setattr(envs[i], name, value)
            remote.send(None)
        elif cmd == "spaces":
            remote.send((envs[0].observation_space, envs[0].action_space))
        elif cmd == "close":
            for env in envs:
                env.close()
            remote.close()
            break
        else:  # pragma: no cover - a programming error
            raise NotImplementedError(cmd)


class BatchedSubprocVecEnv(VecEnv):
    """``len(env_fns)`` envs spread over ``workers`` processes (see the module docstring).

    Args:
        env_fns: env factories (run in the workers).
        workers: processes; envs are split into contiguous slices as evenly as possible.
        start_method: multiprocessing start method (default ``forkserver`` where available).
    """

    def __init__(self, env_fns: Sequence[Callable[[], gymnasium.Env]], workers: int = 2,
                 start_method: str | None = None) -> None:
        n = len(env_fns)
        workers = max(1, min(workers, n))
        bounds = np.linspace(0, n, workers + 1).round().astype(int)
        self.slices = [range(bounds[w], bounds[w + 1]) for w in range(workers)]
        self._where = [(w, i - s.start) for w, s in enumerate(self.slices) for i in s]
        if start_method is None:
            start_method = "forkserver" if "forkserver" in mp.get_all_start_methods() else "spawn"
        ctx = mp.get_context(start_method)
        self.remotes, work_remotes = zip(*[ctx.Pipe() for _ in range(workers)], strict=True)
        self.processes = []
        for w, (work, remote) in enumerate(zip(work_remotes, self.remotes, strict=True)):
            fns = CloudpickleWrapper([env_fns[i] for i in self.slices[w]])
            # typeshed's BaseContext lacks Process; every concrete context has it
            p = ctx.Process(  # type: ignore[attr-defined]
                target=_worker, args=(work, remote, fns), daemon=True
            )
            p.start()
            self.processes.append(p)
            work.close()
        self.remotes[0].send(("spaces", None))
        observation_space, action_space = self.remotes[0].recv()
        super().__init__(n, observation_space, action_space)
        self.waiting = False
        self.closed = False
        self._pending: set[int] = set()
        self._mask_cache: np.ndarray | None = None

    def step_async(self, actions: np.ndarray) -> None:
        for w, (remote, s) in enumerate(zip(self.remotes, self.slices, strict=True)):
            remote.send(("step", [actions[i] for i in s]))
            self._pending.add(w)
        self.waiting = True

    def step_wait(self) -> Any:
        results = []
        for w, remote in enumerate(self.remotes):
            results.append(remote.recv())
            self._pending.discard(
                w
            )  # an interrupt between receives must not make close() wait twice
        self.waiting = False
        obs = np.concatenate([r[0] for r in results])
        rews = np.concatenate([r[1] for r in results])
        dones = np.concatenate([r[2] for r in results])
        infos = [info for r in results for info in r[3]]
        self.reset_infos = [info for r in results for info in r[4]]
        masks = [r[5] for r in results]
        self._mask_cache = None if masks[0] is None else np.concatenate(masks)
        return obs, rews, dones, infos

    def reset(self) -> np.ndarray:
        for remote, s in zip(self.remotes, self.slices, strict=True):
            remote.send(("reset", [(self._seeds[i], self._options[i]) for i in s]))
        results = [remote.recv() for remote in self.remotes]
        self.reset_infos = [info for r in results for info in r[1]]
        masks = [r[2] for r in results]
        self._mask_cache = None if masks[0] is None else np.concatenate(masks)
        self._reset_seeds()
        self._reset_options()
        return np.concatenate([r[0] for r in results])

    def _by_worker(self, indices: VecEnvIndices) -> dict[int, list[int]]:
        out: dict[int, list[int]] = {}
        for i in self._get_indices(indices):
            w, local = self._where[i]
            out.setdefault(w, []).append(local)
        return out

    def env_method(
        self,
        method_name: str,
        *method_args: Any,
        indices: VecEnvIndices = None,
        **method_kwargs: Any,
    ) -> list[Any]:
        if (
            method_name == "action_masks"
            and not method_args
            and not method_kwargs
            and self._mask_cache is not None
        ):
            return list(self._mask_cache[list(self._get_indices(indices))])
        return self._gather(
            indices, lambda local: ("env_method", (method_name, method_args, method_kwargs, local))
        )

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        return self._gather(indices, lambda local: ("get_attr", (attr_name, local)))

    def _gather(
        self, indices: VecEnvIndices, message: Callable[[list[int]], tuple[str, Any]]
    ) -> list[Any]:
        """Send one message per worker concerned; results in the order of ``indices``."""
        order = list(self._get_indices(indices))
        targets = self._by_worker(order)
        for w, local in targets.items():
            self.remotes[w].send(message(local))
        answers = {}
        for w, local in targets.items():
            for li, value in zip(local, self.remotes[w].recv(), strict=True):
                answers[(w, li)] = value
        return [answers[self._where[i]] for i in order]

    def has_attr(self, attr_name: str) -> bool:
        for remote in self.remotes:
            remote.send(("has_attr", attr_name))
        return all([remote.recv() for remote in self.remotes])

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        targets = self._by_worker(indices)
        for w, local in targets.items():
            self.remotes[w].send(("set_attr", (attr_name, value, local)))
        for w in targets:
            self.remotes[w].recv()

    def env_is_wrapped(self, wrapper_class: type, indices: VecEnvIndices = None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]

    def close(self) -> None:
        if self.closed:
            return
        for w in sorted(
            self._pending
        ):  # answers to a step that was interrupted, if any is still coming
            try:
                if self.remotes[w].poll(
                    10
                ):  # (an interrupt may land between a receive and its bookkeeping)
                    self.remotes[w].recv()
            except (EOFError, OSError):  # that worker is gone (its pipe closed): nothing to drain
                pass
        self._pending.clear()
        for remote in self.remotes:
            try:
                remote.send(("close", None))
            except (BrokenPipeError, OSError):
                pass
        for p in self.processes:
            p.join(10)
            if p.is_alive():
                p.terminate()
        for remote in self.remotes:
            remote.close()
        self.closed = True
