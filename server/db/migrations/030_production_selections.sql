-- The departments selected on the production map of each category, shared by every user like
-- the notes and colours of department_notes. No row: nobody saved one yet (Gard and Hérault);
-- an empty array is a saved empty selection. Codes as the leads store them ('30', '2A').
CREATE TABLE production_selections (
  category     text PRIMARY KEY CHECK (category IN ('pac', 'pv', 'other')),
  departements text[] NOT NULL,
  updated_by   integer REFERENCES users (id) ON DELETE SET NULL,
  updated_at   timestamptz NOT NULL DEFAULT now()
);
