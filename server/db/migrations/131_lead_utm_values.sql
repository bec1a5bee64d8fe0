-- The UTM source, medium and campaign values that each landing's leads have had: a 'contains'
-- filter on one of them that no value matches is answered without reading the tab's leads
-- (leads/filters.ts), where it read the whole tab (docs/performance.md). Values are added as leads
-- are written and never removed: the set holds every lead's value, and perhaps some that no lead
-- holds any longer, which only cost that shortcut.
CREATE TABLE lead_utm_values (
  landing_id integer NOT NULL REFERENCES landings (id) ON DELETE CASCADE,
  name       text NOT NULL,
  value      text NOT NULL
);
-- A value may be longer than a btree entry holds (intake takes 5,000 characters): its md5 is the key.
CREATE UNIQUE INDEX lead_utm_values_key ON lead_utm_values (landing_id, name, md5(value));

-- A lead's values as rows of lead_utm_values (without its landing).
CREATE FUNCTION lead_utm_pairs(utm_source text, utm_medium text, utm_campaign text) RETURNS TABLE (name text, value text)
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT v.name, v.value FROM (VALUES ('utm_source', utm_source), ('utm_medium', utm_medium), ('utm_campaign', utm_campaign)) v (name, value)
   WHERE v.value IS NOT NULL
$$;

INSERT INTO lead_utm_values
SELECT DISTINCT l.landing_id, u.name, u.value FROM leads l CROSS JOIN LATERAL lead_utm_pairs(l.utm_source, l.utm_medium, l.utm_campaign) u;
ANALYZE lead_utm_values;

CREATE FUNCTION lead_utm_values_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO lead_utm_values
  SELECT DISTINCT n.landing_id, u.name, u.value FROM new_rows n CROSS JOIN LATERAL lead_utm_pairs(n.utm_source, n.utm_medium, n.utm_campaign) u
  ON CONFLICT (landing_id, name, md5(value)) DO NOTHING;
  RETURN NULL;
END
$$;

CREATE TRIGGER leads_utm_values_insert AFTER INSERT ON leads
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lead_utm_values_insert();

-- No path of the product moves a stored lead or changes its UTM values; the set follows if one
-- ever does. Row by row: a statement trigger with a transition table cannot name its columns, and
-- would run on every status change.
CREATE FUNCTION lead_utm_values_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO lead_utm_values
  SELECT NEW.landing_id, u.name, u.value FROM lead_utm_pairs(NEW.utm_source, NEW.utm_medium, NEW.utm_campaign) u
  ON CONFLICT (landing_id, name, md5(value)) DO NOTHING;
  RETURN NULL;
END
$$;

CREATE TRIGGER leads_utm_values_update AFTER UPDATE OF landing_id, utm_source, utm_medium, utm_campaign ON leads
  FOR EACH ROW EXECUTE FUNCTION lead_utm_values_update();
