-- pgbench -M prepared: the least a correct store must send for one event with no callback, on
-- the client's own row of the store's table (Benchmarks/postgres-benchmark.sh passes -D base=…
-- -D v=0): the compare-and-set on the version the client holds, and the history row Persistence
-- P2 requires, in one statement. The client remembers the version it wrote (\gset): a row that is
-- not at that version writes nothing and returns no row, which aborts the run.
\set id :base + :client_id
WITH moved AS (
  UPDATE toggles SET state = CASE state WHEN 'off' THEN 'on' ELSE 'off' END, sm_version = sm_version + 1
   WHERE id = :id AND sm_version = CAST(:v AS bigint)
  RETURNING sm_version, state)
INSERT INTO sm_transitions (machine, entity_id, version, event, from_state, to_state, cause)
SELECT 'toggles', CAST(:id AS text), sm_version, 'turn', CASE state WHEN 'on' THEN 'off' ELSE 'on' END, state, 'event'
  FROM moved
RETURNING version AS v \gset
