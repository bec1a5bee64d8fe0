-- The presale page joins the UTM values in each landing's set of known values (migration 131),
-- renamed for what it now holds: a 'contains' filter on the presale page that no value matches is
-- answered without reading the tab's leads, where it read the whole tab (docs/performance.md).
-- Leads hold a few hundred presale pages, against a visitor id each.
ALTER TABLE lead_utm_values RENAME TO lead_known_values;
ALTER INDEX lead_utm_values_key RENAME TO lead_known_values_key;
DROP TRIGGER leads_utm_values_insert ON leads;
DROP TRIGGER leads_utm_values_update ON leads;
DROP FUNCTION lead_utm_values_insert();
DROP FUNCTION lead_utm_values_update();
DROP FUNCTION lead_utm_pairs(text, text, text);

-- A lead's values as rows of lead_known_values (without its landing).
CREATE FUNCTION lead_known_pairs(utm_source text, utm_medium text, utm_campaign text, url_presale text) RETURNS TABLE (name text, value text)
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT v.name, v.value
    FROM (VALUES ('utm_source', utm_source), ('utm_medium', utm_medium), ('utm_campaign', utm_campaign), ('url_presale', url_presale)) v (name, value)
   WHERE v.value IS NOT NULL
$$;

INSERT INTO lead_known_values
SELECT DISTINCT landing_id, 'url_presale', url_presale FROM leads WHERE url_presale IS NOT NULL
ON CONFLICT (landing_id, name, md5(value)) DO NOTHING;
ANALYZE lead_known_values;

CREATE FUNCTION lead_known_values_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO lead_known_values
  SELECT DISTINCT n.landing_id, u.name, u.value FROM new_rows n CROSS JOIN LATERAL lead_known_pairs(n.utm_source, n.utm_medium, n.utm_campaign, n.url_presale) u
  ON CONFLICT (landing_id, name, md5(value)) DO NOTHING;
  RETURN NULL;
END
$$;

CREATE TRIGGER leads_known_values_insert AFTER INSERT ON leads
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lead_known_values_insert();

-- No path of the product moves a stored lead or changes these values; the set follows if one ever
-- does. Row by row: a statement trigger with a transition table cannot name its columns, and would
-- run on every status change.
CREATE FUNCTION lead_known_values_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO lead_known_values
  SELECT NEW.landing_id, u.name, u.value FROM lead_known_pairs(NEW.utm_source, NEW.utm_medium, NEW.utm_campaign, NEW.url_presale) u
  ON CONFLICT (landing_id, name, md5(value)) DO NOTHING;
  RETURN NULL;
END
$$;

CREATE TRIGGER leads_known_values_update AFTER UPDATE OF landing_id, utm_source, utm_medium, utm_campaign, url_presale ON leads
  FOR EACH ROW EXECUTE FUNCTION lead_known_values_update();
