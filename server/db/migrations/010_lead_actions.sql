-- Undo of bulk status changes: each action remembers the exact previous status of every lead it moved.
CREATE TABLE lead_actions (
  id         serial PRIMARY KEY,
  user_id    integer REFERENCES users (id) ON DELETE SET NULL,
  to_status  text NOT NULL,
  count      integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  undone_at  timestamptz
);

-- No foreign key on lead_id: a lead deleted since is simply not restored.
CREATE TABLE lead_action_items (
  action_id   integer NOT NULL REFERENCES lead_actions (id) ON DELETE CASCADE,
  lead_id     bigint NOT NULL,
  from_status text NOT NULL,
  PRIMARY KEY (action_id, lead_id)
);

-- Imports: where imported leads came from (utm_medium), for the import_from list.
CREATE TABLE imports (
  id         serial PRIMARY KEY,
  landing_id integer REFERENCES landings (id) ON DELETE SET NULL,
  user_id    integer REFERENCES users (id) ON DELETE SET NULL,
  source     text NOT NULL,
  count      integer NOT NULL DEFAULT 0,
  duplicates integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Previous buyers ('Vendu à') are read with a loose index scan over this index.
CREATE INDEX leads_sold_to_idx ON leads (sold_to) WHERE sold_to IS NOT NULL;
