-- Record modes and flaky cells (harness-design §3.6, §3.8).
--
-- `result.status` gains 'new' (nothing asserted the cell: no expected value applied and no reference was
-- recorded; under `--record never` a new cell fails the run) and 'flaky' (failed, then passed on a retry
-- with `--retries N`). `result.attempts` counts the runs of the cell (1 + retries used) and
-- `result.reference` says what happened to its reference snapshot: 'match', 'mismatch', 'recorded' (this
-- result became the reference) or 'missing' (none, and none recorded).
--
-- A reference is a whole cell's per-step state, recorded from a run (`--record missing|failed|all`) or
-- promoted by `kbharness accept`. It points at the result whose `state` it is, so the state is stored
-- once; a replaced reference keeps its row with `superseded_at` set, so history is never lost.
--
-- SQLite cannot change a CHECK constraint in place, so `result` is rebuilt by the documented recipe
-- (https://www.sqlite.org/lang_altertable.html#otheralter). The migrator runs every migration with
-- foreign keys off and checks them before committing, so dropping the old table cascades to nothing;
-- the views that read `result` are dropped first and recreated (v_result with the new columns).

DROP VIEW v_cell_history;
DROP VIEW v_step;
DROP VIEW v_result;
DROP VIEW v_strategy_comparison;
DROP VIEW v_strategy_failures;
DROP VIEW v_latest_regressions;

CREATE TABLE result_new (
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
    status               TEXT    NOT NULL CHECK (status IN ('pass', 'fail', 'error', 'new', 'flaky')),
    steps                INTEGER NOT NULL,
    state                TEXT    NOT NULL,            -- JSON array, one object per step
    state_hash           TEXT    NOT NULL,
    failed_invariants    INTEGER NOT NULL,
    failed_expectations  INTEGER NOT NULL,
    min_gap              REAL,                        -- smallest keyboard gap over the steps (pt)
    max_occlusion        REAL,                        -- largest part of the field under the keyboard (pt)
    message              TEXT,                        -- first failure, readable
    known_failures       INTEGER NOT NULL DEFAULT 0,
    covered_steps        INTEGER NOT NULL DEFAULT 0,
    above_guide_steps    INTEGER NOT NULL DEFAULT 0,
    not_restored_steps   INTEGER NOT NULL DEFAULT 0,
    attempts             INTEGER NOT NULL DEFAULT 1 CHECK (attempts >= 1),
    reference            TEXT    CHECK (reference IN ('match', 'mismatch', 'recorded', 'missing')),
    UNIQUE (run_id, cell)
) STRICT;

INSERT INTO result_new (id, run_id, cell, scenario_id, device_id, orientation, keyboard, strategy, scenario_hash,
                        device_hash, status, steps, state, state_hash, failed_invariants, failed_expectations,
                        min_gap, max_occlusion, message, known_failures, covered_steps, above_guide_steps,
                        not_restored_steps)
SELECT id, run_id, cell, scenario_id, device_id, orientation, keyboard, strategy, scenario_hash,
       device_hash, status, steps, state, state_hash, failed_invariants, failed_expectations,
       min_gap, max_occlusion, message, known_failures, covered_steps, above_guide_steps,
       not_restored_steps
FROM result;

DROP TABLE result;
ALTER TABLE result_new RENAME TO result;

CREATE INDEX result_by_cell ON result(cell, run_id);
CREATE INDEX result_by_status ON result(run_id, status);
CREATE INDEX result_by_run_strategy ON result(run_id, strategy);

-- The reference snapshot of each cell: the current one has superseded_at NULL.
CREATE TABLE cell_reference (
    id            INTEGER PRIMARY KEY,
    scenario_id   INTEGER NOT NULL REFERENCES scenario(id) ON DELETE CASCADE,
    cell          TEXT    NOT NULL,
    result_id     INTEGER NOT NULL REFERENCES result(id),   -- whose state is the reference
    state_hash    TEXT    NOT NULL,
    origin        TEXT    NOT NULL CHECK (origin IN ('record', 'accept')),
    mode          TEXT    CHECK (mode IN ('missing', 'failed', 'all')),  -- the record mode, for 'record'
    created_at    TEXT    NOT NULL,
    superseded_at TEXT
) STRICT;

CREATE UNIQUE INDEX cell_reference_current ON cell_reference(cell) WHERE superseded_at IS NULL;
CREATE INDEX cell_reference_by_scenario ON cell_reference(scenario_id, superseded_at);
CREATE INDEX cell_reference_by_result ON cell_reference(result_id);

-- The views, as before (v_result adds attempts and reference).

CREATE VIEW v_cell_history AS
SELECT r.cell          AS cell,
       run.uuid        AS run,
       run.started_at  AS started_at,
       r.status        AS status,
       r.min_gap       AS min_gap,
       r.max_occlusion AS max_occlusion,
       t.p50_ns        AS p50_ns,
       r.state_hash    AS state_hash,
       r.scenario_hash AS scenario_hash
FROM result r
JOIN run ON run.id = r.run_id
LEFT JOIN timing t ON t.result_id = r.id
WHERE run.status = 'complete'
ORDER BY r.cell, run.id;

CREATE VIEW v_step AS
SELECT r.id     AS result_id,
       run.uuid AS run,
       r.cell   AS cell,
       CAST(step.key AS INTEGER) + 1                 AS step,
       step.value ->> '$.action'                     AS action,
       step.value ->> '$.focused'                    AS focused,
       step.value ->> '$.metrics."root.y"'           AS root_y,
       step.value ->> '$.metrics."movedDistance"'    AS moved_distance,
       step.value ->> '$.metrics."needToMove"'       AS need_to_move,
       step.value ->> '$.metrics."keyboard.minY"'    AS keyboard_min_y,
       step.value ->> '$.metrics."keyboard.height"'  AS keyboard_height,
       step.value ->> '$.metrics."focused.maxY"'     AS focused_max_y,
       step.value ->> '$.metrics."gap"'              AS gap,
       step.value ->> '$.metrics."occlusion"'        AS occlusion,
       step.value ->> '$.failed'                     AS failed_invariants,
       step.value -> '$.metrics'                     AS metrics
FROM result r
JOIN run ON run.id = r.run_id,
     json_each(r.state) AS step;

CREATE VIEW v_result AS
SELECT r.id             AS result_id,
       run.uuid         AS run,
       run.started_at   AS started_at,
       s.key            AS scenario,
       d.key            AS device,
       r.orientation    AS orientation,
       r.keyboard       AS keyboard,
       r.strategy       AS strategy,
       r.status         AS status,
       r.min_gap        AS min_gap,
       r.max_occlusion  AS max_occlusion,
       r.failed_invariants   AS failed_invariants,
       r.failed_expectations AS failed_expectations,
       r.known_failures      AS known_failures,
       round(t.p50_ns / 1000.0, 2) AS p50_us,
       round(t.p90_ns / 1000.0, 2) AS p90_us,
       r.message        AS message,
       r.attempts       AS attempts,
       r.reference      AS reference,
       r.cell           AS cell
FROM result r
JOIN run ON run.id = r.run_id
JOIN scenario s ON s.id = r.scenario_id
JOIN device d ON d.id = r.device_id
LEFT JOIN timing t ON t.result_id = r.id;

CREATE VIEW v_strategy_comparison AS
SELECT run.uuid     AS run,
       r.strategy   AS strategy,
       count(*)     AS cells,
       sum(r.covered_steps > 0)       AS covered,
       sum(r.above_guide_steps > 0)   AS above_top_guide,
       sum(r.not_restored_steps > 0)  AS not_restored,
       sum(r.covered_steps = 0 AND r.above_guide_steps = 0 AND r.not_restored_steps = 0) AS clean,
       sum(r.min_gap < 0)                          AS gap_negative,
       sum(r.min_gap >= 0 AND r.min_gap < 9.5)     AS gap_under_10,
       sum(r.min_gap >= 9.5 AND r.min_gap <= 10.5) AS gap_10,
       sum(r.min_gap > 10.5 AND r.min_gap <= 30)   AS gap_10_30,
       sum(r.min_gap > 30 AND r.min_gap <= 100)    AS gap_30_100,
       sum(r.min_gap > 100)                        AS gap_over_100,
       round(min(r.min_gap), 1) AS gap_min,
       round(avg(r.min_gap), 1) AS gap_mean,
       round(max(r.min_gap), 1) AS gap_max
FROM result r
JOIN run ON run.id = r.run_id
GROUP BY r.run_id, r.strategy
ORDER BY r.run_id DESC, r.strategy;

CREATE VIEW v_strategy_failures AS
SELECT run.uuid AS run,
       s.key    AS scenario,
       d.key    AS device,
       group_concat(DISTINCT CASE WHEN r.covered_steps + r.above_guide_steps + r.not_restored_steps > 0
                                  THEN r.strategy END) AS failing,
       group_concat(DISTINCT r.strategy) AS ran
FROM result r
JOIN run ON run.id = r.run_id
JOIN scenario s ON s.id = r.scenario_id
JOIN device d ON d.id = r.device_id
GROUP BY r.run_id, r.scenario_id, r.device_id
ORDER BY r.run_id DESC, s.key, d.key;

CREATE VIEW v_latest_regressions AS
SELECT g.kind       AS kind,
       g.against    AS against,
       s.key        AS scenario,
       d.key        AS device,
       r.orientation AS orientation,
       r.keyboard   AS keyboard,
       r.strategy   AS strategy,
       g.step       AS step,
       g.metric     AS metric,
       g.old_value  AS old_value,
       g.new_value  AS new_value,
       g.rule       AS rule,
       g.fails_run  AS fails_run,
       g.cell       AS cell
FROM regression g
JOIN result r ON r.id = g.result_id
JOIN scenario s ON s.id = r.scenario_id
JOIN device d ON d.id = r.device_id
WHERE g.run_id = (SELECT id FROM v_latest_run)
ORDER BY g.fails_run DESC, g.kind, g.cell, g.step;


-- Cells whose status changed between consecutive complete runs, over the 20 latest complete runs, and
-- cells found flaky within a run (failed, then passed on a retry). Most flips first.
CREATE VIEW v_flaky AS
WITH recent AS (
    SELECT id FROM run WHERE status = 'complete' ORDER BY id DESC LIMIT 20
),
history AS (
    SELECT r.cell, r.run_id, r.status,
           lag(r.status) OVER (PARTITION BY r.cell ORDER BY r.run_id) AS previous_status
    FROM result r
    WHERE r.run_id IN (SELECT id FROM recent)
)
SELECT cell,
       count(*)                                                         AS runs,
       sum(previous_status IS NOT NULL AND previous_status <> status)   AS flips,
       sum(status = 'flaky')                                            AS flaky_runs,
       sum(status IN ('fail', 'error'))                                 AS failing_runs,
       (SELECT r2.status FROM result r2 WHERE r2.cell = history.cell ORDER BY r2.run_id DESC LIMIT 1) AS last_status
FROM history
GROUP BY cell
HAVING flips > 0 OR flaky_runs > 0
ORDER BY flips DESC, flaky_runs DESC, cell;

-- The current reference of each cell, with the run it was recorded or accepted from.
CREATE VIEW v_reference AS
SELECT c.cell        AS cell,
       c.origin      AS origin,
       c.mode        AS mode,
       run.uuid      AS run,
       c.state_hash  AS state_hash,
       c.created_at  AS created_at,
       (SELECT count(*) FROM cell_reference old WHERE old.cell = c.cell AND old.superseded_at IS NOT NULL) AS replaced
FROM cell_reference c
JOIN result r ON r.id = c.result_id
JOIN run ON run.id = r.run_id
WHERE c.superseded_at IS NULL
ORDER BY c.cell;
