-- What IQKeyboardManager logs (iq-versions §6): one row per "Need to move" adjustment of a cell's step,
-- with the line the strategy's version prints.
--
-- The values come from each step's `needToMoveLog` in `result.state`, in order (`seq` from 1). The line's
-- format is the version's own: Objective-C `%.2f` up to 5.x (`Need to move: -154.00`), Swift's `Double`
-- in 6.5.11 (`Need to move: -154.0`), and from 6.5.16 the direction after it (`Need to move: -154.0, will
-- be moving down`). Swift prints a whole number with one decimal and anything else as its shortest
-- form, which SQLite's text conversion gives for the values a layout produces. Other strategies log
-- their own moves; their `line` is NULL.
CREATE VIEW v_move_log AS
SELECT run.uuid                             AS run,
       r.cell                               AS cell,
       r.strategy                           AS strategy,
       CAST(step.key AS INTEGER) + 1        AS step,
       CAST(entry.key AS INTEGER) + 1       AS seq,
       entry.value                          AS value,
       CASE
           WHEN r.strategy IN ('iq@3', 'iq@4.0.4', 'iq@4', 'iq@5')
               THEN printf('Need to move: %.2f', entry.value)
           WHEN r.strategy = 'iq@6.5.11'
               THEN 'Need to move: ' || CASE WHEN entry.value = CAST(entry.value AS INTEGER)
                                             THEN printf('%.1f', entry.value) ELSE CAST(entry.value AS TEXT) END
           WHEN r.strategy = 'iq' OR r.strategy LIKE 'iq@%'
               THEN 'Need to move: ' || CASE WHEN entry.value = CAST(entry.value AS INTEGER)
                                             THEN printf('%.1f', entry.value) ELSE CAST(entry.value AS TEXT) END
                    || ', will be moving ' || CASE WHEN entry.value < 0 THEN 'down' ELSE 'up' END
       END                                  AS line
FROM result r
JOIN run ON run.id = r.run_id,
     json_each(r.state) AS step,
     json_each(step.value -> '$.needToMoveLog') AS entry;
