"""Evaluation: matches, tournaments, reports and the ``arena`` command line."""
