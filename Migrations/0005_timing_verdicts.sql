-- Timing verdicts (harness-design §3.7): every timing verdict stores the numbers behind it, and the
-- kinds that are not regressions get their own names.
--
-- `regression.kind` gains 'improvement' (significantly faster), 'low_confidence' (slower or faster
-- by the threshold and the floor, but too few samples to reach p < α) and 'not_comparable' (an
-- earlier timed result exists but ran on another host, toolchain or build configuration, or with
-- another scenario or device definition). An unconfirmed regression stays kind 'timing' with
-- confirmed = 0. SQLite cannot change a CHECK constraint in place, so the table is rebuilt with the
-- documented recipe (https://www.sqlite.org/lang_altertable.html#otheralter): create the new table,
-- copy, drop the old one, rename, recreate its indexes; the view that reads it is dropped first and
-- recreated unchanged. No table references `regression`, so dropping it touches no foreign key.
--
-- New columns, NULL for the correctness kinds and for timing rows written before this migration:
--   ref_p50_ns, p50_ns    medians (nearest rank) of the reference and the new raw samples, ns/iteration
--   ratio                 p50 / ref p50
--   p_value               two-sided Mann–Whitney U p-value on the raw samples (NULL: not tested)
--   alpha                 the significance level applied
--   limit_lo, limit_hi    ref p50 / (1 + threshold) and ref p50 × (1 + threshold), ns
--   floor_ns              the absolute floor applied, ns
--   ref_samples, samples  sample counts of the two runs
--   confirmed             timing only: 1 confirmed by a re-measure, 0 not confirmed, NULL not tried
--   confirm_p50_ns, confirm_ratio, confirm_p_value   the re-measure's numbers

DROP VIEW v_latest_regressions;

CREATE TABLE regression_new (
    id             INTEGER PRIMARY KEY,
    run_id         INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    result_id      INTEGER NOT NULL REFERENCES result(id) ON DELETE CASCADE,
    cell           TEXT    NOT NULL,
    kind           TEXT    NOT NULL CHECK (kind IN ('expected_mismatch', 'new_failure', 'fixed', 'state_changed',
                                                    'timing', 'improvement', 'low_confidence', 'not_comparable')),
    against        TEXT    NOT NULL CHECK (against IN ('expected', 'previous')),
    against_run_id INTEGER REFERENCES run(id) ON DELETE SET NULL,
    expected_id    INTEGER REFERENCES expected(id) ON DELETE SET NULL,
    step           INTEGER,
    metric         TEXT,
    old_value      TEXT,
    new_value      TEXT,
    rule           TEXT    NOT NULL,
    fails_run      INTEGER NOT NULL CHECK (fails_run IN (0, 1)),
    ref_p50_ns      INTEGER,
    p50_ns          INTEGER,
    ratio           REAL,
    p_value         REAL    CHECK (p_value IS NULL OR (p_value >= 0 AND p_value <= 1)),
    alpha           REAL,
    limit_lo        REAL,
    limit_hi        REAL,
    floor_ns        INTEGER,
    ref_samples     INTEGER,
    samples         INTEGER,
    confirmed       INTEGER CHECK (confirmed IN (0, 1)),
    confirm_p50_ns  INTEGER,
    confirm_ratio   REAL,
    confirm_p_value REAL,
    -- Only regressions fail a run: never an improvement, a low-confidence or a not-comparable verdict,
    -- and never a timing regression its re-measure did not confirm.
    CHECK (fails_run = 0 OR kind NOT IN ('improvement', 'low_confidence', 'not_comparable')),
    CHECK (fails_run = 0 OR kind <> 'timing' OR confirmed IS NOT 0)
) STRICT;

INSERT INTO regression_new (id, run_id, result_id, cell, kind, against, against_run_id, expected_id, step, metric,
                            old_value, new_value, rule, fails_run)
SELECT id, run_id, result_id, cell, kind, against, against_run_id, expected_id, step, metric,
       old_value, new_value, rule, fails_run
FROM regression;

DROP TABLE regression;
ALTER TABLE regression_new RENAME TO regression;

CREATE INDEX regression_by_run ON regression(run_id, kind);
CREATE INDEX regression_by_cell ON regression(cell, run_id);

-- Regressions of the newest complete run, failing ones first (as in 0002; timing verdicts included,
-- their numbers are in the table's new columns).
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
