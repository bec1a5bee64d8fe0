-- Live delivery (the 'Lives'): customers and rules can be paused, customers receive a signed
-- webhook, rules are deleted softly (their reports and the routing explanations keep naming
-- them), reports double as the per-rule per-Paris-day counters (UNIQUE (rule_id, date)).

ALTER TABLE customers
  ADD COLUMN active         boolean NOT NULL DEFAULT true,
  ADD COLUMN webhook_url    text,
  ADD COLUMN webhook_secret text;

ALTER TABLE rules
  ADD COLUMN active     boolean NOT NULL DEFAULT true,
  ADD COLUMN deleted_at timestamptz,
  ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now();

-- The tie-break among equally filled rules: the one whose last delivery of the day is oldest.
ALTER TABLE reports
  ADD COLUMN last_delivery_at timestamptz,
  ADD COLUMN created_at       timestamptz NOT NULL DEFAULT now();
CREATE INDEX reports_date_idx ON reports (date);

-- The engine's candidate index: one row per (landing, zip key, rule) of every rule not deleted;
-- zip_key '' = everywhere, 5 digits = a postal code, else a department ('30', '2A', '971').
-- A lead looks up (its landing, '' | its postal code | its department): the cost follows the
-- rules that could take it, not how many rules exist. Kept by the trigger below.
CREATE TABLE rule_targets (
  landing_id integer NOT NULL,
  zip_key    text NOT NULL,
  rule_id    integer NOT NULL REFERENCES rules (id) ON DELETE CASCADE,
  PRIMARY KEY (landing_id, zip_key, rule_id)
);
CREATE INDEX rule_targets_rule_idx ON rule_targets (rule_id);

CREATE FUNCTION rules_sync_targets() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM rule_targets WHERE rule_id = NEW.id;
  IF NEW.deleted_at IS NULL THEN
    INSERT INTO rule_targets (landing_id, zip_key, rule_id)
    SELECT DISTINCT l, z, NEW.id
      FROM unnest(NEW.landing_ids) AS l,
           unnest(CASE WHEN cardinality(NEW.zip) = 0 THEN ARRAY[''] ELSE NEW.zip END) AS z;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER rules_targets AFTER INSERT OR UPDATE OF landing_ids, zip, deleted_at ON rules
  FOR EACH ROW EXECUTE FUNCTION rules_sync_targets();
INSERT INTO rule_targets (landing_id, zip_key, rule_id)
SELECT DISTINCT l, z, r.id FROM rules r, unnest(r.landing_ids) AS l,
       unnest(CASE WHEN cardinality(r.zip) = 0 THEN ARRAY[''] ELSE r.zip END) AS z;

-- Each offered lead's routing decision: every rule of its landing that could take it by postal
-- code, in the order tried, with why it was passed over (GET /api/landings/data/:id/routing/:leadId).
CREATE TABLE lead_routings (
  lead_id    bigint PRIMARY KEY REFERENCES leads (id) ON DELETE CASCADE,
  landing_id integer NOT NULL,
  outcome    text NOT NULL CHECK (outcome IN ('delivered', 'unmatched', 'expired', 'not_new')),
  rule_id    integer REFERENCES rules (id) ON DELETE SET NULL,
  report_id  integer REFERENCES reports (id) ON DELETE SET NULL,
  paris_time text NOT NULL,
  considered jsonb NOT NULL DEFAULT '[]',
  decided_at timestamptz NOT NULL DEFAULT now()
);

-- Every delivery attempt (mail, webhook) of a delivered lead.
CREATE TABLE deliveries (
  id          bigserial PRIMARY KEY,
  lead_id     bigint NOT NULL REFERENCES leads (id) ON DELETE CASCADE,
  report_id   integer NOT NULL REFERENCES reports (id) ON DELETE CASCADE,
  channel     text NOT NULL CHECK (channel IN ('mail', 'webhook')),
  attempt     integer NOT NULL,
  status      text NOT NULL CHECK (status IN ('sent', 'failed')),
  target      text NOT NULL,
  http_status integer,
  error       text,
  will_retry  boolean NOT NULL DEFAULT false,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX deliveries_report_idx ON deliveries (report_id, created_at DESC);
CREATE INDEX deliveries_lead_idx ON deliveries (lead_id);
-- A lead is sent once per report and channel: a retried or repeated job finds it sent.
CREATE UNIQUE INDEX deliveries_sent_once ON deliveries (lead_id, report_id, channel) WHERE status = 'sent';
