"""Palladium Revised: a per-second melee timeline with Zones of Control on a battle line."""
