-- Named baselines: a run kept under a name ("main", "release-2.3") to compare later runs against.

CREATE TABLE baseline (
    name    TEXT    PRIMARY KEY,
    run_id  INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    set_at  TEXT    NOT NULL,
    note    TEXT
) STRICT, WITHOUT ROWID;
