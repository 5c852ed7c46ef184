"""Dashboard wing: a run's figures laid out panel by panel."""
