-- A go tournament's rounds that are no game (docs/site.md "The go crosstable"): a bye, a result
-- by default (forfeit), a pairing not played. The readers make no event of them (nothing to
-- rate), but a crosstable shows them in their round. Kept as the file wrote them, by the
-- player's key in the file (units.label of the same file's games); OpenGotha files give them
-- (<ByePlayer>, a <Game> whose result is ..._BYDEF, RESULT_UNKNOWN, RESULT_BOTHWIN/BOTHLOSE).

CREATE TABLE go_round_marks (
    file_id      INTEGER NOT NULL,
    round        INTEGER NOT NULL,
    player_key   VARCHAR NOT NULL,
    mark         VARCHAR NOT NULL,   -- 'bye' | 'win by default' | 'loss by default' | 'not played'
    opponent_key VARCHAR,
    PRIMARY KEY (file_id, round, player_key)
);

COMMENT ON TABLE go_round_marks IS 'A round of a go tournament that is no game for a player: a bye, a result by default, a pairing not played (docs/site.md "The go crosstable").';
COMMENT ON COLUMN go_round_marks.file_id IS 'the file that says so (source_files.file_id)';
COMMENT ON COLUMN go_round_marks.round IS 'the round, counted from 1 as the file numbers it';
COMMENT ON COLUMN go_round_marks.player_key IS 'the player as the file names them in its games (units.label of the file''s games: OpenGotha''s key, surname and first name in capitals)';
COMMENT ON COLUMN go_round_marks.mark IS 'bye, win by default, loss by default (a forfeit, or the director''s decision) or not played (paired, no result)';
COMMENT ON COLUMN go_round_marks.opponent_key IS 'the opponent of a pairing by the same key; NULL for a bye';
