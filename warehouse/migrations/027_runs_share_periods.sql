-- A run that takes up an earlier one (docs/rules/bridge-belo.md §8: the results changed from
-- one period on) used to copy that run's rows of every period it kept, so a warehouse rated
-- every quarter stored its whole history again each quarter (a 15-year archive: about 60
-- copies). Now each run stores only the periods it rated; run_periods says, for every period
-- of every run, which run's stored rows hold it, and each table analysts read keeps its name,
-- columns and rows as a view over the stored rows (SELECT ... WHERE run_id = ? gives a run's
-- every period, as before). Runs stored before this migration hold all their periods
-- themselves.

CREATE TABLE run_periods (
    run_id      INTEGER NOT NULL,
    period      VARCHAR NOT NULL,
    stored_run  INTEGER NOT NULL,
    PRIMARY KEY (run_id, period)
);
COMMENT ON TABLE run_periods IS 'Every period of every rating run, and the run whose stored rows (stored_ratings, stored_rating_contributions ...) hold it: the run itself for a period it rated, the earlier run it took up for a period it kept (docs/rules/bridge-belo.md §8).';
COMMENT ON COLUMN run_periods.run_id IS 'the rating run (rating_runs.run_id)';
COMMENT ON COLUMN run_periods.period IS 'one of its periods';
COMMENT ON COLUMN run_periods.stored_run IS 'the run whose stored rows hold that period (run_id itself, or an earlier run it took the period from unchanged)';

INSERT INTO run_periods
SELECT DISTINCT run_id, period, run_id FROM (
    SELECT run_id, period FROM ratings
    UNION ALL
    SELECT run_id, period FROM rating_contributions
    UNION ALL
    SELECT run_id, period FROM rating_normalisations
    UNION ALL
    SELECT run_id, period FROM rating_phantoms
    UNION ALL
    SELECT run_id, period FROM game_contributions
    UNION ALL
    SELECT run_id, period FROM segment_contributions
);

ALTER TABLE ratings RENAME TO stored_ratings;
COMMENT ON TABLE stored_ratings IS 'The rows of ratings as each run stored them: only the periods the run rated itself (run_periods). Read the view ratings, which gives every run all its periods.';
COMMENT ON COLUMN stored_ratings.run_id IS 'the run that rated these rows (rating_runs.run_id); later runs that kept the period read them too (run_periods)';
CREATE VIEW ratings AS
SELECT s.* REPLACE (p.run_id AS run_id)
FROM run_periods p JOIN stored_ratings s ON s.run_id = p.stored_run AND s.period = p.period;
COMMENT ON VIEW ratings IS 'Every player''s rating for every period of a run, from the player''s first period through the last: many rows only carry the rating over (player_history leaves those out).';
COMMENT ON COLUMN ratings.run_id IS 'the rating run (rating_runs.run_id); a period it kept from an earlier run is that run''s stored rows (run_periods)';
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

ALTER TABLE rating_contributions RENAME TO stored_rating_contributions;
COMMENT ON TABLE stored_rating_contributions IS 'The rows of rating_contributions as each run stored them: only the periods the run rated itself (run_periods). Read the view rating_contributions, which gives every run all its periods.';
COMMENT ON COLUMN stored_rating_contributions.run_id IS 'the run that rated these rows (rating_runs.run_id); later runs that kept the period read them too (run_periods)';
CREATE VIEW rating_contributions AS
SELECT s.* REPLACE (p.run_id AS run_id)
FROM run_periods p JOIN stored_rating_contributions s ON s.run_id = p.stored_run AND s.period = p.period;
COMMENT ON VIEW rating_contributions IS 'Per run, period, event and player: how the event entered the rating (docs/rules/bridge-belo.md §13).';
COMMENT ON COLUMN rating_contributions.run_id IS 'the rating run (rating_runs.run_id); a period it kept from an earlier run is that run''s stored rows (run_periods)';
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

ALTER TABLE rating_normalisations RENAME TO stored_rating_normalisations;
COMMENT ON TABLE stored_rating_normalisations IS 'The rows of rating_normalisations as each run stored them: only the periods the run rated itself (run_periods). Read the view rating_normalisations, which gives every run all its periods.';
COMMENT ON COLUMN stored_rating_normalisations.run_id IS 'the run that rated these rows (rating_runs.run_id); later runs that kept the period read them too (run_periods)';
CREATE VIEW rating_normalisations AS
SELECT s.* REPLACE (p.run_id AS run_id)
FROM run_periods p JOIN stored_rating_normalisations s ON s.run_id = p.stored_run AND s.period = p.period;
COMMENT ON VIEW rating_normalisations IS 'The periodic normalisation factor of a run''s period (docs/rules/bridge-belo.md §9).';
COMMENT ON COLUMN rating_normalisations.run_id IS 'the rating run (rating_runs.run_id); a period it kept from an earlier run is that run''s stored rows (run_periods)';
COMMENT ON COLUMN rating_normalisations.period IS 'the period after which it was applied';
COMMENT ON COLUMN rating_normalisations.factor IS 'every rated player''s rating was multiplied by it';

ALTER TABLE rating_phantoms RENAME TO stored_rating_phantoms;
COMMENT ON TABLE stored_rating_phantoms IS 'The rows of rating_phantoms as each run stored them: only the periods the run rated itself (run_periods). Read the view rating_phantoms, which gives every run all its periods.';
COMMENT ON COLUMN stored_rating_phantoms.run_id IS 'the run that rated these rows (rating_runs.run_id); later runs that kept the period read them too (run_periods)';
CREATE VIEW rating_phantoms AS
SELECT s.* REPLACE (p.run_id AS run_id)
FROM run_periods p JOIN stored_rating_phantoms s ON s.run_id = p.stored_run AND s.period = p.period;
COMMENT ON VIEW rating_phantoms IS 'Each newcomer''s hidden phantom per period of a run (docs/rules/bridge-belo.md §10); never published.';
COMMENT ON COLUMN rating_phantoms.run_id IS 'the rating run (rating_runs.run_id); a period it kept from an earlier run is that run''s stored rows (run_periods)';
COMMENT ON COLUMN rating_phantoms.period IS 'the period';
COMMENT ON COLUMN rating_phantoms.player_id IS 'the newcomer';
COMMENT ON COLUMN rating_phantoms.rating_before IS 'the phantom''s rating at the start of the period';
COMMENT ON COLUMN rating_phantoms.rating IS 'at the end';
COMMENT ON COLUMN rating_phantoms.events IS 'rated events the phantom still has to go (not events played)';
COMMENT ON COLUMN rating_phantoms.state IS '''active'', ''dormant'' or ''retired''';

ALTER TABLE game_contributions RENAME TO stored_game_contributions;
COMMENT ON TABLE stored_game_contributions IS 'The rows of game_contributions as each run stored them: only the periods the run rated itself (run_periods). Read the view game_contributions, which gives every run all its periods.';
COMMENT ON COLUMN stored_game_contributions.run_id IS 'the run that rated these rows (rating_runs.run_id); later runs that kept the period read them too (run_periods)';
CREATE VIEW game_contributions AS
SELECT s.* REPLACE (p.run_id AS run_id)
FROM run_periods p JOIN stored_game_contributions s ON s.run_id = p.stored_run AND s.period = p.period;
COMMENT ON VIEW game_contributions IS 'Game-based schemes (go): one row per game per player of a run.';
COMMENT ON COLUMN game_contributions.run_id IS 'the rating run (rating_runs.run_id); a period it kept from an earlier run is that run''s stored rows (run_periods)';
COMMENT ON COLUMN game_contributions.period IS 'the period (go: a tournament)';
COMMENT ON COLUMN game_contributions.player_id IS 'the player';
COMMENT ON COLUMN game_contributions.opponent_id IS 'the opponent';
COMMENT ON COLUMN game_contributions.result IS '1 win, 0 loss, 0.5 jigo';
COMMENT ON COLUMN game_contributions.handicap IS 'handicap stones';
COMMENT ON COLUMN game_contributions.colour IS '''b'' or ''w'': the player''s colour';
COMMENT ON COLUMN game_contributions.expected IS 'the scheme''s expected result';
COMMENT ON COLUMN game_contributions.weight IS 'the opponent''s influence (RFG B), 1 elsewhere';
COMMENT ON COLUMN game_contributions.change IS 'the game''s part of the player''s rating change (RFG: K B (S - E)); NULL when not split';

ALTER TABLE segment_contributions RENAME TO stored_segment_contributions;
COMMENT ON TABLE stored_segment_contributions IS 'The rows of segment_contributions as each run stored them: only the periods the run rated itself (run_periods). Read the view segment_contributions, which gives every run all its periods.';
COMMENT ON COLUMN stored_segment_contributions.run_id IS 'the run that rated these rows (rating_runs.run_id); later runs that kept the period read them too (run_periods)';
CREATE VIEW segment_contributions AS
SELECT s.* REPLACE (p.run_id AS run_id)
FROM run_periods p JOIN stored_segment_contributions s ON s.run_id = p.stored_run AND s.period = p.period;
COMMENT ON VIEW segment_contributions IS 'Preferans: one row per player per game segment of a run (clubratings explain).';
COMMENT ON COLUMN segment_contributions.run_id IS 'the rating run (rating_runs.run_id); a period it kept from an earlier run is that run''s stored rows (run_periods)';
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
