-- A select column's leads counted per landing, month, status and value, as lead_month_stats counts
-- them per department: the exact count of a tab filtered on one select column's values (`in[…]`)
-- sums these rows instead of reading the tab's leads, which lie across the whole table
-- (docs/performance.md). Only select columns with options are counted, whose values are those
-- few; a value nobody filters on costs a row per month and status.

-- The keys of a landing's select columns with options, as counting-stats.ts `countedSelect` tells them.
CREATE FUNCTION landing_select_keys(columns jsonb) RETURNS SETOF text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT c ->> 'key' FROM jsonb_array_elements(columns) c
   WHERE c ->> 'type' = 'select' AND jsonb_typeof(c -> 'options') = 'array' AND jsonb_array_length(c -> 'options') > 0
$$;

CREATE TABLE lead_select_stats (
  landing_id   integer NOT NULL REFERENCES landings (id) ON DELETE CASCADE,
  month        date NOT NULL,  -- first day of the month, Paris time (lead_month)
  entry_status text NOT NULL,
  key          text NOT NULL,
  value        text NOT NULL,
  count        integer NOT NULL,
  PRIMARY KEY (landing_id, key, entry_status, month, value)
);

INSERT INTO lead_select_stats
SELECT l.landing_id, lead_month(l.created_at), l.entry_status, k.key, l.data ->> k.key, count(*)
  FROM leads l
  JOIN (SELECT id, landing_select_keys(columns) AS key FROM landings) k ON k.id = l.landing_id
 WHERE l.data ->> k.key IS NOT NULL
 GROUP BY 1, 2, 3, 4, 5;
ANALYZE lead_select_stats;

-- One upsert for the three kinds of change, as lead_month_stats_track: +1 for new versions, -1 for
-- old ones; groups that do not move (an update that keeps the status, month and value) are
-- skipped, and so are landings being deleted (their rows go by the cascade).
CREATE FUNCTION lead_select_stats_track() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  cols constant text := 'landing_id, created_at, entry_status, data';
  rows text := CASE TG_OP
    WHEN 'INSERT' THEN format('SELECT %s, 1 AS sign FROM new_rows', cols)
    WHEN 'DELETE' THEN format('SELECT %s, -1 AS sign FROM old_rows', cols)
    ELSE format('SELECT %1$s, 1 AS sign FROM new_rows UNION ALL SELECT %1$s, -1 FROM old_rows', cols)
  END;
BEGIN
  EXECUTE format($sql$
    INSERT INTO lead_select_stats AS s
    SELECT d.landing_id, lead_month(d.created_at), d.entry_status, k.key, d.data ->> k.key, sum(d.sign)
      FROM (%s) d
      JOIN (SELECT id, landing_select_keys(columns) AS key FROM landings) k ON k.id = d.landing_id
     WHERE d.data ->> k.key IS NOT NULL
     GROUP BY 1, 2, 3, 4, 5
    HAVING sum(d.sign) <> 0
    ON CONFLICT (landing_id, key, entry_status, month, value) DO UPDATE SET count = s.count + excluded.count
  $sql$, rows);
  RETURN NULL;
END
$$;

CREATE TRIGGER leads_select_stats_insert AFTER INSERT ON leads
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lead_select_stats_track();
CREATE TRIGGER leads_select_stats_update AFTER UPDATE ON leads
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lead_select_stats_track();
CREATE TRIGGER leads_select_stats_delete AFTER DELETE ON leads
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION lead_select_stats_track();

-- The product never changes a landing's columns; should they change, its counts are taken again.
CREATE FUNCTION lead_select_stats_landing() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM lead_select_stats WHERE landing_id = NEW.id;
  INSERT INTO lead_select_stats
  SELECT l.landing_id, lead_month(l.created_at), l.entry_status, k.key, l.data ->> k.key, count(*)
    FROM leads l CROSS JOIN landing_select_keys(NEW.columns) AS k (key)
   WHERE l.landing_id = NEW.id AND l.data ->> k.key IS NOT NULL
   GROUP BY 1, 2, 3, 4, 5;
  RETURN NULL;
END
$$;

CREATE TRIGGER landings_select_stats AFTER UPDATE OF columns ON landings
  FOR EACH ROW WHEN (OLD.columns IS DISTINCT FROM NEW.columns) EXECUTE FUNCTION lead_select_stats_landing();
