-- Play by e-mail (bot/mail): e-mail players, their seats' secrets, invitations, the mails the
-- bot has read (Message-ID, so a replayed mail is applied once) and the mails it has sent.

-- A person known by e-mail only; their user id is MAIL_USER_BASE + id (bot/mail/repo.py).
CREATE TABLE mail_users (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    address         TEXT    NOT NULL UNIQUE,    -- lower case
    name            TEXT    NOT NULL
);

-- An e-mail seat: the secret its reply addresses are signed with, and the thread root.
CREATE TABLE mail_seats (
    game_id         INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id         INTEGER NOT NULL,
    address         TEXT    NOT NULL,
    nonce           TEXT    NOT NULL,           -- per seat: part of every signature
    thread_root     TEXT,                       -- Message-ID of the first mail of this seat
    last_stamp      INTEGER,                    -- the log length of the latest turn mail
    PRIMARY KEY (game_id, user_id)
);

-- An invitation to take a seat by e-mail.
CREATE TABLE mail_invites (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id         INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    address         TEXT    NOT NULL,
    name            TEXT    NOT NULL,
    inviter_id      INTEGER NOT NULL,
    nonce           TEXT    NOT NULL,
    status          TEXT    NOT NULL DEFAULT 'open',  -- open | taken
    message_id      TEXT,
    created_at      REAL    NOT NULL
);

-- Every mail the bot read: a Message-ID seen again changes nothing.
CREATE TABLE mail_seen (
    message_id      TEXT    PRIMARY KEY,
    game_id         INTEGER,
    user_id         INTEGER,
    outcome         TEXT    NOT NULL,
    at              REAL    NOT NULL
);

-- Every mail the bot sent (or tried to): a refused delivery is kept here, the game goes on.
CREATE TABLE mail_sent (
    message_id      TEXT    PRIMARY KEY,
    game_id         INTEGER,
    user_id         INTEGER,
    stamp           INTEGER,
    kind            TEXT    NOT NULL,           -- turn | answer | invite | joined
    address         TEXT    NOT NULL,
    status          TEXT    NOT NULL,           -- sent | failed | bounced
    error           TEXT,
    at              REAL    NOT NULL
);
CREATE INDEX mail_sent_game ON mail_sent (game_id, user_id);
