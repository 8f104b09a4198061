-- Games, their seated players and their action log.
CREATE TABLE games (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id        INTEGER,
    channel_id      INTEGER NOT NULL,
    thread_id       INTEGER UNIQUE,
    title           TEXT    NOT NULL,
    options         TEXT    NOT NULL DEFAULT '[]',   -- JSON list of optional rules
    seed            INTEGER NOT NULL,
    status          TEXT    NOT NULL DEFAULT 'open'
                    CHECK (status IN ('open', 'active', 'finished', 'abandoned')),
    creator_id      INTEGER NOT NULL,
    interaction_id  TEXT    UNIQUE,                   -- the create/import command (idempotency)
    created_at      TEXT    NOT NULL,
    updated_at      TEXT    NOT NULL
);
CREATE INDEX games_by_guild ON games (guild_id, status);
CREATE INDEX games_by_channel ON games (channel_id);

CREATE TABLE players (
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id     INTEGER NOT NULL,     -- Discord user id (or a local player's id)
    name        TEXT    NOT NULL,
    engine_id   TEXT    NOT NULL,     -- the player's id inside the engine
    seat        INTEGER,              -- 0-based seat order, NULL until the game starts
    joined_at   TEXT    NOT NULL,
    PRIMARY KEY (game_id, user_id),
    UNIQUE (game_id, engine_id)
);

CREATE TABLE actions (
    game_id         INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq             INTEGER NOT NULL,          -- 1-based position in the game's log
    action          TEXT    NOT NULL,          -- the engine action, JSON
    interaction_id  TEXT    UNIQUE,            -- the Discord interaction that made it
    user_id         INTEGER,                   -- who made it (NULL for imported actions)
    created_at      TEXT    NOT NULL,
    PRIMARY KEY (game_id, seq)
);

-- Undo requests waiting for another player's consent (button).
CREATE TABLE undo_requests (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id         INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    requester_id    INTEGER NOT NULL,
    approver_id     INTEGER NOT NULL,
    log_length      INTEGER NOT NULL,          -- the log length when asked; stale if it moved
    status          TEXT    NOT NULL DEFAULT 'pending'
                    CHECK (status IN ('pending', 'accepted', 'declined', 'stale')),
    interaction_id  TEXT    UNIQUE,
    created_at      TEXT    NOT NULL
);
