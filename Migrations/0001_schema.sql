-- kbharness schema, version 1.
-- Definitions (devices, scenarios, expected values) are upserted by key on import; runs, results,
-- timing and regressions are appended by `kbharness run`. Timestamps are ISO-8601 UTC text.
-- Connection pragmas (WAL, foreign_keys, busy_timeout, synchronous) are set by the connection,
-- never here: journal_mode cannot change inside the migration's transaction.

-- Devices -------------------------------------------------------------------------------------

CREATE TABLE device (
    id              INTEGER PRIMARY KEY,
    key             TEXT    NOT NULL UNIQUE,          -- e.g. 'iphone-14-pro-15-16'
    name            TEXT    NOT NULL,
    idiom           TEXT    NOT NULL CHECK (idiom IN ('phone', 'pad')),
    os              TEXT    NOT NULL,                 -- OS generation of the numbers, e.g. 'ios18'
    width_pt        REAL    NOT NULL,                 -- portrait points
    height_pt       REAL    NOT NULL,
    scale           REAL    NOT NULL,
    home_indicator  INTEGER NOT NULL CHECK (home_indicator IN (0, 1)),
    definition      TEXT    NOT NULL CHECK (json_valid(definition)),   -- normalised profile
    definition_hash TEXT    NOT NULL,
    source_file     TEXT    NOT NULL,
    source_line     INTEGER NOT NULL,
    imported_at     TEXT    NOT NULL,
    updated_at      TEXT    NOT NULL
) STRICT;

CREATE TABLE device_orientation (
    device_id         INTEGER NOT NULL REFERENCES device(id) ON DELETE CASCADE,
    orientation       TEXT    NOT NULL CHECK (orientation IN ('portrait', 'landscape')),
    width_pt          REAL    NOT NULL,
    height_pt         REAL    NOT NULL,
    status_bar        REAL    NOT NULL,
    safe_top          REAL    NOT NULL,
    safe_left         REAL    NOT NULL,
    safe_bottom       REAL    NOT NULL,
    safe_right        REAL    NOT NULL,
    navigation_bar    REAL,
    large_title_bar   REAL,
    tab_bar           REAL,
    PRIMARY KEY (device_id, orientation)
) STRICT, WITHOUT ROWID;

CREATE TABLE device_keyboard (
    device_id   INTEGER NOT NULL REFERENCES device(id) ON DELETE CASCADE,
    orientation TEXT    NOT NULL CHECK (orientation IN ('portrait', 'landscape', 'any')),
    kind        TEXT    NOT NULL CHECK (kind IN ('standard', 'predictive', 'emoji', 'numberPad', 'hardware', 'floating')),
    height      REAL    NOT NULL,
    width       REAL,                                 -- floating keyboards only
    PRIMARY KEY (device_id, orientation, kind)
) STRICT, WITHOUT ROWID;

-- Where each number came from, so users can query how far to trust a profile.
CREATE TABLE device_provenance (
    device_id  INTEGER NOT NULL REFERENCES device(id) ON DELETE CASCADE,
    field      TEXT    NOT NULL,                      -- e.g. 'keyboards.portrait.predictive'
    confidence TEXT    NOT NULL CHECK (confidence IN ('measured', 'derived', 'estimated')),
    source     TEXT    NOT NULL,
    PRIMARY KEY (device_id, field, source)
) STRICT, WITHOUT ROWID;

-- Scenarios -----------------------------------------------------------------------------------

CREATE TABLE scenario (
    id              INTEGER PRIMARY KEY,
    key             TEXT    NOT NULL UNIQUE,          -- e.g. 'login/plain-bottom-field'
    title           TEXT    NOT NULL,
    description     TEXT,
    container       TEXT    NOT NULL,
    definition      TEXT    NOT NULL CHECK (json_valid(definition)),   -- normalised scenario
    definition_hash TEXT    NOT NULL,
    source_file     TEXT    NOT NULL,
    source_line     INTEGER NOT NULL,
    imported_at     TEXT    NOT NULL,
    updated_at      TEXT    NOT NULL
) STRICT;

CREATE TABLE scenario_tag (
    scenario_id INTEGER NOT NULL REFERENCES scenario(id) ON DELETE CASCADE,
    tag         TEXT    NOT NULL,
    PRIMARY KEY (scenario_id, tag)
) STRICT, WITHOUT ROWID;

CREATE INDEX scenario_tag_by_tag ON scenario_tag(tag, scenario_id);

-- Runs ----------------------------------------------------------------------------------------

CREATE TABLE run (
    id                  INTEGER PRIMARY KEY,
    uuid                TEXT    NOT NULL UNIQUE,
    status              TEXT    NOT NULL CHECK (status IN ('running', 'complete', 'aborted')),
    started_at          TEXT    NOT NULL,
    finished_at         TEXT,
    git_sha             TEXT,
    host                TEXT    NOT NULL,
    toolchain           TEXT    NOT NULL,
    build_configuration TEXT    NOT NULL CHECK (build_configuration IN ('debug', 'release')),
    engine_version      TEXT    NOT NULL,
    harness_version     TEXT    NOT NULL,
    selection           TEXT    NOT NULL CHECK (json_valid(selection)),   -- the filters used
    cells               INTEGER,
    passed              INTEGER,
    failed              INTEGER,
    errors              INTEGER,
    regressions         INTEGER,
    duration_ms         REAL
) STRICT;

CREATE INDEX run_by_status ON run(status, id);

-- Expected values: the reference a cell is compared with. Scope columns left NULL are wildcards;
-- the most specific current row wins. Rows are never updated in place: a replacement sets
-- superseded_at on the old row, so history stays explainable.
CREATE TABLE expected (
    id                   INTEGER PRIMARY KEY,
    scenario_id          INTEGER NOT NULL REFERENCES scenario(id) ON DELETE CASCADE,
    device_id            INTEGER REFERENCES device(id) ON DELETE CASCADE,
    orientation          TEXT    CHECK (orientation IN ('portrait', 'landscape')),
    keyboard             TEXT,
    strategy             TEXT,
    step                 INTEGER CHECK (step >= 1),   -- NULL: every step
    metric               TEXT    NOT NULL,            -- e.g. 'root.y', 'form.contentInset.bottom'
    value                REAL    NOT NULL,
    tolerance            REAL    NOT NULL DEFAULT 0.5 CHECK (tolerance >= 0),
    origin               TEXT    NOT NULL CHECK (origin IN ('file', 'accept')),
    source               TEXT,                        -- file:line, or the run uuid it was accepted from
    accepted_from_run_id INTEGER REFERENCES run(id) ON DELETE SET NULL,
    created_at           TEXT    NOT NULL,
    superseded_at        TEXT
) STRICT;

CREATE UNIQUE INDEX expected_current ON expected(
    scenario_id, ifnull(device_id, 0), ifnull(orientation, ''), ifnull(keyboard, ''),
    ifnull(strategy, ''), ifnull(step, 0), metric
) WHERE superseded_at IS NULL;

CREATE INDEX expected_by_scenario ON expected(scenario_id, superseded_at);

-- One row per matrix cell and run. `cell` is the readable stable key
-- 'scenario|device|orientation|keyboard|strategy'; `state` holds every step's observable numbers.
CREATE TABLE result (
    id                   INTEGER PRIMARY KEY,
    run_id               INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    cell                 TEXT    NOT NULL,
    scenario_id          INTEGER NOT NULL REFERENCES scenario(id),
    device_id            INTEGER NOT NULL REFERENCES device(id),
    orientation          TEXT    NOT NULL CHECK (orientation IN ('portrait', 'landscape')),
    keyboard             TEXT    NOT NULL,
    strategy             TEXT    NOT NULL,
    scenario_hash        TEXT    NOT NULL,
    device_hash          TEXT    NOT NULL,
    status               TEXT    NOT NULL CHECK (status IN ('pass', 'fail', 'error')),
    steps                INTEGER NOT NULL,
    state                TEXT    NOT NULL,            -- JSON array, one object per step
    state_hash           TEXT    NOT NULL,
    failed_invariants    INTEGER NOT NULL,
    failed_expectations  INTEGER NOT NULL,
    min_gap              REAL,                        -- smallest keyboard gap over the steps (pt)
    max_occlusion        REAL,                        -- largest part of the field under the keyboard (pt)
    message              TEXT,                        -- first failure, readable
    UNIQUE (run_id, cell)
) STRICT;

CREATE INDEX result_by_cell ON result(cell, run_id);
CREATE INDEX result_by_status ON result(run_id, status);

-- Per-cell timing of the engine alone (one iteration = every step of the cell), in nanoseconds.
CREATE TABLE timing (
    result_id INTEGER PRIMARY KEY REFERENCES result(id) ON DELETE CASCADE,
    warmup    INTEGER NOT NULL,
    samples   INTEGER NOT NULL,
    batch     INTEGER NOT NULL,                       -- iterations averaged per sample
    min_ns    INTEGER NOT NULL,
    p50_ns    INTEGER NOT NULL,
    p90_ns    INTEGER NOT NULL,
    max_ns    INTEGER NOT NULL,
    raw       BLOB    NOT NULL                        -- samples, little-endian Int64 ns each
) STRICT;

-- Everything that changed for the worse (or was fixed), with what it was compared against and the
-- rule that fired. `fails_run` says whether it made the run's exit code non-zero.
CREATE TABLE regression (
    id             INTEGER PRIMARY KEY,
    run_id         INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    result_id      INTEGER NOT NULL REFERENCES result(id) ON DELETE CASCADE,
    cell           TEXT    NOT NULL,
    kind           TEXT    NOT NULL CHECK (kind IN ('expected_mismatch', 'new_failure', 'fixed', 'state_changed', 'timing')),
    against        TEXT    NOT NULL CHECK (against IN ('expected', 'previous')),
    against_run_id INTEGER REFERENCES run(id) ON DELETE SET NULL,
    expected_id    INTEGER REFERENCES expected(id) ON DELETE SET NULL,
    step           INTEGER,
    metric         TEXT,
    old_value      TEXT,
    new_value      TEXT,
    rule           TEXT    NOT NULL,
    fails_run      INTEGER NOT NULL CHECK (fails_run IN (0, 1))
) STRICT;

CREATE INDEX regression_by_run ON regression(run_id, kind);
CREATE INDEX regression_by_cell ON regression(cell, run_id);
