-- pgbench: the locked transaction on the client's own row of the store's table, as
-- StoreBenchmark's B1 writes it and as the store's step runs it (Persistence §6): lock the row,
-- compare-and-set on the version it read, one history row. A history row already at that version
-- (a compare-and-set that did not write) violates sm_transitions' unique key, which aborts the run.
\set id :base + :client_id
BEGIN;
SELECT state AS s, sm_version AS v FROM toggles WHERE id = :id FOR UPDATE \gset
UPDATE toggles SET state = CASE CAST(:s AS text) WHEN 'off' THEN 'on' ELSE 'off' END, sm_version = CAST(:v AS bigint) + 1
 WHERE id = :id AND sm_version = CAST(:v AS bigint);
INSERT INTO sm_transitions (machine, entity_id, version, event, from_state, to_state, cause)
VALUES ('toggles', CAST(:id AS text), CAST(:v AS bigint) + 1, 'turn', CAST(:s AS text),
  CASE CAST(:s AS text) WHEN 'off' THEN 'on' ELSE 'off' END, 'event');
COMMIT;
