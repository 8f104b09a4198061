-- Votes to end a game early, scored as it stands: each seated player's /end counts for the
-- position it was cast at (the log length); a move makes the earlier votes stale.
CREATE TABLE end_votes (
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id     INTEGER NOT NULL,
    log_length  INTEGER NOT NULL,
    created_at  TEXT    NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
