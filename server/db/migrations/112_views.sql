-- Saved views of the lead view (issue 28): a named list (landings, tab, column filters, sort)
-- kept by its owner, for the owner alone or shared with everyone. `filters` holds the list's
-- filters in the API's terms (LeadFilters: contains, values, dates) so that a view's count runs
-- the list's own conditions; `sort` is { key, dir } or null. `position` orders the
-- sidebar: unique (a sequence), so moving a view up or down swaps it with its neighbour's.
CREATE TABLE views (
  id          serial PRIMARY KEY,
  owner_id    integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name        text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 80),
  shared      boolean NOT NULL DEFAULT false,
  landing_ids integer[] NOT NULL,
  tab         text NOT NULL,
  filters     jsonb NOT NULL DEFAULT '{}',
  sort        jsonb,
  position    serial NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
-- Names are unique per owner, whatever their case.
CREATE UNIQUE INDEX views_owner_name_idx ON views (owner_id, lower(name));
CREATE INDEX views_position_idx ON views (position);
