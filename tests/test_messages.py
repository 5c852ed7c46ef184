"""The core's messages in the reader's language (issue 21, point 1).

Every message id the core can raise (extracted from the code by Babel, as
``python -m rag_annotator.messages_catalogue`` does) must be in the French catalogue with
the same placeholders, and the committed ``.pot``/``.mo`` must follow the code; a refusal
of each importer family, a damaged file, a busy file and a merge conflict print French in
the CLI under ``LANG=fr_FR.UTF-8``.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path

import pytest
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

import rag_annotator
from rag_annotator.errors import KnownError
from rag_annotator.import_export import registry
from rag_annotator.messages import KEYWORDS, Message, default_language, render, set_language
from rag_annotator.messages_catalogue import extract, po_path, read
from rag_annotator.storage.store import GoldSetStore
from tests.bad_imports import BAD_IMPORTS, assert_french, french_cli, write_bad

PACKAGE = Path(rag_annotator.__file__).parent


def _placeholders(text: str) -> Counter[str]:
    return Counter(re.findall(r"\{[^{}]*\}", text))


def _forms(text: object) -> tuple[str, ...]:
    """A message's texts: one, or (singular, plural) for a counted one (lists from a .mo)."""
    return tuple(text) if isinstance(text, (tuple, list)) else (str(text or ""),)


def test_every_message_id_the_core_can_raise_has_its_french_with_the_same_placeholders(
        ) -> None:
    ids = {m.id for m in extract() if m.id}
    assert len(ids) > 400  # the whole core, not a few files
    french = {m.id: m.string for m in read("fr") if m.id}
    missing = sorted(str(i) for i in ids if not all(_forms(french.get(i))))
    assert missing == [], "no French for these ids (python -m rag_annotator.messages_catalogue"
    # a counted message: each French form has the placeholders of the English plural
    changed = sorted(str(i) for i in ids for form in _forms(french[i])
                     if _placeholders(_forms(i)[-1]) != _placeholders(form))
    assert changed == []
    # English is complete by construction (the id is the English text): no empty id, and
    # the committed template follows the code (a new message cannot skip the catalogue).
    with (PACKAGE / "resources" / "locale" / "rag_annotator.pot").open("rb") as handle:
        assert {m.id for m in read_po(handle) if m.id} == ids, "stale .pot: update it"
    with po_path("fr").with_suffix(".mo").open("rb") as handle:
        compiled = {_forms(m.id): _forms(m.string) for m in read_mo(handle) if m.id}
    assert compiled == {_forms(i): _forms(s) for i, s in french.items() if all(_forms(s))}, \
        "stale .mo: recompile"


def test_no_known_error_is_raised_with_an_f_string() -> None:
    """An f-string is a finished English sentence that cannot be translated: the core
    raises message ids with parameters instead."""
    positions = {name: (spec[0] if spec else 1) - 1 for name, spec in KEYWORDS.items()}
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if "ui" in path.relative_to(PACKAGE).parts:
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = getattr(func, "id", None) or getattr(func, "attr", None)
            at = positions.get(name or "")
            if at is not None and len(node.args) > at and isinstance(node.args[at],
                                                                   ast.JoinedStr):
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert found == []


def test_numbers_and_parameters_follow_the_locale() -> None:
    message = "the file is too large ({size:,} bytes; the limit is {limit:,}); split it."
    params = {"size": 1234567, "limit": 1000000}
    assert render(message, params, "en") == message.format(**params)
    french = render(message, params, "fr")
    assert format_decimal(1234567, locale="fr") in french  # Babel's grouping, not Python's
    assert french.startswith("le fichier est trop gros")
    shares = render("the workbook expands {unpacked:.0f}× (limit {max_ratio:.0f}×): a zip "
                    "bomb? refused.", {"unpacked": 250.4, "max_ratio": 100.0}, "fr")
    assert "250×" in shares and "100×" in shares
    nested = KnownError("{error}", error=Message("a run needs a name."))
    assert nested.render("fr") == "une exécution doit avoir un nom."
    assert str(nested) == "a run needs a name."


def test_the_language_comes_from_the_session_then_the_environment(
        monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("RAG_ANNOTATOR_LANG", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    assert default_language() == "fr"
    monkeypatch.setenv("RAG_ANNOTATOR_LANG", "en")
    assert default_language() == "en"
    set_language("fr")
    try:
        assert default_language() == "fr" and default_language("en") == "en"
    finally:
        set_language(None)
    from rag_annotator.cli.language import take_language

    try:
        assert take_language(["info", "f.goldset", "--language", "fr"]) == ["info",
                                                                             "f.goldset"]
        assert default_language() == "fr"
    finally:
        set_language(None)


# -- the CLI under a French locale ---------------------------------------------------------
def _refusal(goldset: Path, fmt: str, source: Path, options: dict[str, str]) -> KnownError:
    """The importer's refusal, raised in this process (the CLI must print its French)."""
    with GoldSetStore.open(goldset, assessor="alice") as store, \
            pytest.raises(KnownError) as caught:
        registry.importer(fmt)(store, source, registry.Options(**options))
    return caught.value


@pytest.mark.parametrize(("fmt", "name", "content", "options"), BAD_IMPORTS,
                         ids=[b[0] for b in BAD_IMPORTS])
def test_a_bad_import_is_refused_in_french_by_the_cli(
        tmp_path: Path, fmt: str, name: str, content: str | bytes,
        options: dict[str, str]) -> None:
    goldset = tmp_path / "g.goldset"
    GoldSetStore.create(goldset, assessor="alice").close()
    source = write_bad(tmp_path, name, content)
    error = _refusal(goldset, fmt, source, options)
    extra = [a for k, v in options.items() for a in (f"--{k}", v)]
    result = french_cli("import", str(goldset), fmt, str(source), *extra)
    assert result.returncode != 0
    line = result.stderr.strip().splitlines()[-1]
    assert line == f"error: {error.render('fr')}"
    assert_french(line.removeprefix("error: "), error)


def test_a_damaged_and_a_busy_file_are_refused_in_french_by_the_cli(tmp_path: Path) -> None:
    goldset = tmp_path / "g.goldset"
    GoldSetStore.create(goldset, assessor="alice").close()
    with GoldSetStore.open(goldset, assessor="alice", lock=True):
        with pytest.raises(KnownError) as busy:
            GoldSetStore.open(goldset, assessor="bob", lock=True)
        result = french_cli("import", str(goldset), "cases", str(goldset))
    assert result.stderr.strip().splitlines()[-1] == f"error: {busy.value.render('fr')}"
    assert_french(busy.value.render("fr"), busy.value)
    damaged = tmp_path / "d.goldset"
    damaged.write_bytes(goldset.read_bytes()[:60])
    with pytest.raises(KnownError) as caught:
        GoldSetStore.open(damaged)
    result = french_cli("info", str(damaged))
    assert result.stderr.strip().splitlines()[-1] == f"error: {caught.value.render('fr')}"
    assert_french(caught.value.render("fr"), caught.value)


def _conflicting_copies(tmp_path: Path) -> tuple[Path, Path]:
    """Two copies where Alice labelled the same pair relevant, then (later, in the copy)
    not relevant: a merge conflict."""
    import shutil

    from rag_annotator.domain import judging_ops
    from rag_annotator.domain import operations as ops

    mine, theirs = tmp_path / "mine.goldset", tmp_path / "theirs.goldset"
    with GoldSetStore.create(mine, assessor="Alice") as store:
        ops.create_case(store, key="Q1", question="Combien de jours de congé ?")
        ops.create_document(store, key="D1", text="Vingt-cinq jours ouvrés.")
        pair = store.by_key("cases", "Q1")["id"], store.by_key("documents", "D1")["id"]
        judging_ops.set_judgment(store, *pair, 1)
    shutil.copy(mine, theirs)
    with GoldSetStore.open(theirs, assessor="Alice") as store:
        judging_ops.set_judgment(store, *pair, 0)
    return mine, theirs


def test_a_merge_conflict_is_reported_in_french_by_the_cli(tmp_path: Path) -> None:
    from rag_annotator.import_export.merge import merge_file

    mine, theirs = _conflicting_copies(tmp_path)
    result = french_cli("merge", str(mine), str(theirs))
    assert result.returncode == 0, result.stderr
    again = tmp_path / "again"
    again.mkdir()
    mine_again, theirs_again = _conflicting_copies(again)
    with GoldSetStore.open(mine_again) as store:  # the same merge, in this process
        report = merge_file(store, theirs_again)
    (conflict,) = report.conflicts
    warning = f"warning: {conflict.describe('fr')}"
    assert warning in result.stderr.splitlines()
    assert_french(conflict.describe("fr"), conflict.message())
    assert "ce fichier dit relevant, l'autre dit not_relevant (Alice)" in warning
    assert result.stdout.strip().endswith(report.summary("fr"))
    assert "fusionné" in report.summary("fr")


def test_a_lock_holders_date_follows_the_locale() -> None:
    from datetime import datetime, timezone

    from babel.dates import format_datetime

    from rag_annotator.storage.lock import LockInfo

    holder = LockInfo("Claire Dubois", "pc-12", 4242, "2026-11-29T14:02:33+00:00")
    assert holder.describe() == ("Claire Dubois (host pc-12, process 4242) since "
                                 "2026-11-29 14:02 UTC")
    when = datetime(2026, 11, 29, 14, 2, 33, tzinfo=timezone.utc)
    french = holder.message().render("fr")
    assert french == (f"Claire Dubois (machine pc-12, processus 4242) depuis le "
                      f"{format_datetime(when, 'short', tzinfo=timezone.utc, locale='fr')} UTC")
    assert "29/11/2026" in french
