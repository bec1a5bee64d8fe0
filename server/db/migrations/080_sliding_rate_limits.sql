-- Request limits count over a sliding window (issue 24, item 6): fixed windows let 2 × max
-- through across a window's end (62 of 90 intake posts in 1.2 s). Each row keeps the moments of
-- its latest events (at most max + 1, sorted), so "at most max in any windowSeconds" holds, still
-- with one upsert per request shared by every instance. The counts of the old windows are dropped.
DROP TABLE rate_limits;
CREATE TABLE rate_limits (
  bucket  text NOT NULL,
  key     text NOT NULL,
  -- Ascending; the purge deletes rows whose latest event is more than an hour old.
  hits    timestamptz[] NOT NULL,
  -- Whether the latest request was counted (a refused one is not): what the upsert answers.
  counted boolean NOT NULL,
  PRIMARY KEY (bucket, key)
);

-- The newest `keep` moments of `hits` less than `seconds` old, ascending.
CREATE FUNCTION rate_limit_recent(hits timestamptz[], seconds integer, keep integer) RETURNS timestamptz[]
LANGUAGE sql STABLE AS $$
  SELECT coalesce(array_agg(h ORDER BY h), '{}') FROM (
    SELECT h FROM unnest(hits) h WHERE h > now() - make_interval(secs => seconds) ORDER BY h DESC LIMIT keep
  ) recent
$$;
