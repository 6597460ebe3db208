-- Content-addressed states and integer keys (issue 18).
--
-- Until now every result row carried its cell's whole per-step state as canonical JSON (about 2.4 KB), its
-- cell key and three hashes as text, so a run of an unchanged matrix grew the file by as much as the
-- first run did. Now:
--
-- 1. `cell`: one row per cell ever run, its readable key ('scenario|device|orientation|keyboard|strategy')
--    and what it is made of. Results and reference snapshots refer to it by id.
-- 2. `state`: one row per distinct per-step state, found by `hash` (FNV-1a 64 of the state's canonical
--    JSON text, 16 hex digits: what `result.state_hash` held). A result refers to its state by id, so a
--    re-run whose cells come out the same adds no state at all.
-- 3. The state is stored compactly: `metric_list.positions` names the metrics once,
--    {"focused.maxY":0,"gap":1,…} (sorted by name, each with its position), and `state.steps` holds one
--    JSON array per step:
--      [action, focused, values, failed, known, details, needToMoveLog, navigation]
--    where `values` lists the step's metric values by position (null: the step has no such metric) and
--    `navigation` is null or [index, list, next, previous, returnKey, toolbar], toolbar null or
--    [nextEnabled, previousEnabled, previousNext]. A step with a metric that is not a finite number (the
--    canonical JSON writes null) has a ninth element: the positions of those metrics. Numbers and strings
--    are the canonical JSON's own tokens, so the canonical text is rebuilt exactly (StateEncoding.swift);
--    `v_step` and `v_move_log` read the compact form and show what they showed before.
-- 4. `definition_pair`: the scenario and device definition hashes a result ran with, once per pair; and
--    `message`: a result's first failure, once per text (most are the same few known-issue notes, run after
--    run). `cell_reference` points at the cell by id; its state hash is its result's.
-- 5. Timing samples (`timing.raw`) are packed: sorted, the smallest as a zigzag varint and each next one as
--    the varint of its difference from the one before (`TimingSummary.packed`), about 20 bytes for eleven
--    samples where little-endian Int64 took 88. Order carried nothing: percentiles sort, the Mann–Whitney
--    test ranks. Old rows are converted by `kbharness_packed_samples`, which kbharness defines on the
--    connection that migrates (SQLite 3.40's SQL cannot build a blob byte by byte).
-- 6. `result_by_status` goes: every reader of a run's results finds them by `(run_id, cell_id)`, and each
--    index costs every run a row per cell.
--
-- Existing states are converted here: each distinct `state_hash` once (results sharing a hash share the
-- text it is the hash of), keys of steps written by an older kbharness normalised to today's fields.
-- Numbers are copied as their JSON text; only a metric whose name is not printable ASCII without " and \
-- (which SQLite's JSON paths cannot name) is read through its value, which keeps 15 significant digits.
-- A state that is not a JSON array of objects (a damaged row) becomes the empty state.
--
-- `result` and `cell_reference` are rebuilt by the documented recipe
-- (https://www.sqlite.org/lang_altertable.html#otheralter), as in 0009: the views reading them are dropped
-- first and recreated with the same columns; the migrator checks the foreign keys before committing.

DROP VIEW v_cell_history;
DROP VIEW v_step;
DROP VIEW v_result;
DROP VIEW v_strategy_comparison;
DROP VIEW v_strategy_failures;
DROP VIEW v_flaky;
DROP VIEW v_reference;
DROP VIEW v_move_log;
DROP VIEW v_latest_regressions;
DROP VIEW v_run_summary;
DROP VIEW v_run_counts;

CREATE TABLE cell (
    id          INTEGER PRIMARY KEY,
    key         TEXT    NOT NULL UNIQUE,          -- 'scenario|device|orientation|keyboard|strategy'
    scenario_id INTEGER NOT NULL REFERENCES scenario(id),
    device_id   INTEGER NOT NULL REFERENCES device(id),
    orientation TEXT    NOT NULL CHECK (orientation IN ('portrait', 'landscape')),
    keyboard    TEXT    NOT NULL,
    strategy    TEXT    NOT NULL
) STRICT;

-- The metrics a state's steps have values for: {"name": position, …}, names sorted.
CREATE TABLE metric_list (
    id        INTEGER PRIMARY KEY,
    positions TEXT    NOT NULL UNIQUE
) STRICT;

CREATE TABLE state (
    id             INTEGER PRIMARY KEY,
    hash           TEXT    NOT NULL UNIQUE,       -- FNV-1a 64 of the canonical JSON text
    metric_list_id INTEGER NOT NULL REFERENCES metric_list(id),
    steps          TEXT    NOT NULL               -- JSON array, one array per step (see above)
) STRICT;

-- Cells, in key order, from the newest result of each.
INSERT INTO cell (key, scenario_id, device_id, orientation, keyboard, strategy)
SELECT cell, scenario_id, device_id, orientation, keyboard, strategy
FROM result
WHERE id IN (SELECT max(id) FROM result GROUP BY cell)
ORDER BY cell;

CREATE TABLE definition_pair (
    id            INTEGER PRIMARY KEY,
    scenario_hash TEXT    NOT NULL,               -- the scenario's definition_hash when it ran
    device_hash   TEXT    NOT NULL,               -- the device's
    UNIQUE (scenario_hash, device_hash)
) STRICT;

CREATE TABLE message (
    id   INTEGER PRIMARY KEY,
    text TEXT    NOT NULL UNIQUE                  -- a result's first failure, readable
) STRICT;

INSERT INTO definition_pair (scenario_hash, device_hash)
SELECT DISTINCT scenario_hash, device_hash FROM result ORDER BY 1, 2;

INSERT INTO message (text)
SELECT DISTINCT message FROM result WHERE message IS NOT NULL ORDER BY 1;

-- The distinct states, each with its metric list.
CREATE TEMP TABLE old_state (hash TEXT PRIMARY KEY, state TEXT NOT NULL, positions TEXT NOT NULL);
INSERT INTO temp.old_state (hash, state, positions)
SELECT o.hash, o.state,
       (SELECT json_group_object(name, position)
        FROM (SELECT name, row_number() OVER (ORDER BY name) - 1 AS position
              FROM (SELECT DISTINCT m.key AS name
                    FROM json_each(o.state) AS s, json_each(s.value, '$.metrics') AS m
                    WHERE s.type = 'object' AND json_type(s.value, '$.metrics') = 'object')
              ORDER BY name))
FROM (SELECT state_hash AS hash,
             CASE WHEN json_valid(state) AND json_type(state) = 'array' THEN state ELSE '[]' END AS state
      FROM result
      WHERE id IN (SELECT min(id) FROM result GROUP BY state_hash)) AS o;

INSERT INTO metric_list (positions)
SELECT DISTINCT positions FROM temp.old_state ORDER BY positions;

-- Each step as an array. A metric's value is copied as its JSON text, through a path naming it; a name no
-- path can spell (not printable ASCII, or holding " or \) is read through json_each instead.
INSERT INTO state (hash, metric_list_id, steps)
SELECT o.hash, l.id,
       (SELECT json_group_array(json(CASE WHEN nonfinite = '[]' THEN step
                                          ELSE json_insert(step, '$[#]', json(nonfinite)) END))
        FROM (SELECT s.key AS key,
                     json_array(
                         json(coalesce(s.value -> '$.action', '""')),
                         json(coalesce(s.value -> '$.focused', 'null')),
                         (SELECT json_group_array(json(nullif(value, 'null')))
                          FROM (SELECT CASE WHEN n.key NOT GLOB '*[^ -~]*' AND instr(n.key, '"') = 0
                                                 AND instr(n.key, '\') = 0
                                            THEN s.value -> ('$.metrics."' || n.key || '"')
                                            ELSE (SELECT json_quote(m.value) FROM json_each(s.value, '$.metrics') AS m
                                                  WHERE m.key = n.key)
                                       END AS value
                                FROM json_each(o.positions) AS n
                                ORDER BY n.value)),
                         json(coalesce(s.value -> '$.failed', '[]')),
                         json(coalesce(s.value -> '$.known', '[]')),
                         json(coalesce(s.value -> '$.details', '[]')),
                         json(coalesce(s.value -> '$.needToMoveLog', '[]')),
                         CASE WHEN json_type(s.value, '$.navigation') = 'object' THEN json_array(
                             json(coalesce(s.value -> '$.navigation.index', 'null')),
                             json(coalesce(s.value -> '$.navigation.list', '[]')),
                             json(coalesce(s.value -> '$.navigation.next', 'false')),
                             json(coalesce(s.value -> '$.navigation.previous', 'false')),
                             json(coalesce(s.value -> '$.navigation.returnKey', '""')),
                             CASE WHEN json_type(s.value, '$.navigation.toolbar') = 'object' THEN json_array(
                                 json(coalesce(s.value -> '$.navigation.toolbar.nextEnabled', 'false')),
                                 json(coalesce(s.value -> '$.navigation.toolbar.previousEnabled', 'false')),
                                 json(coalesce(s.value -> '$.navigation.toolbar.previousNext', 'false')))
                             END)
                         END) AS step,
                     -- The positions of the metrics that are null (not finite numbers), rarely any.
                     (SELECT json_group_array(position)
                      FROM (SELECT n.value AS position
                            FROM json_each(s.value, '$.metrics') AS m
                            JOIN json_each(o.positions) AS n ON n.key = m.key
                            WHERE m.type = 'null' AND json_type(s.value, '$.metrics') = 'object'
                            ORDER BY n.value)) AS nonfinite
              FROM json_each(o.state) AS s
              WHERE s.type = 'object'
              ORDER BY s.key))
FROM temp.old_state AS o
JOIN metric_list l ON l.positions = o.positions
ORDER BY o.hash;

CREATE TABLE result_new (
    id                    INTEGER PRIMARY KEY,
    run_id                INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    cell_id               INTEGER NOT NULL REFERENCES cell(id),
    state_id              INTEGER NOT NULL REFERENCES state(id),
    definition_pair_id    INTEGER NOT NULL REFERENCES definition_pair(id),
    status                TEXT    NOT NULL CHECK (status IN ('pass', 'fail', 'error', 'new', 'flaky')),
    steps                 INTEGER NOT NULL,
    failed_invariants     INTEGER NOT NULL,
    failed_expectations   INTEGER NOT NULL,
    min_gap               REAL,                        -- smallest keyboard gap over the steps (pt)
    max_occlusion         REAL,                        -- largest part of the field under the keyboard (pt)
    message_id            INTEGER REFERENCES message(id),  -- first failure
    known_failures        INTEGER NOT NULL DEFAULT 0,
    covered_steps         INTEGER NOT NULL DEFAULT 0,
    above_guide_steps     INTEGER NOT NULL DEFAULT 0,
    not_restored_steps    INTEGER NOT NULL DEFAULT 0,
    attempts              INTEGER NOT NULL DEFAULT 1 CHECK (attempts >= 1),
    reference             TEXT    CHECK (reference IN ('match', 'mismatch', 'recorded', 'missing')),
    reference_differences INTEGER CHECK (reference_differences IS NULL OR reference_differences >= 0),
    wall_ns               INTEGER CHECK (wall_ns IS NULL OR wall_ns >= 0),
    UNIQUE (run_id, cell_id)
) STRICT;

INSERT INTO result_new (id, run_id, cell_id, state_id, definition_pair_id, status, steps, failed_invariants,
                        failed_expectations, min_gap, max_occlusion, message_id, known_failures, covered_steps,
                        above_guide_steps, not_restored_steps, attempts, reference, reference_differences, wall_ns)
SELECT r.id, r.run_id, c.id, s.id, p.id, r.status, r.steps, r.failed_invariants,
       r.failed_expectations, r.min_gap, r.max_occlusion, m.id, r.known_failures, r.covered_steps,
       r.above_guide_steps, r.not_restored_steps, r.attempts, r.reference, r.reference_differences, r.wall_ns
FROM result r
JOIN cell c ON c.key = r.cell
JOIN state s ON s.hash = r.state_hash
JOIN definition_pair p ON p.scenario_hash = r.scenario_hash AND p.device_hash = r.device_hash
LEFT JOIN message m ON m.text = r.message;

CREATE TABLE cell_reference_new (
    id            INTEGER PRIMARY KEY,
    scenario_id   INTEGER NOT NULL REFERENCES scenario(id) ON DELETE CASCADE,
    cell_id       INTEGER NOT NULL REFERENCES cell(id),
    result_id     INTEGER NOT NULL REFERENCES result(id),   -- whose state is the reference
    origin        TEXT    NOT NULL CHECK (origin IN ('record', 'accept')),
    mode          TEXT    CHECK (mode IN ('missing', 'failed', 'all')),  -- the record mode, for 'record'
    created_at    TEXT    NOT NULL,
    superseded_at TEXT
) STRICT;

-- A reference's cell is its result's.
INSERT INTO cell_reference_new (id, scenario_id, cell_id, result_id, origin, mode, created_at, superseded_at)
SELECT c.id, c.scenario_id, r.cell_id, c.result_id, c.origin, c.mode, c.created_at, c.superseded_at
FROM cell_reference c
JOIN result_new r ON r.id = c.result_id;

DROP TABLE cell_reference;
DROP TABLE result;
ALTER TABLE result_new RENAME TO result;
ALTER TABLE cell_reference_new RENAME TO cell_reference;

DROP TABLE temp.old_state;

UPDATE timing SET raw = kbharness_packed_samples(raw);

CREATE INDEX result_by_cell ON result(cell_id, run_id);
-- No index leads with state_id, definition_pair_id or message_id: each would cost every run a row per cell.
-- Retention collects unused states, pairs and messages in one pass each, with foreign keys off
-- (HarnessStore.collectUnreferenced).

CREATE UNIQUE INDEX cell_reference_current ON cell_reference(cell_id) WHERE superseded_at IS NULL;
CREATE INDEX cell_reference_by_scenario ON cell_reference(scenario_id, superseded_at);
CREATE INDEX cell_reference_by_result ON cell_reference(result_id);

-- The views, with the same columns as before.

CREATE VIEW v_cell_history AS
SELECT c.key           AS cell,
       run.uuid        AS run,
       run.started_at  AS started_at,
       r.status        AS status,
       r.min_gap       AS min_gap,
       r.max_occlusion AS max_occlusion,
       t.p50_ns        AS p50_ns,
       s.hash          AS state_hash,
       p.scenario_hash AS scenario_hash
FROM result r
JOIN cell c ON c.id = r.cell_id
JOIN state s ON s.id = r.state_id
JOIN definition_pair p ON p.id = r.definition_pair_id
JOIN run ON run.id = r.run_id
LEFT JOIN timing t ON t.result_id = r.id
WHERE run.status = 'complete'
ORDER BY c.key, run.id;

-- A named metric is the step's value at the position its metric list gives; `metrics` puts the step's
-- values back into an object, in name order.
CREATE VIEW v_step AS
SELECT r.id     AS result_id,
       run.uuid AS run,
       c.key    AS cell,
       CAST(step.key AS INTEGER) + 1                                               AS step,
       step.value ->> '$[0]'                                                       AS action,
       step.value ->> '$[1]'                                                       AS focused,
       step.value ->> ('$[2][' || (l.positions ->> '$."root.y"') || ']')          AS root_y,
       step.value ->> ('$[2][' || (l.positions ->> '$."movedDistance"') || ']')   AS moved_distance,
       step.value ->> ('$[2][' || (l.positions ->> '$."needToMove"') || ']')      AS need_to_move,
       step.value ->> ('$[2][' || (l.positions ->> '$."keyboard.minY"') || ']')   AS keyboard_min_y,
       step.value ->> ('$[2][' || (l.positions ->> '$."keyboard.height"') || ']') AS keyboard_height,
       step.value ->> ('$[2][' || (l.positions ->> '$."focused.maxY"') || ']')    AS focused_max_y,
       step.value ->> ('$[2][' || (l.positions ->> '$."gap"') || ']')             AS gap,
       step.value ->> ('$[2][' || (l.positions ->> '$."occlusion"') || ']')       AS occlusion,
       step.value ->> '$[3]'                                                       AS failed_invariants,
       (SELECT json_group_object(n.key, json(step.value -> ('$[2][' || n.value || ']')))
        FROM json_each(l.positions) AS n
        WHERE step.value -> ('$[2][' || n.value || ']') <> 'null'
           OR n.value IN (SELECT f.value FROM json_each(step.value, '$[8]') AS f)) AS metrics
FROM result r
JOIN run ON run.id = r.run_id
JOIN cell c ON c.id = r.cell_id
JOIN state s ON s.id = r.state_id
JOIN metric_list l ON l.id = s.metric_list_id,
     json_each(s.steps) AS step;

CREATE VIEW v_result AS
SELECT r.id             AS result_id,
       run.uuid         AS run,
       run.started_at   AS started_at,
       s.key            AS scenario,
       d.key            AS device,
       c.orientation    AS orientation,
       c.keyboard       AS keyboard,
       c.strategy       AS strategy,
       r.status         AS status,
       r.min_gap        AS min_gap,
       r.max_occlusion  AS max_occlusion,
       r.failed_invariants   AS failed_invariants,
       r.failed_expectations AS failed_expectations,
       r.known_failures      AS known_failures,
       round(t.p50_ns / 1000.0, 2) AS p50_us,
       round(t.p90_ns / 1000.0, 2) AS p90_us,
       m.text           AS message,
       r.attempts       AS attempts,
       r.reference      AS reference,
       c.key            AS cell
FROM result r
JOIN run ON run.id = r.run_id
JOIN cell c ON c.id = r.cell_id
JOIN scenario s ON s.id = c.scenario_id
JOIN device d ON d.id = c.device_id
LEFT JOIN message m ON m.id = r.message_id
LEFT JOIN timing t ON t.result_id = r.id;

CREATE VIEW v_strategy_comparison AS
SELECT run.uuid     AS run,
       c.strategy   AS strategy,
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
JOIN cell c ON c.id = r.cell_id
GROUP BY r.run_id, c.strategy
ORDER BY r.run_id DESC, c.strategy;

-- The strategies of each scenario and device, in name order (group_concat follows the order its rows come
-- in, which the grouped subquery gives; before, it was the order the rows happened to be read in).
CREATE VIEW v_strategy_failures AS
SELECT run.uuid AS run,
       s.key    AS scenario,
       d.key    AS device,
       group_concat(CASE WHEN x.failed THEN x.strategy END) AS failing,
       group_concat(x.strategy) AS ran
FROM (SELECT r.run_id, c.scenario_id, c.device_id, c.strategy,
             max(r.covered_steps + r.above_guide_steps + r.not_restored_steps > 0) AS failed
      FROM result r
      JOIN cell c ON c.id = r.cell_id
      GROUP BY r.run_id, c.scenario_id, c.device_id, c.strategy
      ORDER BY r.run_id, c.scenario_id, c.device_id, c.strategy) AS x
JOIN run ON run.id = x.run_id
JOIN scenario s ON s.id = x.scenario_id
JOIN device d ON d.id = x.device_id
GROUP BY x.run_id, x.scenario_id, x.device_id
ORDER BY x.run_id DESC, s.key, d.key;

-- Cells whose status changed between consecutive complete runs, over the 20 latest complete runs, and
-- cells found flaky within a run (failed, then passed on a retry). Most flips first.
CREATE VIEW v_flaky AS
WITH recent AS (
    SELECT id FROM run WHERE status = 'complete' ORDER BY id DESC LIMIT 20
),
history AS (
    SELECT r.cell_id, r.run_id, r.status,
           lag(r.status) OVER (PARTITION BY r.cell_id ORDER BY r.run_id) AS previous_status
    FROM result r
    WHERE r.run_id IN (SELECT id FROM recent)
)
SELECT c.key                                                            AS cell,
       count(*)                                                         AS runs,
       sum(previous_status IS NOT NULL AND previous_status <> status)   AS flips,
       sum(status = 'flaky')                                            AS flaky_runs,
       sum(status IN ('fail', 'error'))                                 AS failing_runs,
       (SELECT r2.status FROM result r2 WHERE r2.cell_id = history.cell_id ORDER BY r2.run_id DESC LIMIT 1) AS last_status
FROM history
JOIN cell c ON c.id = history.cell_id
GROUP BY history.cell_id
HAVING flips > 0 OR flaky_runs > 0
ORDER BY flips DESC, flaky_runs DESC, c.key;

-- The current reference of each cell, with the run it was recorded or accepted from.
CREATE VIEW v_reference AS
SELECT c.key         AS cell,
       x.origin      AS origin,
       x.mode        AS mode,
       run.uuid      AS run,
       s.hash        AS state_hash,
       x.created_at  AS created_at,
       (SELECT count(*) FROM cell_reference old WHERE old.cell_id = x.cell_id AND old.superseded_at IS NOT NULL) AS replaced
FROM cell_reference x
JOIN cell c ON c.id = x.cell_id
JOIN result r ON r.id = x.result_id
JOIN state s ON s.id = r.state_id
JOIN run ON run.id = r.run_id
WHERE x.superseded_at IS NULL
ORDER BY c.key;

-- What IQKeyboardManager logs (see 0010): the values of each step's needToMoveLog.
CREATE VIEW v_move_log AS
SELECT run.uuid                             AS run,
       c.key                                AS cell,
       c.strategy                           AS strategy,
       CAST(step.key AS INTEGER) + 1        AS step,
       CAST(entry.key AS INTEGER) + 1       AS seq,
       entry.value                          AS value,
       CASE
           WHEN c.strategy IN ('iq@3', 'iq@4.0.4', 'iq@4', 'iq@5')
               THEN printf('Need to move: %.2f', entry.value)
           WHEN c.strategy = 'iq@6.5.11'
               THEN 'Need to move: ' || CASE WHEN entry.value = CAST(entry.value AS INTEGER)
                                             THEN printf('%.1f', entry.value) ELSE CAST(entry.value AS TEXT) END
           WHEN c.strategy = 'iq' OR c.strategy LIKE 'iq@%'
               THEN 'Need to move: ' || CASE WHEN entry.value = CAST(entry.value AS INTEGER)
                                             THEN printf('%.1f', entry.value) ELSE CAST(entry.value AS TEXT) END
                    || ', will be moving ' || CASE WHEN entry.value < 0 THEN 'down' ELSE 'up' END
       END                                  AS line
FROM result r
JOIN run ON run.id = r.run_id
JOIN cell c ON c.id = r.cell_id
JOIN state s ON s.id = r.state_id,
     json_each(s.steps) AS step,
     json_each(step.value -> '$[6]') AS entry;

-- Regressions of the newest complete run: failing ones first, then verdict changes, then numbers, then timing.
CREATE VIEW v_latest_regressions AS
SELECT g.kind       AS kind,
       g.against    AS against,
       s.key        AS scenario,
       d.key        AS device,
       c.orientation AS orientation,
       c.keyboard   AS keyboard,
       c.strategy   AS strategy,
       g.step       AS step,
       g.metric     AS metric,
       g.old_value  AS old_value,
       g.new_value  AS new_value,
       g.differing  AS differing,
       g.definition_changed AS definition_changed,
       g.rule       AS rule,
       g.fails_run  AS fails_run,
       g.cell       AS cell
FROM regression g
JOIN result r ON r.id = g.result_id
JOIN cell c ON c.id = r.cell_id
JOIN scenario s ON s.id = c.scenario_id
JOIN device d ON d.id = c.device_id
WHERE g.run_id = (SELECT id FROM v_latest_run)
ORDER BY g.fails_run DESC,
         CASE g.kind WHEN 'new_failure' THEN 0 WHEN 'expected_mismatch' THEN 1 WHEN 'reference_mismatch' THEN 2
                     WHEN 'state_changed' THEN 3 WHEN 'timing' THEN 4 WHEN 'fixed' THEN 5 WHEN 'improvement' THEN 6
                     WHEN 'low_confidence' THEN 7 ELSE 8 END,
         g.cell, g.step;

-- How many cells of each run ended how (as in 0012).
CREATE VIEW v_run_counts AS
SELECT run.id   AS run_id,
       run.uuid AS run,
       count(r.id)                                                                   AS cells,
       ifnull(sum(r.status IN ('pass', 'flaky')
                  OR (r.status = 'new' AND run.record_mode IS NOT 'never')), 0)      AS passed,
       ifnull(sum(r.status IN ('fail', 'error')
                  OR (r.status = 'new' AND run.record_mode IS 'never')), 0)          AS failed,
       ifnull(sum(r.status = 'error'), 0)                                            AS errors,
       ifnull(sum(r.status = 'new'), 0)                                              AS new,
       ifnull(sum(r.status = 'flaky'), 0)                                            AS flaky,
       ifnull(sum(r.status IN ('pass', 'flaky', 'new') AND r.known_failures > 0), 0) AS known,
       ifnull(sum(r.reference = 'recorded'), 0)                                      AS recorded,
       (SELECT count(*) FROM regression g WHERE g.run_id = run.id AND g.kind = 'new_failure')      AS regressed,
       (SELECT count(DISTINCT g.cell) FROM regression g
        WHERE g.run_id = run.id AND g.kind = 'expected_mismatch')                                  AS expected_mismatches,
       (SELECT count(*) FROM regression g WHERE g.run_id = run.id AND g.kind = 'reference_mismatch') AS reference_mismatches,
       (SELECT count(*) FROM regression g WHERE g.run_id = run.id AND g.kind = 'state_changed' AND g.fails_run = 1)
                                                                                                   AS state_changes,
       (SELECT count(*) FROM regression g WHERE g.run_id = run.id AND g.kind = 'timing' AND g.fails_run = 1)
                                                                                                   AS timing_regressions,
       (SELECT count(DISTINCT g.cell) FROM regression g
        WHERE g.run_id = run.id AND g.kind IN ('reference_mismatch', 'state_changed') AND g.definition_changed = 1)
                                                                                                   AS redefined,
       (SELECT count(*) FROM regression g WHERE g.run_id = run.id AND g.kind = 'fixed')            AS fixed,
       (SELECT count(*) FROM (SELECT DISTINCT g.kind, g.cell FROM regression g
                              WHERE g.run_id = run.id AND g.fails_run = 1))                       AS regressions,
       (SELECT count(DISTINCT g.cell) FROM regression g JOIN result h ON h.id = g.result_id
        WHERE g.run_id = run.id AND g.fails_run = 1
          AND (h.status IN ('pass', 'flaky') OR (h.status = 'new' AND run.record_mode IS NOT 'never')))
                                                                                                   AS flagged
FROM run
LEFT JOIN result r ON r.run_id = run.id
GROUP BY run.id;

-- One line per run: what ran, how it ended (from v_run_counts), how long it took.
CREATE VIEW v_run_summary AS
SELECT run.uuid        AS run,
       run.status      AS status,
       run.started_at  AS started_at,
       run.finished_at AS finished_at,
       c.cells         AS cells,
       c.passed        AS passed,
       c.failed        AS failed,
       c.errors        AS errors,
       c.new           AS new,
       c.flaky         AS flaky,
       c.known         AS known,
       c.regressed     AS regressed,
       c.regressions   AS regressions,
       round(run.duration_ms / 1000.0, 3) AS seconds,
       run.build_configuration AS build,
       run.git_sha     AS git_sha,
       run.host        AS host,
       run.engine_version AS engine
FROM run
JOIN v_run_counts c ON c.run_id = run.id
ORDER BY run.id DESC;
