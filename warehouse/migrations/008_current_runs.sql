-- The run each pool's lists are published from: the one the last recompute made or reused.
-- (Without it the newest run would be taken, which is wrong once a withdrawal or a correction
-- is undone and the recompute reuses an older run for the same inputs.)
CREATE TABLE current_runs (
    pool        VARCHAR PRIMARY KEY,
    run_id      INTEGER NOT NULL,
    chosen_at   TIMESTAMP NOT NULL
);
