-- A lead's person (its normalised phone and email), as the duplicate check and the list's
-- `duplicate_of` look it up, in a table of its own. On `leads`, the two indexes that find a
-- person's leads took a new entry at every update of a lead (no update of leads is HOT: the
-- status is a key of leads_list_idx), and so cost every status change, sale and export nearly
-- half its time. A person is written only when its lead is inserted or deleted.
CREATE TABLE lead_persons (
  lead_id    bigint PRIMARY KEY,
  landing_id integer NOT NULL,
  created_at timestamptz NOT NULL,
  phone      text,
  email      text
);

INSERT INTO lead_persons (lead_id, landing_id, created_at, phone, email)
  SELECT id, landing_id, created_at, phone, email FROM leads WHERE phone IS NOT NULL OR email IS NOT NULL;

CREATE INDEX lead_persons_phone_idx ON lead_persons (landing_id, phone, created_at) WHERE phone IS NOT NULL;
CREATE INDEX lead_persons_email_idx ON lead_persons (landing_id, email, created_at) WHERE email IS NOT NULL;
DROP INDEX leads_phone_idx;
DROP INDEX leads_email_idx;
-- PGlite has no autovacuum: without this, a database migrated with its leads would plan the
-- duplicate check on a table it has no statistics of until the maintenance's first vacuum.
ANALYZE lead_persons;

CREATE FUNCTION lead_persons_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO lead_persons (lead_id, landing_id, created_at, phone, email)
    SELECT id, landing_id, created_at, phone, email FROM new_rows WHERE phone IS NOT NULL OR email IS NOT NULL;
  RETURN NULL;
END
$$;

CREATE FUNCTION lead_persons_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM lead_persons p USING old_rows o WHERE p.lead_id = o.id;
  RETURN NULL;
END
$$;

-- No path of the product changes these columns once a lead is stored; the row trigger keeps the
-- person right if one ever does, and is never queued by an update that sets other columns.
CREATE FUNCTION lead_persons_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM lead_persons WHERE lead_id = OLD.id;
  IF NEW.phone IS NOT NULL OR NEW.email IS NOT NULL THEN
    INSERT INTO lead_persons (lead_id, landing_id, created_at, phone, email)
      VALUES (NEW.id, NEW.landing_id, NEW.created_at, NEW.phone, NEW.email);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER leads_persons_insert AFTER INSERT ON leads
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION lead_persons_insert();
CREATE TRIGGER leads_persons_delete AFTER DELETE ON leads
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION lead_persons_delete();
CREATE TRIGGER leads_persons_update AFTER UPDATE OF id, landing_id, created_at, phone, email ON leads
  FOR EACH ROW EXECUTE FUNCTION lead_persons_update();
