-- Long games: whose turn since when, turn clocks, reminders, quiet hours, nudges, followers,
-- seat changes and the players' votes on seats. Times are Unix seconds from the bot's clock.

-- A game's timing: reminder delay, optional time bank, days before an absent player may be dropped.
CREATE TABLE game_timing (
    game_id         INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    remind_hours    REAL    NOT NULL DEFAULT 12,
    bank_hours      REAL,                       -- NULL: no time bank
    drop_days       REAL    NOT NULL DEFAULT 7
);

-- Whose turn it is (engine ids), in which round, since when; one row per game.
CREATE TABLE turn_state (
    game_id         INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    acting          TEXT    NOT NULL,           -- JSON list of engine ids
    round           TEXT    NOT NULL DEFAULT '',
    since           REAL    NOT NULL,           -- when these players became the ones to act
    last_move       REAL    NOT NULL,           -- the game's latest move
    accounted_at    REAL    NOT NULL,           -- clocks are charged up to this time
    stamp           INTEGER NOT NULL            -- the log's length at the latest move
);

-- Time each user spent acting in a seat (engine id).
CREATE TABLE clocks (
    game_id         INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    engine_id       TEXT    NOT NULL,
    user_id         INTEGER NOT NULL,
    seconds         REAL    NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, engine_id, user_id)
);

-- Reminders: the next one due per waiting player, and every one sent (never sent twice).
CREATE TABLE reminders (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id         INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id         INTEGER NOT NULL,
    stamp           INTEGER NOT NULL,           -- the turn_state stamp it belongs to
    n               INTEGER NOT NULL,           -- 1 for the first reminder of that wait
    due_at          REAL    NOT NULL,
    sent_at         REAL,
    UNIQUE (game_id, user_id, stamp, n)
);
CREATE INDEX reminders_due ON reminders (sent_at, due_at);

-- A user's time zone and quiet hours (local hours, start-end).
CREATE TABLE user_settings (
    user_id         INTEGER PRIMARY KEY,
    timezone        TEXT    NOT NULL DEFAULT 'UTC',
    quiet_start     INTEGER,
    quiet_end       INTEGER
);

CREATE TABLE nudges (
    game_id         INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    by_user         INTEGER NOT NULL,
    target_user     INTEGER NOT NULL,
    at              REAL    NOT NULL
);
CREATE INDEX nudges_by_game ON nudges (game_id, at);

CREATE TABLE followers (
    game_id         INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id         INTEGER NOT NULL,
    since           REAL    NOT NULL,
    PRIMARY KEY (game_id, user_id)
);

-- Who held a seat before (substitution, resignation, a dropped player). A vacant seat is held
-- by a negative user id until a substitute takes it.
CREATE TABLE seat_changes (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id         INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    engine_id       TEXT    NOT NULL,
    old_user        INTEGER NOT NULL,
    old_name        TEXT    NOT NULL,
    new_user        INTEGER NOT NULL,
    reason          TEXT    NOT NULL,
    at              REAL    NOT NULL
);

-- The players' votes: substitute a player, drop an absent player, end a game with a vacant seat.
CREATE TABLE seat_votes (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id         INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind            TEXT    NOT NULL CHECK (kind IN ('substitute', 'drop', 'end')),
    engine_id       TEXT,                       -- the seat concerned (NULL for 'end')
    new_user        INTEGER,                    -- the substitute
    new_name        TEXT,
    proposer        INTEGER NOT NULL,
    status          TEXT    NOT NULL DEFAULT 'open'
                    CHECK (status IN ('open', 'passed', 'failed', 'stale')),
    created_at      REAL    NOT NULL
);

CREATE TABLE seat_ballots (
    vote_id         INTEGER NOT NULL REFERENCES seat_votes (id) ON DELETE CASCADE,
    user_id         INTEGER NOT NULL,
    yes             INTEGER NOT NULL,
    PRIMARY KEY (vote_id, user_id)
);
