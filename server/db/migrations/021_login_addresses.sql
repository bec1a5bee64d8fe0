-- Addresses that ever signed in to an account: the login throttle's per-account limit spares them,
-- so a distributed attack cannot lock the owner out. Kept apart from sessions, which logout, expiry,
-- demotion and the hourly purge delete.
CREATE TABLE login_addresses (
  user_id    integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  ip         text NOT NULL,
  first_at   timestamptz NOT NULL DEFAULT now(),
  last_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, ip)
);

INSERT INTO login_addresses (user_id, ip, first_at, last_at)
SELECT user_id, ip, min(created_at), max(created_at) FROM sessions WHERE ip IS NOT NULL GROUP BY user_id, ip
ON CONFLICT DO NOTHING;
