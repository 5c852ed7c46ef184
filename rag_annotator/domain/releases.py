"""Releases: freeze the gold set as a named version, compare two versions, guard frozen cases.

A release stores a *snapshot* (``releases.snapshot``, JSON) of what a scoring library would be
handed: every case with its fields and expected sources (by document key), and the effective
label of every judged (case, document) pair.  Its ``content_hash`` is the SHA-256 of that
content in canonical JSON, so two releases with the same content have the same hash whoever
froze them and when.  The changelog is the difference between the previous release's snapshot
and this one (cases and judgments added, removed, changed) followed by the author's note.

While the last release is frozen (gold-set setting ``release_state`` = ``frozen``), the cases
that were *approved* in it are read-only: :func:`check_editable` refuses to change them until
someone starts a new draft version (:func:`start_draft`).  Nothing else is locked: new cases,
drafts and judgments go on.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from rag_annotator.domain import validation as v
from rag_annotator.domain.changes import Changes
from rag_annotator.domain.clock import utc_now
from rag_annotator.domain.ports import Store, Writer
from rag_annotator.errors import Conflict, InvalidValue

SNAPSHOT_FORMAT = "rag-annotator-release"
SNAPSHOT_VERSION = 1

#: Case fields a snapshot keeps (and a comparison reports by name).
CASE_SNAPSHOT_FIELDS = ("question", "variants", "reference_answer", "must_contain",
                        "forbidden", "expected_behaviour", "family", "tags", "difficulty",
                        "role", "notes", "status", "author")

#: What an agent case's snapshot adds.  Only agent cases carry them, so the snapshot (and the
#: content hash) of a RAG case is the same as before agent cases existed.
AGENT_SNAPSHOT_FIELDS = ("kind", *v.CASE_AGENT_FIELDS)


def _agent_fields(case: Mapping[str, Any]) -> dict[str, Any]:
    if case.get("kind") != "agent":
        return {}
    from rag_annotator.domain.agents import AgentSpec  # only agent cases pay for it

    spec = AgentSpec.from_row(case)
    return {"kind": "agent", "expected_state": spec.expected_state,
            "forbidden_tools": list(spec.forbidden_tools),
            "required_tools": list(spec.required_tools),
            "tool_order": [list(pair) for pair in spec.tool_order],
            "max_steps": spec.max_steps, "max_tokens": spec.max_tokens,
            "max_seconds": spec.max_seconds, "max_cost": spec.max_cost}


class ReleaseSource(Store, Protocol):
    """What freezing needs to read from the store (the gold set's current content)."""

    def release_content(self) -> dict[str, Any]: ...
    def latest_release(self) -> dict[str, Any] | None: ...


def content_hash(content: Mapping[str, Any]) -> str:
    """SHA-256 of the cases and judgments of a snapshot, in canonical JSON."""
    canonical = json.dumps({"cases": content["cases"], "judgments": content["judgments"]},
                           ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return "sha256:" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()


@dataclass
class ReleaseDiff:
    """What changed between two snapshots (keys sorted)."""

    cases_added: list[str] = field(default_factory=list)
    cases_removed: list[str] = field(default_factory=list)
    cases_changed: dict[str, list[str]] = field(default_factory=dict)
    judgments_added: list[str] = field(default_factory=list)
    judgments_removed: list[str] = field(default_factory=list)
    judgments_changed: list[str] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        """True when the two snapshots have the same content."""
        return not (self.cases_added or self.cases_removed or self.cases_changed
                    or self.judgments_added or self.judgments_removed
                    or self.judgments_changed)

    def text(self) -> str:
        """The changelog in English, one line per kind of change."""
        if self.empty:
            return "No change to cases or judgments."
        lines = []
        for title, keys in (("Cases added", self.cases_added),
                            ("Cases removed", self.cases_removed)):
            if keys:
                lines.append(f"{title} ({len(keys)}): {_few(keys)}")
        if self.cases_changed:
            details = [f"{key} ({', '.join(fields)})"
                       for key, fields in sorted(self.cases_changed.items())]
            lines.append(f"Cases changed ({len(details)}): {_few(details)}")
        for title, pairs in (("Judgments added", self.judgments_added),
                             ("Judgments removed", self.judgments_removed),
                             ("Judgments changed", self.judgments_changed)):
            if pairs:
                lines.append(f"{title} ({len(pairs)}): {_few(pairs)}")
        return "\n".join(lines)


def _few(items: list[str], n: int = 20) -> str:
    return ", ".join(items[:n]) + (f", … (+{len(items) - n})" if len(items) > n else "")


def diff_snapshots(old: Mapping[str, Any] | None, new: Mapping[str, Any]) -> ReleaseDiff:
    """Cases and judgments added, removed and changed from ``old`` (None: nothing) to ``new``."""
    old_cases: Mapping[str, Any] = old["cases"] if old else {}
    old_judgments: Mapping[str, Any] = old["judgments"] if old else {}
    new_cases, new_judgments = new["cases"], new["judgments"]
    diff = ReleaseDiff(
        cases_added=sorted(set(new_cases) - set(old_cases)),
        cases_removed=sorted(set(old_cases) - set(new_cases)),
        judgments_added=sorted(set(new_judgments) - set(old_judgments)),
        judgments_removed=sorted(set(old_judgments) - set(new_judgments)),
        judgments_changed=sorted(k for k in set(new_judgments) & set(old_judgments)
                                 if new_judgments[k] != old_judgments[k]),
    )
    for key in sorted(set(new_cases) & set(old_cases)):
        before, after = old_cases[key], new_cases[key]
        fields = [f for f in (*CASE_SNAPSHOT_FIELDS, *AGENT_SNAPSHOT_FIELDS, "sources")
                  if before.get(f) != after.get(f)]
        if fields:
            diff.cases_changed[key] = fields
    return diff


def build_snapshot(cases: Iterable[Mapping[str, Any]],
                   sources: Iterable[Mapping[str, Any]],
                   labels: Iterable[tuple[str, str, int | None, bool]]) -> dict[str, Any]:
    """A snapshot from rows: cases (list fields decoded), expected sources with ``case`` and
    ``document`` keys, and effective labels (case, document, grade, disputed)."""
    out_cases: dict[str, dict[str, Any]] = {}
    for case in cases:
        out_cases[str(case["key"])] = {f: case[f] for f in CASE_SNAPSHOT_FIELDS} | {
            "sources": []} | _agent_fields(case)
    for source in sources:
        entry = out_cases.get(str(source["case"]))
        if entry is not None:
            entry["sources"].append([source["document"], source["span_start"],
                                     source["span_end"], source["note"]])
    for entry in out_cases.values():
        entry["sources"].sort(key=lambda s: (s[0], s[1] if s[1] is not None else -1,
                                             s[2] if s[2] is not None else -1, s[3]))
    judgments: dict[str, Any] = {}
    for case_key, doc_key, grade, disputed in labels:
        if disputed:
            judgments[f"{case_key} · {doc_key}"] = "disputed"
        elif grade is not None:
            judgments[f"{case_key} · {doc_key}"] = grade
    content: dict[str, Any] = {"cases": out_cases, "judgments": judgments}
    return {"format": SNAPSHOT_FORMAT, "version": SNAPSHOT_VERSION,
            "content_hash": content_hash(content), **content}


# -- operations -------------------------------------------------------------------------------
def freeze_release(store: ReleaseSource, name: str, note: str = "") -> Changes:
    """Freeze the gold set as release ``name``: snapshot, hash, changelog, author, date.

    The approved cases of the release become read-only until :func:`start_draft`.
    """
    name = v.check_key("release name", name)
    note = v.check_text("note", note) or ""
    with store.operation("freeze_release", name) as op:
        if op.select("releases", name=name):
            raise Conflict("a release named '{name}' already exists; choose another name.",
                           name=name)
        previous = store.latest_release()
        snapshot = store.release_content()
        old = json.loads(previous["snapshot"]) if previous else None
        changes = diff_snapshots(old, snapshot).text()
        since = f"Since {previous['name']}:" if previous else "First release:"
        changelog = f"{since}\n{changes}" + (f"\n\n{note.strip()}" if note.strip() else "")
        op.insert("releases", {
            "name": name, "created_at": utc_now(), "created_by": store.assessor,
            "changelog": changelog,
            "snapshot": json.dumps(snapshot, ensure_ascii=False, sort_keys=True,
            separators=(",", ":")),
        })
        approved = sorted(k for k, c in snapshot["cases"].items() if c["status"] == "approved")
        _set_meta(op, "release_state", "frozen")
        _set_meta(op, "frozen_release", name)
        _set_meta(op, "frozen_approved", json.dumps(approved, ensure_ascii=False))
    return op.changes()


def start_draft(store: Store) -> Changes:
    """Start a new draft version: the last release's approved cases become editable again."""
    with store.operation("start_draft", "") as op:
        state = op.get("meta", {"key": "release_state"})
        if state is None or state["value"] != "frozen":
            raise InvalidValue("the gold set is already a draft version; freeze a release "
                               "first.")
        frozen = op.get("meta", {"key": "frozen_release"})
        op.label = frozen["value"] if frozen else ""
        _set_meta(op, "release_state", "draft")
        _set_meta(op, "frozen_approved", "[]")
    return op.changes()


def _set_meta(op: Writer, key: str, value: str) -> None:
    if op.get("meta", {"key": key}) is None:
        op.insert("meta", {"key": key, "value": value})
    else:
        op.update("meta", {"key": key}, {"value": value})


def frozen_keys(op: Writer) -> frozenset[str]:
    """Keys of the cases read-only because a frozen release approved them."""
    state = op.get("meta", {"key": "release_state"})
    if state is None or state["value"] != "frozen":
        return frozenset()
    row = op.get("meta", {"key": "frozen_approved"})
    try:
        keys = json.loads(row["value"]) if row and row["value"] else []
    except ValueError:
        keys = []
    return frozenset(str(k) for k in keys) if isinstance(keys, list) else frozenset()


def check_editable(op: Writer, case: Mapping[str, Any],
                   frozen: frozenset[str] | None = None) -> None:
    """Refuse to change a case the frozen release approved (Conflict; nothing changes)."""
    keys = frozen_keys(op) if frozen is None else frozen
    if str(case["key"]) in keys:
        release = op.get("meta", {"key": "frozen_release"})
        name = release["value"] if release else ""
        raise Conflict("case {case} is approved in the frozen release '{name}' and "
                       "is read-only; start a new draft version (Gold set › Releases) to "
                       "change it.", case=case['key'], name=name)
