"""The notes an agent-log import adds for the tool calls it repaired (double-encoded
arguments, reused call ids), in the reader's language."""

from __future__ import annotations

from rag_annotator.messages import Message


def tally_notes(tally: dict[str, int]) -> list[str]:
    """The report's notes for what the trajectory parser repaired (``tally``)."""
    notes: list[str] = []
    if tally.get("double"):
        notes.append(Message("{tally} tool call arguments were double-encoded (a JSON text "
                             "holding JSON); they were decoded", tally=tally['double']))
    if tally.get("reused"):
        notes.append(Message("{tally} tool call ids were used again within one log ({get} logs); "
                             "each tool message was paired with the earliest unanswered call "
                             "of its id", tally=tally['reused'], get=tally.get('reused_logs', 0)))
    return notes
