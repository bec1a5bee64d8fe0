-- The counters of a rule's hour, week and month windows (the day's is its report): one row per
-- (rule, window, Paris wall-clock start), bumped by a conditional upsert in the sale's transaction
-- exactly as the report's count is, so no cap is passed under any concurrency. `cap` is the
-- rule's cap when last bumped (null: none; the window is still counted, should one be set later).
CREATE TABLE rule_windows (
  rule_id integer NOT NULL REFERENCES rules (id) ON DELETE CASCADE,
  span    text NOT NULL CHECK (span IN ('hour', 'week', 'month')),
  start   timestamp NOT NULL,
  count   integer NOT NULL DEFAULT 0,
  cap     integer,
  PRIMARY KEY (rule_id, span, start)
);
CREATE INDEX rule_windows_start_idx ON rule_windows (start);

-- Started from the live sales already recorded, by their Paris wall-clock time (the current and
-- previous month are all a window can still need).
INSERT INTO rule_windows (rule_id, span, start, count, cap)
SELECT s.rule_id, w.span, w.start, count(*), CASE w.span WHEN 'hour' THEN r.cap_hour WHEN 'week' THEN r.cap_week ELSE r.cap_month END
  FROM lead_sales s
  JOIN rules r ON r.id = s.rule_id
  CROSS JOIN LATERAL (VALUES ('hour', date_trunc('hour', s.sold_at AT TIME ZONE 'Europe/Paris')),
                             ('week', date_trunc('week', s.sold_at AT TIME ZONE 'Europe/Paris')),
                             ('month', date_trunc('month', s.sold_at AT TIME ZONE 'Europe/Paris'))) AS w (span, start)
 WHERE s.sold_at >= date_trunc('month', now() AT TIME ZONE 'Europe/Paris') AT TIME ZONE 'Europe/Paris' - interval '1 month'
 GROUP BY s.rule_id, w.span, w.start, r.cap_hour, r.cap_week, r.cap_month;
