-- The club register (docs/site.md, "Clubs"): the clubs a federation knows, each with its name,
-- its code (as go files write it: Brat, 38Gr, Wars), its game, its federation and the other
-- names files use for it. Club names and codes the result files write are matched to it; the
-- lists name the club as the register does. Loaded whole from [identity] clubs on every run
-- (the rows of the file in force replace the ones before).
CREATE TABLE club_register (
    name        VARCHAR NOT NULL,   -- the club's name on the lists
    code        VARCHAR NOT NULL,   -- its short code ('' when none)
    game        VARCHAR NOT NULL,   -- the game it plays ('' for every game)
    federation  VARCHAR NOT NULL,   -- its federation ('' when not given)
    aliases     VARCHAR NOT NULL,   -- other names the files write, separated by ';'
    row_no      INTEGER NOT NULL    -- its line in the register file
);

COMMENT ON TABLE club_register IS 'The clubs the federation knows ([identity] clubs): club names and codes written in result files are listed under the register''s name (warehouse/clubs.py).';
COMMENT ON COLUMN club_register.name IS 'the club''s name on the lists';
COMMENT ON COLUMN club_register.code IS 'its short code as files write it (Brat, 38Gr); empty when none';
COMMENT ON COLUMN club_register.game IS 'the game it plays; empty for every game';
COMMENT ON COLUMN club_register.federation IS 'its federation; empty when not given';
COMMENT ON COLUMN club_register.aliases IS 'other names the files write for it, separated by ;';
COMMENT ON COLUMN club_register.row_no IS 'its line in the register file (the header is line 1)';
