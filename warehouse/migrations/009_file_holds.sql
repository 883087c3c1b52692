-- Files held for a person's confirmation: a file with an event dated in the future, or far
-- outside the span of the other events of its game (a mistyped year), is loaded but its events
-- are not rated until someone confirms it (clubratings files release FILE). The row stays as
-- the audit trail; released_at says when it was confirmed.
CREATE TABLE file_holds (
    file_id      INTEGER PRIMARY KEY,     -- source_files.file_id
    reason       VARCHAR NOT NULL,
    held_at      TIMESTAMP NOT NULL,
    released_at  TIMESTAMP                -- NULL: held
);

-- Events in force that cannot be rated yet: some member waits for review, or the file that
-- brought the event is held for confirmation.
CREATE OR REPLACE VIEW unrated_events AS
SELECT e.event_id, e.organiser, e.event_date, e.title, e.section,
       string_agg(DISTINCT m.name_as_written, ', ' ORDER BY m.name_as_written) AS waiting_names,
       string_agg(DISTINCT m.review_key, ', ' ORDER BY m.review_key) AS review_keys
FROM active_events e JOIN members_resolved m USING (event_id)
WHERE m.canonical_state = 'pending'
GROUP BY ALL
UNION ALL
SELECT e.event_id, e.organiser, e.event_date, e.title, e.section,
       '' AS waiting_names, 'held: ' || h.reason AS review_keys
FROM active_events e JOIN file_holds h USING (file_id)
WHERE h.released_at IS NULL;
