-- 0015: a state's hash is of its stored form.
--
-- Until now `state.hash` was FNV-1a 64 of the state's canonical JSON, which a run had to write out for
-- every cell only to hash it (about 2.4 times the stored text, a fifth of a cell's work). It is now
-- FNV-1a 64 of the stored form: the metric list's `positions` text followed by the state's `steps` text.
-- The stored form is a function of the canonical JSON (`StateEncoding`), so equal hashes still mean equal
-- states; reference files keep the canonical JSON, and a run hashes their stored form.
--
-- Every state is hashed again by `kbharness_state_hash(positions, steps)`, an SQL function the migrating
-- connection defines. The table is rebuilt by the documented recipe
-- (https://www.sqlite.org/lang_altertable.html#otheralter): copying into a new table keeps an old hash and
-- a new one from ever meeting in one unique index. The four views that read `state` are dropped first and
-- recreated as 0014 made them.

DROP VIEW v_cell_history;
DROP VIEW v_step;
DROP VIEW v_reference;
DROP VIEW v_move_log;

CREATE TABLE state_new (
    id             INTEGER PRIMARY KEY,
    hash           TEXT    NOT NULL UNIQUE,       -- FNV-1a 64 of metric_list.positions followed by steps
    metric_list_id INTEGER NOT NULL REFERENCES metric_list(id),
    steps          TEXT    NOT NULL               -- JSON array, one array per step (see 0014)
) STRICT;

-- Each state's new hash. Texts that 0014 converted from older shapes can come out as one stored form;
-- such states become one, the first, which the results of the others then point at.
CREATE TEMP TABLE state_rehash (id INTEGER PRIMARY KEY, hash TEXT NOT NULL);
INSERT INTO temp.state_rehash (id, hash)
SELECT s.id, kbharness_state_hash(l.positions, s.steps)
FROM state s
JOIN metric_list l ON l.id = s.metric_list_id;
CREATE INDEX temp.state_rehash_by_hash ON state_rehash(hash, id);

INSERT INTO state_new (id, hash, metric_list_id, steps)
SELECT s.id, x.hash, s.metric_list_id, s.steps
FROM state s
JOIN temp.state_rehash x ON x.id = s.id
WHERE s.id = (SELECT min(y.id) FROM temp.state_rehash y WHERE y.hash = x.hash)
ORDER BY s.id;

UPDATE result
SET state_id = (SELECT min(y.id) FROM temp.state_rehash y
                WHERE y.hash = (SELECT x.hash FROM temp.state_rehash x WHERE x.id = result.state_id))
WHERE state_id NOT IN (SELECT id FROM state_new);

DROP TABLE temp.state_rehash;

DROP TABLE state;
ALTER TABLE state_new RENAME TO state;

-- The views, as 0014 made them.

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
