"""The SQL of each migration step of ``storage.schema``, kept apart from the steps that run
it so the schema module stays readable as migrations accumulate (each constant is the
script of one step, in order)."""

SCHEMA_0001 = """
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT
);

CREATE TABLE assessors (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    name       TEXT NOT NULL UNIQUE CHECK (length(trim(name)) > 0),
    created_at TEXT NOT NULL
);

CREATE TABLE documents (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    key           TEXT NOT NULL UNIQUE CHECK (length(key) > 0),
    title         TEXT NOT NULL DEFAULT '',
    text          TEXT NOT NULL DEFAULT '',
    content_hash  TEXT NOT NULL,
    owner         TEXT NOT NULL DEFAULT '',
    rights        TEXT NOT NULL DEFAULT '[]',
    valid_from    TEXT,
    valid_until   TEXT,
    status        TEXT NOT NULL DEFAULT 'current'
                  CHECK (status IN ('current', 'outdated', 'withdrawn')),
    version       TEXT NOT NULL DEFAULT '',
    supersedes_id INTEGER REFERENCES documents(id),
    parent_id     INTEGER REFERENCES documents(id),
    origin        TEXT NOT NULL DEFAULT 'corpus'
                  CHECK (origin IN ('corpus', 'placeholder', 'unmatched_context')),
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL
);

CREATE TABLE cases (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    key                TEXT NOT NULL UNIQUE CHECK (length(key) > 0),
    kind               TEXT NOT NULL DEFAULT 'rag' CHECK (kind IN ('rag')),
    question           TEXT NOT NULL DEFAULT '',
    variants           TEXT NOT NULL DEFAULT '[]',
    reference_answer   TEXT,
    must_contain       TEXT NOT NULL DEFAULT '[]',
    forbidden          TEXT NOT NULL DEFAULT '[]',
    expected_behaviour TEXT NOT NULL DEFAULT 'answer'
                       CHECK (expected_behaviour IN ('answer', 'abstain', 'escalate')),
    family             TEXT NOT NULL DEFAULT 'ordinary'
                       CHECK (family IN ('ordinary', 'ambiguous', 'sensitive', 'out_of_scope',
                              'no_answer', 'conflicting_sources', 'outdated_document',
                              'prompt_injection', 'access_restricted')),
    tags               TEXT NOT NULL DEFAULT '[]',
    difficulty         TEXT CHECK (difficulty IS NULL OR difficulty IN ('easy', 'medium', 'hard')),
    role               TEXT NOT NULL DEFAULT '',
    notes              TEXT NOT NULL DEFAULT '',
    status             TEXT NOT NULL DEFAULT 'draft'
                       CHECK (status IN ('draft', 'reviewed', 'approved', 'retired')),
    author             TEXT NOT NULL DEFAULT '',
    created_at         TEXT NOT NULL,
    updated_at         TEXT NOT NULL
);
CREATE INDEX cases_family ON cases(family);
CREATE INDEX cases_status ON cases(status);

CREATE TABLE expected_sources (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    case_id     INTEGER NOT NULL REFERENCES cases(id),
    document_id INTEGER NOT NULL REFERENCES documents(id),
    span_start  INTEGER CHECK (span_start IS NULL OR span_start >= 0),
    span_end    INTEGER CHECK (span_end IS NULL OR span_end >= span_start),
    note        TEXT NOT NULL DEFAULT ''
);
CREATE INDEX expected_sources_case ON expected_sources(case_id, document_id);
CREATE INDEX expected_sources_document ON expected_sources(document_id);

CREATE TABLE runs (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    name           TEXT NOT NULL UNIQUE CHECK (length(trim(name)) > 0),
    model          TEXT NOT NULL DEFAULT '',
    corpus_version TEXT NOT NULL DEFAULT '',
    prompt_version TEXT NOT NULL DEFAULT '',
    index_version  TEXT NOT NULL DEFAULT '',
    notes          TEXT NOT NULL DEFAULT '',
    created_at     TEXT NOT NULL
);

CREATE TABLE retrieved (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id      INTEGER NOT NULL REFERENCES runs(id),
    case_id     INTEGER NOT NULL REFERENCES cases(id),
    document_id INTEGER NOT NULL REFERENCES documents(id),
    rank        INTEGER NOT NULL CHECK (rank >= 1),
    score       REAL,
    UNIQUE (run_id, case_id, document_id),
    UNIQUE (run_id, case_id, rank)
);
CREATE INDEX retrieved_pair ON retrieved(case_id, document_id);
CREATE INDEX retrieved_document ON retrieved(document_id);

CREATE TABLE answers (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id     INTEGER NOT NULL REFERENCES runs(id),
    case_id    INTEGER NOT NULL REFERENCES cases(id),
    text       TEXT NOT NULL DEFAULT '',
    latency_ms INTEGER CHECK (latency_ms IS NULL OR latency_ms >= 0),
    UNIQUE (run_id, case_id)
);
CREATE INDEX answers_case ON answers(case_id);

CREATE TABLE citations (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    answer_id   INTEGER NOT NULL REFERENCES answers(id),
    document_id INTEGER NOT NULL REFERENCES documents(id),
    marker      TEXT NOT NULL DEFAULT '',
    span_start  INTEGER,
    span_end    INTEGER,
    support     TEXT CHECK (support IS NULL OR support IN ('yes', 'partly', 'no')),
    note        TEXT NOT NULL DEFAULT ''
);
CREATE INDEX citations_answer ON citations(answer_id);
CREATE INDEX citations_document ON citations(document_id);

CREATE TABLE judgments (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    case_id     INTEGER NOT NULL REFERENCES cases(id),
    document_id INTEGER NOT NULL REFERENCES documents(id),
    assessor_id INTEGER NOT NULL REFERENCES assessors(id),
    grade       INTEGER CHECK (grade IS NULL OR grade BETWEEN 0 AND 4),
    note        TEXT NOT NULL DEFAULT '',
    updated_at  TEXT NOT NULL,
    UNIQUE (case_id, document_id, assessor_id)
);
CREATE INDEX judgments_document ON judgments(document_id);
CREATE INDEX judgments_assessor ON judgments(assessor_id);

CREATE TABLE adjudications (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    case_id     INTEGER NOT NULL REFERENCES cases(id),
    document_id INTEGER NOT NULL REFERENCES documents(id),
    grade       INTEGER NOT NULL CHECK (grade BETWEEN 0 AND 4),
    assessor_id INTEGER NOT NULL REFERENCES assessors(id),
    note        TEXT NOT NULL DEFAULT '',
    updated_at  TEXT NOT NULL,
    UNIQUE (case_id, document_id)
);
CREATE INDEX adjudications_document ON adjudications(document_id);

CREATE TABLE claims (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    answer_id   INTEGER NOT NULL REFERENCES answers(id),
    position    INTEGER NOT NULL,
    text        TEXT NOT NULL,
    span_start  INTEGER,
    span_end    INTEGER,
    verdict     TEXT CHECK (verdict IS NULL
                        OR verdict IN ('supported', 'not_supported', 'contradicted')),
    rationale   TEXT NOT NULL DEFAULT '',
    assessor_id INTEGER REFERENCES assessors(id),
    updated_at  TEXT
);
CREATE INDEX claims_answer ON claims(answer_id, position);
CREATE INDEX claims_verdict ON claims(verdict);

CREATE TABLE evidence (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    claim_id    INTEGER NOT NULL REFERENCES claims(id),
    document_id INTEGER NOT NULL REFERENCES documents(id),
    span_start  INTEGER NOT NULL CHECK (span_start >= 0),
    span_end    INTEGER NOT NULL CHECK (span_end >= span_start)
);
CREATE INDEX evidence_claim ON evidence(claim_id);
CREATE INDEX evidence_document ON evidence(document_id);

CREATE TABLE answer_reviews (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id             INTEGER NOT NULL REFERENCES runs(id),
    case_id            INTEGER NOT NULL REFERENCES cases(id),
    assessor_id        INTEGER NOT NULL REFERENCES assessors(id),
    outcome            TEXT CHECK (outcome IS NULL
                               OR outcome IN ('answered', 'abstained', 'escalated')),
    validated          INTEGER CHECK (validated IS NULL OR validated IN (0, 1)),
    failure_categories TEXT NOT NULL DEFAULT '[]',
    must_contain_found TEXT NOT NULL DEFAULT '[]',
    forbidden_present  INTEGER CHECK (forbidden_present IS NULL OR forbidden_present IN (0, 1)),
    note               TEXT NOT NULL DEFAULT '',
    updated_at         TEXT NOT NULL,
    UNIQUE (run_id, case_id)
);
CREATE INDEX answer_reviews_case ON answer_reviews(case_id);

CREATE TABLE releases (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    name       TEXT NOT NULL UNIQUE CHECK (length(trim(name)) > 0),
    created_at TEXT NOT NULL,
    created_by TEXT NOT NULL DEFAULT '',
    changelog  TEXT NOT NULL DEFAULT '',
    snapshot   TEXT NOT NULL
);

CREATE TABLE operations (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    at       TEXT NOT NULL,
    assessor TEXT NOT NULL DEFAULT '',
    action   TEXT NOT NULL,
    label    TEXT NOT NULL,
    reverts  INTEGER REFERENCES operations(id),
    undoable INTEGER NOT NULL DEFAULT 1 CHECK (undoable IN (0, 1))
);

CREATE TABLE history (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    operation_id INTEGER NOT NULL REFERENCES operations(id),
    table_name   TEXT NOT NULL,
    row_key      TEXT NOT NULL,
    kind         TEXT NOT NULL CHECK (kind IN ('insert', 'update', 'delete',
                                               'insert_range', 'delete_range')),
    old          TEXT,
    new          TEXT
);
CREATE INDEX history_operation ON history(operation_id);
CREATE INDEX history_row ON history(table_name, row_key);
"""


SCHEMA_0002 = """
ALTER TABLE assessors ADD COLUMN kind TEXT NOT NULL DEFAULT 'human'
    CHECK (kind IN ('human', 'judge'));
CREATE TABLE judge_verdicts (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    claim_id    INTEGER NOT NULL REFERENCES claims(id),
    assessor_id INTEGER NOT NULL REFERENCES assessors(id),
    verdict     TEXT CHECK (verdict IS NULL
                            OR verdict IN ('supported', 'not_supported', 'contradicted')),
    raw_label   TEXT NOT NULL DEFAULT '',
    rationale   TEXT NOT NULL DEFAULT '',
    updated_at  TEXT NOT NULL,
    UNIQUE (claim_id, assessor_id)
);
CREATE INDEX judge_verdicts_assessor ON judge_verdicts(assessor_id);
ALTER TABLE answers ADD COLUMN cost REAL CHECK (cost IS NULL OR cost >= 0);
ALTER TABLE answers ADD COLUMN tokens INTEGER CHECK (tokens IS NULL OR tokens >= 0);
CREATE TABLE case_reviews (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    case_id           INTEGER NOT NULL UNIQUE REFERENCES cases(id),
    origin            TEXT NOT NULL DEFAULT '',
    decision          TEXT NOT NULL DEFAULT 'pending'
                      CHECK (decision IN ('pending', 'accepted', 'edited', 'rejected')),
    near_duplicate_of INTEGER REFERENCES cases(id),
    decided_by        TEXT NOT NULL DEFAULT '',
    decided_at        TEXT
);
"""


#: ``cases`` rebuilt so ``kind`` may be 'agent' (SQLite cannot alter a CHECK in place), with
#: the agent case's expectations as columns beside the RAG ones: the case editor, the
#: history, releases and every export see one row per case, whatever its kind.
CASES_0003 = """
CREATE TABLE cases_0003 (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    key                TEXT NOT NULL UNIQUE CHECK (length(key) > 0),
    kind               TEXT NOT NULL DEFAULT 'rag' CHECK (kind IN ('rag', 'agent')),
    question           TEXT NOT NULL DEFAULT '',
    variants           TEXT NOT NULL DEFAULT '[]',
    reference_answer   TEXT,
    must_contain       TEXT NOT NULL DEFAULT '[]',
    forbidden          TEXT NOT NULL DEFAULT '[]',
    expected_behaviour TEXT NOT NULL DEFAULT 'answer'
                       CHECK (expected_behaviour IN ('answer', 'abstain', 'escalate')),
    family             TEXT NOT NULL DEFAULT 'ordinary'
                       CHECK (family IN ('ordinary', 'ambiguous', 'sensitive', 'out_of_scope',
                              'no_answer', 'conflicting_sources', 'outdated_document',
                              'prompt_injection', 'access_restricted')),
    tags               TEXT NOT NULL DEFAULT '[]',
    difficulty         TEXT CHECK (difficulty IS NULL OR difficulty IN ('easy', 'medium', 'hard')),
    role               TEXT NOT NULL DEFAULT '',
    notes              TEXT NOT NULL DEFAULT '',
    status             TEXT NOT NULL DEFAULT 'draft'
                       CHECK (status IN ('draft', 'reviewed', 'approved', 'retired')),
    author             TEXT NOT NULL DEFAULT '',
    created_at         TEXT NOT NULL,
    updated_at         TEXT NOT NULL,
    expected_state     TEXT NOT NULL DEFAULT '{}',
    forbidden_tools    TEXT NOT NULL DEFAULT '[]',
    required_tools     TEXT NOT NULL DEFAULT '[]',
    tool_order         TEXT NOT NULL DEFAULT '[]',
    max_steps          INTEGER CHECK (max_steps IS NULL OR max_steps >= 0),
    max_tokens         INTEGER CHECK (max_tokens IS NULL OR max_tokens >= 0),
    max_seconds        REAL CHECK (max_seconds IS NULL OR max_seconds >= 0),
    max_cost           REAL CHECK (max_cost IS NULL OR max_cost >= 0)
);
INSERT INTO cases_0003 (id, key, kind, question, variants, reference_answer, must_contain,
                        forbidden, expected_behaviour, family, tags, difficulty, role, notes,
                        status, author, created_at, updated_at)
    SELECT id, key, kind, question, variants, reference_answer, must_contain, forbidden,
           expected_behaviour, family, tags, difficulty, role, notes, status, author,
           created_at, updated_at FROM cases;
DROP TABLE cases;
ALTER TABLE cases_0003 RENAME TO cases;
CREATE INDEX cases_family ON cases(family);
CREATE INDEX cases_status ON cases(status);
CREATE INDEX cases_kind ON cases(kind);

CREATE TABLE trajectories (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id       INTEGER NOT NULL REFERENCES runs(id),
    case_id      INTEGER NOT NULL REFERENCES cases(id),
    final_state  TEXT,
    final_answer TEXT NOT NULL DEFAULT '',
    tokens       INTEGER CHECK (tokens IS NULL OR tokens >= 0),
    seconds      REAL CHECK (seconds IS NULL OR seconds >= 0),
    cost         REAL CHECK (cost IS NULL OR cost >= 0),
    UNIQUE (run_id, case_id)
);
CREATE INDEX trajectories_case ON trajectories(case_id);

CREATE TABLE trajectory_steps (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    trajectory_id INTEGER NOT NULL REFERENCES trajectories(id),
    position      INTEGER NOT NULL CHECK (position >= 1),
    tool          TEXT NOT NULL CHECK (length(tool) > 0),
    arguments     TEXT NOT NULL DEFAULT '{}',
    result        TEXT NOT NULL DEFAULT '',
    UNIQUE (trajectory_id, position)
);

CREATE TABLE trajectory_reviews (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    trajectory_id   INTEGER NOT NULL UNIQUE REFERENCES trajectories(id),
    assessor_id     INTEGER NOT NULL REFERENCES assessors(id),
    task_success    INTEGER CHECK (task_success IS NULL OR task_success IN (0, 1)),
    success_reason  TEXT NOT NULL DEFAULT '',
    path_acceptable INTEGER CHECK (path_acceptable IS NULL OR path_acceptable IN (0, 1)),
    path_reason     TEXT NOT NULL DEFAULT '',
    note            TEXT NOT NULL DEFAULT '',
    updated_at      TEXT NOT NULL
);
CREATE INDEX trajectory_reviews_assessor ON trajectory_reviews(assessor_id);
"""


#: Named test identities (seed 003, "droits"): each holds the groups it belongs to (a JSON
#: list); a document's ``rights`` lists the groups that may read it and a case's ``role``
#: names the identity that asks it.  A role no identity declares stays an identity of one
#: group of the same name, so files without identities give the same flags as before.  The
#: index on ``documents.rights`` lets the exposure checks read only the restricted documents
#: (a row's rights sit after its text: reading them row by row crosses every text).
IDENTITIES_0004 = """
CREATE TABLE identities (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    name        TEXT NOT NULL UNIQUE CHECK (length(trim(name)) > 0),
    group_names TEXT NOT NULL DEFAULT '[]',
    note        TEXT NOT NULL DEFAULT ''
);
CREATE INDEX documents_rights ON documents(rights);
"""


STRUCTURED_SQL = """
CREATE TABLE output_contracts (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    case_id     INTEGER NOT NULL UNIQUE REFERENCES cases(id),
    json_schema TEXT NOT NULL DEFAULT '{}',
    note        TEXT NOT NULL DEFAULT ''
);
CREATE TABLE decisive_fields (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    contract_id INTEGER NOT NULL REFERENCES output_contracts(id),
    position    INTEGER NOT NULL CHECK (position >= 1),
    pointer     TEXT NOT NULL,
    reference   TEXT NOT NULL,
    comparison  TEXT NOT NULL DEFAULT 'exact'
                CHECK (comparison IN ('exact', 'number', 'date', 'text', 'one_of')),
    tolerance   REAL CHECK (tolerance IS NULL OR tolerance >= 0),
    document_id INTEGER REFERENCES documents(id),
    passage     TEXT NOT NULL DEFAULT '',
    span_start  INTEGER CHECK (span_start IS NULL OR span_start >= 0),
    span_end    INTEGER CHECK (span_end IS NULL OR span_end >= span_start),
    UNIQUE (contract_id, pointer)
);
CREATE INDEX decisive_fields_document ON decisive_fields(document_id);
CREATE TABLE structured_checks (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    answer_id    INTEGER NOT NULL UNIQUE REFERENCES answers(id),
    parsed       INTEGER NOT NULL CHECK (parsed IN (0, 1)),
    schema_valid INTEGER CHECK (schema_valid IS NULL OR schema_valid IN (0, 1)),
    reason       TEXT NOT NULL DEFAULT ''
);
CREATE TABLE field_outcomes (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    answer_id     INTEGER NOT NULL REFERENCES answers(id),
    field_id      INTEGER NOT NULL REFERENCES decisive_fields(id),
    outcome       TEXT NOT NULL
                  CHECK (outcome IN ('equal', 'differs', 'missing', 'not_supported',
                                     'source_not_provided', 'not_executed')),
    found         TEXT,
    detail        TEXT NOT NULL DEFAULT '',
    review        TEXT CHECK (review IS NULL OR review IN ('confirmed', 'overruled')),
    review_reason TEXT NOT NULL DEFAULT '',
    assessor_id   INTEGER REFERENCES assessors(id),
    reviewed_at   TEXT,
    UNIQUE (answer_id, field_id)
);
CREATE INDEX field_outcomes_field ON field_outcomes(field_id);
"""




#: One sample per (judge, level); its items name the unit drawn (a claim, an answer, or a
#: (case, document) pair) as plain integers, not foreign keys: deleting or merging a claim
#: must not be blocked by a sample (the reads skip an item whose unit is gone), and the
#: history records every row it writes.  ``weight`` is the item's inclusion probability
#: n_h / N_h in its stratum (``stratum`` = judge's label + family) at the draw.
SCHEMA_REVIEW_SAMPLES = """
CREATE TABLE review_samples (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    judge_id    INTEGER NOT NULL REFERENCES assessors(id),
    level       TEXT NOT NULL CHECK (level IN ('claims', 'answers', 'relevance')),
    seed        INTEGER NOT NULL,
    size        INTEGER NOT NULL CHECK (size >= 0),
    population  INTEGER NOT NULL CHECK (population >= 0),
    half_width  REAL CHECK (half_width IS NULL OR (half_width > 0 AND half_width < 1)),
    created_at  TEXT NOT NULL,
    created_by  TEXT NOT NULL DEFAULT '',
    UNIQUE (judge_id, level)
);
CREATE TABLE review_sample_items (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    sample_id     INTEGER NOT NULL REFERENCES review_samples(id),
    position      INTEGER NOT NULL,
    unit_id       INTEGER NOT NULL,
    document_id   INTEGER,
    stratum       TEXT NOT NULL,
    judge_label   TEXT NOT NULL,
    family        TEXT NOT NULL DEFAULT '',
    stratum_size  INTEGER NOT NULL CHECK (stratum_size >= 1),
    stratum_drawn INTEGER NOT NULL CHECK (stratum_drawn >= 1),
    weight        REAL NOT NULL CHECK (weight > 0 AND weight <= 1),
    UNIQUE (sample_id, unit_id, document_id)
);
CREATE INDEX review_sample_items_sample ON review_sample_items(sample_id, position)
"""


#: Labels above 4 (ranx and ir_measures test files use 5, 6, up to 50): a grade is any
#: non-negative integer; the gold set's scale (meta ``max_grade``) bounds it, as before.
SCHEMA_WIDE_GRADES = """
ALTER TABLE judgments RENAME TO judgments_0003;
CREATE TABLE judgments (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    case_id     INTEGER NOT NULL REFERENCES cases(id),
    document_id INTEGER NOT NULL REFERENCES documents(id),
    assessor_id INTEGER NOT NULL REFERENCES assessors(id),
    grade       INTEGER CHECK (grade IS NULL OR (typeof(grade) = 'integer' AND grade >= 0)),
    note        TEXT NOT NULL DEFAULT '',
    updated_at  TEXT NOT NULL,
    seconds     REAL CHECK (seconds IS NULL OR seconds >= 0),
    UNIQUE (case_id, document_id, assessor_id)
);
INSERT INTO judgments SELECT id, case_id, document_id, assessor_id, grade, note, updated_at,
    seconds FROM judgments_0003;
DROP TABLE judgments_0003;
CREATE INDEX judgments_document ON judgments(document_id);
CREATE INDEX judgments_assessor ON judgments(assessor_id);
ALTER TABLE adjudications RENAME TO adjudications_0003;
CREATE TABLE adjudications (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    case_id     INTEGER NOT NULL REFERENCES cases(id),
    document_id INTEGER NOT NULL REFERENCES documents(id),
    grade       INTEGER NOT NULL CHECK (typeof(grade) = 'integer' AND grade >= 0),
    assessor_id INTEGER NOT NULL REFERENCES assessors(id),
    note        TEXT NOT NULL DEFAULT '',
    updated_at  TEXT NOT NULL,
    UNIQUE (case_id, document_id)
);
INSERT INTO adjudications SELECT id, case_id, document_id, grade, assessor_id, note,
    updated_at FROM adjudications_0003;
DROP TABLE adjudications_0003;
CREATE INDEX adjudications_document ON adjudications(document_id)
"""


#: ``trajectories`` rebuilt so one run may hold several trials of one case (tau-bench runs
#: each task k times; pass^k needs them side by side): UNIQUE(run_id, case_id) becomes
#: UNIQUE(run_id, case_id, trial); ``reward`` keeps the benchmark's own automatic score
#: (tau-bench's ``reward``; success is a reward of 1), apart from any reviewer's mark.
#: SQLite cannot alter a UNIQUE in place: same procedure as 0003, ids kept, so the steps
#: and reviews that reference them stay attached.
TRAJECTORIES_TRIALS = """
CREATE TABLE trajectories_trials (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id       INTEGER NOT NULL REFERENCES runs(id),
    case_id      INTEGER NOT NULL REFERENCES cases(id),
    trial        INTEGER NOT NULL DEFAULT 0 CHECK (trial >= 0),
    final_state  TEXT,
    final_answer TEXT NOT NULL DEFAULT '',
    tokens       INTEGER CHECK (tokens IS NULL OR tokens >= 0),
    seconds      REAL CHECK (seconds IS NULL OR seconds >= 0),
    cost         REAL CHECK (cost IS NULL OR cost >= 0),
    reward       REAL,
    UNIQUE (run_id, case_id, trial)
);
INSERT INTO trajectories_trials (id, run_id, case_id, final_state, final_answer, tokens,
                               seconds, cost)
    SELECT id, run_id, case_id, final_state, final_answer, tokens, seconds, cost
    FROM trajectories;
DROP TABLE trajectories;
ALTER TABLE trajectories_trials RENAME TO trajectories;
CREATE INDEX trajectories_case ON trajectories(case_id);
"""

#: Per-record fields an import met but has no column for (Ragas ``persona_name``, DeepEval
#: ``source_file``, BEIR query metadata…), kept as one JSON object on the case or answer so
#: nothing is silently lost and exports can carry them back out (issue 18, point 7).
EXTRA_FIELDS = """
ALTER TABLE cases ADD COLUMN extra TEXT NOT NULL DEFAULT '{}';
ALTER TABLE answers ADD COLUMN extra TEXT NOT NULL DEFAULT '{}';
"""

#: The same for documents (a BEIR corpus line's ``metadata`` and other fields) and for
#: trajectories (tau-bench's ``info``, tau2's simulation fields): kept, written back out.
MORE_EXTRA_FIELDS = """
ALTER TABLE documents ADD COLUMN extra TEXT NOT NULL DEFAULT '{}';
ALTER TABLE trajectories ADD COLUMN extra TEXT NOT NULL DEFAULT '{}';
"""



#: The expert's own documents as they are (PDF, Word, OpenDocument, HTML, slides).
#: ``documents.kind`` names the reader that made the text ('' for documents that came as text
#: in a table or a BEIR line); ``pages`` is a JSON array of each page's (or slide's) start
#: offset in ``text`` (NULL when the document has no pages); ``headings`` a JSON array of
#: ``[start offset, level, title]`` in text order (NULL when it has none).  The original file
#: of a kind the app renders (a PDF) is kept whole in ``document_files``, once per content
#: (sha256), so the gold set stays one self-contained file that a colleague can open and still
#: see the pages.  A *passage* (a chunk a RAG system retrieved) is a document whose
#: ``parent_id`` names the document it was found in and whose ``span_start``/``span_end`` are
#: its place in the parent's text; ``located`` says how it was found ('exact', 'normalised' or
#: 'fuzzy') and ``match_score`` the fuzzy score (0–100).
DOCUMENT_STRUCTURE = """
CREATE TABLE document_files (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    sha256     TEXT NOT NULL UNIQUE CHECK (length(sha256) = 64),
    kind       TEXT NOT NULL,
    name       TEXT NOT NULL DEFAULT '',
    size       INTEGER NOT NULL CHECK (size >= 0),
    data       BLOB NOT NULL,
    created_at TEXT NOT NULL
);
ALTER TABLE documents ADD COLUMN kind TEXT NOT NULL DEFAULT '';
ALTER TABLE documents ADD COLUMN pages TEXT;
ALTER TABLE documents ADD COLUMN headings TEXT;
ALTER TABLE documents ADD COLUMN file_id INTEGER REFERENCES document_files(id);
ALTER TABLE documents ADD COLUMN span_start INTEGER
    CHECK (span_start IS NULL OR span_start >= 0);
ALTER TABLE documents ADD COLUMN span_end INTEGER
    CHECK (span_end IS NULL OR span_end >= span_start);
ALTER TABLE documents ADD COLUMN located TEXT
    CHECK (located IS NULL OR located IN ('exact', 'normalised', 'fuzzy'));
ALTER TABLE documents ADD COLUMN match_score REAL;
CREATE INDEX documents_parent ON documents(parent_id) WHERE parent_id IS NOT NULL;
CREATE INDEX documents_file ON documents(file_id) WHERE file_id IS NOT NULL;
"""
