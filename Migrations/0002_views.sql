-- Views for people using the stock sqlite3 shell: readable names, no ids to join by hand.

-- Every result with its scenario, device and timing, newest run first.
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
       round(t.p50_ns / 1000.0, 2) AS p50_us,
       round(t.p90_ns / 1000.0, 2) AS p90_us,
       r.message        AS message,
       r.cell           AS cell
FROM result r
JOIN run ON run.id = r.run_id
JOIN scenario s ON s.id = r.scenario_id
JOIN device d ON d.id = r.device_id
LEFT JOIN timing t ON t.result_id = r.id;

-- The newest complete run.
CREATE VIEW v_latest_run AS
SELECT * FROM run WHERE status = 'complete' ORDER BY id DESC LIMIT 1;

-- Regressions of the newest complete run, failing ones first.
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

-- One line per run: what ran, how it ended, how long it took.
CREATE VIEW v_run_summary AS
SELECT run.uuid        AS run,
       run.status      AS status,
       run.started_at  AS started_at,
       run.finished_at AS finished_at,
       run.cells       AS cells,
       run.passed      AS passed,
       run.failed      AS failed,
       run.errors      AS errors,
       run.regressions AS regressions,
       round(run.duration_ms / 1000.0, 3) AS seconds,
       run.build_configuration AS build,
       run.git_sha     AS git_sha,
       run.host        AS host,
       run.engine_version AS engine
FROM run
ORDER BY run.id DESC;

-- Every run of every cell, oldest first: filter on `cell` for one cell's history.
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

-- Every step of every result: the per-step numbers, one row each. All of a step's numbers are in
-- `metrics` (JSON, keys as expectations name them: 'root.y', 'gap', 'form.contentOffset.y', …).
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

-- The expected values in force (history rows excluded), readable.
CREATE VIEW v_expected AS
SELECT s.key AS scenario,
       ifnull(d.key, '*')        AS device,
       ifnull(e.orientation, '*') AS orientation,
       ifnull(e.keyboard, '*')   AS keyboard,
       ifnull(e.strategy, '*')   AS strategy,
       ifnull(e.step, '*')       AS step,
       e.metric AS metric,
       e.value AS value,
       e.tolerance AS tolerance,
       e.origin AS origin,
       e.source AS source,
       e.created_at AS created_at
FROM expected e
JOIN scenario s ON s.id = e.scenario_id
LEFT JOIN device d ON d.id = e.device_id
WHERE e.superseded_at IS NULL;

-- How far each device profile can be trusted: provenance counts per confidence level.
CREATE VIEW v_device_trust AS
SELECT d.key AS device,
       d.name AS name,
       d.os AS os,
       sum(p.confidence = 'measured')  AS measured,
       sum(p.confidence = 'derived')   AS derived,
       sum(p.confidence = 'estimated') AS estimated
FROM device d
LEFT JOIN device_provenance p ON p.device_id = d.id
GROUP BY d.id
ORDER BY d.key;
