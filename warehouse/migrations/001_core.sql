-- Core schema: source files, canonical events, players, rating runs.
-- Rows are only ever appended; a correction is recorded in event_replacements, never by
-- updating or deleting the replaced event (so every loaded file can be traced and rebuilt).
-- Ids are assigned by the loader inside its transaction (no sequences: a rolled-back load must
-- leave the warehouse exactly as it was).

CREATE TABLE source_files (
    file_id     INTEGER PRIMARY KEY,
    sha256      VARCHAR NOT NULL UNIQUE,
    path        VARCHAR NOT NULL,      -- where the file came from (inbox path, source folder, URL)
    name        VARCHAR NOT NULL,      -- its file name
    size        BIGINT  NOT NULL,
    format      VARCHAR NOT NULL,      -- parser that read it
    raw_path    VARCHAR NOT NULL,      -- content-addressed copy, relative to the warehouse folder
    loaded_at   TIMESTAMP NOT NULL,
    status      VARCHAR NOT NULL,      -- 'loaded' or 'correction' (replaced at least one event)
    n_events    INTEGER NOT NULL,
    issues      VARCHAR NOT NULL       -- JSON list of the parser's issues
);

CREATE TABLE events (
    event_id    INTEGER PRIMARY KEY,
    file_id     INTEGER NOT NULL,      -- source_files.file_id
    game        VARCHAR NOT NULL,
    organiser   VARCHAR NOT NULL,
    event_date  DATE    NOT NULL,
    title       VARCHAR NOT NULL,
    section     VARCHAR NOT NULL,
    kind        VARCHAR NOT NULL,
    scoring     VARCHAR NOT NULL,
    boards      INTEGER,
    format      VARCHAR NOT NULL,
    n_units     INTEGER NOT NULL,
    end_date    DATE,
    round       INTEGER,
    parent      VARCHAR NOT NULL,
    handicap    INTEGER,
    komi        DOUBLE,
    deals       INTEGER,
    variant     VARCHAR,
    pulka       INTEGER,
    segment     INTEGER
);

CREATE TABLE units (
    event_id    INTEGER NOT NULL,
    unit_no     INTEGER NOT NULL,      -- position in the file, 1-based
    label       VARCHAR NOT NULL,
    place       DOUBLE,
    place_text  VARCHAR NOT NULL,
    score       DOUBLE,
    colour      VARCHAR,
    PRIMARY KEY (event_id, unit_no)
);

CREATE TABLE unit_members (
    event_id        INTEGER NOT NULL,
    unit_no         INTEGER NOT NULL,
    seat            INTEGER NOT NULL,  -- position within the unit, 1-based
    player_id       INTEGER NOT NULL,
    name_as_written VARCHAR NOT NULL,
    federation_id   VARCHAR,
    club            VARCHAR,
    initials        BOOLEAN NOT NULL,
    PRIMARY KEY (event_id, unit_no, seat)
);

CREATE TABLE event_replacements (
    event_id        INTEGER PRIMARY KEY,   -- the replaced event
    replaced_by     INTEGER NOT NULL,      -- the event that replaces it
    file_id         INTEGER NOT NULL,      -- the file that brought the correction
    replaced_at     TIMESTAMP NOT NULL
);

CREATE TABLE players (
    player_id       INTEGER PRIMARY KEY,
    name            VARCHAR NOT NULL,      -- display name: the first spelling seen
    name_key        VARCHAR NOT NULL,      -- normalised key (warehouse.identity.name_key)
    federation_id   VARCHAR,
    created_at      TIMESTAMP NOT NULL,
    created_by_file INTEGER NOT NULL
);

CREATE TABLE player_aliases (
    player_id       INTEGER NOT NULL,
    spelling        VARCHAR NOT NULL,      -- a name exactly as some file wrote it
    name_key        VARCHAR NOT NULL,
    first_file_id   INTEGER NOT NULL,
    PRIMARY KEY (player_id, spelling)
);

CREATE TABLE rating_runs (
    run_id          INTEGER PRIMARY KEY,
    pool            VARCHAR NOT NULL,      -- which list: e.g. 'bridge'
    scheme          VARCHAR NOT NULL,
    options         VARCHAR NOT NULL,      -- JSON: the full resolved configuration
    period_unit     VARCHAR NOT NULL,
    first_period    VARCHAR,
    last_period     VARCHAR,
    inputs_sha256   VARCHAR NOT NULL,      -- hash of the results frame and initial ratings
    code_version    VARCHAR NOT NULL,
    created_at      TIMESTAMP NOT NULL
);

CREATE TABLE ratings (
    run_id          INTEGER NOT NULL,
    period          VARCHAR NOT NULL,
    period_start    DATE NOT NULL,
    period_end      DATE NOT NULL,
    player_id       INTEGER NOT NULL,
    rating_before   DOUBLE NOT NULL,
    rating          DOUBLE NOT NULL,
    events          INTEGER NOT NULL,
    PRIMARY KEY (run_id, period, player_id)
);

CREATE TABLE rating_contributions (
    run_id          INTEGER NOT NULL,
    period          VARCHAR NOT NULL,
    event_id        INTEGER NOT NULL,
    player_id       INTEGER NOT NULL,
    unit_no         INTEGER NOT NULL,
    place           DOUBLE NOT NULL,
    n               INTEGER NOT NULL,
    r               DOUBLE,
    field_factor    DOUBLE,
    partner_factor  DOUBLE,
    weight          DOUBLE,
    norm_factor     DOUBLE,
    r_prime         DOUBLE,
    counted         BOOLEAN NOT NULL,
    reason          VARCHAR NOT NULL
);

CREATE TABLE rating_normalisations (
    run_id          INTEGER NOT NULL,
    period          VARCHAR NOT NULL,
    factor          DOUBLE NOT NULL
);

-- The events in force: every loaded event that no correction has replaced.
CREATE VIEW active_events AS
SELECT e.* FROM events e
WHERE NOT EXISTS (SELECT 1 FROM event_replacements r WHERE r.event_id = e.event_id);

-- Each player's club as last written in a result file (by event date, then load order).
CREATE VIEW player_clubs AS
SELECT player_id, club FROM (
    SELECT m.player_id, m.club,
           row_number() OVER (PARTITION BY m.player_id
                              ORDER BY e.event_date DESC, e.event_id DESC) AS rn
    FROM unit_members m JOIN active_events e USING (event_id)
    WHERE m.club IS NOT NULL AND m.club <> ''
) WHERE rn = 1;
