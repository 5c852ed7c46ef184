"""The SQL of the team migrations (campaigns handed out to several experts, their queues and
each assessor's own verdicts), apart from the other steps' scripts in ``schema_sql`` because
the team tables are one workflow with its own reasons."""

#: Judging as a team (issue 15).  A campaign hands the pool out to named assessors, ``k``
#: (``per_pair``) of them per pair, each in a seeded order of their own; ``assignments`` is
#: that order (``position`` 1.. per assessor), ``is_control`` marking a pair shown again,
#: blind, later in the same queue.  The repeat's label goes to ``control_judgments`` (a pair
#: has one row per assessor in ``judgments``: the repeat must not count twice in the
#: labels).  ``cannot_judge`` holds an assessor's "can't judge" and its reason: the pair stays
#: unjudged.  ``judgments.seconds`` is the active time the pair was on screen before the key.
#: The file's identity (``meta.file_uuid``) is written when its first campaign is created.
SCHEMA_TEAM = """
CREATE TABLE campaigns (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    uuid          TEXT NOT NULL UNIQUE CHECK (length(uuid) = 32),
    name          TEXT NOT NULL DEFAULT '',
    per_pair      INTEGER NOT NULL CHECK (per_pair >= 1),
    seed          INTEGER NOT NULL,
    control_share REAL NOT NULL DEFAULT 0 CHECK (control_share >= 0 AND control_share <= 0.5),
    pool_runs     TEXT,
    pool_depth    INTEGER CHECK (pool_depth IS NULL OR pool_depth >= 1),
    master        TEXT NOT NULL CHECK (length(master) = 32),
    created_at    TEXT NOT NULL
);

CREATE TABLE campaign_assessors (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    campaign_id INTEGER NOT NULL REFERENCES campaigns(id),
    assessor_id INTEGER NOT NULL REFERENCES assessors(id),
    file_name   TEXT NOT NULL DEFAULT '',
    UNIQUE (campaign_id, assessor_id)
);

CREATE TABLE assignments (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    campaign_id INTEGER NOT NULL REFERENCES campaigns(id),
    assessor_id INTEGER NOT NULL REFERENCES assessors(id),
    position    INTEGER NOT NULL CHECK (position >= 1),
    case_id     INTEGER NOT NULL REFERENCES cases(id),
    document_id INTEGER NOT NULL REFERENCES documents(id),
    is_control  INTEGER NOT NULL DEFAULT 0 CHECK (is_control IN (0, 1)),
    UNIQUE (campaign_id, assessor_id, position)
);
CREATE INDEX assignments_pair ON assignments(case_id, document_id);
CREATE INDEX assignments_document ON assignments(document_id);

CREATE TABLE control_judgments (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    campaign_id INTEGER NOT NULL REFERENCES campaigns(id),
    assessor_id INTEGER NOT NULL REFERENCES assessors(id),
    case_id     INTEGER NOT NULL REFERENCES cases(id),
    document_id INTEGER NOT NULL REFERENCES documents(id),
    grade       INTEGER CHECK (grade IS NULL OR (typeof(grade) = 'integer' AND grade >= 0)),
    seconds     REAL CHECK (seconds IS NULL OR seconds >= 0),
    updated_at  TEXT NOT NULL,
    UNIQUE (campaign_id, assessor_id, case_id, document_id)
);
CREATE INDEX control_judgments_pair ON control_judgments(case_id, document_id);
CREATE INDEX control_judgments_document ON control_judgments(document_id);

CREATE TABLE cannot_judge (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    case_id     INTEGER NOT NULL REFERENCES cases(id),
    document_id INTEGER NOT NULL REFERENCES documents(id),
    assessor_id INTEGER NOT NULL REFERENCES assessors(id),
    reason      TEXT NOT NULL CHECK (length(trim(reason)) > 0),
    updated_at  TEXT NOT NULL,
    UNIQUE (case_id, document_id, assessor_id)
);
CREATE INDEX cannot_judge_document ON cannot_judge(document_id);

ALTER TABLE judgments ADD COLUMN seconds REAL CHECK (seconds IS NULL OR seconds >= 0);
"""


#: Campaigns of claims and of trajectories, and packed queues (issue 15).  ``campaigns.items``
#: says what a campaign hands out.  Each assessor's queue is ONE row of ``queues``: ``slots``
#: is a JSON array of integers in queue order, a pair as ``(case_id << 32) + document_id``
#: (negated for a control repeat), a claim or a trajectory as its id.  A row per slot made
#: handing out a 1,000,000-pair pool at k = 2 insert 2,100,000 rows and 4 indexes in the
#: master and again in the files (~70x a copy of the master); a queue row is a few MB of
#: text.  Slots are not foreign keys (like ``review_sample_items``): a deleted case or
#: document drops out of every reading, which joins them.  The ``assignments`` VIEW gives
#: the old one-row-per-slot reading (``id`` = ``(queue id << 32) + position``) for reports,
#: checks and exports; the hot paths read ``queues`` directly.  ``claim_assessments`` and
#: ``trajectory_assessments`` hold each assessor's own verdict on an assigned item: ``claims``
#: and ``trajectory_reviews`` keep ONE verdict per item, and a campaign asks k of them.
SCHEMA_TEAM_ITEMS = """
ALTER TABLE campaigns ADD COLUMN items TEXT NOT NULL DEFAULT 'pairs'
    CHECK (items IN ('pairs', 'claims', 'trajectories'));
CREATE TABLE queues (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    campaign_id INTEGER NOT NULL REFERENCES campaigns(id),
    assessor_id INTEGER NOT NULL REFERENCES assessors(id),
    slots       TEXT NOT NULL CHECK (substr(slots, 1, 1) = '[' AND substr(slots, -1) = ']'),
    UNIQUE (campaign_id, assessor_id)
);
INSERT INTO queues (campaign_id, assessor_id, slots)
    SELECT campaign_id, assessor_id,
           json_group_array(CASE WHEN is_control THEN -((case_id << 32) + document_id)
                            ELSE (case_id << 32) + document_id END)
    FROM (SELECT * FROM assignments ORDER BY campaign_id, assessor_id, position)
    GROUP BY campaign_id, assessor_id ORDER BY campaign_id, assessor_id;
DROP TABLE assignments;
CREATE VIEW assignments AS
    SELECT (q.id << 32) + e.key + 1 AS id, q.campaign_id, q.assessor_id,
           e.key + 1 AS position,
           CASE WHEN g.items = 'pairs' THEN abs(e.value) >> 32 END AS case_id,
           CASE WHEN g.items = 'pairs' THEN abs(e.value) & 4294967295 END AS document_id,
           e.value < 0 AS is_control,
           CASE WHEN g.items = 'claims' THEN e.value END AS claim_id,
           CASE WHEN g.items = 'trajectories' THEN e.value END AS trajectory_id
    FROM queues q JOIN campaigns g ON g.id = q.campaign_id, json_each(q.slots) e;

CREATE TABLE claim_assessments (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    campaign_id INTEGER NOT NULL REFERENCES campaigns(id),
    claim_id    INTEGER NOT NULL REFERENCES claims(id),
    assessor_id INTEGER NOT NULL REFERENCES assessors(id),
    verdict     TEXT CHECK (verdict IS NULL
                        OR verdict IN ('supported', 'not_supported', 'contradicted')),
    rationale   TEXT NOT NULL DEFAULT '',
    updated_at  TEXT NOT NULL,
    UNIQUE (claim_id, assessor_id)
);
CREATE INDEX claim_assessments_assessor ON claim_assessments(assessor_id);

CREATE TABLE trajectory_assessments (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    campaign_id     INTEGER NOT NULL REFERENCES campaigns(id),
    trajectory_id   INTEGER NOT NULL REFERENCES trajectories(id),
    assessor_id     INTEGER NOT NULL REFERENCES assessors(id),
    task_success    INTEGER CHECK (task_success IS NULL OR task_success IN (0, 1)),
    success_reason  TEXT NOT NULL DEFAULT '',
    path_acceptable INTEGER CHECK (path_acceptable IS NULL OR path_acceptable IN (0, 1)),
    path_reason     TEXT NOT NULL DEFAULT '',
    note            TEXT NOT NULL DEFAULT '',
    updated_at      TEXT NOT NULL,
    UNIQUE (trajectory_id, assessor_id)
);
CREATE INDEX trajectory_assessments_assessor ON trajectory_assessments(assessor_id);
"""
