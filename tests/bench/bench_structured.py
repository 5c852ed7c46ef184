"""Timing of the structured-answer check (issue 17): 100,000 answers of 20 decisive fields.

The whole check (strict parse, ``jsonschema`` 2020-12 validation with its format checker,
then the 20 decisive fields: pointer, comparison, retrieved document, value in the retrieved
passages) against ``jsonschema`` validation alone of the same, already parsed answers with
the same validator, in the same run.  The goal is the whole check in at most twice the time
of the validation alone.  Answers mix the outcomes: most right, some with a differing,
a missing or a not-supported field, some whose source was not retrieved, a few that do
not parse or break the schema; every answer has its own retrieved texts (two passages of ~1,500
characters), so the passages are read per answer as in a real run.  Prints the figures;
asserts nothing (timings depend on the machine).  Usage:
``python tests/bench/bench_structured.py [--answers 100000] [--fields 20] [--repeat 3]``
(each timing is the best of ``--repeat`` interleaved runs: the machine may be shared).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

from jsonschema import Draft202012Validator

from rag_annotator.domain.structured import CompiledContract, Contract, DecisiveField, Retrieved
from rag_annotator.gc_pause import bulk_objects

FILLER = ("Le présent accord s'applique à l'ensemble des salariés de la société. "
          "Les modalités sont précisées dans les articles qui suivent. ") * 10


def contract(n_fields: int) -> Contract:
    """An HR form of ``n_fields`` decisive fields: numbers, dates, texts, yes/no, choices."""
    properties: dict[str, Any] = {}
    fields = []
    for i in range(n_fields):
        name = f"f{i:02d}"
        kind = i % 5
        if kind == 0:
            properties[name] = {"type": "number", "minimum": 0}
            fields.append(DecisiveField(f"/{name}", 100 + i + 0.5, "number", 0.01, "D1"))
        elif kind == 1:
            properties[name] = {"type": "string", "format": "date"}
            fields.append(DecisiveField(f"/{name}", f"2026-03-{i + 1:02d}", "date",
                                        document="D1"))
        elif kind == 2:
            properties[name] = {"type": "string", "pattern": "^[A-Za-zéè ]+$"}
            fields.append(DecisiveField(f"/{name}", f"valeur numéro {chr(97 + i)}", "text",
                                        document="D2"))
        elif kind == 3:
            properties[name] = {"type": "boolean"}
            fields.append(DecisiveField(f"/{name}", True, "exact", document="D2",
                                        passage=f"clause {i} applicable"))
        else:
            properties[name] = {"enum": ["oui", "non", "partiel"]}
            fields.append(DecisiveField(f"/{name}", ["oui", "partiel"], "one_of",
                                        document="D1"))
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
              "required": sorted(properties)[:-1], "properties": properties,  # last optional
              "additionalProperties": False}
    return Contract(schema, tuple(fields))


def passages(c: Contract) -> tuple[str, str]:
    """Two documents that hold every reference value, with filler around."""
    d1, d2 = [FILLER], [FILLER]
    for f in c.fields:
        if f.comparison == "number":
            d1.append(f"Le montant {f.pointer} est de {str(f.reference).replace('.', ',')} €.")
        elif f.comparison == "date":
            year, month, day = str(f.reference).split("-")
            d1.append(f"À compter du {int(day)}/{month}/{year}.")
        elif f.comparison == "text":
            d2.append(f"La mention est « {f.reference} ».")
        elif f.comparison == "exact":
            d2.append(f"{f.passage}.")
        else:
            d1.append(f"Réponse attendue : {f.reference[0]}.")
    return " ".join(d1) + FILLER, " ".join(d2) + FILLER


def answers(c: Contract, n: int, seed: int = 7) -> list[tuple[str, list[tuple[str, str]]]]:
    """``n`` answers (text, retrieved documents), outcomes mixed."""
    rng = random.Random(seed)
    d1, d2 = passages(c)
    good: dict[str, Any] = {}
    for f in c.fields:
        good[f.pointer[1:]] = f.reference[0] if f.comparison == "one_of" else f.reference
    out = []
    for i in range(n):
        value = dict(good)
        roll = rng.random()
        if roll < 0.10:
            value["f00"] = 999.0                      # differs
        elif roll < 0.15:
            value.pop("f02")                          # breaks "required": not executed
        elif roll < 0.20:
            value["f05"] = 7.25                       # differs, and not in the passages
        elif 0.27 <= roll < 0.30:
            value.pop(f"f{len(c.fields) - 1:02d}")    # the optional field left out: missing
        text = json.dumps(value, ensure_ascii=False)
        if 0.20 <= roll < 0.22:
            text = text[:-1] + ', "f00": 1}'          # duplicate key: does not parse
        docs = [("D1", d1 + f" Réf. {i}."), ("D2", d2 + f" Réf. {i}.")]
        if 0.22 <= roll < 0.27:
            docs = docs[1:]                           # D1 not retrieved: source not provided
        elif 0.30 <= roll < 0.33:                     # right value, not in the passages
            docs = [("D1", docs[0][1].replace("100,5", "cent")), docs[1]]
        out.append((text, docs))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--answers", type=int, default=100_000)
    parser.add_argument("--fields", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    c = contract(args.fields)
    items = answers(c, args.answers)
    compiled = CompiledContract(c)
    parsed = [json.loads(text) for text, _docs in items]  # the validation alone gets objects
    validator = Draft202012Validator(c.schema, format_checker=Draft202012Validator.FORMAT_CHECKER)

    def alone_once() -> tuple[float, float, int]:
        wall, cpu = time.perf_counter(), time.process_time()
        valid = sum(1 for value in parsed if validator.is_valid(value))
        return time.perf_counter() - wall, time.process_time() - cpu, valid

    def whole_once() -> tuple[float, float, list[Any]]:
        wall, cpu = time.perf_counter(), time.process_time()
        with bulk_objects():  # as ``structured_ops.check_answers_in`` runs it
            results = [compiled.check(text, Retrieved(docs)) for text, docs in items]
        return time.perf_counter() - wall, time.process_time() - cpu, results

    # interleaved, best of --repeat: the machine is shared, the least disturbed run counts
    alone_times, whole_times = [], []
    for _ in range(args.repeat):
        wall, cpu, valid = alone_once()
        alone_times.append((wall, cpu))
        wall, cpu, results = whole_once()
        whole_times.append((wall, cpu))
    alone, whole = min(t[0] for t in alone_times), min(t[0] for t in whole_times)
    alone_cpu, whole_cpu = min(t[1] for t in alone_times), min(t[1] for t in whole_times)
    outcomes: dict[str, int] = {}
    for result in results:
        for field_result in result.fields:
            outcomes[field_result.outcome] = outcomes.get(field_result.outcome, 0) + 1

    print(f"{args.answers:,} answers x {args.fields} decisive fields "
          f"({args.answers * args.fields:,} field checks)")
    print(f"jsonschema validation alone (parsed answers): {alone:8.2f} s "
          f"({valid:,} valid)")
    print(f"whole check (parse + schema + fields):        {whole:8.2f} s "
          f"= {whole / alone:.2f} x the validation alone (goal <= 2x)")
    print(f"CPU time of this process: validation alone {alone_cpu:.2f} s, whole check "
          f"{whole_cpu:.2f} s = {whole_cpu / alone_cpu:.2f} x")
    print("outcomes:", ", ".join(f"{k} {v:,}" for k, v in sorted(outcomes.items())))


if __name__ == "__main__":
    main()
