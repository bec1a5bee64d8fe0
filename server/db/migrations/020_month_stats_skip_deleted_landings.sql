-- Deleting a landing deletes its leads and its monthly counts (both ON DELETE CASCADE), in an order
-- PostgreSQL chooses: when the counts went first, the leads' delete trigger wrote negative counts
-- back for the deleted landing and the foreign key refused the whole deletion. Counts of a landing
-- that no longer exists are now left out.
CREATE OR REPLACE FUNCTION lead_month_stats_track() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  cols constant text := 'landing_id, created_at, entry_status, departement, zone_climatique, source';
  rows text := CASE TG_OP
    WHEN 'INSERT' THEN format('SELECT %s, 1 AS sign FROM new_rows', cols)
    WHEN 'DELETE' THEN format('SELECT %s, -1 AS sign FROM old_rows', cols)
    ELSE format('SELECT %1$s, 1 AS sign FROM new_rows UNION ALL SELECT %1$s, -1 FROM old_rows', cols)
  END;
BEGIN
  EXECUTE format($sql$
    INSERT INTO lead_month_stats AS s
    SELECT landing_id, lead_month(created_at), entry_status, departement, zone_climatique, sum(sign),
           coalesce(sum(sign) FILTER (WHERE source = 'taboola'), 0), coalesce(sum(sign) FILTER (WHERE source = 'facebook'), 0),
           coalesce(sum(sign) FILTER (WHERE source = 'google'), 0), coalesce(sum(sign) FILTER (WHERE source = 'sms'), 0),
           coalesce(sum(sign) FILTER (WHERE source = 'email'), 0), coalesce(sum(sign) FILTER (WHERE source = 'outbrain'), 0),
           coalesce(sum(sign) FILTER (WHERE source = 'internal'), 0), coalesce(sum(sign) FILTER (WHERE source = 'autre'), 0)
      FROM (%s) d
     GROUP BY 1, 2, 3, 4, 5
    HAVING (sum(sign) FILTER (WHERE source = 'taboola') <> 0 OR sum(sign) FILTER (WHERE source = 'facebook') <> 0
        OR sum(sign) FILTER (WHERE source = 'google') <> 0 OR sum(sign) FILTER (WHERE source = 'sms') <> 0
        OR sum(sign) FILTER (WHERE source = 'email') <> 0 OR sum(sign) FILTER (WHERE source = 'outbrain') <> 0
        OR sum(sign) FILTER (WHERE source = 'internal') <> 0 OR sum(sign) FILTER (WHERE source = 'autre') <> 0)
       AND EXISTS (SELECT FROM landings WHERE landings.id = d.landing_id)
    ON CONFLICT (landing_id, month, entry_status, departement, zone_climatique) DO UPDATE SET
      value = s.value + excluded.value, taboola = s.taboola + excluded.taboola, facebook = s.facebook + excluded.facebook,
      google = s.google + excluded.google, sms = s.sms + excluded.sms, email = s.email + excluded.email,
      outbrain = s.outbrain + excluded.outbrain, internal = s.internal + excluded.internal, autre = s.autre + excluded.autre
  $sql$, rows);
  RETURN NULL;
END
$$;
