-- A counter bumped by every write to a game (a move, a seat, its status): a bot process
-- sharing the database with others compares it with its cached copy's before using it.
ALTER TABLE games ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
