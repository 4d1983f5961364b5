"""Metanoia (spec rules/metanoia.md): the rules engine in ``rules``, the env in ``env``."""
