-- Keys the servers share through the database. 'cursor' signs the lead list's page cursors
-- (server/services/leads/cursor.ts): 244 random bits from two version-4 UUIDs, drawn once.
CREATE TABLE server_keys (
  name text PRIMARY KEY,
  key bytea NOT NULL
);
INSERT INTO server_keys (name, key)
VALUES ('cursor', decode(replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''), 'hex'));
