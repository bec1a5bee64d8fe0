-- leads_list_idx also carries the visitor id: a 'contains' on it is then tested on the index alone,
-- by a page's first step (list.ts) and by an exact count, where each lead of the tab was read from
-- the table (a page on an id no lead has: 1.0–1.5 s at 10,000,000 leads, 0.3–0.6 s at 1,000,000 on
-- PGlite, docs/performance.md). Visitor ids are one per lead, so no set of known values (migration
-- 133) answers them. Built anew, then the old one dropped, as in migration 132; its size is the
-- maintenance's new reference for a rebuild.
CREATE INDEX leads_list_visitor_idx ON leads (landing_id, entry_status, created_at DESC, id DESC)
  INCLUDE (departement, zone_climatique, source, phone, email, utm_source, utm_medium, updated_at, sold_to, convert, rapport_id, visitor);
DROP INDEX leads_list_idx;
ALTER INDEX leads_list_visitor_idx RENAME TO leads_list_idx;
UPDATE lead_writes SET list_index_bytes = pg_relation_size('leads_list_idx');
