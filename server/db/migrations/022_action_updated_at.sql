-- An undo restores each lead exactly as it was: its status and its updated_at. Actions recorded
-- before this column have an empty list: their undo dates the leads of the undo, as it used to.
ALTER TABLE lead_actions ADD COLUMN from_updated_at timestamptz[] NOT NULL DEFAULT '{}';
