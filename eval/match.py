"""One seeded episode at the rules level: ``agents.episode`` (shared with training), re-exported."""

from agents.episode import EpisodeRecord, encounter_sides, play

__all__ = ["EpisodeRecord", "encounter_sides", "play"]
