"""Who may read what: test identities, groups and documents' rights (seed 003, "droits").

A **test identity** ("salarié", "manager", "RH") is a named set of **groups**; a document's
``rights`` lists the groups that may read it; a case is asked by one identity (its ``role``
column holds the identity's name).  An identity may read a document when:

* the document lists no group, or an *open* entry (``*``, ``all``, ``tous``, ``everyone``,
  ``public``): everyone may read it, as before identities existed;
* or one of the identity's groups is listed.

A case whose role names no declared identity is asked by an identity of **one group of the
same name**: a file written before identities existed (roles only) gives exactly the flags it
gave.  A case without a role is not checked.  Names and groups compare trimmed and in lower
case, like the rights check always did.

Pure: no Qt, no SQL.  The matrix edit (:func:`toggled_rights`) and the replay's changes
(:class:`RightsChange`) are values the operations of ``rights_ops`` apply.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rag_annotator.errors import InvalidValue

#: Rights entries that mean "every identity may read it".
OPEN_RIGHTS = frozenset({"*", "all", "tous", "everyone", "public"})
#: The group a document's rights are set to when no identity may read it any more: an empty
#: list means "everyone", so "nobody" needs a group no identity holds.
NOBODY = "nobody"


def norm(name: object) -> str:
    """A group or identity name as compared: trimmed, lower case."""
    return str(name).strip().lower()


def listed(rights: Iterable[object]) -> frozenset[str]:
    """The groups a rights list names (normalised, blanks dropped)."""
    return frozenset(n for n in map(norm, rights) if n)


def is_open(rights: Iterable[object]) -> bool:
    """Whether everyone may read a document with these rights."""
    names = listed(rights)
    return not names or bool(names & OPEN_RIGHTS)


def may_read(rights: Iterable[object], groups: Iterable[object]) -> bool:
    """Whether an identity holding ``groups`` may read a document with ``rights``."""
    names = listed(rights)
    return not names or bool(names & OPEN_RIGHTS) or bool(names & listed(groups))


@dataclass(frozen=True, slots=True)
class Identity:
    """A named test identity and the groups it belongs to."""

    name: str
    groups: tuple[str, ...] = ()
    note: str = ""


@dataclass(frozen=True)
class Identities:
    """The declared identities of a gold set, and how a case's role resolves to groups."""

    items: tuple[Identity, ...] = ()
    _by_name: Mapping[str, Identity] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_name", {norm(i.name): i for i in self.items})

    @classmethod
    def from_rows(cls, rows: Iterable[Mapping[str, Any]]) -> Identities:
        """From the store's ``identities`` rows (``group_names`` as JSON text or a list)."""
        out = []
        for row in rows:
            groups = row.get("group_names", row.get("groups", []))
            if isinstance(groups, str):
                try:
                    groups = json.loads(groups)
                except ValueError:
                    groups = []
            out.append(Identity(str(row["name"]), tuple(map(str, groups or [])),
                                str(row.get("note") or "")))
        return cls(tuple(out))

    def get(self, name: str) -> Identity | None:
        """The declared identity called ``name`` (any case), or None."""
        return self._by_name.get(norm(name))

    def names(self) -> tuple[str, ...]:
        return tuple(i.name for i in self.items)

    def groups_of(self, role: str) -> frozenset[str] | None:
        """The groups of the identity asking a case with this role: a declared identity's
        groups, else one group named like the role; None for no role (not checked)."""
        if not norm(role):
            return None
        identity = self.get(role)
        return listed(identity.groups) if identity is not None else frozenset({norm(role)})

    def may_read(self, rights: Iterable[object], role: str) -> bool:
        """Whether the identity ``role`` may read a document with ``rights`` (True when the
        case has no role: nothing is checked)."""
        groups = self.groups_of(role)
        return groups is None or may_read(rights, groups)

    def with_groups(self, name: str, groups: Sequence[str]) -> Identities:
        """A copy where the identity ``name`` holds ``groups`` (added if undeclared)."""
        found = False
        items = []
        for item in self.items:
            if norm(item.name) == norm(name):
                items.append(Identity(item.name, tuple(groups), item.note))
                found = True
            else:
                items.append(item)
        if not found:
            items.append(Identity(name, tuple(groups)))
        return Identities(tuple(items))


def check_groups(value: object, what: str = "groups") -> list[str]:
    """A list of group names, trimmed, without blanks or repeats (InvalidValue otherwise)."""
    if isinstance(value, str):
        value = [part for part in value.split(",")]
    if not isinstance(value, (list, tuple)) or not all(isinstance(x, str) for x in value):
        raise InvalidValue("{what}: expected a list of group names.", what=what)
    out: list[str] = []
    for item in value:
        name = item.strip()
        if name and norm(name) not in map(norm, out):
            out.append(name)
    return out


def toggled_rights(rights: Sequence[str], identity: str, identities: Identities) -> list[str]:
    """The document rights after toggling the cell (document, ``identity``) of the matrix.

    A cell toggles whether the identity may read the document, by editing the document's
    groups (the rights are per group, so another identity sharing the group changes too;
    the matrix shows it at once):

    * allowed -> forbidden: every group of the identity leaves the rights.  An open document
      (no group, or an open entry) is first closed to the groups of the *other* declared
      identities; when no group would be left, the rights become ``[NOBODY]`` (an empty list
      would mean "everyone");
    * forbidden -> allowed: the identity's most specific group is added: the one held by the
      fewest declared identities (ties: the first listed), so the fewest others gain access.
    """
    declared = identities.get(identity)
    groups = list(declared.groups) if declared is not None else [identity]
    mine = listed(groups)
    if may_read(rights, mine):
        if is_open(rights):
            others = [g for other in identities.items if norm(other.name) != norm(identity)
                      for g in other.groups]
            base = [g for g in dict.fromkeys(others) if norm(g) not in OPEN_RIGHTS]
        else:
            base = [r for r in rights if norm(r)]
        kept = [r for r in base if norm(r) not in mine and norm(r) != norm(NOBODY)]
        return kept or [NOBODY]
    closed = [g for g in groups if norm(g) not in OPEN_RIGHTS]
    if not closed:
        if not groups:
            raise InvalidValue("identity '{identity}' holds no group: give it a group first.",
                               identity=identity)
        return [groups[0]]  # its only groups are open ones: the document becomes open

    def holders(group: str) -> int:
        return sum(norm(group) in listed(i.groups) for i in identities.items)

    best = min(closed, key=lambda g: (holders(g), closed.index(g)))
    return [r for r in rights if norm(r) and norm(r) != norm(NOBODY)] + [best]


def gained_readers(before: Sequence[str], after: Sequence[str],
                   identities: Identities) -> list[str]:
    """The identities (in their order) that may read a document with rights ``after`` but
    could not with ``before``: who a rights change lets in, to say before it is made."""
    return [i.name for i in identities.items
            if may_read(after, i.groups) and not may_read(before, i.groups)]


@dataclass(frozen=True)
class RightsChange:
    """A change of the rights matrix, to replay (what if) or apply: new groups for some
    identities, new rights for some documents (by key)."""

    identity_groups: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    document_rights: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def applied_to(self, identities: Identities, documents: Mapping[str, Sequence[str]]
                   ) -> tuple[Identities, dict[str, tuple[str, ...]]]:
        """The identities and documents' rights once this change is made."""
        after = identities
        for name, groups in self.identity_groups.items():
            after = after.with_groups(name, groups)
        rights = {k: tuple(v) for k, v in documents.items()}
        rights.update({k: tuple(v) for k, v in self.document_rights.items()})
        return after, rights

    @property
    def empty(self) -> bool:
        return not self.identity_groups and not self.document_rights


def remove_group(identities: Identities, identity: str, group: str) -> RightsChange:
    """"Remove group G from identity I" as a change (InvalidValue naming what is unknown)."""
    declared = identities.get(identity)
    if declared is None:
        known = ", ".join(identities.names()) or "none declared"
        raise InvalidValue("no identity '{identity}' (identities: {known}); give one of "
                           "them.", identity=identity, known=known)
    if norm(group) not in listed(declared.groups):
        raise InvalidValue("identity '{name}' does not hold group '{group}' "
                           "(its groups: {value}); give one "
                           "of its groups.",
                           name=declared.name, group=group,
                           value=', '.join(declared.groups) or 'none')
    kept = tuple(g for g in declared.groups if norm(g) != norm(group))
    return RightsChange(identity_groups={declared.name: kept})
