-- What the loader compares a new event with (docs/rules/inputs.md, "One night, many files"):
-- every stored event's units as one row, so that the events of a day are read by their ids
-- from a table of one row per event instead of from every unit and member of the warehouse.
-- Written once with the event and never changed (an event is never rewritten); the players
-- the event is counted for stay in unit_members, read only when a second rendering takes
-- them over.
CREATE TABLE event_prints (
    event_id   INTEGER PRIMARY KEY,   -- events.event_id
    units      VARCHAR NOT NULL       -- JSON list, one object per member in unit and seat order
);

INSERT INTO event_prints
SELECT m.event_id,
       to_json(list({'u': m.unit_no, 'p': u.place, 's': u.score, 'n': m.name_as_written}
                    ORDER BY m.unit_no, m.seat))::VARCHAR
FROM unit_members m JOIN units u USING (event_id, unit_no)
GROUP BY m.event_id;

COMMENT ON TABLE event_prints IS 'Each stored event''s units and the names written in them, one row per event: what a new file''s events are compared with (same results, corrections, versions) without reading the whole of unit_members (docs/rules/inputs.md, "One night, many files").';
COMMENT ON COLUMN event_prints.event_id IS 'the event (events.event_id); an event without players written has no row';
COMMENT ON COLUMN event_prints.units IS 'JSON list of {"u": unit_no, "p": place, "s": score, "n": name as written} for every member, in unit and seat order (units and unit_members of the same event)';
