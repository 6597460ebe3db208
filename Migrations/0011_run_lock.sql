-- How the liveness of a 'running' run is known. A run whose `locked` is 1 was started by a kbharness that
-- holds an exclusive fcntl lock on byte `id` of the file `<database>.run-lock` beside the database for the
-- run's whole life; the kernel drops the lock when that process ends, however it ends. Another command
-- marks such a run 'aborted' only once it can take that lock itself, which no pid or host name can fool
-- (a process in another PID namespace, a reused pid, a pid of 0 or -1).
--
-- Runs from before this migration (NULL) are judged by host and pid as before: aborted when this host
-- has no process with that pid.

ALTER TABLE run ADD COLUMN locked INTEGER CHECK (locked IN (0, 1));
