"""Evaluations that run the real store and planner on public benchmark data."""
