-- The process that runs a matrix, so a run left 'running' by a killed process can be recognised:
-- the next command that opens the database on the same host marks it 'aborted' if that process is gone.

ALTER TABLE run ADD COLUMN pid INTEGER;
