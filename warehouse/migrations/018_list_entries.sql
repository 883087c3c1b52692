-- The published lists, row by row: every player of every edition of a pool's run in force,
-- with the rank, standing and counts the site shows (docs/site.md, "Who is on a list"). The
-- publisher writes them (the rows of one pool replaced together), so an analyst reads the
-- lists as published instead of working out who was ranked. Opted-out players are left out,
-- as they are from every list.
CREATE TABLE IF NOT EXISTS list_entries (
    run_id        INTEGER NOT NULL,
    pool          VARCHAR NOT NULL,
    edition       VARCHAR NOT NULL,
    period_start  DATE NOT NULL,
    period_end    DATE NOT NULL,
    player_id     INTEGER NOT NULL,
    rank          INTEGER,
    standing      VARCHAR NOT NULL,
    status        VARCHAR NOT NULL,
    rating        DOUBLE NOT NULL,
    change        DOUBLE,
    events_period INTEGER NOT NULL,
    events_year   INTEGER NOT NULL,
    events_total  INTEGER NOT NULL,
    last_played   VARCHAR,
    club          VARCHAR,
    PRIMARY KEY (run_id, edition, player_id)
);

-- One row per player per published edition of each pool's run in force, with the name.
CREATE OR REPLACE VIEW edition_entries AS
SELECT l.pool, l.edition, l.period_start, l.period_end, l.rank, l.standing, l.status,
       l.player_id, p.name AS player, p.federation_id, l.club, l.rating, l.change,
       l.events_period, l.events_year, l.events_total, l.last_played, l.run_id
FROM list_entries l
JOIN runs_in_force f ON f.run_id = l.run_id AND f.pool = l.pool
JOIN players p ON p.player_id = l.player_id;
