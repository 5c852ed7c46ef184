"""Cases from spreadsheets and JSON Lines: seed 004's shape, headers, encodings, bad inputs."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import openpyxl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rag_annotator.domain import operations as ops
from rag_annotator.errors import InvalidValue, KnownError
from rag_annotator.import_export import registry
from rag_annotator.import_export.cases_import import import_cases, recognise_headers
from rag_annotator.import_export.files import Cancelled, ImportRejected
from rag_annotator.import_export.registry import Options
from rag_annotator.import_export.tabular import read_table, sniff_delimiter
from rag_annotator.storage.store import GoldSetStore
from tests.helpers import full_dump, rows, run_cli

# Seed 004's table: "# | Question | Où se trouve la réponse | Doit contenir".
SEED = [
    ["#", "Question", "Où se trouve la réponse", "Doit contenir"],
    ["1", "Combien de livres puis-je emprunter à la fois?", "Politique de prêt, section 2",
     "La limite, et le fait qu’elle s’applique par carte"],
    ["2", "Puis-je renouveler un livre en ligne?", "Page d’aide du compte",
     "Oui, et combien de fois"],
    ["3", "Prêtez-vous des télescopes?", "Pas dans les documents",
     "« Je ne sais pas » ou une redirection"],
]


def excel_csv(path: Path, table: list[list[str]], *, encoding: str = "utf-8-sig",
              delimiter: str = ";") -> Path:
    """What Excel writes in France: BOM (or cp1252), semicolons, CRLF, quotes when needed."""
    def cell(text: str) -> str:
        if any(c in text for c in (delimiter, '"', "\n")):
            return '"' + text.replace('"', '""') + '"'
        return text
    text = "".join(delimiter.join(cell(c) for c in row) + "\r\n" for row in table)
    path.write_bytes(text.encode(encoding))
    return path


def xlsx(path: Path, table: list[list[object]]) -> Path:
    book = openpyxl.Workbook()
    sheet = book.active
    for row in table:
        sheet.append(row)
    book.save(path)
    return path


def cases(path: Path) -> list[tuple[object, ...]]:
    return rows(path, "SELECT key, question, must_contain, family, expected_behaviour, notes "
                      "FROM cases ORDER BY id")


EXPECTED_SEED = [
    ("1", "Combien de livres puis-je emprunter à la fois?",
     '["La limite, et le fait qu’elle s’applique par carte"]', "ordinary", "answer",
     "Source: Politique de prêt, section 2"),
    ("2", "Puis-je renouveler un livre en ligne?", '["Oui, et combien de fois"]', "ordinary",
     "answer", "Source: Page d’aide du compte"),
    ("3", "Prêtez-vous des télescopes?", '["« Je ne sais pas » ou une redirection"]',
     "no_answer", "abstain", ""),
]


def test_seed_004_as_french_excel_csv(store: GoldSetStore, goldset_path: Path,
                                      tmp_path: Path) -> None:
    source = excel_csv(tmp_path / "jeu.csv", SEED)
    report = import_cases(store, source, Options())
    assert cases(goldset_path) == EXPECTED_SEED
    assert report.cases == 3 and report.no_answer == 1 and len(report.unmatched_sources) == 2
    assert report.warnings == []
    assert rows(goldset_path, "SELECT DISTINCT author, status FROM cases") == [("alice",
                                                                                "draft")]


def test_seed_004_as_xlsx(store: GoldSetStore, goldset_path: Path, tmp_path: Path) -> None:
    table: list[list[object]] = [SEED[0]] + [[int(r[0]), *r[1:]] for r in SEED[1:]]
    import_cases(store, xlsx(tmp_path / "jeu.xlsx", table), Options())
    assert cases(goldset_path) == EXPECTED_SEED  # 1 (a number in Excel) arrives as "1"


def test_seed_004_through_the_cli(store: GoldSetStore, goldset_path: Path,
                                  tmp_path: Path) -> None:
    store.close()
    source = excel_csv(tmp_path / "jeu.csv", SEED)
    result = run_cli("import", str(goldset_path), "cases", str(source))
    assert result.returncode == 0, result.stderr
    assert "3 cases imported" in result.stdout
    assert cases(goldset_path) == EXPECTED_SEED


def test_cp1252_csv_is_read_with_a_warning(store: GoldSetStore, goldset_path: Path,
                                           tmp_path: Path) -> None:
    table = [["Question", "Réponse attendue"], ["Où est la médiathèque ?", "Rue de l’Été"]]
    source = excel_csv(tmp_path / "ancien.csv", table, encoding="cp1252")
    report = import_cases(store, source, Options())
    assert rows(goldset_path, "SELECT key, question, reference_answer FROM cases") == [
        ("Q01", "Où est la médiathèque ?", "Rue de l’Été")]
    assert report.keys_generated == 1
    assert any("Windows-1252" in w for w in report.warnings)


@pytest.mark.parametrize("delimiter", [",", "\t", ";"])
def test_english_headers_and_every_delimiter(store: GoldSetStore, goldset_path: Path,
                                             tmp_path: Path, delimiter: str) -> None:
    ops.create_document(store, key="DOC-1", title="Leave policy", text="25 days")
    table = [["Id", "Question", "Expected answer", "Source", "Must contain", "Family", "Tags",
              "Status", "Expected behaviour", "Difficulty", "Comments", "Author"],
             ["A1", "How many days?", "25", "Leave policy", "25 days\n- per year",
              "Ambiguous", "hr; leave", "Approved", "Answer", "Hard", "from the FAQ", "Bob"],
             ["A2", "And in 2026?", "", "", "", "", "", "", "", "", "", ""]]
    source = excel_csv(tmp_path / "cases.csv", table, encoding="utf-8", delimiter=delimiter)
    report = import_cases(store, source, Options())
    first, second = rows(goldset_path, "SELECT key, reference_answer, must_contain, family, "
                                       "tags, status, difficulty, notes, author FROM cases")
    assert first == ("A1", "25", '["25 days", "per year"]', "ambiguous", '["hr", "leave"]',
                     "approved", "hard", "from the FAQ", "Bob")
    assert second == ("A2", None, "[]", "ordinary", "[]", "draft", None, "", "alice")
    assert report.sources == 1
    assert rows(goldset_path, "SELECT d.key FROM expected_sources e JOIN documents d "
                              "ON d.id = e.document_id") == [("DOC-1",)]


def test_mapping_names_unknown_headers(store: GoldSetStore, goldset_path: Path,
                                       tmp_path: Path) -> None:
    table = [["Intitulé exact", "Ce qu'on attend", "Colonne libre"],
             ["Quand ?", "Demain", "x"]]
    source = excel_csv(tmp_path / "maison.csv", table)
    before = full_dump(goldset_path)
    with pytest.raises(ImportRejected, match="no column is recognised as the question"):
        import_cases(store, source, Options())
    assert full_dump(goldset_path) == before
    mapping = registry.parse_mapping("question=Intitulé exact,reference_answer=Ce qu'on attend")
    report = import_cases(store, source, Options(mapping=mapping))
    assert rows(goldset_path, "SELECT question, reference_answer FROM cases") == [
        ("Quand ?", "Demain")]
    assert report.ignored_columns == ["Colonne libre"]
    with pytest.raises(InvalidValue, match="not a case field"):
        recognise_headers(["A"], {"questoin": "A"})
    with pytest.raises(InvalidValue, match="there is no column 'B'"):
        recognise_headers(["A"], {"question": "B"})


def test_mapping_through_the_cli(store: GoldSetStore, goldset_path: Path,
                                 tmp_path: Path) -> None:
    store.close()
    source = excel_csv(tmp_path / "maison.csv", [["Intitulé exact"], ["Quand ?"]])
    result = run_cli("import", str(goldset_path), "cases", str(source), "--map",
                     "question=Intitulé exact")
    assert result.returncode == 0, result.stderr
    assert rows(goldset_path, "SELECT question FROM cases") == [("Quand ?",)]


def refused(store: GoldSetStore, path: Path, source: Path, match: str,
            options: Options | None = None) -> str:
    before = full_dump(path)
    with pytest.raises(KnownError) as caught:
        import_cases(store, source, options or Options())
    message = str(caught.value)
    assert match in message, message
    assert "\n" not in message
    assert full_dump(path) == before
    return message


def test_empty_required_column(store: GoldSetStore, goldset_path: Path,
                               tmp_path: Path) -> None:
    source = excel_csv(tmp_path / "vide.csv", [["#", "Question", "Doit contenir"],
                                              ["1", "", "a"], ["2", " ", "b"]])
    refused(store, goldset_path, source, "column 'Question' is empty in every row")


def test_a_row_without_question_names_row_and_column(store: GoldSetStore, goldset_path: Path,
                                                     tmp_path: Path) -> None:
    source = excel_csv(tmp_path / "trou.csv", [["#", "Question"], ["1", "Une ?"], ["2", ""],
                                              ["3", "Trois ?"]])
    refused(store, goldset_path, source, "row 3, column 'Question': empty")


def test_duplicate_ids(store: GoldSetStore, goldset_path: Path, tmp_path: Path) -> None:
    source = excel_csv(tmp_path / "doublons.csv", [["#", "Question"], ["1", "Une ?"],
                                                  ["2", "Deux ?"], ["1", "Encore une ?"]])
    refused(store, goldset_path, source, "row 4, column '#': the id '1' is also on row 2")
    ops.create_case(store, key="2", question="Déjà là")
    source = excel_csv(tmp_path / "existe.csv", [["#", "Question"], ["2", "Deux ?"]])
    refused(store, goldset_path, source, "row 2, column '#': a case '2' already exists")


def test_unknown_family_names_row_and_column(store: GoldSetStore, goldset_path: Path,
                                             tmp_path: Path) -> None:
    source = excel_csv(tmp_path / "famille.csv", [["Question", "Famille"],
                                                 ["Une ?", "Hors périmètre"],
                                                 ["Deux ?", "Bizarre"]])
    refused(store, goldset_path, source, "row 3, column 'Famille': 'Bizarre' is not a known "
                                         "family")


def test_too_large_csv(store: GoldSetStore, goldset_path: Path, tmp_path: Path) -> None:
    big = tmp_path / "enorme.csv"
    with open(big, "wb") as handle:  # a sparse 200 MB file: refused before it is read
        handle.truncate(200 * 1024 * 1024)
    refused(store, goldset_path, big, "too large (210 MB; the limit is 67 MB)")


def test_binary_files_named_csv(store: GoldSetStore, goldset_path: Path,
                                tmp_path: Path) -> None:
    workbook = xlsx(tmp_path / "classeur.xlsx", SEED)
    renamed = tmp_path / "classeur.csv"
    renamed.write_bytes(workbook.read_bytes())
    refused(store, goldset_path, renamed, "not a text table but a zip archive")
    blob = tmp_path / "image.csv"
    blob.write_bytes(b"Question\n" + bytes(range(256)) * 4)
    refused(store, goldset_path, blob, "NUL bytes")
    utf16 = tmp_path / "utf16.csv"
    utf16.write_bytes("Question\nUne ?\n".encode("utf-16"))
    refused(store, goldset_path, utf16, "NUL bytes")


def test_xlsx_zip_bomb(store: GoldSetStore, goldset_path: Path, tmp_path: Path) -> None:
    bomb = tmp_path / "bombe.xlsx"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("xl/worksheets/sheet1.xml", b" " * (30 * 1024 * 1024))
    refused(store, goldset_path, bomb, "zip bomb")


def test_damaged_xlsx(store: GoldSetStore, goldset_path: Path, tmp_path: Path) -> None:
    fake = tmp_path / "faux.xlsx"
    fake.write_text("Question;Réponse\n", encoding="utf-8")
    refused(store, goldset_path, fake, "not an .xlsx workbook")


def test_jsonl_cases(store: GoldSetStore, goldset_path: Path, tmp_path: Path) -> None:
    source = tmp_path / "cases.jsonl"
    lines = [{"id": "J1", "question": "Une ?", "must_contain": ["a", "b"], "tags": ["x"],
              "family": "sensitive", "extra": 1},
             {"question": "Deux ?", "reference_answer": "Oui", "variants": "Deux ?\nEt 2 ?"}]
    source.write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in lines) + "\n",
                      encoding="utf-8")
    report = import_cases(store, source, Options())
    assert rows(goldset_path, "SELECT key, must_contain, tags, family, variants FROM cases "
                              "ORDER BY id") == [
        ("J1", '["a", "b"]', '["x"]', "sensitive", "[]"),
        ("Q01", "[]", "[]", "ordinary", '["Deux ?", "Et 2 ?"]')]
    assert any("extra" in w for w in report.warnings)
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"question": "ok ?"}\n{"question": \n', encoding="utf-8")
    message = refused(store, goldset_path, bad, "not valid JSON")
    assert ":2:" in message


def test_import_is_one_undoable_operation(store: GoldSetStore, goldset_path: Path,
                                          tmp_path: Path) -> None:
    ops.create_document(store, key="D1", title="Politique de prêt, section 2", text="10 livres")
    before = full_dump(goldset_path)
    report = import_cases(store, excel_csv(tmp_path / "jeu.csv", SEED), Options())
    assert report.sources == 1  # the first source cell names a document by its title
    assert rows(goldset_path, "SELECT action FROM operations ORDER BY id DESC LIMIT 1") == [
        ("import_cases",)]
    assert report.changes is not None and report.changes.operation_id
    store.revert(report.changes.operation_id)
    after = full_dump(goldset_path)
    assert {t: v for t, v in after.items() if t not in ("operations", "history")} == \
        {t: v for t, v in before.items() if t not in ("operations", "history")}


def test_cancel_leaves_the_file_unchanged(store: GoldSetStore, goldset_path: Path,
                                          tmp_path: Path) -> None:
    table = [["Question"]] + [[f"Question {i} ?"] for i in range(3000)]
    source = excel_csv(tmp_path / "long.csv", table)
    calls: list[int] = []

    def cancel() -> bool:
        calls.append(1)
        return len(calls) >= 3

    before = full_dump(goldset_path)
    with pytest.raises(Cancelled):
        import_cases(store, source, Options(cancel=cancel))
    assert full_dump(goldset_path) == before
    # Cancel as late as possible: after the rows are written, before the commit.
    with pytest.raises(Cancelled):
        import_cases(store, source, Options(cancel=lambda: len(calls.append(1) or calls) > 9))
    assert full_dump(goldset_path) == before


def test_reader_details(tmp_path: Path) -> None:
    assert sniff_delimiter('"a;b",c,d\n1,2,3') == ","
    assert sniff_delimiter("a\tb;c\tb") == "\t"
    assert sniff_delimiter("seul") == ","
    source = tmp_path / "t.csv"
    source.write_bytes(b"\n\nQuestion;Autre\r\nUne ?;x;en trop\r\n;\r\nDeux ?;y\r\n")
    table = read_table(source)
    assert table.headers == ["Question", "Autre"]
    assert table.rows == [(2, ["Une ?", "x"]), (4, ["Deux ?", "y"])]
    assert "more cells than the header" in table.warnings[0]
    quotes = tmp_path / "q.csv"
    quotes.write_text('Question\n"non fermé\n', encoding="utf-8")
    with pytest.raises(ImportRejected, match="check the quotes"):
        read_table(quotes)
    empty = tmp_path / "e.csv"
    empty.write_bytes(b"")
    with pytest.raises(ImportRejected, match="empty"):
        read_table(empty)


_CELL = st.text(st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\x00")
                | st.sampled_from(["\n", '"', ";", ",", "\t", "é"]), max_size=12)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(table=st.lists(st.lists(_CELL, min_size=2, max_size=2), min_size=1, max_size=5),
       delimiter=st.sampled_from([";", ",", "\t"]),
       encoding=st.sampled_from(["utf-8", "utf-8-sig"]))
def test_any_csv_excel_writes_reads_back(tmp_path: Path, table: list[list[str]],
                                         delimiter: str, encoding: str) -> None:
    """Whatever the cells hold (quotes, delimiters, line breaks, accents), a CSV written the
    way Excel writes it reads back cell for cell (blank rows aside)."""
    header = ["Question", "Réponse attendue"]
    source = excel_csv(tmp_path / "p.csv", [header, *table], encoding=encoding,
                       delimiter=delimiter)
    read = read_table(source)
    expected = [row for row in table if any(c.strip() for c in row)]
    assert read.headers == header
    assert [cells for _n, cells in read.rows] == expected


def test_xlsx_cases_on_a_later_sheet(store: GoldSetStore, goldset_path: Path,
                                     tmp_path: Path) -> None:
    book = openpyxl.Workbook()
    book.active.title = "Synthèse"
    book.active.append(["Indicateur", "Valeur"])
    book.active.append(["Questions", 2])
    cases_sheet = book.create_sheet("Questions")
    for row in SEED[:3]:
        cases_sheet.append(row)
    book.create_sheet("Vide")
    book.save(tmp_path / "classeur.xlsx")
    report = import_cases(store, tmp_path / "classeur.xlsx", Options())
    assert [r[0] for r in cases(goldset_path)] == ["1", "2"]
    assert "read the sheet 'Questions'" in report.warnings[0]


# -- agent cases (issue 9) ---------------------------------------------------------------------
AGENT_HEADERS_FR = ["#", "Nature", "Question", "État final attendu", "Outils interdits",
                    "Outils obligatoires", "Ordre imposé", "Étapes max", "Tokens max",
                    "Coût max", "Type de cas", "Interdits"]
AGENT_TABLE_FR = [
    AGENT_HEADERS_FR,
    ["A01", "", "Je veux changer d'offre",
     "ticket.category = changement_offre\nticket.client = C-42", "supprimer_compte", "",
     "verifier_identite < modifier_offre", "6", "", "", "Ordinaire", ""],
    ["A02", "Agent", "Je veux résilier", "abonnement.statut = resilie; compte.actif = true",
     "supprimer_compte, modifier_offre", "creer_ticket", "verifier_identite < "
     "resilier_abonnement < creer_ticket", "8", "4000", "0,02", "Sensible", ""],
    ["Q1", "RAG", "Combien de jours de congés ?", "", "", "", "", "", "", "", "Ordinaire",
     "20 jours"],
]
AGENT_COLUMNS = ("SELECT key, kind, family, forbidden, expected_state, forbidden_tools, "
                 "required_tools, tool_order, max_steps, max_tokens, max_seconds, max_cost "
                 "FROM cases ORDER BY id")
EXPECTED_AGENT = [
    ("A01", "agent", "ordinary", "[]",
     '{"ticket.category": "changement_offre", "ticket.client": "C-42"}',
     '["supprimer_compte"]', "[]", '[["verifier_identite", "modifier_offre"]]', 6, None, None,
     None),
    ("A02", "agent", "sensitive", "[]", '{"abonnement.statut": "resilie", "compte.actif": true}',
     '["supprimer_compte", "modifier_offre"]', '["creer_ticket"]',
     '[["verifier_identite", "resilier_abonnement"], ["resilier_abonnement", "creer_ticket"]]',
     8, 4000, None, 0.02),
    ("Q1", "rag", "ordinary", '["20 jours"]', "{}", "[]", "[]", "[]", None, None, None, None),
]


def test_agent_cases_from_french_excel_csv(store: GoldSetStore, goldset_path: Path,
                                           tmp_path: Path) -> None:
    """Agent headers beside the existing aliases: 'Type de cas' stays the family and
    'Interdits' the must-never-say list; a row with agent cells and no kind is an agent."""
    source = excel_csv(tmp_path / "agents.csv", AGENT_TABLE_FR)
    report = import_cases(store, source, Options())
    assert report.cases == 3 and not report.ignored_columns
    assert rows(goldset_path, AGENT_COLUMNS) == EXPECTED_AGENT


def test_agent_cases_from_xlsx_with_numbers(store: GoldSetStore, goldset_path: Path,
                                            tmp_path: Path) -> None:
    table: list[list[object]] = [list(r) for r in AGENT_TABLE_FR]
    table[1][7] = 6          # numbers as Excel stores them
    table[2][7], table[2][8], table[2][9] = 8, 4000, 0.02
    import_cases(store, xlsx(tmp_path / "agents.xlsx", table), Options())
    assert rows(goldset_path, AGENT_COLUMNS) == EXPECTED_AGENT


def test_agent_cases_from_english_jsonl(store: GoldSetStore, goldset_path: Path,
                                        tmp_path: Path) -> None:
    source = tmp_path / "agents.jsonl"
    lines = [
        {"id": "A01", "kind": "agent", "question": "Je veux changer d'offre",
         "expected_state": {"ticket": {"category": "changement_offre", "client": "C-42"}},
         "forbidden_tools": ["supprimer_compte"],
         "tool_order": [["verifier_identite", "modifier_offre"]], "max_steps": 6},
        {"id": "A02", "question": "Je veux résilier", "family": "sensitive",
         "Expected final state": "abonnement.statut = resilie\ncompte.actif = true",
         "Forbidden tools": "supprimer_compte; modifier_offre",
         "Required tools": ["creer_ticket"],
         "Tool order": "verifier_identite < resilier_abonnement < creer_ticket",
         "Max steps": 8, "max_tokens": 4000, "Max cost": 0.02},
        {"id": "Q1", "kind": "rag", "question": "Combien de jours de congés ?",
         "forbidden": ["20 jours"]},
    ]
    source.write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in lines) + "\n",
                      encoding="utf-8")
    import_cases(store, source, Options())
    assert rows(goldset_path, AGENT_COLUMNS) == EXPECTED_AGENT


@pytest.mark.parametrize("header,cell,match", [
    ("État final attendu", "ticket.category changement_offre",
     "row 2, column 'État final attendu': 'ticket.category changement_offre' is not "
     "'key = value'"),
    ("Étapes max", "six", "row 2, column 'Étapes max': 'six' is not a number"),
    ("Max steps", "6.5", "row 2, column 'Max steps': give a whole number"),
    ("Coût max", "-1", "row 2, column 'Coût max': give a number of 0 or more"),
    ("Ordre imposé", "verifier_identite modifier_offre",
     "row 2, column 'Ordre imposé': write each pair as 'before < after'"),
    ("Tool order", "a < a", "row 2, column 'Tool order': 'a' cannot come before itself"),
    ("Outils requis", "verifier identité < x", "row 2, column 'Outils requis': '<' is not a "
                                                "tool name"),
])
def test_bad_agent_cells_name_row_and_column(store: GoldSetStore, goldset_path: Path,
                                             tmp_path: Path, header: str, cell: str,
                                             match: str) -> None:
    source = excel_csv(tmp_path / "bad.csv", [["#", "Question", header],
                                              ["A01", "Je veux changer d'offre", cell]])
    refused(store, goldset_path, source, match)


def test_agent_cell_on_a_rag_row_and_unknown_kind_are_refused(
        store: GoldSetStore, goldset_path: Path, tmp_path: Path) -> None:
    source = excel_csv(tmp_path / "mixed.csv", [
        ["#", "Kind", "Question", "Max steps"], ["A01", "agent", "Une ?", "6"],
        ["Q1", "RAG", "Deux ?", "6"]])
    refused(store, goldset_path, source, "row 3, column 'Max steps': filled on a case of kind "
                                         "'RAG'")
    source = excel_csv(tmp_path / "kind.csv", [["Question", "Kind"], ["Une ?", "robot"]])
    refused(store, goldset_path, source, "row 2, column 'Kind': 'robot' is not a known kind")


def test_agent_headers_do_not_take_existing_aliases() -> None:
    found = recognise_headers(["Type de cas", "Interdits", "Forbidden", "Requête", "État",
                               "Outils interdits", "Forbidden tools", "Ordre imposé",
                               "Budget d'étapes", "Expected final state"])
    assert found == {"family": 0, "forbidden": 1, "question": 3, "status": 4,
                     "forbidden_tools": 5, "tool_order": 7, "max_steps": 8,
                     "expected_state": 9}


def test_several_bad_agent_cells_are_listed_in_one_readable_line(tmp_path: Path) -> None:
    """Every bad cell is named (row, column, what to write) in one line, without the
    doubled punctuation of messages that end with a period."""
    from rag_annotator.import_export.cases_import import import_cases
    from rag_annotator.import_export.files import ImportRejected
    from rag_annotator.import_export.registry import Options
    from rag_annotator.storage.store import GoldSetStore

    source = tmp_path / "bad.csv"
    source.write_text("Id,Kind,Question,Max steps,Tool order\n"
                      "B01,agent,Demande,six,a < b\nB02,agent,Demande,3,verifier_identite\n",
                      encoding="utf-8")
    with GoldSetStore.create(tmp_path / "g.goldset", assessor="ana") as store:
        with pytest.raises(ImportRejected) as caught:
            import_cases(store, source, Options())
        assert store.count("cases") == 0
    text = str(caught.value)
    assert "row 2, column 'Max steps': 'six' is not a number; row 3, column 'Tool order'" in text
    assert ".;" not in text and ".." not in text and "\n" not in text
