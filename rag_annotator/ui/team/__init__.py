"""Judging as a team: the File → Team menu (hand out assignments, collect, team folder) and
the team folder the Dashboard's team panel watches."""
