-- Accounts by invitation (issue 18): an account has no password until its holder chooses one
-- through a mailed link; 'Mot de passe oublié' sends the same kind of link.
ALTER TABLE users ALTER COLUMN password_hash DROP NOT NULL;

-- Single-use links, valid 48 hours. Only the SHA-256 of the token is kept; the token itself lives
-- in the mail alone. A new link of an account replaces its previous ones.
CREATE TABLE password_links (
  token_hash  text PRIMARY KEY,
  user_id     integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  purpose     text NOT NULL CHECK (purpose IN ('invite', 'reset')),
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz
);
CREATE INDEX password_links_user_idx ON password_links (user_id, created_at);

-- Public password calls per address, for throttling: 'Mot de passe oublié' requests ('forgot') and
-- links that were refused ('bad_link'). Kept in the database so that every instance counts alike.
CREATE TABLE password_requests (
  id     bigserial PRIMARY KEY,
  kind   text NOT NULL CHECK (kind IN ('forgot', 'bad_link')),
  ip     text NOT NULL,
  at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX password_requests_ip_idx ON password_requests (ip, kind, at);
