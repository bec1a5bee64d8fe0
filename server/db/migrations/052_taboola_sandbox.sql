-- The Taboola sandbox (issue 18): without Backstage credentials, accounts, campaigns and their
-- postal-code targeting live here (seeded with demo data), behind the same provider interface.
CREATE TABLE taboola_accounts (
  id          serial PRIMARY KEY,
  account_id  text NOT NULL UNIQUE,
  name        text NOT NULL
);

CREATE TABLE taboola_campaigns (
  id              serial PRIMARY KEY,
  account_id      text NOT NULL REFERENCES taboola_accounts (account_id) ON DELETE CASCADE,
  name            text NOT NULL,
  targeting_type  text NOT NULL DEFAULT 'ALL' CHECK (targeting_type IN ('ALL', 'INCLUDE', 'EXCLUDE')),
  postal_codes    text[] NOT NULL DEFAULT '{}',
  updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX taboola_campaigns_account_idx ON taboola_campaigns (account_id, id);
