-- Go games whose colours were not written (EGD tables often give none for even games) are
-- rated as well: in an even game the colour changes nothing in any go scheme (only a handicap
-- game's stones and its komi depend on who took black), so the side listed first stands as
-- black. A handicap game without colours is refused when read (docs/rules/gate.md).
CREATE OR REPLACE VIEW go_games AS
SELECT e.event_id, e.event_date AS date, e.parent AS tournament, e.round,
       b.canonical_id AS black, w.canonical_id AS white,
       CASE WHEN ub.place < uw.place THEN 1.0 WHEN ub.place > uw.place THEN 0.0 ELSE 0.5 END
           AS black_result,
       coalesce(e.handicap, 0) AS handicap, e.komi
FROM active_events e
JOIN units ub ON ub.event_id = e.event_id AND ub.colour = 'black'
JOIN units uw ON uw.event_id = e.event_id AND uw.colour = 'white'
JOIN members_resolved b ON b.event_id = e.event_id AND b.unit_no = ub.unit_no
JOIN members_resolved w ON w.event_id = e.event_id AND w.unit_no = uw.unit_no
WHERE e.game = 'go' AND ub.place IS NOT NULL AND uw.place IS NOT NULL
  AND e.event_id NOT IN (SELECT event_id FROM unrated_events)
UNION ALL
SELECT e.event_id, e.event_date AS date, e.parent AS tournament, e.round,
       b.canonical_id AS black, w.canonical_id AS white,
       CASE WHEN ub.place < uw.place THEN 1.0 WHEN ub.place > uw.place THEN 0.0 ELSE 0.5 END
           AS black_result,
       0 AS handicap, e.komi
FROM active_events e
JOIN units ub ON ub.event_id = e.event_id AND ub.colour IS NULL
JOIN units uw ON uw.event_id = e.event_id AND uw.colour IS NULL AND uw.unit_no > ub.unit_no
JOIN members_resolved b ON b.event_id = e.event_id AND b.unit_no = ub.unit_no
JOIN members_resolved w ON w.event_id = e.event_id AND w.unit_no = uw.unit_no
WHERE e.game = 'go' AND coalesce(e.handicap, 0) = 0
  AND ub.place IS NOT NULL AND uw.place IS NOT NULL
  AND e.event_id NOT IN (SELECT event_id FROM unrated_events);
