-- Every intake (and 'Mot de passe oublié', refused password links, reset mails) counts itself with
-- one upsert on its key's row (services/rate-limit.ts). Sent as SQL text, that upsert was parsed and
-- planned at every request, and its two calls of rate_limit_recent (a SQL function with an
-- aggregate, never inlined) planned that function's body again each time: on PGlite it was the
-- costliest statement of an intake, about a quarter of the database thread's time under the
-- delivery benches' load (docs/performance.md, 'Intakes written together'). In PL/pgSQL the
-- upsert's plan is kept by the session, and the window is cut by subqueries of that one plan.
-- Same rule as before: at most max counted in any `seconds`; a refused request is not counted.
CREATE FUNCTION rate_limit_record(p_bucket text, p_key text, p_seconds integer, p_max integer, p_always boolean,
  OUT recorded boolean, OUT held integer, OUT wait integer)
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO rate_limits AS rl (bucket, key, hits, counted) VALUES (p_bucket, p_key, ARRAY[now()], true)
  ON CONFLICT (bucket, key) DO UPDATE SET
    counted = p_always OR (SELECT count(*) FROM unnest(rl.hits) h WHERE h > now() - make_interval(secs => p_seconds)) < p_max,
    hits = ARRAY(
      SELECT h FROM (
        SELECT h FROM unnest(CASE
          WHEN p_always OR (SELECT count(*) FROM unnest(rl.hits) o WHERE o > now() - make_interval(secs => p_seconds)) < p_max
          THEN rl.hits || now() ELSE rl.hits END) h
        WHERE h > now() - make_interval(secs => p_seconds) ORDER BY h DESC LIMIT p_max + 1
      ) recent ORDER BY h)
  RETURNING rl.counted, cardinality(rl.hits),
    ceil(extract(epoch FROM rl.hits[greatest(1, cardinality(rl.hits) - p_max + 1)] + make_interval(secs => p_seconds) - now()))::int
  INTO recorded, held, wait;
END
$$;
