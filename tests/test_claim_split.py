"""The claim splitter: gold boundaries (French and English), edge cases, span invariants."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rag_annotator.domain.claim_split import claim_texts, split_claims
from tests.claim_split_gold import load, matched, score


def test_gold_set_has_at_least_60_sentences_in_both_languages() -> None:
    samples = load()
    assert sum(s.claims for s in samples) >= 60
    texts = " ".join(s.text for s in samples)
    assert "salarié" in texts and "employees" in texts


def test_boundary_f1_on_the_gold_set() -> None:
    result = score(load(), split_claims)
    assert result["f1"] >= 0.95, result


def test_scoring_counts_misses_and_extra_cuts() -> None:
    # The scorer itself must be able to fail: no split at all misses every boundary, and
    # splitting at every space adds false cuts.
    samples = load()
    none = score(samples, lambda text: [(0, len(text))])
    assert none["recall"] == 0.0 and none["fn"] == none["tp"] + none["fn"]
    words = score(samples, lambda text: [(m.start(), m.end()) for m in
                                         __import__("re").finditer(r"\S+", text)])
    assert words["precision"] < 0.5
    sample = samples[0]
    assert matched(sample, split_claims(sample.text)) == (1, 0, 0)


@pytest.mark.parametrize(("text", "claims"), [
    ("M. Dupont valide. Mme Martin signe.", ["M. Dupont valide.", "Mme Martin signe."]),
    ("Voir l'art. 3 du règlement. Il s'applique.",
     ["Voir l'art. 3 du règlement.", "Il s'applique."]),
    ("Un justificatif, p. ex. un certificat, est exigé. Sans lui, rien.",
     ["Un justificatif, p. ex. un certificat, est exigé.", "Sans lui, rien."]),
    ("Use e.g. form A, i.e. the blue one. Then sign.",
     ["Use e.g. form A, i.e. the blue one.", "Then sign."]),
    ("La prime est de 2,5 %. Elle est annuelle.", ["La prime est de 2,5 %.",
                                                    "Elle est annuelle."]),
    ("The rate is 2.5 percent. It is annual.", ["The rate is 2.5 percent.", "It is annual."]),
    ("Le formulaire n° 7 est requis. Il est en ligne.",
     ["Le formulaire n° 7 est requis.", "Il est en ligne."]),
    ("Congés, RTT, etc. sont gérés en ligne.", ["Congés, RTT, etc. sont gérés en ligne."]),
    ("Il faut : 1) informer ; 2) déclarer.", ["Il faut :", "informer ;", "déclarer."]),
    ("- un point\n- un autre", ["un point", "un autre"]),
    ("Il a dit « Je pars. Adieu. » Puis rien.", ["Il a dit « Je pars. Adieu. »",
                                                  "Puis rien."]),
    ('He said "Stop. Now." Then left.', ['He said "Stop. Now."', "Then left."]),
    ("Le badge « est personnel ; il ne se prête pas » du tout.",
     ["Le badge « est personnel ; il ne se prête pas » du tout."]),
    ("Oui ; c'est prévu.", ["Oui ;", "c'est prévu."]),
    ("Is it allowed? Yes.", ["Is it allowed?", "Yes."]),
    ("Chapitre 3) seul.", ["Chapitre 3) seul."]),
    ("", []),
    ("   \n  - \n", []),
    ("Une seule phrase sans point final", ["Une seule phrase sans point final"]),
])
def test_examples(text: str, claims: list[str]) -> None:
    assert claim_texts(text) == claims


@given(st.text(alphabet=st.sampled_from(list("ab .;:!?…«»\"()-•12,\n\tMé")), max_size=80))
def test_spans_are_ordered_disjoint_trimmed_slices(text: str) -> None:
    spans = split_claims(text)
    previous_end = 0
    for start, end in spans:
        assert previous_end <= start < end <= len(text)
        claim = text[start:end]
        assert claim == claim.strip()
        assert any(ch.isalnum() for ch in claim)
        previous_end = end
