-- pgbench: the single-statement compare-and-set on the client's own row of the store's table
-- (Benchmarks/postgres-benchmark.sh passes -D base=… -D v=0), as StoreBenchmark's B0 writes it.
-- The client remembers the version it wrote (\gset): a row that is not at that version returns
-- no row, which aborts the run.
\set id :base + :client_id
UPDATE toggles SET state = CASE state WHEN 'off' THEN 'on' ELSE 'off' END, sm_version = sm_version + 1
 WHERE id = :id AND sm_version = CAST(:v AS bigint) RETURNING sm_version AS v \gset
