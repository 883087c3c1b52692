-- Explanations of rating runs (docs/rules/bridge-belo.md §13): what each event did to a player's
-- rating, and how a player fared with each partner. Also the phantom players of the `phantom`
-- newcomer rule (docs/rules/bridge-belo.md §10), which the rating run stores but never publishes.

-- A row of the hidden phantom of a newcomer: its player_id is the NEWCOMER's id.
ALTER TABLE rating_contributions ADD COLUMN phantom BOOLEAN DEFAULT false;

-- Each newcomer's phantom per period of a run (docs/rules/bridge-belo.md §10): rated like a member of the
-- newcomer's units for their first `phantom_events` events, then retired; dormant meanwhile
-- when the newcomer stops playing.
CREATE TABLE rating_phantoms (
    run_id          INTEGER NOT NULL,
    period          VARCHAR NOT NULL,
    player_id       INTEGER NOT NULL,      -- the newcomer
    rating_before   DOUBLE,
    rating          DOUBLE,
    events          INTEGER,
    state           VARCHAR                -- 'active' | 'dormant' | 'retired'
);

-- Per run, player (their own rows, not their phantom's), period and event: the factors of the
-- contribution and `share`, the event's part of the period's change BEFORE the periodic
-- normalisation (docs/rules/bridge-belo.md §8), so that rating_before + sum(share) over the period is the combined
-- rating and (rating_before + sum(share)) * periodic_factor is `rating`:
--   exponential: share = (1 - (1 - 1/H)^W) / W * v * (r' - R_old), W = sum v of counted rows
--   additive:    share = v * (r' - R_old) / H
-- and 0 for a row that did not count. H and the combination come from the run's options.
CREATE VIEW rating_explanations AS
WITH run_options AS (
    SELECT run_id,
           coalesce(try_cast(json_extract_string(options, '$.history') AS DOUBLE), 50.0)
               AS history,
           coalesce(json_extract_string(options, '$.period_combine'), 'exponential')
               AS period_combine
    FROM rating_runs
),
own AS (
    SELECT * FROM rating_contributions WHERE NOT coalesce(phantom, false)
),
phantom_rows AS (
    SELECT * FROM rating_contributions WHERE coalesce(phantom, false)
),
own_weight AS (
    SELECT run_id, period, player_id, sum(weight) AS total_weight
    FROM own WHERE counted GROUP BY run_id, period, player_id
),
phantom_weight AS (
    SELECT run_id, period, player_id, sum(weight) AS total_weight
    FROM phantom_rows WHERE counted GROUP BY run_id, period, player_id
)
SELECT c.run_id, c.player_id, c.period, c.event_id,
       e.event_date, e.title, e.section, e.organiser,
       c.unit_no, c.place, c.n, c.r, c.field_factor, c.partner_factor, c.weight,
       c.norm_factor, c.r_prime, c.counted, c.reason,
       rt.rating_before, rt.rating,
       coalesce(nf.factor, 1.0) AS periodic_factor,
       CASE
           WHEN NOT c.counted THEN 0.0
           WHEN o.period_combine = 'additive'
               THEN c.weight * (c.r_prime - rt.rating_before) / o.history
           ELSE (1.0 - power(1.0 - 1.0 / o.history, w.total_weight)) / w.total_weight
                * c.weight * (c.r_prime - rt.rating_before)
       END AS share,
       p.r_prime AS phantom_r_prime,
       CASE
           WHEN p.player_id IS NULL THEN NULL
           WHEN NOT p.counted THEN 0.0
           WHEN o.period_combine = 'additive'
               THEN p.weight * (p.r_prime - ph.rating_before) / o.history
           ELSE (1.0 - power(1.0 - 1.0 / o.history, pw.total_weight)) / pw.total_weight
                * p.weight * (p.r_prime - ph.rating_before)
       END AS phantom_share
FROM own c
JOIN run_options o ON o.run_id = c.run_id
LEFT JOIN events e ON e.event_id = c.event_id
LEFT JOIN ratings rt
    ON rt.run_id = c.run_id AND rt.period = c.period AND rt.player_id = c.player_id
LEFT JOIN own_weight w
    ON w.run_id = c.run_id AND w.period = c.period AND w.player_id = c.player_id
LEFT JOIN rating_normalisations nf ON nf.run_id = c.run_id AND nf.period = c.period
LEFT JOIN phantom_rows p
    ON p.run_id = c.run_id AND p.event_id = c.event_id AND p.unit_no = c.unit_no
       AND p.player_id = c.player_id
LEFT JOIN phantom_weight pw
    ON pw.run_id = c.run_id AND pw.period = c.period AND pw.player_id = c.player_id
LEFT JOIN rating_phantoms ph
    ON ph.run_id = c.run_id AND ph.period = c.period AND ph.player_id = c.player_id;

-- Partners view ("Partneri", docs/rules/bridge-belo.md §13): per run, player and partner (another member of the same
-- unit of the same event, as their canonical player), the counted events together and the
-- player's mean effective contribution r' over them.
CREATE VIEW rating_partners AS
WITH together AS (
    SELECT DISTINCT c.run_id, c.player_id, m.canonical_id AS partner_id, c.event_id, c.period,
                    c.r_prime
    FROM rating_contributions c
    JOIN members_resolved m ON m.event_id = c.event_id AND m.unit_no = c.unit_no
    WHERE c.counted AND NOT coalesce(c.phantom, false) AND m.canonical_id <> c.player_id
)
SELECT run_id, player_id, partner_id, count(*) AS events, avg(r_prime) AS mean_r_prime,
       min(period) AS first_period, max(period) AS last_period
FROM together
GROUP BY run_id, player_id, partner_id;
