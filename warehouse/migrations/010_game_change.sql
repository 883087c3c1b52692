-- Game-based schemes: each game's part of the player's rating change (RFG: K B (S - E)), for
-- the tournament crosstable; NULL in runs stored before, or for schemes that do not split it.
ALTER TABLE game_contributions ADD COLUMN change DOUBLE;
