"""The toy game as a system package (test-only): rules, encoding, env and invariants.

It is registered only by the tests (``tests/conftest.py``), with sides ``heroes`` and ``monsters``,
to show that a system plugs in through the registry record alone (``envs.SystemEntry``); its
heuristic is ``agents.heuristic.toy``. ``envs.rl.toy`` builds the generic env tests on it.
"""
