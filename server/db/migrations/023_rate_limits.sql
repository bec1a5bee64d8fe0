-- Request counters of the rate limits (the public intake), per fixed window, shared by every
-- instance: N servers against one database allow the limit once, not N times. Windows past are
-- deleted by the hourly purge job.
CREATE TABLE rate_limits (
  bucket       text NOT NULL,
  key          text NOT NULL,
  window_start timestamptz NOT NULL,
  count        integer NOT NULL,
  PRIMARY KEY (bucket, key, window_start)
);
