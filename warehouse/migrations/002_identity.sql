-- Player identity: the federation register, review queue, decisions, merges and splits.
-- Nothing here is deleted: a register reload appends its entries, a merge is undone by a split
-- (split_at), a review answer is a decision row that can be exported and replayed.

-- What a player is: 'confirmed' (a person), 'provisional' (known only by initials, no roster
-- member matched), 'pending' (a name waiting in the review queue; its events are not rated).
ALTER TABLE players ADD COLUMN state VARCHAR DEFAULT 'confirmed';
-- Where the player came from: 'register', 'results' (a name in a result file), 'initials'.
ALTER TABLE players ADD COLUMN origin VARCHAR DEFAULT 'results';
ALTER TABLE players ADD COLUMN first_name VARCHAR;   -- from the register
ALTER TABLE players ADD COLUMN surname VARCHAR;      -- from the register
ALTER TABLE players ADD COLUMN club VARCHAR;         -- club in the latest register
ALTER TABLE players ADD COLUMN birth_year INTEGER;
ALTER TABLE players ADD COLUMN status VARCHAR;       -- register status as written

-- How each member of a unit was identified, and the evidence (JSON) for initials and fuzzy
-- matches; review_key names the review item when the name waits for a person.
ALTER TABLE unit_members ADD COLUMN how VARCHAR;
ALTER TABLE unit_members ADD COLUMN evidence VARCHAR;
ALTER TABLE unit_members ADD COLUMN review_key VARCHAR;

CREATE TABLE registers (
    register_id     INTEGER PRIMARY KEY,
    sha256          VARCHAR NOT NULL UNIQUE,
    path            VARCHAR NOT NULL,
    name            VARCHAR NOT NULL,
    sheet           VARCHAR,
    loaded_at       TIMESTAMP NOT NULL,
    n_members       INTEGER NOT NULL,
    n_new           INTEGER NOT NULL,
    n_updated       INTEGER NOT NULL
);

-- Every member line of every register loaded (append-only history).
CREATE TABLE register_entries (
    register_id     INTEGER NOT NULL,
    federation_id   VARCHAR NOT NULL,
    player_id       INTEGER NOT NULL,
    first_name      VARCHAR NOT NULL,
    surname         VARCHAR NOT NULL,
    club            VARCHAR,
    birth_year      INTEGER,
    status          VARCHAR,
    row_no          INTEGER NOT NULL,
    PRIMARY KEY (register_id, federation_id)
);

-- Names that could not be decided: one item per situation (see warehouse.identity).
CREATE TABLE review_items (
    item_key        VARCHAR PRIMARY KEY,
    kind            VARCHAR NOT NULL,      -- 'initials' | 'name'
    name_as_written VARCHAR NOT NULL,
    club            VARCHAR,
    player_id       INTEGER NOT NULL,      -- the pending player holding the results meanwhile
    candidates      VARCHAR NOT NULL,      -- JSON list: player_id, name, club, score, evidence
    evidence        VARCHAR NOT NULL,      -- JSON: what was looked at
    first_event_id  INTEGER NOT NULL,
    created_at      TIMESTAMP NOT NULL,
    status          VARCHAR NOT NULL,      -- 'open' | 'resolved'
    decision_id     VARCHAR                -- the decision that resolved it
);

-- Every answer and every merge/split, in the order made; exported as the decisions file.
CREATE TABLE identity_decisions (
    decision_id     VARCHAR PRIMARY KEY,   -- content hash: the same decision is applied once
    seq             INTEGER NOT NULL,
    made_at         TIMESTAMP NOT NULL,
    after_file      VARCHAR,               -- sha256 of the newest result file loaded when made
    action          VARCHAR NOT NULL,      -- pick | new | different | merge | split
    item_key        VARCHAR,
    player_id       INTEGER,
    player_name     VARCHAR,
    federation_id   VARCHAR,
    other_id        INTEGER,               -- merge: the player merged away
    other_name      VARCHAR,
    other_federation_id VARCHAR,
    note            VARCHAR,
    applied_at      TIMESTAMP              -- NULL while waiting for after_file to be loaded
);

-- Rules every later load obeys: 'alias' (a name key is this player), 'situation' (this review
-- situation is this player), 'non_match' (this name key / situation is NOT this player).
CREATE TABLE identity_rules (
    rule_kind       VARCHAR NOT NULL,
    rule_key        VARCHAR NOT NULL,
    player_id       INTEGER NOT NULL,
    decision_id     VARCHAR NOT NULL,
    PRIMARY KEY (rule_kind, rule_key, player_id)
);

CREATE TABLE player_merges (
    merge_id        INTEGER PRIMARY KEY,
    player_id       INTEGER NOT NULL,      -- merged away
    into_player_id  INTEGER NOT NULL,      -- kept
    merged_at       TIMESTAMP NOT NULL,
    decision_id     VARCHAR NOT NULL,
    reason          VARCHAR NOT NULL,
    split_at        TIMESTAMP,             -- set by a split; the merge no longer holds
    split_decision  VARCHAR
);

-- Each player's canonical player: follows the merges in force (a chain a -> b -> c ends at c).
CREATE VIEW player_canonical AS
WITH RECURSIVE chain(player_id, canonical_id, depth) AS (
    SELECT player_id, player_id, 0 FROM players
    UNION ALL
    SELECT c.player_id, m.into_player_id, c.depth + 1
    FROM chain c JOIN player_merges m ON m.player_id = c.canonical_id AND m.split_at IS NULL
    WHERE c.depth < 100
)
SELECT player_id, arg_max(canonical_id, depth) AS canonical_id FROM chain GROUP BY player_id;

-- Unit members with the player their results count for.
CREATE VIEW members_resolved AS
SELECT m.*, c.canonical_id, p.state AS canonical_state
FROM unit_members m
JOIN player_canonical c USING (player_id)
JOIN players p ON p.player_id = c.canonical_id;

-- Events in force that cannot be rated yet: some member waits for review.
CREATE VIEW unrated_events AS
SELECT e.event_id, e.organiser, e.event_date, e.title, e.section,
       string_agg(DISTINCT m.name_as_written, ', ' ORDER BY m.name_as_written) AS waiting_names,
       string_agg(DISTINCT m.review_key, ', ' ORDER BY m.review_key) AS review_keys
FROM active_events e JOIN members_resolved m USING (event_id)
WHERE m.canonical_state = 'pending'
GROUP BY ALL;

-- Every spelling of a (canonical) player, merged players' spellings included.
CREATE VIEW player_spellings AS
SELECT c.canonical_id AS player_id, a.spelling, a.name_key, a.player_id AS written_for
FROM player_aliases a JOIN player_canonical c USING (player_id);

-- Players and the clubs they belong to: the register's club, clubs written next to their name,
-- and the organisers of events they played (the club roster used to decode initials).
CREATE VIEW player_club_links AS
SELECT player_id, club, 'register' AS source FROM players WHERE club IS NOT NULL
UNION
SELECT c.canonical_id, m.club, 'written' FROM unit_members m JOIN player_canonical c USING (player_id)
WHERE m.club IS NOT NULL AND m.club <> ''
UNION
SELECT c.canonical_id, e.organiser, 'organiser' FROM unit_members m
JOIN player_canonical c USING (player_id) JOIN active_events e USING (event_id)
WHERE e.organiser <> '';

-- A player's club for the lists: the register's, else the club last written next to the
-- player's name (merged players' results included).
CREATE OR REPLACE VIEW player_clubs AS
SELECT p.player_id, coalesce(p.club, w.club) AS club
FROM players p
LEFT JOIN (
    SELECT canonical_id AS player_id, club FROM (
        SELECT m.canonical_id, m.club,
               row_number() OVER (PARTITION BY m.canonical_id
                                  ORDER BY e.event_date DESC, e.event_id DESC) AS rn
        FROM members_resolved m JOIN active_events e USING (event_id)
        WHERE m.club IS NOT NULL AND m.club <> ''
    ) WHERE rn = 1
) w USING (player_id)
WHERE coalesce(p.club, w.club) IS NOT NULL;
