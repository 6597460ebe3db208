-- Scenarios whose files are gone (issue 17). `kbharness import --prune` and `kbharness scenarios remove KEY`
-- remove a scenario while the results of past runs that ran it stay readable: its row stays, with
-- `removed_at` set, and is left out of the library every run reads and of `kbharness scenarios`; its
-- expected values and reference snapshots are superseded at the same time. Importing the key again brings
-- the scenario back (`removed_at` NULL), with the values of its file.
ALTER TABLE scenario ADD COLUMN removed_at TEXT;
