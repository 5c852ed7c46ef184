"""Agents wing: trajectory review of agent cases."""
