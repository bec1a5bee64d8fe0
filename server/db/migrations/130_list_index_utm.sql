-- leads_list_idx also carries the lead's UTM source and medium: a filter on either (a value or a
-- 'contains') is then tested on the index alone, by a page's first step (list.ts) and by an exact
-- count, where each lead of the tab was read from the table. Both are short words; the campaign,
-- often a long name, stays out. Built anew, then the old one dropped, as in migration 019; its
-- size is the maintenance's new reference for a rebuild (services/maintenance.ts).
CREATE INDEX leads_list_utm_idx ON leads (landing_id, entry_status, created_at DESC, id DESC)
  INCLUDE (departement, zone_climatique, source, phone, email, utm_source, utm_medium);
DROP INDEX leads_list_idx;
ALTER INDEX leads_list_utm_idx RENAME TO leads_list_idx;
UPDATE lead_writes SET list_index_bytes = pg_relation_size('leads_list_idx');
