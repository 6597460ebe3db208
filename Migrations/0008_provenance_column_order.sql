-- SQLite 3.40's PRAGMA integrity_check reports "NULL value in device_provenance.confidence" for every row
-- of a WITHOUT ROWID table whose NOT NULL non-key column is declared between its key columns (the data is
-- fine: no row holds NULL). Rebuild the table with the key columns first, by SQLite's documented recipe,
-- so integrity_check says "ok" and can be trusted (tests and doctor rely on it).

DROP VIEW v_device_trust;

CREATE TABLE device_provenance_new (
    device_id  INTEGER NOT NULL REFERENCES device(id) ON DELETE CASCADE,
    field      TEXT    NOT NULL,                      -- e.g. 'keyboards.portrait.predictive'
    source     TEXT    NOT NULL,
    confidence TEXT    NOT NULL CHECK (confidence IN ('measured', 'derived', 'estimated')),
    PRIMARY KEY (device_id, field, source)
) STRICT, WITHOUT ROWID;

INSERT INTO device_provenance_new (device_id, field, source, confidence)
SELECT device_id, field, source, confidence FROM device_provenance;

DROP TABLE device_provenance;
ALTER TABLE device_provenance_new RENAME TO device_provenance;

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
