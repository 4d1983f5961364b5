"""Sizebound (``sizebound``): d20 against a static Defense on a square grid, creatures from tiny
to megalithic covering N x N squares, team turns with interleaved members, a pool of reactions,
exertion dice and condition ladders (docs/rules/sizebound.md)."""
