-- Game-based rating schemes (go: docs/rules/go-rfg.md and the baselines): a deviation per rating,
-- the RFG anomaly and entry flags, and one explanation row per game per player.
ALTER TABLE ratings ADD COLUMN deviation_before DOUBLE;
ALTER TABLE ratings ADD COLUMN deviation DOUBLE;
ALTER TABLE ratings ADD COLUMN anomaly DOUBLE;
ALTER TABLE ratings ADD COLUMN entry BOOLEAN;

CREATE TABLE game_contributions (
    run_id          INTEGER NOT NULL,
    period          VARCHAR NOT NULL,
    player_id       INTEGER NOT NULL,
    opponent_id     INTEGER NOT NULL,
    result          DOUBLE NOT NULL,     -- 1 win, 0 loss, 0.5 jigo
    handicap        INTEGER NOT NULL,
    colour          VARCHAR NOT NULL,    -- 'b' | 'w'
    expected        DOUBLE,              -- the scheme's expected result
    weight          DOUBLE               -- the opponent's influence (RFG B), 1 elsewhere
);

-- Every game in force: one row per game, from black's side (what go schemes read).
CREATE VIEW go_games AS
SELECT e.event_id, e.event_date AS date, e.parent AS tournament, e.round,
       b.canonical_id AS black, w.canonical_id AS white,
       CASE WHEN ub.place < uw.place THEN 1.0 WHEN ub.place > uw.place THEN 0.0 ELSE 0.5 END
           AS black_result,
       coalesce(e.handicap, 0) AS handicap, e.komi
FROM active_events e
JOIN units ub ON ub.event_id = e.event_id AND ub.colour = 'black'
JOIN units uw ON uw.event_id = e.event_id AND uw.colour = 'white'
JOIN members_resolved b ON b.event_id = e.event_id AND b.unit_no = ub.unit_no
JOIN members_resolved w ON w.event_id = e.event_id AND w.unit_no = uw.unit_no
WHERE e.game = 'go' AND ub.place IS NOT NULL AND uw.place IS NOT NULL
  AND e.event_id NOT IN (SELECT event_id FROM unrated_events);
