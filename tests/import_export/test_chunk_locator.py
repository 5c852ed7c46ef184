"""Locating a chunk in the corpus: each difference a parser makes, one at a time, and the
span mapped back to the document's own offsets (the real PDFs are in
``test_chunks_on_pages.py``)."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rag_annotator.import_export.chunk_locator import (
    FUZZY_MIN,
    ChunkLocator,
    K,
    _chosen,
    _hashes,
)
from rag_annotator.import_export.context_match import ContextMatcher
from rag_annotator.import_export.passages import ChunkTally, expected_spans, passage_key
from rag_annotator.import_export.text_skeleton import code_points, skeleton
from rag_annotator.messages import render_any

ARTICLE = (
    "Article 12 – Congés payés\n"
    "Le salarié a droit à un congé de deux jours et demi ouvrables par mois de travail "
    "effectif chez le même employeur. La durée totale du congé exigible ne peut excéder "
    "trente jours ouvrables. Les congés sont pris dans une période qui comprend dans tous "
    "les cas la période du 1er mai au 31 octobre de chaque année.\n\n"
    "Article 13 – Fractionnement\n"
    "Le congé principal d'une durée supérieure à douze jours ouvrables peut être fractionné "
    "par l'employeur avec l'accord du salarié. Une des fractions est au moins égale à douze "
    "jours ouvrables continus compris entre deux jours de repos hebdomadaire.\n\n"
    "Article 14 – Indemnité\n"
    "L'indemnité afférente au congé est égale au dixième de la rémunération brute totale "
    "perçue par le salarié au cours de la période de référence, ou au salaire qu'il aurait "
    "perçu pendant sa période de congé s'il avait continué à travailler."
)
OTHER = ("The quick brown fox jumps over the lazy dog while the committee reviews the annual "
         "budget of the library, its opening hours and the new reading room on the first floor.")


@pytest.fixture(scope="module")
def locator() -> ChunkLocator:
    return ChunkLocator([("code", ARTICLE), ("other", OTHER)])


def _part(start_words: str, end_words: str) -> tuple[int, int]:
    start = ARTICLE.index(start_words)
    return start, ARTICLE.index(end_words) + len(end_words)


def test_a_chunk_as_it_is_is_found_exactly_at_its_offsets(locator: ChunkLocator) -> None:
    start, end = _part("Le congé principal", "repos hebdomadaire.")
    found = locator.locate("  " + ARTICLE[start:end] + "\n")
    assert found is not None
    assert (found.key, found.start, found.end, found.how, found.score) == (
        "code", start, end, "exact", 100.0)
    assert not found.whole and not found.several


@pytest.mark.parametrize(("change", "how"), [
    pytest.param(lambda t: t.replace("ouvrables", "ouvra-\nbles"), "normalised",
                 id="hyphenation"),
    pytest.param(lambda t: t.replace("ff", "ﬀ"), "normalised", id="ligature"),
    pytest.param(lambda t: " ".join(t.split()).replace(". ", ".\n\n"), "normalised",
                 id="whitespace"),
    pytest.param(lambda t: unicodedata.normalize("NFD", t), "normalised", id="NFD"),
    pytest.param(lambda t: t.upper(), "normalised", id="case"),
    pytest.param(lambda t: "**" + t.replace("salarié", "[salarié](glossaire.md#salarie)")
                 .replace("employeur", "*employeur*"), "normalised", id="markdown"),
    pytest.param(lambda t: t.replace("employeur", "em(cid:12)ployeur"), "normalised",
                 id="pdfminer-cid"),
    pytest.param(lambda t: t[5:-4], "exact", id="cut-mid-word"),
])
def test_what_a_parser_changes_is_found_at_the_documents_offsets(
        locator: ChunkLocator, change: object, how: str) -> None:
    start, end = _part("Le salarié a droit", "chaque année.")
    chunk = change(ARTICLE[start:end])  # type: ignore[operator]
    assert chunk != ARTICLE[start:end]
    found = locator.locate(chunk)
    assert found is not None and found.how == how and found.score == 100.0
    placed = ARTICLE[found.start:found.end]
    assert skeleton(placed).text == skeleton(chunk).text  # the same letters, mapped back
    assert start <= found.start <= start + 5 and end - 4 <= found.end <= end


def test_a_running_header_inside_the_chunk_is_found_only_approximately(
        locator: ChunkLocator) -> None:
    """pypdf keeps the page's header where the page breaks; the app's text of that
    document does not have it there: past the exact miss, a fuzzy match with its score."""
    start, end = _part("Le congé principal", "travailler.")
    text = ARTICLE[start:end]
    cut = text.index("Article 14")
    chunk = text[:cut] + "Convention collective nationale — page 7\n" + text[cut:]
    found = locator.locate(chunk)
    assert found is not None and found.how == "fuzzy"
    assert FUZZY_MIN <= found.score < 100
    assert abs(found.start - start) <= 2 and abs(found.end - end) <= 2


def test_a_chunk_of_another_text_is_not_found(locator: ChunkLocator) -> None:
    assert locator.locate("Les heures supplémentaires ouvrent droit à une majoration de "
                          "salaire de vingt-cinq pour cent pour les huit premières heures.") \
        is None
    assert locator.locate("Congés") is None  # too few letters to say where


def test_a_chunk_too_unlike_its_place_is_not_kept(locator: ChunkLocator) -> None:
    """Half the words replaced: the place is found (its pieces vote) but the score stays
    under the threshold, so the chunk is not placed there."""
    start, end = _part("Le congé principal", "repos hebdomadaire.")
    words = ARTICLE[start:end].split()
    chunk = " ".join(w if i % 2 else "bla" for i, w in enumerate(words))
    assert locator.locate(chunk) is None


def test_a_chunk_that_is_the_whole_document_is_that_document(locator: ChunkLocator) -> None:
    found = locator.locate(OTHER.upper())
    assert found is not None and found.key == "other" and found.whole
    assert (found.start, found.end) == (0, len(OTHER))


def test_a_chunk_found_at_several_places_says_so() -> None:
    repeated = "Toute absence doit être justifiée dans les quarante-huit heures auprès du service."
    doc = f"Préambule. {repeated} Suite du texte. {repeated} Fin."
    found = ChunkLocator([("a", doc)]).locate(repeated)
    assert found is not None and found.several and found.others == ()
    assert found.start == doc.index(repeated)  # the first place
    found = ChunkLocator([("b", repeated + " B."), ("a", "A. " + repeated)]).locate(repeated)
    assert found is not None and found.several
    assert (found.key, found.others) == ("a", ("b",))  # the first by key, the other named


def test_the_matcher_makes_a_passage_only_of_a_chunk_at_one_place() -> None:
    repeated = "Toute absence doit être justifiée dans les quarante-huit heures auprès du service."
    matcher = ContextMatcher([("code", ARTICLE), ("rules", f"A. {repeated} B. {repeated}"),
                              ("ctx-1", "a context kept as a document")],
                             searched={"code", "rules"})
    start, end = _part("Le congé principal", "repos hebdomadaire.")
    passage = matcher.match(ARTICLE[start:end].replace("\n", " "))
    assert passage is not None and passage.span == (start, end) and passage.located
    assert passage_key(passage.key, *passage.span) == f"code#{start}-{end}"
    twice = matcher.match(repeated)
    assert twice is not None and twice.key == "rules" and twice.span is None and twice.repeated
    kept = matcher.match("a context kept as a document")
    assert kept is not None and (kept.key, kept.how, kept.span) == ("ctx-1", "exact", None)
    assert matcher.match("a context kept as a document, longer") is None  # not searched
    tally = ChunkTally(searched=2)
    for match, text in ((passage, "x"), (twice, "y"), (None, "z  z")):
        tally.count(match, text)
    assert (tally.exact, tally.fuzzy, tally.whole, tally.repeated, tally.not_found) == (
        1, 0, 1, 1, ["z z"])
    assert render_any(tally.summary(), "en") == (
        "1 of 3 chunks located in the documents (1 exactly); 1 matched a whole document; "
        "1 was not found")
    assert render_any(tally.summary(), "fr") == (
        "Extraits retrouvés dans les documents : 1 sur 3 (1 exactement) ; 1 correspondait à "
        "un document entier ; 1 n'a pas été trouvé")
    assert expected_spans([passage, twice, passage]) == [("code", None), ("rules", None)]
    assert expected_spans([passage]) == [("code", (start, end))]


def test_skeleton_offsets_lead_back_to_the_original_text() -> None:
    text = "Déﬁnition 8 : Straße, e\u0301te\u0301 [lien](cible.md) 𝐀½ <br> x < y"
    sk = skeleton(text)
    assert sk.text == "definition8strasseetelien" + "a12" + "xy"
    assert len(sk.origin) == len(sk.text)
    for i, char in enumerate(sk.text):  # each letter comes from its own character
        assert char in skeleton(text[sk.origin[i]]).text
    start = sk.text.index("lien")
    assert text[slice(*sk.span(start, start + 4, text))] == "lien"
    assert text[slice(*sk.span(0, len(sk.text), text))] == text  # it ends with a letter


_VOCABULARY = ("le", "la", "des", "congé", "salarié", "employeur", "période", "travail",
               "durée", "jours", "ouvrables", "mai", "octobre", "indemnité", "rémunération",
               "référence", "accord", "fraction", "repos", "hebdomadaire", "effectif")
_WORDS = st.lists(st.sampled_from(_VOCABULARY), min_size=80, max_size=160)


@settings(max_examples=60, deadline=None)
@given(_WORDS, st.integers(0, 10_000), st.integers(20, 60), st.randoms())
def test_any_slice_of_a_document_read_another_way_is_found_at_its_place(
        words: list[str], seed: int, length: int, rnd: object) -> None:
    """Property: a run of words of a document, with its spaces turned into line breaks or
    double spaces and its words hyphenated at random, is found where it is (normalised),
    or, when its letters occur more than once in the document, said to be in several
    places."""
    text = " ".join(f"{w}{i}" for i, w in enumerate(words))  # numbered: mostly unique
    tokens = text.split(" ")
    first = seed % (len(tokens) - 10)
    last = min(len(tokens), first + 1 + length // 4)
    r = rnd  # a random.Random
    pieces = []
    for token in tokens[first:last]:
        if len(token) > 6 and r.random() < 0.3:  # type: ignore[attr-defined]
            cut = r.randint(2, len(token) - 2)  # type: ignore[attr-defined]
            token = token[:cut] + "-\n" + token[cut:]
        pieces.append(token)
    chunk = "".join(p + r.choice([" ", "\n", "  "]) for p in pieces)  # type: ignore[attr-defined]
    found = ChunkLocator([("d", text)]).locate(chunk)
    start = len(" ".join(tokens[:first])) + (1 if first else 0)
    end = len(" ".join(tokens[:last]))
    assert found is not None and found.how in ("exact", "normalised")
    if not found.several:
        assert (found.start, found.end) == (start, end)


def test_a_short_chunk_that_is_mostly_a_running_header_is_found_on_its_page() -> None:
    """Every page starts with the same header; a splitter made a chunk of the header and
    the page's first words.  The header's pieces vote for every page alike, so the page is
    told by the few letters after it, which no indexed piece may hold: the exact search
    reads the whole candidate document (it read the top three stretches, and put the chunk
    on page 1)."""
    header = "Programme Vitam – Le transfert avec la solution logicielle Vitam – v. 5.0."
    words = ["Résumé", "Annexe", "Contexte", "Glossaire", "Périmètre", "Modalités",
             "Objectifs", "Principes", "Synthèse", "Références", "Historique", "Calendrier"]
    bodies = [f"{word}\nLe paragraphe {i} décrit la section {word.lower()} en détail, avec "
              f"ses règles propres numéro {i * 37}." for i, word in enumerate(words)]
    pages = [f"{header}\n{body}\nLicence Ouverte V2.0. {n} / 12"
             for n, body in enumerate(bodies, start=1)]
    text = "\n\n".join(pages)
    def unindexed(word: str) -> bool:  # no indexed piece holds a letter of the word
        needle = skeleton(f"{header}\n\n{word}").text
        return all(int(i) + K <= len(skeleton(header).text)
                   for i in _chosen(_hashes(code_points(needle))))

    # past the first pages, where it was put
    n = next((n for n, word in enumerate(words, start=1) if n > 4 and unindexed(word)), 0)
    assert n, "every page's word is in an indexed piece: choose other words"
    chunk = f"{header}\n\n{words[n - 1]}"
    found = ChunkLocator([("doc", text)]).locate(chunk)
    assert found is not None and not found.several
    page_start = text.index(pages[n - 1])
    assert found.start == page_start and found.how == "normalised"


@pytest.mark.parametrize("fmt", ["ragas", "jsonl-run"])
def test_cancel_stops_an_import_while_its_chunks_are_located(
        fmt: str, store: object, tmp_path: object, monkeypatch: pytest.MonkeyPatch) -> None:
    """Locating costs about 2 ms a chunk (20 s for 10,000): Cancel is heard while it runs,
    and nothing is written."""
    import json
    from pathlib import Path

    from rag_annotator.domain import operations as ops
    from rag_annotator.import_export import context_match, registry
    from rag_annotator.import_export.files import Cancelled
    from rag_annotator.import_export.registry import Options
    from rag_annotator.storage.store import GoldSetStore

    assert isinstance(store, GoldSetStore) and isinstance(tmp_path, Path)
    ops.create_document(store, key="code", text=ARTICLE)
    words = ARTICLE.split()
    lines = []
    for i in range(300):
        chunk = " ".join(words[i % 40:i % 40 + 30])
        lines.append({"user_input": f"Question {i} ?", "retrieved_contexts": [chunk]}
                     if fmt == "ragas" else {"case": f"Q{i}", "contexts": [chunk]})
    path = tmp_path / "run.jsonl"
    path.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines),
                    encoding="utf-8")
    calls = []
    match = context_match.ContextMatcher.match

    def counted(self: context_match.ContextMatcher, text: str) -> object:
        calls.append(text)
        return match(self, text)

    monkeypatch.setattr(context_match.ContextMatcher, "match", counted)
    documents = store.count("documents")
    with pytest.raises(Cancelled):
        registry.importer(fmt)(store, path, Options(cancel=lambda: len(calls) >= 60))
    assert 60 <= len(calls) < 300  # stopped while locating, not after
    assert store.count("documents") == documents and store.count("runs") == 0


def test_the_index_is_the_same_built_in_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """The corpus is hashed a block at a time (memory); blocks must not lose or add a
    piece at their seams."""
    import rag_annotator.import_export.chunk_locator as locator_module

    documents = [("code", ARTICLE), ("other", OTHER), ("more", ARTICLE[::-1])]
    whole = ChunkLocator(documents)
    monkeypatch.setattr(locator_module, "BLOCK", 37)
    blocks = ChunkLocator(documents)
    assert whole._index.tolist() == blocks._index.tolist()
    assert whole._places.tolist() == blocks._places.tolist()
    assert len(whole._index) > 50
