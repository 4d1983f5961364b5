"""Typed YAML configs for the ``eval`` tools: ``agents.config`` (shared with training),
re-exported."""

from agents.config import OneLineParser, config_dict, config_help, field_docs, load_config

__all__ = ["load_config", "field_docs", "config_help", "config_dict", "OneLineParser"]
