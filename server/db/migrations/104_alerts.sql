-- Alerts (issue 26): what every admin must hear about, written in the transaction of its cause
-- (an alert exists iff its cause committed). `params` holds the ids of its subject, by kind
-- (server/services/alerts/raise.ts); no foreign key: an alert outlives a deleted subject.
CREATE TABLE alerts (
  id         bigserial PRIMARY KEY,
  kind       text NOT NULL CHECK (kind IN ('webhook_paused', 'cap_reached', 'budget_reached', 'return_rate_exceeded', 'export_failed')),
  params     jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  -- The mail that carried it (null: not mailed yet): each alert goes out in one digest.
  mailed_at  timestamptz
);
CREATE INDEX alerts_created_idx ON alerts (created_at DESC, id DESC);
CREATE INDEX alerts_unmailed_idx ON alerts (kind, id) WHERE mailed_at IS NULL;

-- Each admin's read state: a row per alert the admin has read.
CREATE TABLE alert_reads (
  alert_id bigint NOT NULL REFERENCES alerts (id) ON DELETE CASCADE,
  user_id  integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  read_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, alert_id)
);

-- The last digest mailed per kind: one conditional update claims the next (at most one an hour),
-- so that several instances never send the same digest twice.
CREATE TABLE alert_digests (
  kind    text PRIMARY KEY,
  sent_at timestamptz NOT NULL
);

-- A customer's webhook: failed attempts in a row (any delivery; a success resets it) and, past
-- 10, paused: its deliveries wait in webhook_held until an admin resumes it.
ALTER TABLE customers
  ADD COLUMN webhook_failures  integer NOT NULL DEFAULT 0,
  ADD COLUMN webhook_paused_at timestamptz,
  -- The instance sending the held deliveries, in order, one at a time (a lease: a dead one's lapses).
  ADD COLUMN webhook_drain_at  timestamptz;

-- The webhook deliveries kept while the customer's webhook is paused (or while earlier ones are
-- still being sent after a resume), sent in the order they were first tried (`queued_at`).
CREATE TABLE webhook_held (
  lead_id     bigint NOT NULL REFERENCES leads (id) ON DELETE CASCADE,
  report_id   integer NOT NULL REFERENCES reports (id) ON DELETE CASCADE,
  customer_id integer NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
  queued_at   timestamptz NOT NULL,
  PRIMARY KEY (lead_id, report_id)
);
CREATE INDEX webhook_held_order_idx ON webhook_held (customer_id, queued_at, lead_id);
