"""Mano a Mano (spec rules/mano_a_mano.md). Work in progress: see ``rules``."""
