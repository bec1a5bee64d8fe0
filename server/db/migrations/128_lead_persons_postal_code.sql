-- A lead's postal code beside its phone and email in lead_persons, which no status change writes:
-- a trigram index there lets a count filtered on a postal code read the matching leads only
-- (person-search.ts, search-indexes.ts), where one on `leads` cost every status change. The value
-- is the one of the landing's first postal code column, as landing_column_key names it. A person
-- row now exists for a lead that has any of the three.
--
-- Filled again from `leads` rather than updated in place: an update would leave a dead version of
-- every person and write each index twice. The indexes are built once the rows are in; the
-- search-indexes job builds its trigram indexes again at the next start. The rows go in landing
-- order: a landing's persons then fill pages of their own, and a search through them (always on
-- one landing's) reads those pages only, where the leads' order spread them over the whole table.
DROP INDEX IF EXISTS lead_persons_phone_trgm;
DROP INDEX IF EXISTS lead_persons_email_trgm;
DROP INDEX lead_persons_phone_idx;
DROP INDEX lead_persons_email_idx;
TRUNCATE lead_persons;
ALTER TABLE lead_persons ADD COLUMN postal_code text;

INSERT INTO lead_persons (lead_id, landing_id, created_at, phone, email, postal_code)
  SELECT l.id, l.landing_id, l.created_at, l.phone, l.email, l.data ->> k.postal_key
    FROM leads l JOIN (SELECT id, landing_column_key(columns, 'postal_code') AS postal_key FROM landings) k ON k.id = l.landing_id
   WHERE l.phone IS NOT NULL OR l.email IS NOT NULL OR l.data ->> k.postal_key IS NOT NULL
   ORDER BY l.landing_id, l.id;

CREATE INDEX lead_persons_phone_idx ON lead_persons (landing_id, phone, created_at) WHERE phone IS NOT NULL;
CREATE INDEX lead_persons_email_idx ON lead_persons (landing_id, email, created_at) WHERE email IS NOT NULL;
ANALYZE lead_persons;

CREATE OR REPLACE FUNCTION lead_persons_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO lead_persons (lead_id, landing_id, created_at, phone, email, postal_code)
    SELECT n.id, n.landing_id, n.created_at, n.phone, n.email, n.data ->> k.postal_key
      FROM new_rows n JOIN (SELECT id, landing_column_key(columns, 'postal_code') AS postal_key FROM landings) k ON k.id = n.landing_id
     WHERE n.phone IS NOT NULL OR n.email IS NOT NULL OR n.data ->> k.postal_key IS NOT NULL;
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION lead_persons_update() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  postal text := NEW.data ->> (SELECT landing_column_key(columns, 'postal_code') FROM landings WHERE id = NEW.landing_id);
BEGIN
  DELETE FROM lead_persons WHERE lead_id = OLD.id;
  IF NEW.phone IS NOT NULL OR NEW.email IS NOT NULL OR postal IS NOT NULL THEN
    INSERT INTO lead_persons (lead_id, landing_id, created_at, phone, email, postal_code)
      VALUES (NEW.id, NEW.landing_id, NEW.created_at, NEW.phone, NEW.email, postal);
  END IF;
  RETURN NULL;
END
$$;

DROP TRIGGER leads_persons_update ON leads;
CREATE TRIGGER leads_persons_update AFTER UPDATE OF id, landing_id, created_at, phone, email, data ON leads
  FOR EACH ROW EXECUTE FUNCTION lead_persons_update();
