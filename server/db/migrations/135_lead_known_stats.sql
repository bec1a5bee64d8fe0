-- lead_select_stats also counts the leads' UTM source, medium and campaign and their presale page,
-- the values lead_known_values holds (migrations 131, 133): the exact count of a tab filtered on one
-- of them (a value or a 'contains') sums these rows instead of reading the tab's leads from the
-- table, as for a select column (docs/performance.md). Leads hold few of these values a month.
-- One function writes the statement that adds the counted values of any set of leads, so that the
-- fill below, the leads' triggers and a landing's new columns count alike (a trigger runs it
-- itself: its transition tables are not seen from a function it calls).

-- A campaign or a page may be longer than an index entry holds: rows are told apart by the value's
-- md5, as in lead_known_values.
ALTER TABLE lead_select_stats DROP CONSTRAINT lead_select_stats_pkey;
CREATE UNIQUE INDEX lead_select_stats_key ON lead_select_stats (landing_id, key, entry_status, month, md5(value));

-- The select columns that are counted: a form column named as one of the leads' own is never read.
CREATE OR REPLACE FUNCTION landing_select_keys(columns jsonb) RETURNS SETOF text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT c ->> 'key' FROM jsonb_array_elements(columns) c
   WHERE c ->> 'type' = 'select' AND jsonb_typeof(c -> 'options') = 'array' AND jsonb_array_length(c -> 'options') > 0
     AND c ->> 'key' NOT IN ('utm_source', 'utm_medium', 'utm_campaign', 'url_presale')
$$;

-- The statement adding to lead_select_stats the counted values of `rows` (landing_id, created_at,
-- entry_status, data, the four known columns and `sign`, +1 or -1), those of landings still there.
-- The known columns are grouped before they are turned into rows: a status change's leads share
-- few of their values, so the trigger turns some thousands of groups into rows, not four rows a
-- lead (docs/performance.md).
CREATE FUNCTION lead_select_stats_insert_sql(rows text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT format($sql$
    INSERT INTO lead_select_stats AS s
    SELECT c.landing_id, c.month, c.entry_status, c.key, c.value, sum(c.n)
      FROM (SELECT d.landing_id, lead_month(d.created_at) AS month, d.entry_status, k.key, d.data ->> k.key AS value, d.sign AS n
              FROM (%1$s) d
              JOIN (SELECT id, landing_select_keys(columns) AS key FROM landings) k ON k.id = d.landing_id
             UNION ALL
            SELECT g.landing_id, g.month, g.entry_status, v.key, v.value, g.n
              FROM (SELECT d.landing_id, lead_month(d.created_at) AS month, d.entry_status, d.utm_source, d.utm_medium, d.utm_campaign, d.url_presale,
                           sum(d.sign) AS n
                      FROM (%1$s) d
                     WHERE d.landing_id IN (SELECT id FROM landings)
                     GROUP BY 1, 2, 3, 4, 5, 6, 7) g
             CROSS JOIN LATERAL (VALUES ('utm_source', g.utm_source), ('utm_medium', g.utm_medium), ('utm_campaign', g.utm_campaign), ('url_presale', g.url_presale)) v (key, value)
           ) c
     WHERE c.value IS NOT NULL
     GROUP BY 1, 2, 3, 4, 5
    HAVING sum(c.n) <> 0
    ON CONFLICT (landing_id, key, entry_status, month, md5(value)) DO UPDATE SET count = s.count + excluded.count
  $sql$, rows)
$$;

-- As before: +1 for new versions, -1 for old ones; groups that do not move are skipped.
CREATE OR REPLACE FUNCTION lead_select_stats_track() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  cols constant text := 'landing_id, created_at, entry_status, data, utm_source, utm_medium, utm_campaign, url_presale';
BEGIN
  EXECUTE lead_select_stats_insert_sql(CASE TG_OP
    WHEN 'INSERT' THEN format('SELECT %s, 1 AS sign FROM new_rows', cols)
    WHEN 'DELETE' THEN format('SELECT %s, -1 AS sign FROM old_rows', cols)
    ELSE format('SELECT %1$s, 1 AS sign FROM new_rows UNION ALL SELECT %1$s, -1 FROM old_rows', cols)
  END);
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION lead_select_stats_landing() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM lead_select_stats WHERE landing_id = NEW.id;
  EXECUTE lead_select_stats_insert_sql(format('SELECT *, 1 AS sign FROM leads WHERE landing_id = %s', NEW.id));
  RETURN NULL;
END
$$;

DELETE FROM lead_select_stats;
DO $$ BEGIN EXECUTE lead_select_stats_insert_sql('SELECT *, 1 AS sign FROM leads'); END $$;
ANALYZE lead_select_stats;
