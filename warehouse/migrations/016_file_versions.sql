-- Versions of a file (docs/rules/inputs.md, "Versions of a file"). A file dropped again under
-- the same name (a scraped page: the same address), with an organiser in common and results
-- that overlap, is a new version of the latest file of that name: it supersedes every event of
-- the version before it, whatever dates or titles it changed. Which file supersedes which is
-- written here; what is in force is derived from it in the views below, never patched.
CREATE TABLE file_versions (
    file_id     INTEGER PRIMARY KEY,   -- source_files.file_id
    chain       INTEGER NOT NULL,      -- the first file of its chain of versions
    previous    INTEGER,               -- the version it supersedes; NULL: the first
    hold        VARCHAR NOT NULL DEFAULT '',  -- why it waits for a person ('' not held)
    decision    VARCHAR,               -- a held version: NULL waiting, 'accepted' or 'kept'
    decided_at  TIMESTAMP,
    note        VARCHAR NOT NULL DEFAULT ''
);

-- Files loaded before versions were written down: each is its own chain.
INSERT INTO file_versions (file_id, chain)
SELECT file_id, file_id FROM source_files;

-- Files that may be in force: not withdrawn, and not a held version (unless accepted).
CREATE OR REPLACE VIEW eligible_files AS
SELECT f.file_id, coalesce(v.chain, f.file_id) AS chain
FROM source_files f LEFT JOIN file_versions v USING (file_id)
WHERE f.file_id NOT IN (SELECT file_id FROM withdrawn_files)
  AND (v.hold IS NULL OR v.hold = '' OR v.decision = 'accepted');

-- The version in force of each chain: its latest eligible file.
CREATE OR REPLACE VIEW current_files AS
SELECT file_id, chain FROM eligible_files
QUALIFY row_number() OVER (PARTITION BY chain ORDER BY file_id DESC) = 1;

-- Events in force, derived:
--   * events of the current version of their chain;
--   * not a held correction waiting or kept out ('separate': another event of the night);
--   * a second rendering only while no version of the first rendering's file is in force
--     (the earliest such rendering, one at a time);
--   * of the events with one key (organiser, date, title, section), the latest loaded (a
--     file of another name correcting an event), unless it was answered 'separate';
--   * not replaced by an accepted correction of another key (a near match accepted).
CREATE OR REPLACE VIEW active_events AS
WITH candidates AS (
    SELECT e.* FROM events e
    WHERE e.file_id IN (SELECT file_id FROM current_files)
      AND NOT EXISTS (
          SELECT 1 FROM correction_holds c
          WHERE c.event_id = e.event_id
            AND coalesce(c.decision, '') NOT IN ('accepted', 'separate'))
),
pool AS (
    SELECT c.* FROM candidates c
    WHERE c.event_id NOT IN (SELECT event_id FROM event_twins)
    UNION ALL
    SELECT t.* FROM candidates t JOIN event_twins w ON w.event_id = t.event_id
    WHERE NOT EXISTS (
              SELECT 1 FROM events f LEFT JOIN file_versions fv ON fv.file_id = f.file_id
              WHERE f.event_id = w.same_as
                AND coalesce(fv.chain, f.file_id) IN (SELECT chain FROM current_files))
      AND NOT EXISTS (
              SELECT 1 FROM event_twins o JOIN candidates oc ON oc.event_id = o.event_id
              WHERE o.same_as = w.same_as AND o.event_id < w.event_id)
),
challengers AS (
    SELECT * FROM pool
    WHERE event_id NOT IN (SELECT event_id FROM correction_holds WHERE decision = 'separate')
)
SELECT o.* FROM pool o
WHERE NOT EXISTS (
          SELECT 1 FROM challengers n
          WHERE n.organiser = o.organiser AND n.event_date = o.event_date
            AND n.title = o.title AND n.section = o.section AND n.event_id > o.event_id)
  AND NOT EXISTS (
          SELECT 1 FROM correction_holds c JOIN candidates n ON n.event_id = c.event_id
          WHERE c.replaces = o.event_id AND c.decision = 'accepted');

-- What people did to loaded files, and when: withdrawn, restored, released (dates confirmed),
-- a held version or correction accepted or kept out. `clubratings files history` and the
-- import report read it; the tables above keep the state, this is the trail.
CREATE TABLE file_actions (
    action_id   INTEGER PRIMARY KEY,
    file_id     INTEGER NOT NULL,      -- source_files.file_id
    action      VARCHAR NOT NULL,      -- withdrawn, restored, released, accepted, kept, separate
    acted_at    TIMESTAMP NOT NULL,
    by_user     VARCHAR NOT NULL,      -- the account that did it ('' before this was kept)
    note        VARCHAR NOT NULL DEFAULT ''
);

INSERT INTO file_actions
SELECT row_number() OVER (ORDER BY acted_at, file_id, action), file_id, action, acted_at, '', note FROM (
    SELECT file_id, 'withdrawn' AS action, withdrawn_at AS acted_at, reason AS note
    FROM file_withdrawals
    UNION ALL
    SELECT file_id, 'restored', undone_at, '' FROM file_withdrawals WHERE undone_at IS NOT NULL
    UNION ALL
    SELECT file_id, 'released', released_at, reason FROM file_holds
    WHERE released_at IS NOT NULL
    UNION ALL
    SELECT file_id, decision, decided_at, note FROM correction_holds
    WHERE decision IS NOT NULL AND decided_at IS NOT NULL
);

-- event_replacements is the audit trail of corrections now (which event re-wrote which), no
-- longer what decides force: an event replaced, brought back by a withdrawal and replaced
-- again is written twice, so it has no primary key any more.
CREATE TABLE event_replacements_trail AS SELECT * FROM event_replacements;
DROP TABLE event_replacements;
ALTER TABLE event_replacements_trail RENAME TO event_replacements;
