-- Preferans schemes: one row per player per game segment of a run, for `clubratings explain`:
-- the table's mean rating (what the player was measured against), the vists scored and the
-- rating change the segment brought.
CREATE TABLE segment_contributions (
    run_id          INTEGER NOT NULL,
    period          VARCHAR NOT NULL,
    player_id       INTEGER NOT NULL,
    game            VARCHAR NOT NULL,
    segment         INTEGER NOT NULL,
    date            DATE,
    deals           INTEGER,
    vists           DOUBLE,
    table_rating    DOUBLE,              -- rs: mean rating of the players at the table
    rating_before   DOUBLE,
    change          DOUBLE
);
