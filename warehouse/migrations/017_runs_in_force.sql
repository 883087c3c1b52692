-- The run each pool's lists come from, in one place: the run its last recompute made or
-- reused (current_runs), else its newest; none when the last recompute found nothing of the
-- pool in force (run 0). The published lists, the analysts' snapshot and the explanations all
-- read it.
CREATE OR REPLACE VIEW runs_in_force AS
SELECT r.run_id, r.pool, r.scheme FROM rating_runs r
WHERE r.run_id = coalesce((SELECT c.run_id FROM current_runs c WHERE c.pool = r.pool),
                          (SELECT max(o.run_id) FROM rating_runs o WHERE o.pool = r.pool));
