"""Mano a Mano typed events: every number is a field, and the text is the event log's text."""

from __future__ import annotations

from envs.mano_a_mano.rules import events as E


def test_typed_events_print_the_log_texts():
    cases = [
        (E.TurnOrder(("steven", "clone")), "steven acts first; turn order steven > clone"),
        (E.FirstTurnRoll("A", 14), "side A rolls d20=14 for the first turn"),
        (E.LongestReach("B", 3), "side B has the longest reach (3 m) and goes first"),
        (E.Delayed("s", "c", ("c", "s")), "s delays to act after c; order c > s"),
        (E.StunRecovered("s", 2, "hurt"), "s recovers stun (now 2, hurt)"),
        (E.Regenerated("troll", 3), "troll regenerates 3 damage"),
        (E.DefenseBonus("s", "rest", 5), "s rests: stun 0, +5 defense until its next turn"),
        (
            E.DefenseBonus("s", "instant_stand", 5),
            "s stands up at once (+5 defense until its next turn)",
        ),
        (E.DefenseBonus("s", "evade", 4), "s starts evading (+4 defense until its first turn)"),
        (E.Moved("s", (0, 0), (1, -1)), "s moves (0, 0) -> (1, -1)"),
        (E.Pushed("c", (1, 0), (2, 0)), "c is pushed (1, 0) -> (2, 0)"),
        (E.PushedIntoWall("c", (2, 0)), "c is pushed into the wall at (2, 0)"),
        (E.LedgeDrop("c", 2.5), "c goes over a 2.5 m drop"),
        (E.LedgeDrop("c", 3.0), "c goes over a 3 m drop"),
        (E.FollowedInto("w", (1, 0)), "w moves into (1, 0)"),
        (E.Mounted("r", "horse", (0, 1)), "r mounts horse at (0, 1)"),
        (E.Dismounted("r", "horse", (0, 2)), "r dismounts from horse into (0, 2)"),
        (
            E.Unseated("r", "horse", "is thrown", (1, 1)),
            "r falls from horse (is thrown) into (1, 1)",
        ),
        (E.GunLoaded("g", "pistol", 6, one_round=False), "g loads pistol: 6 shots"),
        (E.GunLoaded("g", "rifle", 2, one_round=True), "g loads a round into rifle: 2 shots"),
        (E.Reloading("g", "musket", 3, 9), "g reloads musket (3/9)"),
        (E.Reloading("g", "musket", 9, 9, 1), "g reloads musket (9/9): 1 shot"),
        (E.Reloading("g", "blunderbuss", 2, 2, 2), "g reloads blunderbuss (2/2): 2 shots"),
    ]
    for event, text in cases:
        assert str(event) == text


def test_no_note_carries_a_digit():
    """Free-text notes carry no numbers any more (positions and counts are typed events)."""
    import re
    from pathlib import Path

    rules = Path(E.__file__).parent
    for path in rules.glob("*.py"):
        for line in path.read_text().splitlines():
            if "Note(" in line and "{" in line:
                assert not re.search(r"\{[^}]*(hex|shots|done|stun|damage|drop|order)", line), line
