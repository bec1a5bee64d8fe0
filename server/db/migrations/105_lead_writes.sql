-- PGlite has no autovacuum, and its statistics counters (pg_stat_user_tables) restart from zero
-- at every open: bulk writes made before a restart were never seen by the maintenance's
-- 'vacuum after N written rows', and the lead list, the statistics and the map's regions query
-- read dead rows until the nightly vacuum (the regions query of a year: 352 ms instead of 84).
-- Bulk statements count the rows they write here, where a restart keeps them; the vacuum takes
-- off what it saw. Statements of fewer than 1,000 rows (an intake, a delivery) are left to the
-- counters: on PostgreSQL they would all queue on this one row.
CREATE TABLE lead_writes (
  id          boolean PRIMARY KEY DEFAULT true CHECK (id),
  written     bigint NOT NULL DEFAULT 0,
  vacuumed_at timestamptz
);
INSERT INTO lead_writes DEFAULT VALUES;

CREATE FUNCTION lead_writes_count() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  n bigint;
BEGIN
  IF TG_OP = 'DELETE' THEN
    SELECT count(*) INTO n FROM old_rows;
  ELSE
    SELECT count(*) INTO n FROM new_rows;
  END IF;
  IF n >= 1000 THEN
    UPDATE lead_writes SET written = written + n;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER leads_writes_insert AFTER INSERT ON leads
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lead_writes_count();
CREATE TRIGGER leads_writes_update AFTER UPDATE ON leads
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lead_writes_count();
CREATE TRIGGER leads_writes_delete AFTER DELETE ON leads
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION lead_writes_count();
