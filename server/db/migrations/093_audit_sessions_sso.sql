-- Issue 29: the audit log says from which address; sessions can be listed and ended one by one;
-- single sign-on keeps its flows and one-time codes in the database (any instance answers).

ALTER TABLE audit_log ADD COLUMN ip text;
-- Newest first, then by id: the order of the audit screen and of its keyset pages.
CREATE INDEX audit_log_at_id_idx ON audit_log (at DESC, id DESC);
DROP INDEX audit_log_at_idx;
CREATE INDEX audit_log_user_at_idx ON audit_log (user_id, at DESC);

-- `id` names a session to its owner (listing, ending it): a number that grants nothing, never the token.
ALTER TABLE sessions ADD COLUMN id bigserial;
ALTER TABLE sessions ADD CONSTRAINT sessions_id_key UNIQUE (id);
ALTER TABLE sessions ADD COLUMN user_agent text NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN method text NOT NULL DEFAULT 'password' CHECK (method IN ('password', 'sso', 'passkey'));
ALTER TABLE sessions ADD COLUMN last_used_at timestamptz NOT NULL DEFAULT now();

-- A sign-in started at the identity provider: keyed by the hash of the browser's cookie, so the
-- callback is only accepted from the browser that started it.
CREATE TABLE oidc_flows (
  browser_hash   text PRIMARY KEY,
  state          text NOT NULL,
  nonce          text NOT NULL,
  code_verifier  text NOT NULL,
  expires_at     timestamptz NOT NULL
);

-- The one-time code the callback hands to the sign-in page (hashed, 60 seconds, used once).
CREATE TABLE sso_codes (
  code_hash   text PRIMARY KEY,
  user_id     integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  user_agent  text NOT NULL DEFAULT '',
  expires_at  timestamptz NOT NULL
);

-- The audit screen filters by action and entity, and lists the values of each (a skip scan of these).
CREATE INDEX audit_log_action_at_idx ON audit_log (action, at DESC);
CREATE INDEX audit_log_entity_at_idx ON audit_log (entity, at DESC);
