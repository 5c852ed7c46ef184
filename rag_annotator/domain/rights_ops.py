"""Operations of the rights matrix: test identities, documents' rights, a replayed change.

Each is one undoable operation returning its :class:`Changes` (the matrix's Ctrl+Z, the
replay's "apply" and ``rights --apply`` are one history entry each).  The rules of who may
read what are in :mod:`rag_annotator.domain.rights`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from rag_annotator.domain import validation as v
from rag_annotator.domain.changes import Changes
from rag_annotator.domain.clock import utc_now
from rag_annotator.domain.operations import require_row
from rag_annotator.domain.ports import Store, Writer
from rag_annotator.domain.releases import check_editable, frozen_keys
from rag_annotator.domain.rights import RightsChange, check_groups, norm
from rag_annotator.errors import Conflict, InvalidValue, NotFound


def _name(value: str) -> str:
    name = (v.check_text("name", value) or "").strip()
    if not name:
        raise InvalidValue("an identity needs a name (e.g. salarié, manager, RH).")
    return name


def _clash(op: Writer, name: str, identity_id: int | None) -> None:
    for row in op.select("identities"):
        if norm(row["name"]) == norm(name) and row["id"] != identity_id:
            raise Conflict("an identity named '{row}' already exists.", row=row['name'])


def create_identity(store: Store, name: str, groups: Sequence[str] = (), note: str = ""
                    ) -> Changes:
    """Declare a test identity holding ``groups``."""
    name = _name(name)
    kept = check_groups(list(groups))
    with store.operation("create_identity", name) as op:
        _clash(op, name, None)
        op.insert("identities", {"name": name, "group_names": json.dumps(kept, ensure_ascii=False),
                                 "note": v.check_text("note", note)})
    return op.changes()


def edit_identity(store: Store, identity_id: int, *, name: str | None = None,
                  groups: Sequence[str] | None = None) -> Changes:
    """Rename an identity and/or set its groups.  A rename carries the cases it asks
    (their ``role``) along in the same operation, so they keep their identity; it is refused
    whole when one of them is approved in a frozen release (read-only)."""
    with store.operation("edit_identity", "") as op:
        row = require_row(op, "identities", identity_id)
        op.label = row["name"]
        values: dict[str, str] = {}
        if groups is not None:
            values["group_names"] = json.dumps(check_groups(list(groups)), ensure_ascii=False)
        if name is not None and _name(name) != row["name"]:
            new = _name(name)
            _clash(op, new, identity_id)
            values["name"] = new
            now = utc_now()
            frozen = frozen_keys(op)
            for case in op.select("cases"):
                if norm(case["role"]) == norm(row["name"]):
                    check_editable(op, case, frozen)  # a frozen release's case: refused
                    op.update("cases", {"id": case["id"]}, {"role": new, "updated_at": now})
        if values:
            op.update("identities", {"id": identity_id}, values)
    return op.changes()


def delete_identity(store: Store, identity_id: int) -> Changes:
    """Remove an identity; the cases it asked keep its name as their role (then an identity
    of one group of that name, as in files without identities)."""
    with store.operation("delete_identity", "") as op:
        row = require_row(op, "identities", identity_id)
        op.label = row["name"]
        op.delete("identities", {"id": identity_id})
    return op.changes()


def set_document_rights(store: Store, document_id: int, rights: Sequence[str],
                        label: str = "") -> Changes:
    """Set the groups that may read a document (one matrix cell toggled)."""
    kept = check_groups(list(rights), "rights")
    with store.operation("set_document_rights", label) as op:
        doc = require_row(op, "documents", document_id)
        op.label = label or doc["key"]
        if op.update("documents", {"id": document_id},
                     {"rights": json.dumps(kept, ensure_ascii=False)}) is not None:
            op.update("documents", {"id": document_id}, {"updated_at": utc_now()})
    return op.changes()


def apply_rights_change(store: Store, change: RightsChange, label: str = "") -> Changes:
    """Make a replayed change for real, all or nothing: identities' groups (an identity not
    declared yet is added) and documents' rights, as ONE undoable operation."""
    if change.empty:
        raise InvalidValue("the change is empty: nothing to apply.")
    with store.operation("apply_rights_change", label or "rights") as op:
        identities = {norm(r["name"]): r for r in op.select("identities")}
        for name, groups in change.identity_groups.items():
            text = json.dumps(check_groups(list(groups)), ensure_ascii=False)
            row = identities.get(norm(name))
            if row is None:
                op.insert("identities", {"name": _name(name), "group_names": text, "note": ""})
            else:
                op.update("identities", {"id": row["id"]}, {"group_names": text})
        now = utc_now()
        for key, rights in change.document_rights.items():
            found = op.select("documents", key=key)
            if not found:
                raise NotFound("no document with key '{key}'; nothing was changed.", key=key)
            text = json.dumps(check_groups(list(rights), "rights"), ensure_ascii=False)
            if op.update("documents", {"id": found[0]["id"]}, {"rights": text}) is not None:
                op.update("documents", {"id": found[0]["id"]}, {"updated_at": now})
    return op.changes()
