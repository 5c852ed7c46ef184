"""Reports, notes and lists of the core in the reader's language (issue 21, point 1): the
RAGChecker import summary, ``check``'s lines, a merge's skipped rows, the CLI's notes, the
labels built around JSON paths, and counted words that follow French plural rules.

Expected French is the catalogue's wording written out here (with its no-break spaces), so
a message that falls back to English, or picks the wrong plural form, fails."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from rag_annotator.domain.structured import Contract, check_contract, schema_problem
from rag_annotator.errors import KnownError
from rag_annotator.import_export.detect import detect
from rag_annotator.import_export.entity_counts import COUNTED, counted, counts_text
from rag_annotator.import_export.long_lists import few_lines
from rag_annotator.import_export.ragchecker_run import import_ragchecker_run
from rag_annotator.messages import Message, Plural, set_language
from rag_annotator.storage.store import GoldSetStore
from tests.bad_imports import french_cli

NB = "\u00a0"  # French writes a no-break space before : ; ? ! and inside « »
DATA = Path(__file__).parent / "data" / "ragchecker"
OUTPUTS = DATA / "checking_outputs.json"


def test_counted_words_follow_each_languages_plural_rule() -> None:
    """gettext's ngettext with the catalogue's Plural-Forms: French says 0 and 1 in the
    singular, English only 1."""
    new = [Plural("{n} new case", "{n} new cases", n) for n in (0, 1, 2)]
    assert [m.render("en") for m in new] == ["0 new cases", "1 new case", "2 new cases"]
    assert [m.render("fr") for m in new] == ["0 nouveau cas", "1 nouveau cas",
                                             "2 nouveaux cas"]
    assert [counted("claims", n).render("fr") for n in (1, 5)] == ["1 affirmation",
                                                                    "5 affirmations"]
    assert counts_text({"cases": 3, "runs": 1, "claims": 0}).render("fr") == \
        "3 cas, 1 exécution"
    assert str(counts_text({"cases": 3, "runs": 1})) == "3 cases, 1 run"
    grouped = Plural("{n} problem found", "{n} problems found", 1234).render("fr")
    assert grouped == "1234 problèmes trouvés"  # a count is written plainly, as a row number


def test_every_table_of_a_gold_set_has_its_counted_words(tmp_path: Path) -> None:
    with GoldSetStore.create(tmp_path / "g.goldset") as store:
        tables = {r["name"] for r in store.query(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
    internal = {"_sqlite_migrations", "meta", "sqlite_sequence"}
    assert sorted(tables - internal - set(COUNTED)) == []
    for entity in COUNTED:  # each pair has its French, both forms
        one, many = counted(entity, 1).render("fr"), counted(entity, 2).render("fr")
        assert one != counted(entity, 1).render("en") or entity in ("documents", "citations")
        assert one.startswith("1 ") and many.startswith("2 ")


def test_the_ragchecker_import_summary_is_french_in_the_cli(tmp_path: Path) -> None:
    goldset = tmp_path / "g.goldset"
    GoldSetStore.create(goldset, assessor="alice").close()
    result = french_cli("import", str(goldset), "ragchecker-run", str(OUTPUTS), "--run", "rc")
    assert result.returncode == 0, result.stderr
    again = tmp_path / "again.goldset"
    with GoldSetStore.create(again, assessor="alice") as store:  # the same import, here
        report = import_ragchecker_run(store, OUTPUTS, run="rc")
    summary = report.summary()
    assert result.stdout.strip() == f"{OUTPUTS}: {summary.render('fr')}"
    french = summary.render("fr")
    assert french.startswith(f"2 résultats RAGChecker importés comme exécution «{NB}rc{NB}» "
                             f"(2 nouveaux cas, {len(report.new_documents)} nouveaux "
                             f"documents, {report.claims} affirmations avec les verdicts du "
                             f"juge «{NB}RAGChecker{NB}»).")
    assert f"Métriques de RAGChecker{NB}:" in french
    assert f"Fidélité (faithfulness) d'après les verdicts enregistrés{NB}:" in french
    assert "results imported" not in french and "new cases" not in french
    assert str(summary).startswith("2 RAGChecker results imported as run 'rc' (2 new cases")
    # the stale-lock-free CLI also says which format it picked, in French
    picked = french_cli("import", str(goldset), str(OUTPUTS), "--run", "rc2")
    assert f"{OUTPUTS}{NB}: format ragchecker-run (un fichier RAGChecker " in picked.stderr


def test_check_prints_its_prefixes_and_counts_in_french(tmp_path: Path) -> None:
    goldset = tmp_path / "g.goldset"
    GoldSetStore.create(goldset).close()
    fine = french_cli("check", str(goldset))
    assert fine.stdout.strip().startswith(f"{goldset}{NB}: ok (intégrité, clés étrangères")
    with sqlite3.connect(goldset) as conn:
        conn.execute("DROP INDEX retrieved_document")
    with GoldSetStore.open(goldset, read_only=True, schema="report") as store:
        problems = store.schema_problems()
    assert problems and all(p.startswith("schema: ") for p in problems)
    result = french_cli("check", str(goldset))
    assert result.returncode != 0
    lines = result.stdout.strip().splitlines()
    assert lines[0] == f"{goldset}: schéma{NB}: {problems[0].params['difference'].render('fr')}"
    assert any("contrôles de références croisées sautés" in line for line in lines)
    assert result.stderr.strip().splitlines()[-1] == f"{len(lines)} problèmes trouvés"
    integrity = Message("integrity: {problem}", problem="*** in database main ***")
    assert integrity.render("fr") == f"intégrité{NB}: *** in database main ***"


def test_a_merge_lists_its_skipped_rows_in_french(tmp_path: Path) -> None:
    from rag_annotator.domain import judging_ops
    from rag_annotator.domain import operations as ops
    from rag_annotator.import_export.merge import merge_file

    def copies(folder: Path) -> tuple[Path, Path]:
        folder.mkdir()
        mine, theirs = folder / "mine.goldset", folder / "theirs.goldset"
        GoldSetStore.create(mine, assessor="Alice").close()
        with GoldSetStore.create(theirs, assessor="Bob") as store:
            ops.create_case(store, key="Q1", question="Combien de jours de congé ?")
            ops.create_document(store, key="D1", text="Vingt-cinq jours ouvrés.")
            pair = store.by_key("cases", "Q1")["id"], store.by_key("documents", "D1")["id"]
            judging_ops.set_judgment(store, *pair, 1)
        return mine, theirs

    result = french_cli("merge", *map(str, copies(tmp_path / "cli")))
    assert result.returncode == 0, result.stderr
    mine, theirs = copies(tmp_path / "here")
    with GoldSetStore.open(mine) as store:
        report = merge_file(store, theirs)
    (skipped,) = report.skipped
    expected = (f"ignoré{NB}: jugement de Bob sur Q1 · D1{NB}: le cas Q1 n'est pas dans ce "
                "fichier")
    assert f"warning: {expected}" in result.stderr.splitlines()
    assert str(skipped) == "judgment of Bob on Q1 · D1: case Q1 is not in this file"
    assert report.summary("fr").endswith("; 1 ignoré; 0 conflit.")
    set_language("fr")  # the window's language: what the merge box's details show
    try:
        assert few_lines([Message("skipped {line}", line=s) for s in report.skipped]) == [
            expected]
    finally:
        set_language(None)


def test_labels_around_json_paths_and_format_reasons_are_french() -> None:
    set_language("en")
    try:
        assert few_lines([Message("a run needs a name.")] * 25, 20)[-1] == \
            "… and 5 more (25 in all)"
        set_language("fr")
        assert few_lines([Message("a run needs a name.")] * 25, 20)[-1] == \
            "… et 5 de plus (25 en tout)"
        assert few_lines([Message("a run needs a name.")])[0] == "une exécution doit avoir un nom."
    finally:
        set_language(None)
    claim = Message("{where} claim {j}", where="results[2]", j=3)
    assert (str(claim), claim.render("fr")) == ("results[2] claim 3", "results[2] affirmation 3")
    assert Message("golden {n}", n=4).render("fr") == "golden n° 4"
    found = detect(OUTPUTS)
    assert found is not None and found[0] == "ragchecker-run"
    assert found[1].render("fr") == 'un fichier RAGChecker ({"results": [...]})'  # type: ignore[attr-defined]


def test_an_unusable_output_schema_is_refused_in_french_with_jsonschemas_words() -> None:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError

    schema = {"type": "object", "properties": {"amount": {"type": 5}}}
    with pytest.raises(SchemaError) as peer:  # jsonschema's own explanation, kept as is
        Draft202012Validator.check_schema(schema)
    problem = schema_problem(schema)
    assert problem is not None
    with pytest.raises(KnownError) as refused:
        check_contract(Contract(schema))
    where = "/".join(str(p) for p in peer.value.path)
    assert str(refused.value) == (f"the output schema is not valid JSON Schema 2020-12 "
                                  f"({peer.value.message} at {where}).")
    assert refused.value.render("fr") == (f"le schéma de sortie n'est pas un JSON Schema "
                                          f"2020-12 valide ({peer.value.message} à {where}).")


def test_the_sample_line_counts_in_french() -> None:
    from rag_annotator.cli.sampling import _DRAWN

    one = Plural(*_DRAWN["claims"], 1, file="g.goldset", judge="gpt", units=300, seed=7)
    many = Plural(*_DRAWN["claims"], 40, file="g.goldset", judge="gpt", units=300, seed=7)
    assert str(many) == "g.goldset: sample of 40 claims of judge 'gpt' drawn from 300 (seed 7)"
    assert many.render("fr") == (f"g.goldset{NB}: échantillon de 40 affirmations du juge "
                                 f"«{NB}gpt{NB}» tirées parmi 300 (graine 7)")
    assert one.render("fr").startswith(f"g.goldset{NB}: échantillon de 1 affirmation du juge")


def test_a_collects_conflicts_and_skipped_judgments_are_french() -> None:
    from rag_annotator.import_export.team_collect import _ADDED, _EDITED
    from rag_annotator.storage.team_merge import SKIPPED

    edited = Message(_EDITED["case"], key="Q1")
    assert str(edited) == "case Q1 was edited in the assignment file; this file's version kept"
    assert edited.render("fr") == ("le cas Q1 a été modifié dans le fichier d'affectation"
                                   f"{NB}; la version de ce fichier est gardée")
    assert Message(_ADDED["document"], key="D9").render("fr").startswith(
        "le document D9 n'est pas dans ce fichier")
    skipped = Message("judgment of {who} on {case} · {doc}: {why}", who="bob", case="Q1",
                      doc="D1", why=Message(SKIPPED["slot"]))
    assert skipped.render("fr") == (f"jugement de bob sur Q1 · D1{NB}: ne fait pas partie "
                                    "des paires de l'annotateur")


def test_an_export_onto_the_gold_sets_own_files_is_refused_in_french(tmp_path: Path) -> None:
    import os

    from rag_annotator.import_export.files import refuse_own_files

    goldset = tmp_path / "g.goldset"
    GoldSetStore.create(goldset).close()
    hard = tmp_path / "hard.json"
    os.link(goldset, hard)
    refusals = []
    for dest in (goldset, hard):
        with pytest.raises(KnownError) as refused:
            refuse_own_files(goldset, dest)
        refusals.append(refused.value.render("fr"))
    assert f"{goldset}: c'est le jeu de référence ouvert lui-même{NB};" in refusals[0]
    assert "(un autre nom du même fichier)" in refusals[1]
    assert "gold set" not in refusals[0] + refusals[1]


def test_info_speaks_french_and_keeps_its_columns_aligned(tmp_path: Path) -> None:
    from rag_annotator.import_export.sample import create_sample

    path = tmp_path / "s.goldset"
    create_sample(path).close()
    lines = french_cli("info", str(path)).stdout.splitlines()
    assert lines[0].startswith(f"{path}{NB}: ") and "(schéma " in lines[0]
    labels = [line.split()[0] for line in lines[1:]]
    assert labels == ["cas", "documents", "exécutions", "jugements", "affirmations"]
    starts = {len(line) - len(line[2:].lstrip(" ").split(" ", 1)[1].lstrip(" "))
              for line in lines[1:]}
    assert len(starts) == 1  # every value starts in the same column
    assert lines[4].split(None, 1)[1].startswith("pertinents ")
    assert "(dont en désaccord " in lines[4] and "non vérifiées " in lines[5]


def test_no_plain_message_id_is_also_the_singular_of_a_counted_one() -> None:
    """gettext keeps a counted entry under its (singular, plural) pair: a plain id equal to
    a singular would share its catalogue entry and fall back to English."""
    from babel.messages.extract import extract_from_dir

    import rag_annotator
    from rag_annotator.messages import KEYWORDS

    package = Path(rag_annotator.__file__).parent
    keywords = {name: spec or (1,) for name, spec in KEYWORDS.items()}
    plain, singular = set(), set()
    for filename, _line, message, _c, _ctx in extract_from_dir(
            package, method_map=[("**.py", "python")], keywords=keywords, comment_tags=(),
            callback=None, strip_comment_tags=True):
        if filename.startswith(("ui/", "resources/")) or not message or not all(message):
            continue
        (singular.add(message[0]) if isinstance(message, tuple) else plain.add(message))
    assert sorted(plain & singular) == []
