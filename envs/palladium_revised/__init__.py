"""Palladium Revised (``palladium_revised``): a per-second Melee Grid timeline, Stamina, Morale
and Wounds as combat resources, the Threshold Rule, a multiplicative damage pipeline, critical
tables and height-scaled Zones of Control on a one-dimensional battle line
(docs/rules/palladium_revised.md)."""
