-- Preferans (docs/rules/preferans.md): deals and vists per player per period in the ratings, and the
-- games frame of the preferans schemes as a view.
ALTER TABLE ratings ADD COLUMN deals INTEGER;
ALTER TABLE ratings ADD COLUMN vists DOUBLE;

-- One row per seated player per game segment in force.
CREATE VIEW preferans_games AS
SELECT e.organiser || ' / ' || e.title AS game, e.event_date AS date, e.variant,
       e.deals, coalesce(e.pulka, 0)::DOUBLE AS length, m.canonical_id AS player,
       u.score AS vists, coalesce(e.segment, 1) AS segment, e.event_id
FROM active_events e
JOIN units u USING (event_id)
JOIN members_resolved m USING (event_id, unit_no)
WHERE e.game = 'preferans'
  AND e.event_id NOT IN (SELECT event_id FROM unrated_events);
