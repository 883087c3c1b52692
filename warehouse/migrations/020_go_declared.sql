-- The grade each go player declared and the rating their file states (docs/rules/go-rfg.md
-- "First entry"): every go reader keeps the grade written next to the name (OpenGotha
-- grade/rank, the EGD table's grade column, an HTML cross table's grade column) and
-- OpenGotha the rating it gave the player with its origin. One row per player of a go game
-- whose file says something of their strength; the go schemes start a newcomer from the grade.

CREATE TABLE go_declared (
    event_id         INTEGER NOT NULL,
    unit_no          INTEGER NOT NULL,
    seat             INTEGER NOT NULL,
    grade            VARCHAR,
    grade_as_written VARCHAR,
    stated_rating    DOUBLE,
    rating_origin    VARCHAR,
    PRIMARY KEY (event_id, unit_no, seat)
);

-- Each player's declared grade and stated rating in every go game in force, by canonical player.
CREATE VIEW go_entries AS
SELECT d.event_id, m.canonical_id AS player_id, d.grade, d.grade_as_written, d.stated_rating,
       d.rating_origin
FROM go_declared d
JOIN members_resolved m ON m.event_id = d.event_id AND m.unit_no = d.unit_no
    AND m.seat = d.seat
JOIN active_events e ON e.event_id = d.event_id;

COMMENT ON TABLE go_declared IS 'What a go file says of a player''s strength in a game: the grade they declared and the rating the file states (docs/rules/go-rfg.md "First entry").';
COMMENT ON COLUMN go_declared.event_id IS 'the game (events.event_id)';
COMMENT ON COLUMN go_declared.unit_no IS 'the side (units.unit_no)';
COMMENT ON COLUMN go_declared.seat IS 'the seat in the side (unit_members.seat; always 1 in go)';
COMMENT ON COLUMN go_declared.grade IS 'the declared grade in one spelling (9k, 2d, 1p); NULL when the file gives none or one that does not read as a grade';
COMMENT ON COLUMN go_declared.grade_as_written IS 'the grade exactly as the file wrote it (2D, 30K, 7 kyu), also when it did not read';
COMMENT ON COLUMN go_declared.stated_rating IS 'the rating the file states for the player (OpenGotha rating=), if any';
COMMENT ON COLUMN go_declared.rating_origin IS 'where the stated rating comes from, as the file says (OpenGotha ratingOrigin: EGF, FFG : -1774, INI)';

COMMENT ON VIEW go_entries IS 'The declared grade and stated rating of each player of each go game in force, by canonical player (what the go schemes start a newcomer from).';
COMMENT ON COLUMN go_entries.event_id IS 'the game (events.event_id)';
COMMENT ON COLUMN go_entries.player_id IS 'the canonical player';
COMMENT ON COLUMN go_entries.grade IS 'the declared grade in one spelling (9k, 2d, 1p), NULL when none reads';
COMMENT ON COLUMN go_entries.grade_as_written IS 'the grade as the file wrote it';
COMMENT ON COLUMN go_entries.stated_rating IS 'the rating the file states, if any';
COMMENT ON COLUMN go_entries.rating_origin IS 'where the stated rating comes from, as the file says';
