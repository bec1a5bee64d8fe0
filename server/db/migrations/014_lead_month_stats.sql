-- Department statistics over long ranges read these monthly counts for the whole months of the
-- range and the leads themselves only for the days at its two ends: a year is ~40,000 summary
-- rows instead of every lead. Triggers keep the counts exact through every write path (intake,
-- import, status changes, exports, conversion, deletion, a landing's cascade).
CREATE TABLE lead_month_stats (
  landing_id      integer NOT NULL REFERENCES landings (id) ON DELETE CASCADE,
  month           date NOT NULL,  -- first day of the month, Paris time
  entry_status    text NOT NULL,
  departement     text NOT NULL,
  zone_climatique text NOT NULL,
  value           integer NOT NULL,
  taboola         integer NOT NULL,
  facebook        integer NOT NULL,
  google          integer NOT NULL,
  sms             integer NOT NULL,
  email           integer NOT NULL,
  outbrain        integer NOT NULL,
  internal        integer NOT NULL,
  autre           integer NOT NULL,
  PRIMARY KEY (landing_id, month, entry_status, departement, zone_climatique)
);

CREATE FUNCTION lead_month(at timestamptz) RETURNS date
  LANGUAGE sql STABLE PARALLEL SAFE  -- time zone rules may change: not IMMUTABLE
  RETURN date_trunc('month', at AT TIME ZONE 'Europe/Paris')::date;

-- One upsert for the three kinds of change: `rows` yields the changed leads with +1 (new
-- versions) or -1 (old versions); groups whose counts do not move are skipped.
CREATE FUNCTION lead_month_stats_track() RETURNS trigger LANGUAGE plpgsql AS $$
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
    HAVING sum(sign) FILTER (WHERE source = 'taboola') <> 0 OR sum(sign) FILTER (WHERE source = 'facebook') <> 0
        OR sum(sign) FILTER (WHERE source = 'google') <> 0 OR sum(sign) FILTER (WHERE source = 'sms') <> 0
        OR sum(sign) FILTER (WHERE source = 'email') <> 0 OR sum(sign) FILTER (WHERE source = 'outbrain') <> 0
        OR sum(sign) FILTER (WHERE source = 'internal') <> 0 OR sum(sign) FILTER (WHERE source = 'autre') <> 0
    ON CONFLICT (landing_id, month, entry_status, departement, zone_climatique) DO UPDATE SET
      value = s.value + excluded.value, taboola = s.taboola + excluded.taboola, facebook = s.facebook + excluded.facebook,
      google = s.google + excluded.google, sms = s.sms + excluded.sms, email = s.email + excluded.email,
      outbrain = s.outbrain + excluded.outbrain, internal = s.internal + excluded.internal, autre = s.autre + excluded.autre
  $sql$, rows);
  RETURN NULL;
END
$$;

CREATE TRIGGER leads_month_stats_insert AFTER INSERT ON leads
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lead_month_stats_track();
CREATE TRIGGER leads_month_stats_update AFTER UPDATE ON leads
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lead_month_stats_track();
CREATE TRIGGER leads_month_stats_delete AFTER DELETE ON leads
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION lead_month_stats_track();

INSERT INTO lead_month_stats
SELECT landing_id, lead_month(created_at), entry_status, departement, zone_climatique, count(*),
       count(*) FILTER (WHERE source = 'taboola'), count(*) FILTER (WHERE source = 'facebook'),
       count(*) FILTER (WHERE source = 'google'), count(*) FILTER (WHERE source = 'sms'),
       count(*) FILTER (WHERE source = 'email'), count(*) FILTER (WHERE source = 'outbrain'),
       count(*) FILTER (WHERE source = 'internal'), count(*) FILTER (WHERE source = 'autre')
  FROM leads
 GROUP BY 1, 2, 3, 4, 5;
