-- The same results written twice (docs/rules/inputs.md, "One night, many files"): a club
-- publishes a night as a text report, a web page and a phone page; another program exports
-- the same session again. A later file's event whose units, places and players equal an event
-- in force is stored, but it is a second rendering of that event, not another event: it stays
-- out of force while the first rendering's file is in force (or a correction of it is), and
-- comes in only when that file is withdrawn (the earliest such rendering, one at a time).
CREATE TABLE event_twins (
    event_id   INTEGER PRIMARY KEY,   -- the later rendering (events.event_id)
    same_as    INTEGER NOT NULL,      -- the first rendering, in force when this one came
    file_id    INTEGER NOT NULL,      -- the file that brought the later rendering
    found_at   TIMESTAMP NOT NULL
);

-- A held new version may also be answered 'separate': it is another event of the same night
-- (a second session), both stay in force.
CREATE OR REPLACE VIEW active_events AS
WITH base AS (
    SELECT e.* FROM events e
    WHERE e.file_id NOT IN (SELECT file_id FROM withdrawn_files)
      AND NOT EXISTS (
          SELECT 1 FROM event_replacements r
          WHERE r.event_id = e.event_id
            AND r.file_id NOT IN (SELECT file_id FROM withdrawn_files))
      AND NOT EXISTS (
          SELECT 1 FROM correction_holds c
          WHERE c.event_id = e.event_id
            AND coalesce(c.decision, '') NOT IN ('accepted', 'separate'))
)
SELECT b.* FROM base b
WHERE NOT EXISTS (
    SELECT 1 FROM event_twins t JOIN events f ON f.event_id = t.same_as
    WHERE t.event_id = b.event_id
      AND (f.file_id NOT IN (SELECT file_id FROM withdrawn_files)
           OR EXISTS (SELECT 1 FROM event_twins o JOIN base ob ON ob.event_id = o.event_id
                      WHERE o.same_as = t.same_as AND o.event_id < t.event_id)));
