-- What each period of a rating run was computed from (docs/rules/bridge-belo.md §8: a period is
-- rated from the pool as the period before left it and the period's own results): a digest per
-- period of the results as the scheme rates them. A later run of a scheme that rates forward
-- compares its digests with these, keeps the stored periods before the first that differs and
-- rates on from there (flows/_steps.py rate_pool).
CREATE TABLE rating_period_digests (
    run_id     INTEGER NOT NULL,      -- rating_runs.run_id
    period     VARCHAR NOT NULL,      -- a period with results (periods without have no row)
    digest     VARCHAR NOT NULL,      -- SHA-256 of the period's results as rated
    PRIMARY KEY (run_id, period)
);

COMMENT ON TABLE rating_period_digests IS 'Per rating run and period with results: a digest of that period''s results as the scheme rated them; a later run of a scheme that rates forward keeps the periods before the first whose digest differs (flows/_steps.py rate_pool).';
COMMENT ON COLUMN rating_period_digests.digest IS 'SHA-256 of the period''s rows as rated (ids, places, weights), independent of the other periods';
COMMENT ON COLUMN rating_period_digests.run_id IS 'the run (rating_runs.run_id)';
COMMENT ON COLUMN rating_period_digests.period IS 'a period of the run with results (a period without results has no row)';
