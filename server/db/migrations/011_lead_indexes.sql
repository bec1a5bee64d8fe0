-- Deleting a lead checks the leads whose conversion copy it is (convert ON DELETE SET NULL):
-- without this index every deleted lead costs a full scan of the table.
CREATE INDEX leads_convert_idx ON leads (convert) WHERE convert IS NOT NULL;
