"""Multi-agent PPO training with RLlib (``arena train CONFIG --backend rllib [--ray ADDRESS]``).

* ``env``: the arena AEC env through RLlib's PettingZoo wrapper, and the self-play mapping.
* ``module``: the masked policy/value MLPs and their export to the ``agents.trained`` layout.
* ``config``: how the training config's keys map onto RLlib, and the checks.
* ``algo``: the ``PPOConfig`` and ``ray.init``.
* ``train``: the training loop (progress, evaluation, checkpoints, resume, policy export).

Nothing here is imported by the rest of the package unless ``--backend rllib`` is asked for, so the
default install needs no Ray.
"""
