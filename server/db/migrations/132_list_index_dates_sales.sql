-- leads_list_idx also carries the lead's last change, its buyer, its copy and its report: a filter
-- on any of them (a range of days, a 'contains', values) is then tested on the index alone, by a
-- page's first step (list.ts) and by an exact count, where each lead of the tab was read from the
-- table (1.0–1.8 s for a tab of 761,000 leads at 10,000,000, docs/performance.md). The last three
-- are empty on most leads, where they cost the index nothing. Built anew, then the old one
-- dropped, as in migration 130; its size is the maintenance's new reference for a rebuild.
CREATE INDEX leads_list_sales_idx ON leads (landing_id, entry_status, created_at DESC, id DESC)
  INCLUDE (departement, zone_climatique, source, phone, email, utm_source, utm_medium, updated_at, sold_to, convert, rapport_id);
DROP INDEX leads_list_idx;
ALTER INDEX leads_list_sales_idx RENAME TO leads_list_idx;
UPDATE lead_writes SET list_index_bytes = pg_relation_size('leads_list_idx');
