-- Train-sale requests and proposed runs waiting for a button (bot/consent.py): stored, so a
-- button pressed after a restart, or in another bot process, still finds its request; an
-- answered request is deleted.
CREATE TABLE asked (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id         INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind            TEXT    NOT NULL CHECK (kind IN ('sale', 'run')),
    log_length      INTEGER NOT NULL,          -- the log length when asked; stale if it moved
    action          TEXT    NOT NULL,          -- the move, JSON
    asker_id        INTEGER NOT NULL,          -- whose move it is (the buyer, the president)
    asker_name      TEXT    NOT NULL,
    asker_admin     INTEGER NOT NULL DEFAULT 0,
    answerer_id     INTEGER NOT NULL,          -- who may press the button
    what            TEXT    NOT NULL DEFAULT '',
    created_at      TEXT    NOT NULL
);
