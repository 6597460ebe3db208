-- Verdict changes lead; one count of a run (issue 16).
--
-- 1. `regression` gains the kind 'reference_mismatch' (against 'reference'): one row per cell whose state
--    differs from its reference snapshot, naming the first differing step and metric, with `differing` (how
--    many step metrics differ). Until now each differing metric was an 'expected_mismatch' row, the kind
--    that belongs to expected values people write, so one edited scenario buried everything else.
--    `definition_changed` is 1 when the scenario or device definition changed since the state compared
--    with (the reference, or the previous run) was made: such a difference is explained, and counted apart.
--    Existing reference rows are grouped the same way; their `definition_changed` is 0, unknown then.
-- 2. `result.reference_differences` counts a result's reference differences, which `failed_expectations`
--    counted until now; it keeps the expected values only, so a verdict (invariants and expected values,
--    what 'new_failure' compares) can be told from a reference difference. `result.wall_ns` is the cell's
--    wall time in the correctness phase, all attempts (NULL before this migration).
-- 3. `run.record_mode` is the run's `--record` mode: under 'never' a new cell counts as failed.
-- 4. `v_run_counts` is the one place a run's counts come from; the closing line, JSON, Markdown, JUnit,
--    HTML, `runs` and `v_run_summary` read it (`run.passed` and its neighbours are written from it).
--
-- The table is rebuilt by the documented recipe (https://www.sqlite.org/lang_altertable.html#otheralter),
-- as in 0005; the views reading it are dropped first and recreated.

DROP VIEW v_latest_regressions;
DROP VIEW v_run_summary;

CREATE TABLE regression_new (
    id                 INTEGER PRIMARY KEY,
    run_id             INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    result_id          INTEGER NOT NULL REFERENCES result(id) ON DELETE CASCADE,
    cell               TEXT    NOT NULL,
    kind               TEXT    NOT NULL CHECK (kind IN ('new_failure', 'expected_mismatch', 'reference_mismatch',
                                                        'state_changed', 'fixed', 'timing', 'improvement',
                                                        'low_confidence', 'not_comparable')),
    against            TEXT    NOT NULL CHECK (against IN ('expected', 'reference', 'previous')),
    against_run_id     INTEGER REFERENCES run(id) ON DELETE SET NULL,
    expected_id        INTEGER REFERENCES expected(id) ON DELETE SET NULL,
    step               INTEGER,
    metric             TEXT,
    old_value          TEXT,
    new_value          TEXT,
    rule               TEXT    NOT NULL,
    fails_run          INTEGER NOT NULL CHECK (fails_run IN (0, 1)),
    ref_p50_ns         INTEGER,
    p50_ns             INTEGER,
    ratio              REAL,
    p_value            REAL    CHECK (p_value IS NULL OR (p_value >= 0 AND p_value <= 1)),
    alpha              REAL,
    limit_lo           REAL,
    limit_hi           REAL,
    floor_ns           INTEGER,
    ref_samples        INTEGER,
    samples            INTEGER,
    confirmed          INTEGER CHECK (confirmed IN (0, 1)),
    confirm_p50_ns     INTEGER,
    confirm_ratio      REAL,
    confirm_p_value    REAL,
    differing          INTEGER CHECK (differing IS NULL OR differing >= 1),
    definition_changed INTEGER NOT NULL DEFAULT 0 CHECK (definition_changed IN (0, 1)),
    -- Only regressions fail a run: never an improvement, a low-confidence or a not-comparable verdict,
    -- never a timing regression its re-measure did not confirm, never a cell that is fixed.
    CHECK (fails_run = 0 OR kind NOT IN ('fixed', 'improvement', 'low_confidence', 'not_comparable')),
    CHECK (fails_run = 0 OR kind <> 'timing' OR confirmed IS NOT 0),
    CHECK ((kind = 'reference_mismatch') = (against = 'reference'))
) STRICT;

-- Everything but the reference differences, as it was.
INSERT INTO regression_new (id, run_id, result_id, cell, kind, against, against_run_id, expected_id, step, metric,
                            old_value, new_value, rule, fails_run, ref_p50_ns, p50_ns, ratio, p_value, alpha,
                            limit_lo, limit_hi, floor_ns, ref_samples, samples, confirmed, confirm_p50_ns,
                            confirm_ratio, confirm_p_value)
SELECT id, run_id, result_id, cell, kind, against, against_run_id, expected_id, step, metric,
       old_value, new_value, rule, fails_run, ref_p50_ns, p50_ns, ratio, p_value, alpha,
       limit_lo, limit_hi, floor_ns, ref_samples, samples, confirmed, confirm_p50_ns,
       confirm_ratio, confirm_p_value
FROM regression
WHERE NOT (kind = 'expected_mismatch' AND rule LIKE 'equals the cell''s reference snapshot%');

-- The reference differences: one row per result, the first difference written (steps and metrics were
-- written in order) with the count.
INSERT INTO regression_new (id, run_id, result_id, cell, kind, against, step, metric, old_value, new_value,
                            rule, fails_run, differing)
SELECT g.id, g.run_id, g.result_id, g.cell, 'reference_mismatch', 'reference', g.step, g.metric,
       g.old_value, g.new_value, g.rule, g.fails_run, n.differing
FROM (SELECT min(id) AS first, count(*) AS differing
      FROM regression
      WHERE kind = 'expected_mismatch' AND rule LIKE 'equals the cell''s reference snapshot%'
      GROUP BY result_id) n
JOIN regression g ON g.id = n.first;

DROP TABLE regression;
ALTER TABLE regression_new RENAME TO regression;

CREATE INDEX regression_by_run ON regression(run_id, kind);
CREATE INDEX regression_by_cell ON regression(cell, run_id);
CREATE INDEX regression_by_result ON regression(result_id);

ALTER TABLE result ADD COLUMN reference_differences INTEGER CHECK (reference_differences IS NULL OR reference_differences >= 0);
ALTER TABLE result ADD COLUMN wall_ns INTEGER CHECK (wall_ns IS NULL OR wall_ns >= 0);

UPDATE result
SET reference_differences = (SELECT g.differing FROM regression g
                             WHERE g.result_id = result.id AND g.kind = 'reference_mismatch')
WHERE id IN (SELECT result_id FROM regression WHERE kind = 'reference_mismatch');
UPDATE result
SET failed_expectations = max(0, failed_expectations - reference_differences)
WHERE reference_differences IS NOT NULL;

ALTER TABLE run ADD COLUMN record_mode TEXT CHECK (record_mode IN ('missing', 'failed', 'all', 'never'));

-- Regressions of the newest complete run: failing ones first, then verdict changes, then numbers, then timing.
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
       g.differing  AS differing,
       g.definition_changed AS definition_changed,
       g.rule       AS rule,
       g.fails_run  AS fails_run,
       g.cell       AS cell
FROM regression g
JOIN result r ON r.id = g.result_id
JOIN scenario s ON s.id = r.scenario_id
JOIN device d ON d.id = r.device_id
WHERE g.run_id = (SELECT id FROM v_latest_run)
ORDER BY g.fails_run DESC,
         CASE g.kind WHEN 'new_failure' THEN 0 WHEN 'expected_mismatch' THEN 1 WHEN 'reference_mismatch' THEN 2
                     WHEN 'state_changed' THEN 3 WHEN 'timing' THEN 4 WHEN 'fixed' THEN 5 WHEN 'improvement' THEN 6
                     WHEN 'low_confidence' THEN 7 ELSE 8 END,
         g.cell, g.step;

-- How many cells of each run ended how: the one count every output uses.
--   passed     pass, flaky, and new unless the run's record mode is 'never'
--   failed     fail and error, and new under 'never' (errors are counted in both `failed` and `errors`)
--   known      cells that held while hitting a known issue their scenario declares
--   regressed  cells that held in the previous run and do not now ('new_failure')
--   regressions  failing (kind, cell) pairs: what `kbharness regressions` lists as failing
--   redefined  reference or state differences explained by an edited scenario or device definition
--   flagged    passed cells that a failing regression still fails (a confirmed timing regression under
--              `--fail-on timing`, numbers changed with nothing asserting them): JUnit fails their testcase
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
