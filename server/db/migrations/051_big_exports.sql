-- Custom exports ('Générer un export personnalisé', issue 18): a background job writes the file of
-- every lead of some landings, statuses and days without changing any status, then records it
-- in exports with big_export = true. The row says how far it got (the progress bar).
CREATE TABLE big_exports (
  id          serial PRIMARY KEY,
  user_id     integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  landing_ids integer[] NOT NULL,
  statuses    text[] NOT NULL,
  start_day   date NOT NULL,
  end_day     date NOT NULL,
  book_type   text NOT NULL CHECK (book_type IN ('csv', 'xlsx', 'txt')),
  state       text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'done', 'failed')),
  total       integer,
  written     integer NOT NULL DEFAULT 0,
  export_id   integer REFERENCES exports (id) ON DELETE SET NULL,
  error       text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  -- Moved on by the running job; a job whose heartbeat stopped (its server died) is given up.
  heartbeat   timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
-- One job at a time per user, across instances: a second request meets this index (409).
CREATE UNIQUE INDEX big_exports_one_running ON big_exports (user_id) WHERE state IN ('queued', 'running');
CREATE INDEX big_exports_user_idx ON big_exports (user_id, created_at DESC);
-- Exports filtered by landing and buyer in the history.
CREATE INDEX exports_landing_ids_idx ON exports USING gin (landing_ids);
