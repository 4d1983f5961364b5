"""``BatchedSubprocVecEnv`` behaves like SB3's ``DummyVecEnv`` (same seeds -> same transitions)."""

from __future__ import annotations

import numpy as np
from stable_baselines3.common.vec_env import DummyVecEnv

from envs.rl.vec import BatchedSubprocVecEnv


def make(i: int):
    def thunk():
        from agents.learner import LearnerEnv

        return LearnerEnv(
            "metanoia", "duel_seed", "full", {"random": 1.0, "heuristic": 1.0}, seed=100 + i
        )

    return thunk


def first_legal(masks: np.ndarray) -> np.ndarray:
    return np.array([int(np.flatnonzero(m)[-1]) for m in masks])


def test_same_transitions_as_dummy_vec_env_and_masks_ride_along():
    fns = [make(i) for i in range(5)]
    batched, dummy = BatchedSubprocVecEnv(fns, workers=2), DummyVecEnv(fns)
    try:
        assert [len(s) for s in batched.slices] == [2, 3] or [len(s) for s in batched.slices] == [
            3,
            2,
        ]
        for vec in (batched, dummy):
            vec.seed(7)
        obs_b, obs_d = batched.reset(), dummy.reset()
        np.testing.assert_array_equal(obs_b, obs_d)
        episodes = 0
        for _ in range(150):
            masks_b = np.stack(batched.env_method("action_masks"))
            masks_d = np.stack(dummy.env_method("action_masks"))
            np.testing.assert_array_equal(masks_b, masks_d)
            actions = first_legal(masks_b)
            ob, rb, db, ib = batched.step(actions)
            od, rd, dd, id_ = dummy.step(actions)
            np.testing.assert_array_equal(ob, od)
            np.testing.assert_array_equal(rb, rd.astype(np.float32))
            np.testing.assert_array_equal(db, dd)
            for a, b in zip(ib, id_, strict=True):
                assert a.keys() == b.keys()
                if "terminal_observation" in a:
                    np.testing.assert_array_equal(
                        a["terminal_observation"], b["terminal_observation"]
                    )
                    assert a["score"] == b["score"] and a["opponent"] == b["opponent"]
                    episodes += 1
        assert episodes > 10
        # addressed calls come back in the order asked, across workers
        sides = batched.get_attr("sides", indices=[4, 0, 2])
        assert sides == [["A", "B"]] * 3
        assert batched.env_method("set_snapshots", [], indices=[3, 1]) == [0, 0]
        assert batched.has_attr("action_masks") and not batched.has_attr("no_such_thing")
    finally:
        batched.close()
        dummy.close()


def test_close_after_a_worker_died_mid_step():
    # Ctrl-C can land while a step is out; if a worker is gone by then, close() still ends
    vec = BatchedSubprocVecEnv([make(i) for i in range(2)], workers=2)
    vec.reset()
    vec.step_async(first_legal(np.stack(vec.env_method("action_masks"))))
    vec.processes[0].kill()
    vec.processes[0].join(10)  # its answer never comes: the pipe ends (EOFError)
    vec.close()
    assert vec.closed and not any(p.is_alive() for p in vec.processes)
