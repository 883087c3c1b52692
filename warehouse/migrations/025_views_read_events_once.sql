-- The same rows as before, with active_events named once per view: that view is costly to plan
-- (tens of milliseconds each time a query names it, whatever the warehouse's size), and
-- unrated_events named it twice, go_games (through unrated_events) six times.

CREATE OR REPLACE VIEW unrated_events AS
WITH e AS MATERIALIZED (
    SELECT event_id, organiser, event_date, title, section, file_id FROM active_events
)
SELECT e.event_id, e.organiser, e.event_date, e.title, e.section,
       string_agg(DISTINCT m.name_as_written, ', ' ORDER BY m.name_as_written) AS waiting_names,
       string_agg(DISTINCT m.review_key, ', ' ORDER BY m.review_key) AS review_keys
FROM e JOIN members_resolved m USING (event_id)
WHERE m.canonical_state = 'pending'
GROUP BY ALL
UNION ALL
SELECT e.event_id, e.organiser, e.event_date, e.title, e.section,
       '' AS waiting_names, 'held: ' || h.reason AS review_keys
FROM e JOIN file_holds h USING (file_id)
WHERE h.released_at IS NULL;

COMMENT ON VIEW unrated_events IS 'Events in force that cannot be rated yet: a member waits for review, or the file is held for its dates.';
COMMENT ON COLUMN unrated_events.event_id IS 'the event';
COMMENT ON COLUMN unrated_events.organiser IS 'its organiser';
COMMENT ON COLUMN unrated_events.event_date IS 'its date';
COMMENT ON COLUMN unrated_events.title IS 'its title';
COMMENT ON COLUMN unrated_events.section IS 'its section';
COMMENT ON COLUMN unrated_events.waiting_names IS 'the names waiting for review, comma-separated ('''' for a held file)';
COMMENT ON COLUMN unrated_events.review_keys IS 'the review items, or ''held: '' and the reason';

-- A go game with colours, or an even game without them (the side listed first stands as
-- black: migration 013): the events in force and rateable read once, their seated players once.
CREATE OR REPLACE VIEW go_games AS
WITH e AS MATERIALIZED (
    SELECT event_id, event_date, parent, round, handicap, komi FROM active_events
    WHERE game = 'go' AND event_id NOT IN (SELECT event_id FROM unrated_events)
), s AS MATERIALIZED (
    SELECT u.event_id, u.unit_no, u.colour, u.place, m.canonical_id
    FROM units u JOIN members_resolved m ON m.event_id = u.event_id AND m.unit_no = u.unit_no
    WHERE u.place IS NOT NULL AND u.event_id IN (SELECT event_id FROM e)
)
SELECT e.event_id, e.event_date AS date, e.parent AS tournament, e.round,
       ub.canonical_id AS black, uw.canonical_id AS white,
       CASE WHEN ub.place < uw.place THEN 1.0 WHEN ub.place > uw.place THEN 0.0 ELSE 0.5 END
           AS black_result,
       coalesce(e.handicap, 0) AS handicap, e.komi
FROM e
JOIN s ub ON ub.event_id = e.event_id AND ub.colour = 'black'
JOIN s uw ON uw.event_id = e.event_id AND uw.colour = 'white'
UNION ALL
SELECT e.event_id, e.event_date AS date, e.parent AS tournament, e.round,
       ub.canonical_id AS black, uw.canonical_id AS white,
       CASE WHEN ub.place < uw.place THEN 1.0 WHEN ub.place > uw.place THEN 0.0 ELSE 0.5 END
           AS black_result,
       0 AS handicap, e.komi
FROM e
JOIN s ub ON ub.event_id = e.event_id AND ub.colour IS NULL
JOIN s uw ON uw.event_id = e.event_id AND uw.colour IS NULL AND uw.unit_no > ub.unit_no
WHERE coalesce(e.handicap, 0) = 0;

COMMENT ON VIEW go_games IS 'Every go game in force and rateable, from black''s side (the side listed first when no colours were written).';
COMMENT ON COLUMN go_games.event_id IS 'the game''s event';
COMMENT ON COLUMN go_games.date IS 'the day played';
COMMENT ON COLUMN go_games.tournament IS 'the tournament (events.parent)';
COMMENT ON COLUMN go_games.round IS 'the round';
COMMENT ON COLUMN go_games.black IS 'black''s canonical player';
COMMENT ON COLUMN go_games.white IS 'white''s canonical player';
COMMENT ON COLUMN go_games.black_result IS '1 black won, 0 white won, 0.5 jigo';
COMMENT ON COLUMN go_games.handicap IS 'handicap stones (0 even)';
COMMENT ON COLUMN go_games.komi IS 'komi';
