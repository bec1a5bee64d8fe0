-- Bulk status changes move entries of leads_list_idx from one status to another and leave
-- half-empty pages behind, which a vacuum does not give back: after a day of 100,000-lead sales
-- and resets on a million leads it had grown from 101 to 302 MB, and the lead page and the
-- statistics stayed over budget. The maintenance rebuilds it once it has grown past twice its
-- size after its last rebuild, recorded here (services/maintenance.ts).
ALTER TABLE lead_writes ADD COLUMN list_index_bytes bigint;
