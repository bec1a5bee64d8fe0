-- The outbox of live events (issue 28, docs/architecture.md 'Live events'): each written in the
-- transaction of its change. `xid` comes first so that its default, pg_current_xact_id(), is
-- evaluated before `id`'s nextval (an INSERT computes its columns in table order): a transaction
-- holds an xid before it holds an event id, which is what lets readers never skip an id whose
-- transaction commits late (services/events/outbox.ts).
CREATE TABLE events (
  xid        xid8 NOT NULL DEFAULT pg_current_xact_id(),
  id         bigserial PRIMARY KEY,
  type       text NOT NULL,
  -- Who may see it: every signed-in user, the admins, or its user (export.ready) and the admins.
  audience   text NOT NULL CHECK (audience IN ('all', 'admins', 'user')),
  user_id    integer,
  -- A presence event's place: only the streams at that place receive it.
  place      text,
  data       jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX events_created_at_idx ON events (created_at);

-- The largest id the purge deleted: a stream resuming before it missed events (a 'reload').
CREATE TABLE events_purged (
  one     boolean PRIMARY KEY DEFAULT true CHECK (one),
  through bigint NOT NULL DEFAULT 0
);
INSERT INTO events_purged DEFAULT VALUES;

-- Who is where: one row per open stream that named a place, refreshed by its heartbeat; a row
-- past its expiry (its server died) is swept and its place told.
CREATE TABLE presence (
  stream     uuid PRIMARY KEY,
  user_id    integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  place      text NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX presence_place_idx ON presence (place);
