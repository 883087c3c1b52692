-- The events in force, kept in a table. Which events are in force is still derived, by the
-- rules of migration 016 (now the view events_in_force_rules): the table is derived again from
-- those rules inside every transaction that can change the answer (a load, a withdrawal or
-- restore, an answer to a held version or correction), so it is committed or rolled back with
-- the change itself; a load whose files are no new version, correction or second rendering of
-- anything only adds its events, as the rules would. Every reader of active_events reads the table: the rules
-- cost tens of milliseconds to plan each time a query names them, whatever the warehouse's
-- size, and a run named them in hundreds of queries.

CREATE VIEW events_in_force_rules AS
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

COMMENT ON VIEW events_in_force_rules IS 'Which events are in force, derived from the files, their versions, withdrawals, corrections and second renderings (docs/rules/inputs.md); events_in_force keeps its answer.';
COMMENT ON COLUMN events_in_force_rules.event_id IS 'the event''s id (assigned by the loader in load order)';
COMMENT ON COLUMN events_in_force_rules.file_id IS 'the file that brought it (source_files.file_id)';
COMMENT ON COLUMN events_in_force_rules.game IS 'bridge, go or preferans';
COMMENT ON COLUMN events_in_force_rules.organiser IS 'the club or body that ran it, as the file names it ('''' when the file does not say)';
COMMENT ON COLUMN events_in_force_rules.event_date IS 'the day it was played (the first day of a congress)';
COMMENT ON COLUMN events_in_force_rules.title IS 'the event''s name as written (a go game: tournament, round and the two players)';
COMMENT ON COLUMN events_in_force_rules.section IS 'the section or line it ranks: A, B, NS, EW (one event per ranking of a night), a go board, a preferans segment; '''' for a single ranking';
COMMENT ON COLUMN events_in_force_rules.kind IS 'individual, pairs, teams (bridge), game (go), table (preferans)';
COMMENT ON COLUMN events_in_force_rules.scoring IS 'MP, IMP, VP, BAM, hybrid or unknown (bridge), result (go), vists (preferans)';
COMMENT ON COLUMN events_in_force_rules.boards IS 'boards played (bridge; NULL when unknown): the event''s weight (docs/rules/bridge-belo.md §6)';
COMMENT ON COLUMN events_in_force_rules.format IS 'the parser that read it';
COMMENT ON COLUMN events_in_force_rules.n_units IS 'the number of units it ranks';
COMMENT ON COLUMN events_in_force_rules.end_date IS 'the last day of a congress or tournament played over several days, else NULL';
COMMENT ON COLUMN events_in_force_rules.round IS 'round of a go tournament or match number of a league, else NULL';
COMMENT ON COLUMN events_in_force_rules.parent IS 'the competition it belongs to (a league, a go tournament), '''' if none';
COMMENT ON COLUMN events_in_force_rules.handicap IS 'go: handicap stones (NULL or 0: an even game)';
COMMENT ON COLUMN events_in_force_rules.komi IS 'go: komi given to white';
COMMENT ON COLUMN events_in_force_rules.deals IS 'preferans: deals played at the table';
COMMENT ON COLUMN events_in_force_rules.variant IS 'preferans: the variant played (sochi, rostov or leningrad)';
COMMENT ON COLUMN events_in_force_rules.pulka IS 'preferans: the pulka length L, the points a game is played to';
COMMENT ON COLUMN events_in_force_rules.segment IS 'preferans: the segment of a table''s game, 1-based';

CREATE TABLE events_in_force (
    event_id    INTEGER NOT NULL       -- events.event_id
);
INSERT INTO events_in_force SELECT event_id FROM events_in_force_rules;

COMMENT ON TABLE events_in_force IS 'The events in force, as events_in_force_rules derives them: derived again in every transaction that can change them.';
COMMENT ON COLUMN events_in_force.event_id IS 'an event in force (events.event_id)';

CREATE OR REPLACE VIEW active_events AS
SELECT e.* FROM events e WHERE e.event_id IN (SELECT event_id FROM events_in_force);

COMMENT ON VIEW active_events IS 'The events in force: the current version of each file, corrections applied, held and withdrawn data and second renderings left out. Columns as events.';
COMMENT ON COLUMN active_events.event_id IS 'the event''s id (assigned by the loader in load order)';
COMMENT ON COLUMN active_events.file_id IS 'the file that brought it (source_files.file_id)';
COMMENT ON COLUMN active_events.game IS 'bridge, go or preferans';
COMMENT ON COLUMN active_events.organiser IS 'the club or body that ran it, as the file names it ('''' when the file does not say)';
COMMENT ON COLUMN active_events.event_date IS 'the day it was played (the first day of a congress)';
COMMENT ON COLUMN active_events.title IS 'the event''s name as written (a go game: tournament, round and the two players)';
COMMENT ON COLUMN active_events.section IS 'the section or line it ranks: A, B, NS, EW (one event per ranking of a night), a go board, a preferans segment; '''' for a single ranking';
COMMENT ON COLUMN active_events.kind IS 'individual, pairs, teams (bridge), game (go), table (preferans)';
COMMENT ON COLUMN active_events.scoring IS 'MP, IMP, VP, BAM, hybrid or unknown (bridge), result (go), vists (preferans)';
COMMENT ON COLUMN active_events.boards IS 'boards played (bridge; NULL when unknown): the event''s weight (docs/rules/bridge-belo.md §6)';
COMMENT ON COLUMN active_events.format IS 'the parser that read it';
COMMENT ON COLUMN active_events.n_units IS 'the number of units it ranks';
COMMENT ON COLUMN active_events.end_date IS 'the last day of a congress or tournament played over several days, else NULL';
COMMENT ON COLUMN active_events.round IS 'round of a go tournament or match number of a league, else NULL';
COMMENT ON COLUMN active_events.parent IS 'the competition it belongs to (a league, a go tournament), '''' if none';
COMMENT ON COLUMN active_events.handicap IS 'go: handicap stones (NULL or 0: an even game)';
COMMENT ON COLUMN active_events.komi IS 'go: komi given to white';
COMMENT ON COLUMN active_events.deals IS 'preferans: deals played at the table';
COMMENT ON COLUMN active_events.variant IS 'preferans: the variant played (sochi, rostov or leningrad)';
COMMENT ON COLUMN active_events.pulka IS 'preferans: the pulka length L, the points a game is played to';
COMMENT ON COLUMN active_events.segment IS 'preferans: the segment of a table''s game, 1-based';
