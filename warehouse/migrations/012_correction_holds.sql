-- Corrections that would remove data wait for a person. A file that brings a new version of an
-- event in force replaces it at once when it only fixes names, places or scores; when the new
-- version drops more than a set share of the units or players, or changes the kind, scoring or
-- game, it is loaded but held here, and the old version stays in force until someone answers
-- (clubratings review): 'accepted' replaces the old version, 'kept' keeps it for good.
CREATE TABLE correction_holds (
    event_id     INTEGER PRIMARY KEY,   -- the held new version (events.event_id)
    replaces     INTEGER NOT NULL,      -- the version in force it would replace
    file_id      INTEGER NOT NULL,      -- the file that brought it
    reason       VARCHAR NOT NULL,
    held_at      TIMESTAMP NOT NULL,
    decision     VARCHAR,               -- NULL: waiting; 'accepted' or 'kept'
    decided_at   TIMESTAMP,
    note         VARCHAR NOT NULL DEFAULT ''
);

CREATE OR REPLACE VIEW active_events AS
SELECT e.* FROM events e
WHERE e.file_id NOT IN (SELECT file_id FROM withdrawn_files)
  AND NOT EXISTS (
      SELECT 1 FROM event_replacements r
      WHERE r.event_id = e.event_id
        AND r.file_id NOT IN (SELECT file_id FROM withdrawn_files))
  AND NOT EXISTS (
      SELECT 1 FROM correction_holds c
      WHERE c.event_id = e.event_id AND coalesce(c.decision, '') <> 'accepted');
