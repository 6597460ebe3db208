-- Strategy comparison: per cell, how many steps broke each invariant (declared known or not), and
-- views that answer "which approach hides which field on which device".

ALTER TABLE result ADD COLUMN covered_steps INTEGER NOT NULL DEFAULT 0;
ALTER TABLE result ADD COLUMN above_guide_steps INTEGER NOT NULL DEFAULT 0;
ALTER TABLE result ADD COLUMN not_restored_steps INTEGER NOT NULL DEFAULT 0;

CREATE INDEX result_by_run_strategy ON result(run_id, strategy);

-- Per run and strategy: cells where the field was covered, pushed above the top guide, or not
-- restored (known issues included: this is a comparison, not a gate), and the distribution of the
-- smallest keyboard gap per cell.
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

-- Per run, scenario and device: the strategies that broke an invariant in some cell (orientation or
-- keyboard), and those that never did.
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
