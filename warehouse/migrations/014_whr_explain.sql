-- The whole-history rating (docs/rules/bridge-whr.md §10) explains a player's period by what
-- each event did to the fit: `expected` is the place the fitted strengths expected for the
-- unit, `gradient` the event's pull on the player's strength of the period (log-likelihood per
-- unit of strength, weighted), `moved` the rating points the player's estimate of the period
-- would lose if the event were left out (one Newton step of leaving it out). NULL for the
-- placement schemes that explain themselves by factors (BELO).
ALTER TABLE rating_contributions ADD COLUMN expected DOUBLE;
ALTER TABLE rating_contributions ADD COLUMN gradient DOUBLE;
ALTER TABLE rating_contributions ADD COLUMN moved DOUBLE;
