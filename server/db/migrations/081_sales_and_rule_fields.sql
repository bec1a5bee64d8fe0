-- Sales as their own records: a lead can be sold more than once (shared leads, re-injection,
-- returns), so a sale is a row, not a column of the lead. leads.sold_to and leads.rapport_id stay
-- as the lead's latest sale, for the lead screens and the API's shapes.
CREATE TABLE lead_sales (
  id          bigserial PRIMARY KEY,
  lead_id     bigint NOT NULL REFERENCES leads (id) ON DELETE CASCADE,
  customer_id integer NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
  rule_id     integer REFERENCES rules (id) ON DELETE SET NULL,
  report_id   integer REFERENCES reports (id) ON DELETE SET NULL,
  export_id   integer REFERENCES exports (id) ON DELETE SET NULL,
  channel     text NOT NULL CHECK (channel IN ('live', 'export')),
  price_cents integer NOT NULL DEFAULT 0 CHECK (price_cents >= 0),
  -- The person, for the customer's dedupe window: the phone's digits, the email lower-cased.
  phone       text,
  email       text,
  sold_at     timestamptz NOT NULL DEFAULT now(),
  returned_at timestamptz
);
CREATE INDEX lead_sales_lead_idx ON lead_sales (lead_id, sold_at);
CREATE INDEX lead_sales_rule_idx ON lead_sales (rule_id, sold_at) WHERE rule_id IS NOT NULL;
CREATE INDEX lead_sales_report_idx ON lead_sales (report_id) WHERE report_id IS NOT NULL;
CREATE INDEX lead_sales_export_idx ON lead_sales (export_id) WHERE export_id IS NOT NULL;
CREATE INDEX lead_sales_customer_phone_idx ON lead_sales (customer_id, phone, sold_at) WHERE phone IS NOT NULL;
CREATE INDEX lead_sales_customer_email_idx ON lead_sales (customer_id, email, sold_at) WHERE email IS NOT NULL;

-- The rule fields a lead business sells on; each default reproduces the rule of before:
-- no cap beyond the day's, priority 5 for all, a null weight orders by the daily cap (least
-- filled first), no filter, exclusive.
ALTER TABLE rules
  ADD COLUMN cap_hour  integer CHECK (cap_hour BETWEEN 1 AND 1000000),
  ADD COLUMN cap_week  integer CHECK (cap_week BETWEEN 1 AND 1000000),
  ADD COLUMN cap_month integer CHECK (cap_month BETWEEN 1 AND 1000000),
  ADD COLUMN priority  smallint NOT NULL DEFAULT 5 CHECK (priority BETWEEN 1 AND 9),
  ADD COLUMN weight    integer CHECK (weight BETWEEN 1 AND 10000),
  ADD COLUMN filters   jsonb NOT NULL DEFAULT '[]',
  ADD COLUMN exclusive boolean NOT NULL DEFAULT true;

-- How many customers may buy one lead of the landing through non-exclusive rules.
ALTER TABLE landings ADD COLUMN max_buyers smallint NOT NULL DEFAULT 1 CHECK (max_buyers BETWEEN 1 AND 5);

-- A customer never receives a person it bought within that many days (0: no dedupe).
ALTER TABLE customers ADD COLUMN dedupe_days smallint NOT NULL DEFAULT 30 CHECK (dedupe_days BETWEEN 0 AND 365);
