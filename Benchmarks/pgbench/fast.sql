-- pgbench: the store's own fast-path statement (PostgresFastPlan.swift, makeFastPlan: `toggles`,
-- event `flip`, history on, the database's clock) on the client's own row of the store's table,
-- with the key and payload as the store binds them, prepared once per connection (-M prepared) as the
-- store prepares it. Not an application's statement: the ceiling
-- of the fast path with this statement and no client work, so that the fast path's gap to
-- pgbench's cas.sql splits into the statement's cost (this row ÷ cas) and the client's (the fast
-- path ÷ this row).
\set id :base + :client_id
WITH moved AS (
  UPDATE "toggles" SET state = m.sm_to, sm_version = old.sm_old_version + 1, sm_history = NULL
    FROM (SELECT state AS sm_old_state, sm_version AS sm_old_version FROM "toggles"
           WHERE "id" = CAST(CAST(:id AS text) AS bigint) AND NOT sm_terminated) old
    JOIN (VALUES (CAST('off' AS text), CAST('on' AS text)), (CAST('on' AS text), CAST('off' AS text))) m(sm_from, sm_to)
      ON m.sm_from = old.sm_old_state
   WHERE "id" = CAST(CAST(:id AS text) AS bigint) AND sm_version = old.sm_old_version
  RETURNING "id", state, sm_version, sm_terminated, sm_history::text, CAST("id" AS text), sm_old_state)
, history AS (
  INSERT INTO sm_transitions (machine, entity_id, version, event, from_state, to_state, cause, payload, at)
  SELECT 'toggles', CAST(:id AS text), sm_version, 'flip', sm_old_state, state, 'event', CAST(NULL AS json),
    clock_timestamp() FROM moved)
SELECT * FROM moved;
