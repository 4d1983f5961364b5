"""Sizebound's rules engine (docs/rules/sizebound.md): pure Python, standard library and
``envs.core`` only."""
