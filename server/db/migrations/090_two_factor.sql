-- Second factors (issue 29). The TOTP secret is stored encrypted (AES-256-GCM) under a key that is
-- not in the database (server/services/two-factor/secret-box.ts): a dump alone gives no code.
-- `confirmed_at` null: enrolment begun, not confirmed by a code yet (no factor until then).
-- `last_step`: the 30 s step of the latest code accepted; a code is only taken for a later step, so
-- each code works once per account, whichever instance checks it (one conditional UPDATE).
CREATE TABLE totp_factors (
  user_id      integer PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  secret       text NOT NULL,
  confirmed_at timestamptz,
  last_step    bigint,
  created_at   timestamptz NOT NULL DEFAULT now()
);

-- Ten per confirmed TOTP, shown once: 80 random bits each, only their SHA-256 kept; spent by a
-- conditional UPDATE of `used_at`, so a code works once even when two requests race.
CREATE TABLE recovery_codes (
  id        bigserial PRIMARY KEY,
  user_id   integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  code_hash text NOT NULL,
  used_at   timestamptz,
  UNIQUE (user_id, code_hash)
);

-- WebAuthn credentials: the public key (COSE) and the signature counter; nothing secret.
CREATE TABLE passkeys (
  id            serial PRIMARY KEY,
  user_id       integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  credential_id text NOT NULL UNIQUE,
  public_key    bytea NOT NULL,
  counter       bigint NOT NULL DEFAULT 0,
  transports    text[] NOT NULL DEFAULT '{}',
  name          text NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  last_used_at  timestamptz
);
CREATE INDEX passkeys_user_idx ON passkeys (user_id);

-- Challenges handed out for a passkey registration (user_id set) or sign-in (user_id null): kept
-- in the database so that any instance can check the answer; single use, five minutes.
CREATE TABLE webauthn_challenges (
  challenge  text PRIMARY KEY,
  user_id    integer REFERENCES users (id) ON DELETE CASCADE,
  purpose    text NOT NULL CHECK (purpose IN ('register', 'sign_in')),
  expires_at timestamptz NOT NULL
);
