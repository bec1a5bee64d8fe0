-- Core schema: accounts, sessions, landings, leads, customers, rules, reports, exports, notes, audit.

CREATE TABLE users (
  id            serial PRIMARY KEY,
  email         text NOT NULL,
  name          text NOT NULL,
  password_hash text NOT NULL,
  admin         boolean NOT NULL DEFAULT false,
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));

-- Opaque bearer tokens, stored as SHA-256 hashes; the token itself is never kept.
CREATE TABLE sessions (
  token_hash  text PRIMARY KEY,
  user_id     integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  ip          text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL
);
CREATE INDEX sessions_user_idx ON sessions (user_id);
CREATE INDEX sessions_expires_idx ON sessions (expires_at);

-- Failed sign-ins, for throttling per account, per address and per pair.
CREATE TABLE auth_failures (
  id      bigserial PRIMARY KEY,
  email   text NOT NULL,
  ip      text NOT NULL,
  at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX auth_failures_email_idx ON auth_failures (email, at);
CREATE INDEX auth_failures_ip_idx ON auth_failures (ip, at);

CREATE TABLE landings (
  id              serial PRIMARY KEY,
  key             text NOT NULL UNIQUE,          -- public intake key: POST /api/intake/{key}
  name            text NOT NULL,
  kind            text NOT NULL DEFAULT 'standard' CHECK (kind IN ('standard', 'facebook')),
  category        text NOT NULL DEFAULT 'other' CHECK (category IN ('pac', 'pv', 'other')),
  zone_climatique boolean NOT NULL DEFAULT false,
  -- Per-landing form columns: [{ key, label, type, required }]
  columns         jsonb NOT NULL DEFAULT '[]',
  created_at      timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE customers (
  id         serial PRIMARY KEY,
  name       text NOT NULL,
  email      text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX customers_email_key ON customers (lower(email));

CREATE TABLE rules (
  id           serial PRIMARY KEY,
  name         text NOT NULL,
  customer_id  integer NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
  landing_ids  integer[] NOT NULL DEFAULT '{}',
  zip          text[] NOT NULL DEFAULT '{}',     -- empty: every postal code
  hour_start   text NOT NULL DEFAULT '00:00',
  hour_end     text NOT NULL DEFAULT '23:59',
  leads_number integer NOT NULL DEFAULT 20 CHECK (leads_number BETWEEN 1 AND 10000),
  monday       boolean NOT NULL DEFAULT false,
  tuesday      boolean NOT NULL DEFAULT false,
  wednesday    boolean NOT NULL DEFAULT false,
  thursday     boolean NOT NULL DEFAULT false,
  friday       boolean NOT NULL DEFAULT false,
  saturday     boolean NOT NULL DEFAULT false,
  sunday       boolean NOT NULL DEFAULT false,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX rules_customer_idx ON rules (customer_id);

CREATE TABLE exports (
  id           serial PRIMARY KEY,
  token        text NOT NULL UNIQUE,             -- download capability: /api/exports/{token}/{filename}
  landing_ids  integer[] NOT NULL DEFAULT '{}',
  user_id      integer REFERENCES users (id) ON DELETE SET NULL,
  filename     text NOT NULL,
  book_type    text NOT NULL CHECK (book_type IN ('xlsx', 'csv', 'pdf', 'txt')),
  count        integer NOT NULL DEFAULT 0,
  for_customer text,
  big_export   boolean NOT NULL DEFAULT false,
  state        text NOT NULL DEFAULT 'ready' CHECK (state IN ('pending', 'ready', 'failed')),
  storage_key  text,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX exports_created_idx ON exports (created_at DESC);
CREATE INDEX exports_user_idx ON exports (user_id);

CREATE TABLE reports (
  id           serial PRIMARY KEY,
  rule_id      integer NOT NULL REFERENCES rules (id) ON DELETE CASCADE,
  date         date NOT NULL,
  leads_number integer NOT NULL,
  count        integer NOT NULL DEFAULT 0,
  zip          text[] NOT NULL DEFAULT '{}',
  export_id    integer REFERENCES exports (id) ON DELETE SET NULL,
  UNIQUE (rule_id, date)
);

CREATE TABLE leads (
  id              bigserial PRIMARY KEY,
  landing_id      integer NOT NULL REFERENCES landings (id) ON DELETE CASCADE,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  utm_source      text,
  utm_medium      text,
  utm_campaign    text,
  source          text NOT NULL DEFAULT 'autre'
                  CHECK (source IN ('taboola', 'facebook', 'google', 'sms', 'email', 'outbrain', 'internal', 'autre')),
  url_presale     text,
  visitor         text,
  convert         bigint REFERENCES leads (id) ON DELETE SET NULL,  -- the copy made by a conversion
  entry_status    text NOT NULL DEFAULT 'new'
                  CHECK (entry_status IN ('new', 'extracted', 'archived', 'trashed', 'converted', 'duplicate')),
  rapport_id      integer REFERENCES reports (id) ON DELETE SET NULL,
  sold_to         text,
  export_id       integer REFERENCES exports (id) ON DELETE SET NULL,
  -- Derived from the form data at intake or import, for statistics and duplicate detection.
  departement     text NOT NULL DEFAULT '',
  zone_climatique text NOT NULL DEFAULT '',
  phone           text,
  email           text,
  data            jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX leads_list_idx ON leads (landing_id, entry_status, created_at DESC, id DESC);
CREATE INDEX leads_stats_idx ON leads (landing_id, created_at) INCLUDE (entry_status, departement, zone_climatique, source);
CREATE INDEX leads_phone_idx ON leads (landing_id, phone, created_at) WHERE phone IS NOT NULL;
CREATE INDEX leads_email_idx ON leads (landing_id, email, created_at) WHERE email IS NOT NULL;
CREATE INDEX leads_export_idx ON leads (export_id) WHERE export_id IS NOT NULL;
CREATE INDEX leads_rapport_idx ON leads (rapport_id) WHERE rapport_id IS NOT NULL;

-- Department notes ("Tips") and colours of the production map, per category.
CREATE TABLE department_notes (
  category    text NOT NULL CHECK (category IN ('pac', 'pv', 'other')),
  departement text NOT NULL,
  text        text NOT NULL DEFAULT '',
  color       text,
  updated_by  integer REFERENCES users (id) ON DELETE SET NULL,
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (category, departement)
);

-- Who did what, when and to how many: never the personal data itself.
CREATE TABLE audit_log (
  id         bigserial PRIMARY KEY,
  at         timestamptz NOT NULL DEFAULT now(),
  user_id    integer REFERENCES users (id) ON DELETE SET NULL,
  action     text NOT NULL,
  entity     text NOT NULL,
  count      integer NOT NULL DEFAULT 0,
  details    jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX audit_log_at_idx ON audit_log (at DESC);
