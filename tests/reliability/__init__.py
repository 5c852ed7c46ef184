"""Crash-proofing suite (issue 8): kill -9, simulated power loss, full disk, read-only places,
import fuzzing.  Short mode by default (about two minutes in all); ``RAG_ANNOTATOR_LONG=1``
for the nightly sizes (10x kills, power cuts and fuzz cases, fuzzing not derandomized).
"""
