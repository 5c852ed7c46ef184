"""Verify wing: claim-by-claim verification of generated answers."""
