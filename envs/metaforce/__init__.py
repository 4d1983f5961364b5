"""Metaforce (``metaforce``): exploding d12 checks plus Meta dice, two Action Frames a turn and one
Reaction, Evasion and Deflection bands, Size that multiplies HP and damage, status Magnitudes
against Status Defences, on a square grid (docs/rules/metaforce.md)."""
