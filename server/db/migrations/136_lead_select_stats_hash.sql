-- The statement of migration 135 joined the moved leads to their landings' select keys, a set the
-- planner takes for a thousand rows a landing, and chose to sort the leads by landing to merge
-- them: for a status change of 100,000 leads, the 200,000 old and new rows sorted, about half of
-- the trigger's time. Each landing's keys are now one array, joined by hash and unnested per lead
-- (docs/performance.md). The counts written are the same.
CREATE OR REPLACE FUNCTION lead_select_stats_insert_sql(rows text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT format($sql$
    INSERT INTO lead_select_stats AS s
    SELECT c.landing_id, c.month, c.entry_status, c.key, c.value, sum(c.n)
      FROM (SELECT d.landing_id, lead_month(d.created_at) AS month, d.entry_status, key, d.data ->> key AS value, d.sign AS n
              FROM (%1$s) d
              JOIN (SELECT id, ARRAY(SELECT landing_select_keys(columns)) AS keys FROM landings) k ON k.id = d.landing_id
             CROSS JOIN LATERAL unnest(k.keys) key
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
