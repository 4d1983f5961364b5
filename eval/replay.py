"""``arena replay``: game records (``load_record``) and re-running them (``replay``); a record
that does not reproduce (an action that is not legal, another winner or round count) is a
``ReplayError``.

A record starts from its ``encounter`` (with its ``options``), or, when it has a ``situation``
(``{"source": file, "yaml": the situation's data}``, written by ``arena play --situation``),
from that situation; either way through ``SeededDice(seed)``, the dice the game then went on
with. A game a person stopped (``"stopped": true``, ``"reason": "stopped"``) replays as far as
it went.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from envs import get_rules
from envs.core import Encounter, IllegalActionError, SeededDice
from envs.core.cases import encounter_from_situation

__all__ = ["ReplayError", "load_record", "replay"]


class ReplayError(ValueError):
    """A record that cannot be read or does not reproduce."""


def load_record(path: str | Path, game: int = 0) -> dict[str, Any]:
    """One record from a ``.json`` file or line ``game`` (0-based) of a ``.jsonl`` file."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise ReplayError(f"{path}: cannot read ({getattr(e, 'strerror', None) or e})") from None
    try:
        if path.suffix == ".jsonl":
            lines = [ln for ln in text.splitlines() if ln.strip()]
            if not 0 <= game < len(lines):
                raise ReplayError(
                    f"{path}: no game {game}; the file holds {len(lines)} (0..{len(lines) - 1})"
                )
            rec = json.loads(lines[game])
        else:
            rec = json.loads(text)
    except json.JSONDecodeError as e:
        raise ReplayError(f"{path}: not JSON ({e.msg}, line {e.lineno})") from None
    if not isinstance(rec, dict):
        raise ReplayError(f"{path}: a record must be a JSON object")
    for key, kind in (("system", str), ("encounter", str), ("seed", int), ("actions", list)):
        if not isinstance(rec.get(key), kind):
            raise ReplayError(f"{path}: field {key!r} is missing or not a {kind.__name__}")
    sit = rec.get("situation")
    if sit is not None and not (isinstance(sit, dict) and isinstance(sit.get("yaml"), str)):
        raise ReplayError(f"{path}: field 'situation' must be {{source, yaml: text}}")
    return rec


def _start(rec: dict[str, Any], source: str, dice: SeededDice) -> Encounter:
    """The fight at the record's start: its situation, or its encounter with its options."""
    sit = rec.get("situation")
    if sit is None:
        R = get_rules(rec["system"])
        return R.new_encounter(rec["encounter"], R.parse_options(rec.get("options")), dice)
    try:
        data = yaml.safe_load(sit["yaml"])
    except yaml.YAMLError as e:
        raise ReplayError(f"{source}: field 'situation': not YAML ({e})") from None
    if not isinstance(data, dict) or data.get("system") != rec["system"]:
        raise ReplayError(f"{source}: field 'situation': not a {rec['system']} situation")
    return encounter_from_situation(data, f"{source}: situation {sit.get('source', '')}", dice)


def replay(rec: dict[str, Any], source: str = "record",
           on_state: Callable[[Encounter, int], None] | None = None) -> list[str]:
    """Re-run a record and return its event log (one line per event).

    ``on_state(enc, step)``, when given, sees the fight at the start (step 0) and after each action
    (step 1..N); it must not change ``enc`` (``arena replay --frames/--gif`` draws it).

    Raises:
        ReplayError: an unknown system or encounter, an action that is not legal where the record
            has it, actions left after the end, or another winner or round count than recorded.
    """
    dice = SeededDice(rec["seed"])
    try:
        enc = _start(rec, source, dice)
    except ReplayError:
        raise
    except (ValueError, KeyError, TypeError) as e:
        raise ReplayError(f"{source}: cannot start the fight ({e})") from None
    log = [str(e) for e in getattr(enc, "start_events", [])]
    if on_state is not None:
        on_state(enc, 0)
    for step, label in enumerate(rec["actions"], start=1):
        if enc.is_over():
            raise ReplayError(
                f"{source}: does not reproduce: the fight ended before step {step} ({label!r})"
            )
        try:
            action = enc.parse_action(label)
            log.extend(str(e) for e in enc.apply(action, dice))
        except (IllegalActionError, ValueError) as e:
            raise ReplayError(f"{source}: does not reproduce at step {step}: {e}") from None
        if on_state is not None:
            on_state(enc, step)
    if rec.get("stopped") or rec.get("reason") == "stopped":  # replay what was played
        return log
    if not enc.is_over():
        raise ReplayError(
            f"{source}: does not reproduce: the fight is not over after "
            f"{len(rec['actions'])} actions"
        )
    out = enc.outcome()
    if out is None:  # is_over() says otherwise; a system whose outcome lags its end
        raise ReplayError(f"{source}: does not reproduce: the fight is over with no outcome")
    for key, got in (("winner", out.winner), ("rounds", out.round)):
        if key in rec and rec[key] != got:
            raise ReplayError(
                f"{source}: does not reproduce: recorded {key} {rec[key]!r}, replay gives {got!r}"
            )
    return log
