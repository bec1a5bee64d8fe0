-- Retention (issue 30): leads older than RETENTION_MONTHS are written to files in the export
-- storage, one per month and landing, then removed from the database in batches. Each file is
-- listed here. `state`: 'deleting' while its leads are being removed
-- (a job that stopped then goes on at its next run), 'archived' once none is left, 'restored' once
-- brought back (its file removed; the job leaves that month and landing in the database).
CREATE TABLE lead_archives (
  month        date NOT NULL,      -- first day of the month, Paris time (lead_month)
  landing_id   integer NOT NULL,   -- no foreign key: the file outlives its landing
  landing_name text NOT NULL,
  storage_key  text NOT NULL UNIQUE,
  leads        integer NOT NULL,
  bytes        bigint NOT NULL,
  state        text NOT NULL CHECK (state IN ('deleting', 'archived', 'restored')),
  archived_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (month, landing_id)
);
