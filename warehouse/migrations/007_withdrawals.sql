-- Withdrawn files (clubratings files withdraw): a loaded file taken back. While a withdrawal is
-- in force (undone_at IS NULL) the file's events are in no list and the corrections it brought
-- no longer hide the events they replaced; nothing is deleted, and an undo restores it all.
CREATE TABLE file_withdrawals (
    withdrawal_id   INTEGER PRIMARY KEY,
    file_id         INTEGER NOT NULL,      -- source_files.file_id
    withdrawn_at    TIMESTAMP NOT NULL,
    reason          VARCHAR NOT NULL,
    undone_at       TIMESTAMP               -- when the withdrawal was undone; NULL: in force
);

CREATE VIEW withdrawn_files AS
SELECT DISTINCT file_id FROM file_withdrawals WHERE undone_at IS NULL;

-- Events in force: not from a withdrawn file, and not replaced by a correction that a file in
-- force brought.
CREATE OR REPLACE VIEW active_events AS
SELECT e.* FROM events e
WHERE e.file_id NOT IN (SELECT file_id FROM withdrawn_files)
  AND NOT EXISTS (
      SELECT 1 FROM event_replacements r
      WHERE r.event_id = e.event_id
        AND r.file_id NOT IN (SELECT file_id FROM withdrawn_files));
