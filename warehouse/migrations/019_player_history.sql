-- A player's history without the periods that only carry a rating over, and a description of
-- every table, view and column of the warehouse (DuckDB comments: duckdb_tables(),
-- duckdb_views(), duckdb_columns(); docs/schema.md is generated from them by
-- `python -m warehouse._schema`, and tests/test_schema_docs.py fails on an object or column
-- without one).
--
-- `ratings` has a row for every player for every period of a run from the player's first
-- period on, many with 0 events. player_history keeps the periods in which the player played
-- (events played, counted or not, as the published lists count them: docs/site.md);
-- player_history_all adds the carried rows, marked (carried true, events 0).
--
-- A later migration that adds a table, view or column comments it (COMMENT ON ... IS '...');
-- one that re-creates a view (CREATE OR REPLACE VIEW) loses the view's comments and writes
-- them again.

CREATE OR REPLACE VIEW player_history_all AS
WITH placed AS (
    -- events played in a period, counted or not (a rule may leave a placement event out)
    SELECT c.run_id, c.period, c.player_id, count(DISTINCT c.event_id) AS n
    FROM rating_contributions c JOIN runs_in_force f ON f.run_id = c.run_id
    WHERE NOT coalesce(c.phantom, false)
    GROUP BY ALL
),
games AS (
    SELECT g.run_id, g.period, g.player_id, count(*) AS n
    FROM game_contributions g JOIN runs_in_force f ON f.run_id = g.run_id
    GROUP BY ALL
),
history AS (
    SELECT f.pool, r.run_id, r.period, r.period_start, r.period_end, r.player_id,
           p.name AS player, r.rating_before, r.rating, r.rating - r.rating_before AS change,
           greatest(r.events, coalesce(pl.n, 0), coalesce(g.n, 0))::INTEGER AS events,
           r.events AS counted, r.deviation
    FROM ratings r
    JOIN runs_in_force f ON f.run_id = r.run_id
    JOIN players p ON p.player_id = r.player_id
    LEFT JOIN placed pl
        ON pl.run_id = r.run_id AND pl.period = r.period AND pl.player_id = r.player_id
    LEFT JOIN games g
        ON g.run_id = r.run_id AND g.period = r.period AND g.player_id = r.player_id
)
SELECT pool, run_id, period, period_start, period_end, player_id, player, rating_before,
       rating, change, events, counted, events = 0 AS carried, deviation
FROM history;

CREATE OR REPLACE VIEW player_history AS
SELECT * FROM player_history_all WHERE NOT carried;

-- schema_migrations
COMMENT ON TABLE schema_migrations IS 'The migrations applied to this warehouse (warehouse/migrations/NNN_name.sql), one row each.';
COMMENT ON COLUMN schema_migrations.version IS 'the migration''s number NNN';
COMMENT ON COLUMN schema_migrations.name IS 'the migration''s name';
COMMENT ON COLUMN schema_migrations.applied_at IS 'when it was applied';

-- source_files
COMMENT ON TABLE source_files IS 'Every result file loaded, once per content (sha256); never deleted.';
COMMENT ON COLUMN source_files.file_id IS 'the file''s id, in load order';
COMMENT ON COLUMN source_files.sha256 IS 'hash of the file''s bytes: the same bytes are loaded once';
COMMENT ON COLUMN source_files.path IS 'where the file came from (inbox path, source folder, URL)';
COMMENT ON COLUMN source_files.name IS 'its file name';
COMMENT ON COLUMN source_files.size IS 'size in bytes';
COMMENT ON COLUMN source_files.format IS 'the parser that read it';
COMMENT ON COLUMN source_files.raw_path IS 'the content-addressed copy, relative to the warehouse folder (raw/ab/abcdef...)';
COMMENT ON COLUMN source_files.loaded_at IS 'when it was loaded';
COMMENT ON COLUMN source_files.status IS '''loaded'', or ''correction'' when it replaced at least one event';
COMMENT ON COLUMN source_files.n_events IS 'events the file brought';
COMMENT ON COLUMN source_files.issues IS 'JSON list of what the parser worked around';

-- events
COMMENT ON TABLE events IS 'Every event ever loaded (a night''s ranking, a section, a league match, a go game, a preferans table), in force or not; active_events are the ones in force.';
COMMENT ON COLUMN events.event_id IS 'the event''s id (assigned by the loader in load order)';
COMMENT ON COLUMN events.file_id IS 'the file that brought it (source_files.file_id)';
COMMENT ON COLUMN events.game IS 'bridge, go or preferans';
COMMENT ON COLUMN events.organiser IS 'the club or body that ran it, as the file names it ('''' when the file does not say)';
COMMENT ON COLUMN events.event_date IS 'the day it was played (the first day of a congress)';
COMMENT ON COLUMN events.title IS 'the event''s name as written (a go game: tournament, round and the two players)';
COMMENT ON COLUMN events.section IS 'the section or line it ranks: A, B, NS, EW (one event per ranking of a night), a go board, a preferans segment; '''' for a single ranking';
COMMENT ON COLUMN events.kind IS 'individual, pairs, teams (bridge), game (go), table (preferans)';
COMMENT ON COLUMN events.scoring IS 'MP, IMP, VP, BAM, hybrid or unknown (bridge), result (go), vists (preferans)';
COMMENT ON COLUMN events.boards IS 'boards played (bridge; NULL when unknown): the event''s weight (docs/rules/bridge-belo.md §6)';
COMMENT ON COLUMN events.format IS 'the parser that read it';
COMMENT ON COLUMN events.n_units IS 'the number of units it ranks';
COMMENT ON COLUMN events.end_date IS 'the last day of a congress or tournament played over several days, else NULL';
COMMENT ON COLUMN events.round IS 'round of a go tournament or match number of a league, else NULL';
COMMENT ON COLUMN events.parent IS 'the competition it belongs to (a league, a go tournament), '''' if none';
COMMENT ON COLUMN events.handicap IS 'go: handicap stones (NULL or 0: an even game)';
COMMENT ON COLUMN events.komi IS 'go: komi given to white';
COMMENT ON COLUMN events.deals IS 'preferans: deals played at the table';
COMMENT ON COLUMN events.variant IS 'preferans: the variant played (sochi, rostov or leningrad)';
COMMENT ON COLUMN events.pulka IS 'preferans: the pulka length L, the points a game is played to';
COMMENT ON COLUMN events.segment IS 'preferans: the segment of a table''s game, 1-based';

-- units
COMMENT ON TABLE units IS 'What each event ranks: a player, pair or team (bridge), a side (go), a seat (preferans).';
COMMENT ON COLUMN units.event_id IS 'the event (events.event_id)';
COMMENT ON COLUMN units.unit_no IS 'position in the file, 1-based';
COMMENT ON COLUMN units.label IS 'the unit''s label as written (pair or table number, team name)';
COMMENT ON COLUMN units.place IS 'the place as a number, 1 best; tied units share the mean of their places; NULL when not ranked';
COMMENT ON COLUMN units.place_text IS 'the place as written (e.g. 5-6)';
COMMENT ON COLUMN units.score IS 'the score as written (percent, IMPs, VPs; preferans: vists)';
COMMENT ON COLUMN units.colour IS 'go: black or white (NULL when the file does not say)';

-- unit_members
COMMENT ON TABLE unit_members IS 'The players of each unit as the file named them, and who each was identified as.';
COMMENT ON COLUMN unit_members.event_id IS 'the event (events.event_id)';
COMMENT ON COLUMN unit_members.unit_no IS 'the unit (units.unit_no)';
COMMENT ON COLUMN unit_members.seat IS 'position within the unit, 1-based';
COMMENT ON COLUMN unit_members.player_id IS 'the player the name was identified as, when loaded (players.player_id; merges later may make another player canonical)';
COMMENT ON COLUMN unit_members.name_as_written IS 'the name exactly as the file wrote it';
COMMENT ON COLUMN unit_members.federation_id IS 'federation member id written in the file, if any';
COMMENT ON COLUMN unit_members.club IS 'club written next to the name in the file, if any';
COMMENT ON COLUMN unit_members.initials IS 'true when the file wrote initials (JNo) instead of a name';
COMMENT ON COLUMN unit_members.how IS 'how the name was identified: federation id, name key, name key in club, initials: ..., new player, waiting for review';
COMMENT ON COLUMN unit_members.evidence IS 'JSON: the evidence for an initials or fuzzy match (NULL for an exact one)';
COMMENT ON COLUMN unit_members.review_key IS 'the review item (review_items.item_key) when the name waits for a person, else NULL';

-- event_replacements
COMMENT ON TABLE event_replacements IS 'Audit trail of corrections: which event re-wrote which (an event may appear more than once).';
COMMENT ON COLUMN event_replacements.event_id IS 'the replaced event';
COMMENT ON COLUMN event_replacements.replaced_by IS 'the event that replaced it';
COMMENT ON COLUMN event_replacements.file_id IS 'the file that brought the correction';
COMMENT ON COLUMN event_replacements.replaced_at IS 'when';

-- players
COMMENT ON TABLE players IS 'One row per player ever known, merged-away players included (see player_canonical).';
COMMENT ON COLUMN players.player_id IS 'the player''s id';
COMMENT ON COLUMN players.name IS 'display name: the first spelling seen (a register member''s: the register''s), renamed when a fixed spelling is accepted in review';
COMMENT ON COLUMN players.name_key IS 'normalised name key (warehouse.identity.name_key)';
COMMENT ON COLUMN players.federation_id IS 'member id in the federation''s register';
COMMENT ON COLUMN players.created_at IS 'when the player was created';
COMMENT ON COLUMN players.created_by_file IS 'the file whose load created the player (0: a register)';
COMMENT ON COLUMN players.state IS '''confirmed'' (a person), ''provisional'' (known only by initials), ''pending'' (waits in the review queue; its events are not rated)';
COMMENT ON COLUMN players.origin IS 'where the player came from: register, results, initials, review';
COMMENT ON COLUMN players.first_name IS 'first name from the register';
COMMENT ON COLUMN players.surname IS 'surname from the register';
COMMENT ON COLUMN players.club IS 'club in the latest register';
COMMENT ON COLUMN players.birth_year IS 'birth year from the register';
COMMENT ON COLUMN players.status IS 'register status as written';

-- player_aliases
COMMENT ON TABLE player_aliases IS 'Every spelling of a player''s name some file wrote.';
COMMENT ON COLUMN player_aliases.player_id IS 'the player';
COMMENT ON COLUMN player_aliases.spelling IS 'the name exactly as written';
COMMENT ON COLUMN player_aliases.name_key IS 'its normalised key';
COMMENT ON COLUMN player_aliases.first_file_id IS 'the first file that wrote it';

-- rating_runs
COMMENT ON TABLE rating_runs IS 'One row per rating run: a pool rated by a scheme over its periods; runs_in_force says which one a pool''s lists come from.';
COMMENT ON COLUMN rating_runs.run_id IS 'the run''s id';
COMMENT ON COLUMN rating_runs.pool IS 'the list it rates (a [[pools]] name: bridge, go, preferans)';
COMMENT ON COLUMN rating_runs.scheme IS 'the rating scheme (belo, belo2, whr, rfg, makarov ...)';
COMMENT ON COLUMN rating_runs.options IS 'JSON: the full resolved configuration';
COMMENT ON COLUMN rating_runs.period_unit IS 'quarter, month, year ('''' for one period per tournament)';
COMMENT ON COLUMN rating_runs.first_period IS 'label of the first period rated';
COMMENT ON COLUMN rating_runs.last_period IS 'label of the last period rated';
COMMENT ON COLUMN rating_runs.inputs_sha256 IS 'hash of the results and initial ratings: a recompute with equal inputs reuses the run';
COMMENT ON COLUMN rating_runs.code_version IS 'version of the code that computed it';
COMMENT ON COLUMN rating_runs.created_at IS 'when it was computed';

-- ratings
COMMENT ON TABLE ratings IS 'Every player''s rating for every period of a run, from the player''s first period through the last: many rows only carry the rating over (player_history leaves those out).';
COMMENT ON COLUMN ratings.run_id IS 'the rating run (rating_runs.run_id)';
COMMENT ON COLUMN ratings.period IS 'the period''s label (2013Q4, 2013-03, or a go tournament''s date and name)';
COMMENT ON COLUMN ratings.period_start IS 'first day of the period';
COMMENT ON COLUMN ratings.period_end IS 'last day of the period';
COMMENT ON COLUMN ratings.player_id IS 'the player (canonical players.player_id)';
COMMENT ON COLUMN ratings.rating_before IS 'the rating at the start of the period';
COMMENT ON COLUMN ratings.rating IS 'the rating at the end of the period';
COMMENT ON COLUMN ratings.events IS 'events (go: games) the scheme counted in the period; 0 when none counted (player_history_all.events counts those played)';
COMMENT ON COLUMN ratings.deviation_before IS 'go schemes: the rating deviation at the start of the period (NULL elsewhere)';
COMMENT ON COLUMN ratings.deviation IS 'go schemes: the rating deviation at the end of the period (NULL elsewhere)';
COMMENT ON COLUMN ratings.anomaly IS 'RFG: the anomaly correction of the period (docs/rules/go-rfg.md; NULL elsewhere)';
COMMENT ON COLUMN ratings.entry IS 'RFG: true in the period the player entered with a declared grade (NULL elsewhere)';
COMMENT ON COLUMN ratings.deals IS 'preferans: deals played in the period (NULL elsewhere)';
COMMENT ON COLUMN ratings.vists IS 'preferans: vists scored in the period (NULL elsewhere)';

-- rating_contributions
COMMENT ON TABLE rating_contributions IS 'Per run, period, event and player: how the event entered the rating (docs/rules/bridge-belo.md §13).';
COMMENT ON COLUMN rating_contributions.run_id IS 'the rating run (rating_runs.run_id)';
COMMENT ON COLUMN rating_contributions.period IS 'the rating period the event belongs to';
COMMENT ON COLUMN rating_contributions.event_id IS 'the event (events.event_id)';
COMMENT ON COLUMN rating_contributions.player_id IS 'the player (canonical players.player_id); for a phantom row, the newcomer''s id';
COMMENT ON COLUMN rating_contributions.unit_no IS 'the player''s unit in the event';
COMMENT ON COLUMN rating_contributions.place IS 'the unit''s place u (tied units share the mean of their places)';
COMMENT ON COLUMN rating_contributions.n IS 'ranked units in the event';
COMMENT ON COLUMN rating_contributions.r IS 'the contribution r = 1000 (n + 0.5 - u) / n (docs/rules/bridge-belo.md §1)';
COMMENT ON COLUMN rating_contributions.field_factor IS 'the field strength factor: k (belo) or c (belo2) (docs/rules/bridge-belo.md §3)';
COMMENT ON COLUMN rating_contributions.partner_factor IS 'the partner correction l (docs/rules/bridge-belo.md §4)';
COMMENT ON COLUMN rating_contributions.weight IS 'the event weight v (docs/rules/bridge-belo.md §6 and §7)';
COMMENT ON COLUMN rating_contributions.norm_factor IS 'the per-event normalisation factor f (docs/rules/bridge-belo.md §9)';
COMMENT ON COLUMN rating_contributions.r_prime IS 'the effective contribution r'' after all corrections';
COMMENT ON COLUMN rating_contributions.counted IS 'whether the event counted for this player';
COMMENT ON COLUMN rating_contributions.reason IS 'why it did not count (e.g. ''skip rule''); '''' when it counted';
COMMENT ON COLUMN rating_contributions.phantom IS 'true for a row of the newcomer''s hidden phantom (docs/rules/bridge-belo.md §10)';
COMMENT ON COLUMN rating_contributions.expected IS 'whr: the place the fitted strengths expected for the unit (NULL for BELO)';
COMMENT ON COLUMN rating_contributions.gradient IS 'whr: the event''s pull on the player''s strength of the period (NULL for BELO)';
COMMENT ON COLUMN rating_contributions.moved IS 'whr: rating points the period''s estimate would lose without the event (NULL for BELO)';

-- rating_normalisations
COMMENT ON TABLE rating_normalisations IS 'The periodic normalisation factor of a run''s period (docs/rules/bridge-belo.md §9).';
COMMENT ON COLUMN rating_normalisations.run_id IS 'the rating run';
COMMENT ON COLUMN rating_normalisations.period IS 'the period after which it was applied';
COMMENT ON COLUMN rating_normalisations.factor IS 'every rated player''s rating was multiplied by it';

-- registers
COMMENT ON TABLE registers IS 'Every federation member register loaded.';
COMMENT ON COLUMN registers.register_id IS 'the register''s id, in load order';
COMMENT ON COLUMN registers.sha256 IS 'hash of the file: the same file is loaded once';
COMMENT ON COLUMN registers.path IS 'where it came from';
COMMENT ON COLUMN registers.name IS 'its file name';
COMMENT ON COLUMN registers.sheet IS 'the sheet read (a workbook), else NULL';
COMMENT ON COLUMN registers.loaded_at IS 'when it was loaded';
COMMENT ON COLUMN registers.n_members IS 'member lines read';
COMMENT ON COLUMN registers.n_new IS 'players it created';
COMMENT ON COLUMN registers.n_updated IS 'players whose register details it changed';

-- register_entries
COMMENT ON TABLE register_entries IS 'Every member line of every register loaded (append-only history).';
COMMENT ON COLUMN register_entries.register_id IS 'the register (registers.register_id)';
COMMENT ON COLUMN register_entries.federation_id IS 'the member''s id';
COMMENT ON COLUMN register_entries.player_id IS 'the player it is';
COMMENT ON COLUMN register_entries.first_name IS 'first name as written';
COMMENT ON COLUMN register_entries.surname IS 'surname as written';
COMMENT ON COLUMN register_entries.club IS 'club as written';
COMMENT ON COLUMN register_entries.birth_year IS 'birth year';
COMMENT ON COLUMN register_entries.status IS 'status as written';
COMMENT ON COLUMN register_entries.row_no IS 'line of the register';

-- review_items
COMMENT ON TABLE review_items IS 'Names that could not be decided by rule and wait for a person (clubratings review).';
COMMENT ON COLUMN review_items.item_key IS 'the item''s key (one per situation)';
COMMENT ON COLUMN review_items.kind IS '''initials'' or ''name''';
COMMENT ON COLUMN review_items.name_as_written IS 'the name as the file wrote it';
COMMENT ON COLUMN review_items.club IS 'club written next to it, if any';
COMMENT ON COLUMN review_items.player_id IS 'the pending player holding its results meanwhile';
COMMENT ON COLUMN review_items.candidates IS 'JSON list of candidates: player_id, name, club, score, evidence';
COMMENT ON COLUMN review_items.evidence IS 'JSON: what was looked at';
COMMENT ON COLUMN review_items.first_event_id IS 'the first event it appeared in';
COMMENT ON COLUMN review_items.created_at IS 'when it was queued';
COMMENT ON COLUMN review_items.status IS '''open'' or ''resolved''';
COMMENT ON COLUMN review_items.decision_id IS 'the decision that resolved it (identity_decisions.decision_id)';

-- identity_decisions
COMMENT ON TABLE identity_decisions IS 'Every review answer, merge and split, in the order made; exported as the decisions file (identity/decisions.csv).';
COMMENT ON COLUMN identity_decisions.decision_id IS 'content hash: the same decision is applied once';
COMMENT ON COLUMN identity_decisions.seq IS 'order in which it was made';
COMMENT ON COLUMN identity_decisions.made_at IS 'when it was made';
COMMENT ON COLUMN identity_decisions.after_file IS 'sha256 of the newest result file loaded when it was made';
COMMENT ON COLUMN identity_decisions.action IS 'pick, new, different, merge or split';
COMMENT ON COLUMN identity_decisions.item_key IS 'the review item answered, if any';
COMMENT ON COLUMN identity_decisions.player_id IS 'the player the decision is about';
COMMENT ON COLUMN identity_decisions.player_name IS 'that player''s name when decided';
COMMENT ON COLUMN identity_decisions.federation_id IS 'that player''s federation id when decided';
COMMENT ON COLUMN identity_decisions.other_id IS 'merge: the player merged away';
COMMENT ON COLUMN identity_decisions.other_name IS 'merge: that player''s name';
COMMENT ON COLUMN identity_decisions.other_federation_id IS 'merge: that player''s federation id';
COMMENT ON COLUMN identity_decisions.note IS 'free text';
COMMENT ON COLUMN identity_decisions.applied_at IS 'when it was applied; NULL while waiting for after_file to be loaded';

-- identity_rules
COMMENT ON TABLE identity_rules IS 'Rules every later load obeys, from the decisions.';
COMMENT ON COLUMN identity_rules.rule_kind IS '''alias'' (a name key is this player), ''situation'' (this review situation is this player), ''non_match'' (is NOT this player)';
COMMENT ON COLUMN identity_rules.rule_key IS 'the name key or situation';
COMMENT ON COLUMN identity_rules.player_id IS 'the player';
COMMENT ON COLUMN identity_rules.decision_id IS 'the decision that made the rule';

-- player_merges
COMMENT ON TABLE player_merges IS 'Players merged into others; a split ends a merge (split_at).';
COMMENT ON COLUMN player_merges.merge_id IS 'the merge''s id';
COMMENT ON COLUMN player_merges.player_id IS 'the player merged away';
COMMENT ON COLUMN player_merges.into_player_id IS 'the player kept';
COMMENT ON COLUMN player_merges.merged_at IS 'when';
COMMENT ON COLUMN player_merges.decision_id IS 'the decision that made it';
COMMENT ON COLUMN player_merges.reason IS 'why';
COMMENT ON COLUMN player_merges.split_at IS 'when a split undid it; NULL: the merge holds';
COMMENT ON COLUMN player_merges.split_decision IS 'the decision that split it';

-- rating_phantoms
COMMENT ON TABLE rating_phantoms IS 'Each newcomer''s hidden phantom per period of a run (docs/rules/bridge-belo.md §10); never published.';
COMMENT ON COLUMN rating_phantoms.run_id IS 'the rating run';
COMMENT ON COLUMN rating_phantoms.period IS 'the period';
COMMENT ON COLUMN rating_phantoms.player_id IS 'the newcomer';
COMMENT ON COLUMN rating_phantoms.rating_before IS 'the phantom''s rating at the start of the period';
COMMENT ON COLUMN rating_phantoms.rating IS 'at the end';
COMMENT ON COLUMN rating_phantoms.events IS 'rated events the phantom still has to go (not events played)';
COMMENT ON COLUMN rating_phantoms.state IS '''active'', ''dormant'' or ''retired''';

-- rating_startup
COMMENT ON TABLE rating_startup IS 'Start-up passes of a run over the history before the cut-over (docs/rules/bridge-belo.md §11).';
COMMENT ON COLUMN rating_startup.run_id IS 'the rating run';
COMMENT ON COLUMN rating_startup.pass IS 'the pass, 1-based';
COMMENT ON COLUMN rating_startup.max_change IS 'the largest rating change of the pass';
COMMENT ON COLUMN rating_startup.mean_before_normalisation IS 'the mean rating before the pass''s normalisation';

-- game_contributions
COMMENT ON TABLE game_contributions IS 'Game-based schemes (go): one row per game per player of a run.';
COMMENT ON COLUMN game_contributions.run_id IS 'the rating run';
COMMENT ON COLUMN game_contributions.period IS 'the period (go: a tournament)';
COMMENT ON COLUMN game_contributions.player_id IS 'the player';
COMMENT ON COLUMN game_contributions.opponent_id IS 'the opponent';
COMMENT ON COLUMN game_contributions.result IS '1 win, 0 loss, 0.5 jigo';
COMMENT ON COLUMN game_contributions.handicap IS 'handicap stones';
COMMENT ON COLUMN game_contributions.colour IS '''b'' or ''w'': the player''s colour';
COMMENT ON COLUMN game_contributions.expected IS 'the scheme''s expected result';
COMMENT ON COLUMN game_contributions.weight IS 'the opponent''s influence (RFG B), 1 elsewhere';
COMMENT ON COLUMN game_contributions.change IS 'the game''s part of the player''s rating change (RFG: K B (S - E)); NULL when not split';

-- file_withdrawals
COMMENT ON TABLE file_withdrawals IS 'Files taken back (clubratings files withdraw); an undo sets undone_at.';
COMMENT ON COLUMN file_withdrawals.withdrawal_id IS 'the withdrawal''s id';
COMMENT ON COLUMN file_withdrawals.file_id IS 'the file (source_files.file_id)';
COMMENT ON COLUMN file_withdrawals.withdrawn_at IS 'when';
COMMENT ON COLUMN file_withdrawals.reason IS 'why';
COMMENT ON COLUMN file_withdrawals.undone_at IS 'when the withdrawal was undone; NULL: in force';

-- current_runs
COMMENT ON TABLE current_runs IS 'The run each pool''s last recompute made or reused.';
COMMENT ON COLUMN current_runs.pool IS 'the pool';
COMMENT ON COLUMN current_runs.run_id IS 'the run';
COMMENT ON COLUMN current_runs.chosen_at IS 'when the last recompute confirmed it';

-- file_holds
COMMENT ON TABLE file_holds IS 'Files held for confirmation of their dates (clubratings files release); the row stays as audit trail.';
COMMENT ON COLUMN file_holds.file_id IS 'the file';
COMMENT ON COLUMN file_holds.reason IS 'why it is held';
COMMENT ON COLUMN file_holds.held_at IS 'when';
COMMENT ON COLUMN file_holds.released_at IS 'when it was confirmed; NULL: held';

-- segment_contributions
COMMENT ON TABLE segment_contributions IS 'Preferans: one row per player per game segment of a run (clubratings explain).';
COMMENT ON COLUMN segment_contributions.run_id IS 'the rating run';
COMMENT ON COLUMN segment_contributions.period IS 'the period';
COMMENT ON COLUMN segment_contributions.player_id IS 'the player';
COMMENT ON COLUMN segment_contributions.game IS 'the game (organiser / title)';
COMMENT ON COLUMN segment_contributions.segment IS 'the segment, 1-based';
COMMENT ON COLUMN segment_contributions.date IS 'the day played';
COMMENT ON COLUMN segment_contributions.deals IS 'deals in the segment';
COMMENT ON COLUMN segment_contributions.vists IS 'vists the player scored';
COMMENT ON COLUMN segment_contributions.table_rating IS 'mean rating of the players at the table';
COMMENT ON COLUMN segment_contributions.rating_before IS 'the player''s rating before';
COMMENT ON COLUMN segment_contributions.change IS 'the rating change the segment brought';

-- correction_holds
COMMENT ON TABLE correction_holds IS 'Corrections that would remove data, waiting for a person (clubratings review).';
COMMENT ON COLUMN correction_holds.event_id IS 'the held new version (events.event_id)';
COMMENT ON COLUMN correction_holds.replaces IS 'the version in force it would replace';
COMMENT ON COLUMN correction_holds.file_id IS 'the file that brought it';
COMMENT ON COLUMN correction_holds.reason IS 'why it is held';
COMMENT ON COLUMN correction_holds.held_at IS 'when';
COMMENT ON COLUMN correction_holds.decision IS 'NULL waiting, ''accepted'', ''kept'' or ''separate'' (another event of the night)';
COMMENT ON COLUMN correction_holds.decided_at IS 'when answered';
COMMENT ON COLUMN correction_holds.note IS 'the answer''s note';

-- event_twins
COMMENT ON TABLE event_twins IS 'Second renderings of the same results (docs/rules/inputs.md, ''One night, many files'').';
COMMENT ON COLUMN event_twins.event_id IS 'the later rendering';
COMMENT ON COLUMN event_twins.same_as IS 'the first rendering, in force when this one came';
COMMENT ON COLUMN event_twins.file_id IS 'the file that brought the later rendering';
COMMENT ON COLUMN event_twins.found_at IS 'when';

-- file_versions
COMMENT ON TABLE file_versions IS 'Which file supersedes which (docs/rules/inputs.md, ''Versions of a file'').';
COMMENT ON COLUMN file_versions.file_id IS 'the file';
COMMENT ON COLUMN file_versions.chain IS 'the first file of its chain of versions';
COMMENT ON COLUMN file_versions.previous IS 'the version it supersedes; NULL: the first';
COMMENT ON COLUMN file_versions.hold IS 'why it waits for a person; '''' not held';
COMMENT ON COLUMN file_versions.decision IS 'a held version: NULL waiting, ''accepted'' or ''kept''';
COMMENT ON COLUMN file_versions.decided_at IS 'when answered';
COMMENT ON COLUMN file_versions.note IS 'the answer''s note';

-- file_actions
COMMENT ON TABLE file_actions IS 'What people did to loaded files and when: the audit trail (clubratings files history).';
COMMENT ON COLUMN file_actions.action_id IS 'the action''s id, in order';
COMMENT ON COLUMN file_actions.file_id IS 'the file';
COMMENT ON COLUMN file_actions.action IS 'withdrawn, restored, released, accepted, kept or separate';
COMMENT ON COLUMN file_actions.acted_at IS 'when';
COMMENT ON COLUMN file_actions.by_user IS 'the account that did it ('''' before this was kept)';
COMMENT ON COLUMN file_actions.note IS 'reason or note given';

-- list_entries
COMMENT ON TABLE list_entries IS 'The published lists row by row, written by the publisher: every player of every edition of a pool''s run (opted-out players left out). Read it through edition_entries.';
COMMENT ON COLUMN list_entries.run_id IS 'the rating run the edition comes from';
COMMENT ON COLUMN list_entries.pool IS 'the pool';
COMMENT ON COLUMN list_entries.edition IS 'the edition''s period label (2015Q1, 2013-03, a go tournament)';
COMMENT ON COLUMN list_entries.period_start IS 'first day of the edition''s period';
COMMENT ON COLUMN list_entries.period_end IS 'last day of the edition''s period';
COMMENT ON COLUMN list_entries.player_id IS 'the player';
COMMENT ON COLUMN list_entries.rank IS 'rank among the ranked players (ties share a rank); NULL for provisional and inactive';
COMMENT ON COLUMN list_entries.standing IS 'where the edition lists the player: ranked, provisional or inactive';
COMMENT ON COLUMN list_entries.status IS 'in the edition''s period: new (first edition), played, or absent';
COMMENT ON COLUMN list_entries.rating IS 'the rating in the edition';
COMMENT ON COLUMN list_entries.change IS 'change since the player''s previous edition; NULL when new';
COMMENT ON COLUMN list_entries.events_period IS 'events (go, preferans: games) played in the edition''s period, counted or not';
COMMENT ON COLUMN list_entries.events_year IS 'events played in the active window: the periods that end less than active_days (default 365) days before the edition''s period ends, its own included (0: inactive)';
COMMENT ON COLUMN list_entries.events_total IS 'events played in the run so far, up to and including the edition';
COMMENT ON COLUMN list_entries.last_played IS 'the period of the player''s last event up to this edition';
COMMENT ON COLUMN list_entries.club IS 'the player''s club as listed: the register''s, else the club the files named last up to the period''s end, else (bridge, preferans) the organiser of the player''s last event';

-- active_events
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

-- player_clubs
COMMENT ON VIEW player_clubs IS 'A player''s club for the lists: the register''s, else the club last written next to the name.';
COMMENT ON COLUMN player_clubs.player_id IS 'the (canonical) player';
COMMENT ON COLUMN player_clubs.club IS 'the club';

-- player_canonical
COMMENT ON VIEW player_canonical IS 'Each player''s canonical player, following the merges in force (a -> b -> c ends at c).';
COMMENT ON COLUMN player_canonical.player_id IS 'any player';
COMMENT ON COLUMN player_canonical.canonical_id IS 'the player its results count for';

-- members_resolved
COMMENT ON VIEW members_resolved IS 'Unit members with the player their results count for (merges applied). Columns as unit_members, plus canonical_id and canonical_state.';
COMMENT ON COLUMN members_resolved.event_id IS 'the event (events.event_id)';
COMMENT ON COLUMN members_resolved.unit_no IS 'the unit (units.unit_no)';
COMMENT ON COLUMN members_resolved.seat IS 'position within the unit, 1-based';
COMMENT ON COLUMN members_resolved.player_id IS 'the player the name was identified as, when loaded (players.player_id; merges later may make another player canonical)';
COMMENT ON COLUMN members_resolved.name_as_written IS 'the name exactly as the file wrote it';
COMMENT ON COLUMN members_resolved.federation_id IS 'federation member id written in the file, if any';
COMMENT ON COLUMN members_resolved.club IS 'club written next to the name in the file, if any';
COMMENT ON COLUMN members_resolved.initials IS 'true when the file wrote initials (JNo) instead of a name';
COMMENT ON COLUMN members_resolved.how IS 'how the name was identified: federation id, name key, name key in club, initials: ..., new player, waiting for review';
COMMENT ON COLUMN members_resolved.evidence IS 'JSON: the evidence for an initials or fuzzy match (NULL for an exact one)';
COMMENT ON COLUMN members_resolved.review_key IS 'the review item (review_items.item_key) when the name waits for a person, else NULL';
COMMENT ON COLUMN members_resolved.canonical_id IS 'the canonical player (player_canonical)';
COMMENT ON COLUMN members_resolved.canonical_state IS 'that player''s state (confirmed, provisional, pending)';

-- unrated_events
COMMENT ON VIEW unrated_events IS 'Events in force that cannot be rated yet: a member waits for review, or the file is held for its dates.';
COMMENT ON COLUMN unrated_events.event_id IS 'the event';
COMMENT ON COLUMN unrated_events.organiser IS 'its organiser';
COMMENT ON COLUMN unrated_events.event_date IS 'its date';
COMMENT ON COLUMN unrated_events.title IS 'its title';
COMMENT ON COLUMN unrated_events.section IS 'its section';
COMMENT ON COLUMN unrated_events.waiting_names IS 'the names waiting for review, comma-separated ('''' for a held file)';
COMMENT ON COLUMN unrated_events.review_keys IS 'the review items, or ''held: '' and the reason';

-- player_spellings
COMMENT ON VIEW player_spellings IS 'Every spelling of a canonical player, merged players'' spellings included.';
COMMENT ON COLUMN player_spellings.player_id IS 'the canonical player';
COMMENT ON COLUMN player_spellings.spelling IS 'a spelling as written';
COMMENT ON COLUMN player_spellings.name_key IS 'its normalised key';
COMMENT ON COLUMN player_spellings.written_for IS 'the player it was first written for (before merges)';

-- player_club_links
COMMENT ON VIEW player_club_links IS 'Players and the clubs they belong to (the roster used to decode initials).';
COMMENT ON COLUMN player_club_links.player_id IS 'the canonical player';
COMMENT ON COLUMN player_club_links.club IS 'a club';
COMMENT ON COLUMN player_club_links.source IS 'register (the register''s club), written (next to the name in a file), organiser (of an event played)';

-- rating_explanations
COMMENT ON VIEW rating_explanations IS 'What each event did to a player''s rating in a run (docs/rules/bridge-belo.md §13), the player''s own rows (not the phantom''s).';
COMMENT ON COLUMN rating_explanations.run_id IS 'the rating run';
COMMENT ON COLUMN rating_explanations.player_id IS 'the player';
COMMENT ON COLUMN rating_explanations.period IS 'the period';
COMMENT ON COLUMN rating_explanations.event_id IS 'the event';
COMMENT ON COLUMN rating_explanations.event_date IS 'its date';
COMMENT ON COLUMN rating_explanations.title IS 'its title';
COMMENT ON COLUMN rating_explanations.section IS 'its section';
COMMENT ON COLUMN rating_explanations.organiser IS 'its organiser';
COMMENT ON COLUMN rating_explanations.unit_no IS 'the player''s unit in the event';
COMMENT ON COLUMN rating_explanations.place IS 'the unit''s place u (tied units share the mean of their places)';
COMMENT ON COLUMN rating_explanations.n IS 'ranked units in the event';
COMMENT ON COLUMN rating_explanations.r IS 'the contribution r = 1000 (n + 0.5 - u) / n (docs/rules/bridge-belo.md §1)';
COMMENT ON COLUMN rating_explanations.field_factor IS 'the field strength factor: k (belo) or c (belo2) (docs/rules/bridge-belo.md §3)';
COMMENT ON COLUMN rating_explanations.partner_factor IS 'the partner correction l (docs/rules/bridge-belo.md §4)';
COMMENT ON COLUMN rating_explanations.weight IS 'the event weight v (docs/rules/bridge-belo.md §6 and §7)';
COMMENT ON COLUMN rating_explanations.norm_factor IS 'the per-event normalisation factor f (docs/rules/bridge-belo.md §9)';
COMMENT ON COLUMN rating_explanations.r_prime IS 'the effective contribution r'' after all corrections';
COMMENT ON COLUMN rating_explanations.counted IS 'whether the event counted for this player';
COMMENT ON COLUMN rating_explanations.reason IS 'why it did not count (e.g. ''skip rule''); '''' when it counted';
COMMENT ON COLUMN rating_explanations.rating_before IS 'the player''s rating at the start of the period';
COMMENT ON COLUMN rating_explanations.rating IS 'at the end of the period';
COMMENT ON COLUMN rating_explanations.periodic_factor IS 'the period''s normalisation factor (1 when none)';
COMMENT ON COLUMN rating_explanations.share IS 'the event''s part of the period''s change before the periodic normalisation (0 when not counted)';
COMMENT ON COLUMN rating_explanations.phantom_r_prime IS 'r'' of the newcomer''s phantom in the event, if any';
COMMENT ON COLUMN rating_explanations.phantom_share IS 'the phantom''s share, if any';

-- rating_partners
COMMENT ON VIEW rating_partners IS 'Per run and player, each partner (another member of a unit): counted events together and the mean r''.';
COMMENT ON COLUMN rating_partners.run_id IS 'the rating run';
COMMENT ON COLUMN rating_partners.player_id IS 'the player';
COMMENT ON COLUMN rating_partners.partner_id IS 'the partner (canonical)';
COMMENT ON COLUMN rating_partners.events IS 'counted events together';
COMMENT ON COLUMN rating_partners.mean_r_prime IS 'the player''s mean effective contribution r'' over them';
COMMENT ON COLUMN rating_partners.first_period IS 'first period together';
COMMENT ON COLUMN rating_partners.last_period IS 'last period together';

-- go_games
COMMENT ON VIEW go_games IS 'Every go game in force and rateable, from black''s side (the side listed first when no colours were written).';
COMMENT ON COLUMN go_games.event_id IS 'the game''s event';
COMMENT ON COLUMN go_games.date IS 'the day played';
COMMENT ON COLUMN go_games.tournament IS 'the tournament (events.parent)';
COMMENT ON COLUMN go_games.round IS 'the round';
COMMENT ON COLUMN go_games.black IS 'black''s canonical player';
COMMENT ON COLUMN go_games.white IS 'white''s canonical player';
COMMENT ON COLUMN go_games.black_result IS '1 black won, 0 white won, 0.5 jigo';
COMMENT ON COLUMN go_games.handicap IS 'handicap stones (0 even)';
COMMENT ON COLUMN go_games.komi IS 'komi';

-- preferans_games
COMMENT ON VIEW preferans_games IS 'One row per seated player per preferans game segment in force and rateable.';
COMMENT ON COLUMN preferans_games.game IS 'organiser / title';
COMMENT ON COLUMN preferans_games.date IS 'the day played';
COMMENT ON COLUMN preferans_games.variant IS 'the variant';
COMMENT ON COLUMN preferans_games.deals IS 'deals played';
COMMENT ON COLUMN preferans_games.length IS 'the pulka length (0 unknown)';
COMMENT ON COLUMN preferans_games.player IS 'the canonical player';
COMMENT ON COLUMN preferans_games.vists IS 'vists scored';
COMMENT ON COLUMN preferans_games.segment IS 'the segment, 1-based';
COMMENT ON COLUMN preferans_games.event_id IS 'the segment''s event';

-- withdrawn_files
COMMENT ON VIEW withdrawn_files IS 'Files whose withdrawal is in force.';
COMMENT ON COLUMN withdrawn_files.file_id IS 'the withdrawn file';

-- eligible_files
COMMENT ON VIEW eligible_files IS 'Files that may be in force: not withdrawn, not a held version (unless accepted).';
COMMENT ON COLUMN eligible_files.file_id IS 'the file';
COMMENT ON COLUMN eligible_files.chain IS 'its chain of versions';

-- current_files
COMMENT ON VIEW current_files IS 'The version in force of each chain of versions: its latest eligible file.';
COMMENT ON COLUMN current_files.file_id IS 'the file in force';
COMMENT ON COLUMN current_files.chain IS 'its chain';

-- runs_in_force
COMMENT ON VIEW runs_in_force IS 'The run each pool''s lists come from: its current run, else its newest.';
COMMENT ON COLUMN runs_in_force.run_id IS 'the run';
COMMENT ON COLUMN runs_in_force.pool IS 'the pool';
COMMENT ON COLUMN runs_in_force.scheme IS 'its scheme';

-- edition_entries
COMMENT ON VIEW edition_entries IS 'The published lists: one row per player per edition of each pool''s run in force, with the name.';
COMMENT ON COLUMN edition_entries.pool IS 'the pool';
COMMENT ON COLUMN edition_entries.edition IS 'the edition''s period label';
COMMENT ON COLUMN edition_entries.period_start IS 'first day of its period';
COMMENT ON COLUMN edition_entries.period_end IS 'last day of its period';
COMMENT ON COLUMN edition_entries.rank IS 'rank among the ranked players; NULL for provisional and inactive';
COMMENT ON COLUMN edition_entries.standing IS 'ranked, provisional or inactive';
COMMENT ON COLUMN edition_entries.status IS 'new, played or absent in the period';
COMMENT ON COLUMN edition_entries.player_id IS 'the player';
COMMENT ON COLUMN edition_entries.player IS 'the player''s name';
COMMENT ON COLUMN edition_entries.federation_id IS 'the player''s federation member id';
COMMENT ON COLUMN edition_entries.club IS 'the club as listed';
COMMENT ON COLUMN edition_entries.rating IS 'the rating in the edition';
COMMENT ON COLUMN edition_entries.change IS 'change since the previous edition; NULL when new';
COMMENT ON COLUMN edition_entries.events_period IS 'events (go, preferans: games) played in the period';
COMMENT ON COLUMN edition_entries.events_year IS 'events played in the active window (the last active_days, default 365, up to the period''s end)';
COMMENT ON COLUMN edition_entries.events_total IS 'events played in the run so far';
COMMENT ON COLUMN edition_entries.last_played IS 'period of the last event so far';
COMMENT ON COLUMN edition_entries.run_id IS 'the run in force it comes from';

-- player_history
COMMENT ON VIEW player_history IS 'A player''s history: one row per player per period in which the player played, of each pool''s run in force (player_history_all adds the periods where the rating was only carried over).';
COMMENT ON COLUMN player_history.pool IS 'the pool';
COMMENT ON COLUMN player_history.run_id IS 'the run in force';
COMMENT ON COLUMN player_history.period IS 'the period''s label (2013Q4, 2013-03, or a go tournament''s date and name)';
COMMENT ON COLUMN player_history.period_start IS 'first day of the period';
COMMENT ON COLUMN player_history.period_end IS 'last day of the period';
COMMENT ON COLUMN player_history.player_id IS 'the player (canonical players.player_id)';
COMMENT ON COLUMN player_history.player IS 'the player''s name';
COMMENT ON COLUMN player_history.rating_before IS 'the rating at the start of the period';
COMMENT ON COLUMN player_history.rating IS 'the rating at the end of the period';
COMMENT ON COLUMN player_history.change IS 'rating - rating_before';
COMMENT ON COLUMN player_history.events IS 'events (go, preferans: games) played in the period, counted or not: at least 1';
COMMENT ON COLUMN player_history.counted IS 'events (go: games) the scheme counted in the period (ratings.events): fewer when a rule left one out';
COMMENT ON COLUMN player_history.carried IS 'always false here (true only in player_history_all)';
COMMENT ON COLUMN player_history.deviation IS 'go schemes: the rating deviation at the end of the period (NULL elsewhere)';

-- player_history_all
COMMENT ON VIEW player_history_all IS 'player_history plus the periods where the rating was only carried over (carried true, events 0).';
COMMENT ON COLUMN player_history_all.pool IS 'the pool';
COMMENT ON COLUMN player_history_all.run_id IS 'the run in force';
COMMENT ON COLUMN player_history_all.period IS 'the period''s label (2013Q4, 2013-03, or a go tournament''s date and name)';
COMMENT ON COLUMN player_history_all.period_start IS 'first day of the period';
COMMENT ON COLUMN player_history_all.period_end IS 'last day of the period';
COMMENT ON COLUMN player_history_all.player_id IS 'the player (canonical players.player_id)';
COMMENT ON COLUMN player_history_all.player IS 'the player''s name';
COMMENT ON COLUMN player_history_all.rating_before IS 'the rating at the start of the period';
COMMENT ON COLUMN player_history_all.rating IS 'the rating at the end of the period';
COMMENT ON COLUMN player_history_all.change IS 'rating - rating_before';
COMMENT ON COLUMN player_history_all.events IS 'events (go, preferans: games) played in the period, counted or not; 0 when carried';
COMMENT ON COLUMN player_history_all.counted IS 'events (go: games) the scheme counted in the period (ratings.events): fewer when a rule left one out';
COMMENT ON COLUMN player_history_all.carried IS 'true when the player played no event in the period: the rating was only carried over (a periodic normalisation may still move it)';
COMMENT ON COLUMN player_history_all.deviation IS 'go schemes: the rating deviation at the end of the period (NULL elsewhere)';
