"""Gold set wing: the cases table, the case editor, coverage grid, review queue, releases."""
