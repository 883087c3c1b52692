-- Start-up passes of a rating run (docs/rules/bridge-belo.md §11): the history before the cut-over
-- date rated again and again until the largest change is below the tolerance.
CREATE TABLE rating_startup (
    run_id                      INTEGER NOT NULL,
    pass                        INTEGER NOT NULL,
    max_change                  DOUBLE NOT NULL,
    mean_before_normalisation   DOUBLE NOT NULL,
    PRIMARY KEY (run_id, pass)
);

-- rating_phantoms.events (003) holds the rated events the phantom still has to go
-- (``events_left`` of the rating engine), not the events played.
