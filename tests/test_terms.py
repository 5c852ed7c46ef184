"""Question terms found in a document, for the Judge section's highlighting."""

from __future__ import annotations

from rag_annotator.domain.terms import question_terms, term_spans


def _words(text: str, question: str) -> list[str]:
    return [text[a:b] for a, b in term_spans(text, question_terms(question))]


def test_accent_case_and_plural_insensitive() -> None:
    text = "Les Délais de résiliation sont fixés par l'article 12."
    assert _words(text, "Quel est le délai de resiliation ?") == ["Délais", "résiliation"]


def test_stopwords_and_single_letters_are_not_terms() -> None:
    assert question_terms("Que dit la loi sur le télétravail à 2 jours ?") == {
        "dit", "loi", "telet", "jours"}
    assert question_terms("What is the rule for a refund?") == {"rule", "refun"}


def test_numbers_of_two_digits_or_more_match() -> None:
    text = "Article 12 : 12 mois. Article 1 : 1 an."
    assert _words(text, "article 12") == ["Article", "12", "12", "Article"]


def test_no_terms_no_spans() -> None:
    assert term_spans("anything", question_terms("le la les ?")) == []


def test_spans_point_at_the_original_text_with_accents() -> None:
    text = "Préavis : trois mois. PRÉAVIS réduit."
    spans = term_spans(text, question_terms("préavis"))
    assert [text[a:b] for a, b in spans] == ["Préavis", "PRÉAVIS"]


def test_accented_stopwords_are_skipped_once_folded() -> None:
    assert question_terms("Où est-ce que ça a été même noté ?") == {"note"}
