"""GM tools (DESIGN.md, "GM tools"): ``arena suggest`` (``eval.suggest``), ``arena play``
(``eval.play``) and ``arena replay`` (``eval.replay``), re-exported here.
"""

from __future__ import annotations

from .play import PlayResult, play_terminal
from .replay import ReplayError, load_record, replay
from .suggest import render_suggestions, suggest

__all__ = [
    "suggest",
    "render_suggestions",
    "play_terminal",
    "PlayResult",
    "replay",
    "ReplayError",
    "load_record",
]
