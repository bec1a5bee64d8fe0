-- What changed in what the what-if simulation replays (issue 27, docs/architecture.md 'What-if'):
-- each instance keeps the replayed leads and sales in memory and, at each simulation, applies
-- the changes committed since its copy's snapshot (services/delivery/world-cache.ts). One row per
-- writing statement, in the writer's transaction: it is visible exactly when the change is. The
-- reader picks the rows its copy's snapshot did not see (pg_visible_in_snapshot on `xid`): no
-- counter row that concurrent writers would queue on, and no id order to trust (ids are taken
-- before their transactions commit). `xid` comes first so that its default is taken before `id`.
-- `ids`: the leads (or, for 'sales', the sales) the statement touched; null: a change the copy
-- cannot follow (read everything again).
CREATE TABLE world_changes (
  xid        xid8 NOT NULL DEFAULT pg_current_xact_id(),
  id         bigserial PRIMARY KEY,
  source     text NOT NULL CHECK (source IN ('leads', 'sales', 'reread')),
  ids        bigint[],
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX world_changes_xid_idx ON world_changes (xid);

-- The largest xid the purge deleted: a copy whose snapshot did not see every xid up to it missed
-- a change and reads everything again.
CREATE TABLE world_changes_purged (
  one     boolean PRIMARY KEY DEFAULT true CHECK (one),
  through bigint NOT NULL DEFAULT 0
);
INSERT INTO world_changes_purged DEFAULT VALUES;

-- TG_ARGV: the source, then the column naming the lead (or sale) in the transition table.
CREATE FUNCTION world_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('INSERT INTO world_changes (source, ids) SELECT %L, array_agg(%I) FROM %I HAVING count(*) > 0',
                 TG_ARGV[0], TG_ARGV[1], CASE WHEN TG_OP = 'DELETE' THEN 'old_rows' ELSE 'new_rows' END);
  RETURN NULL;
END
$$;

-- A change of what the replay reads of a lead once stored (no path of the product makes one).
CREATE FUNCTION world_reread() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO world_changes (source) VALUES ('reread');
  RETURN NULL;
END
$$;

CREATE TRIGGER leads_world_insert AFTER INSERT ON leads
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION world_changed('leads', 'id');
CREATE TRIGGER leads_world_update AFTER UPDATE ON leads
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION world_changed('leads', 'id');
CREATE TRIGGER leads_world_delete AFTER DELETE ON leads
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION world_changed('leads', 'id');
CREATE TRIGGER leads_world_fields AFTER UPDATE OF landing_id, created_at, departement, data, source, utm_source, utm_medium, utm_campaign ON leads
  FOR EACH STATEMENT EXECUTE FUNCTION world_reread();

CREATE TRIGGER lead_routings_world_insert AFTER INSERT ON lead_routings
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION world_changed('leads', 'lead_id');
CREATE TRIGGER lead_routings_world_update AFTER UPDATE ON lead_routings
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION world_changed('leads', 'lead_id');
CREATE TRIGGER lead_routings_world_delete AFTER DELETE ON lead_routings
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION world_changed('leads', 'lead_id');

CREATE TRIGGER lead_sales_world_insert AFTER INSERT ON lead_sales
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION world_changed('sales', 'id');
CREATE TRIGGER lead_sales_world_update AFTER UPDATE ON lead_sales FOR EACH STATEMENT EXECUTE FUNCTION world_reread();
CREATE TRIGGER lead_sales_world_delete AFTER DELETE ON lead_sales FOR EACH STATEMENT EXECUTE FUNCTION world_reread();
