"""A move and its turn change (whose turn it is, the clocks, the reminders) are stored in one
transaction: one commit a move, and never the one without the other."""

from __future__ import annotations

from bot.store.db import SqliteDb
from tests.bot.conftest import DRAFT, Env, play, user_of

# a write the database refuses: any new reminder (the turn change of every move writes one)
_REFUSE = {
    "sqlite": ["CREATE TRIGGER refuse BEFORE INSERT ON reminders"
               " BEGIN SELECT RAISE(ABORT, 'refused by the test'); END"],
    "postgres": ["CREATE FUNCTION refuse() RETURNS trigger AS"
                 " $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$ LANGUAGE plpgsql",
                 "CREATE TRIGGER refuse BEFORE INSERT ON reminders"
                 " FOR EACH ROW EXECUTE FUNCTION refuse()"],
}
_ALLOW = {"sqlite": ["DROP TRIGGER refuse"],
          "postgres": ["DROP TRIGGER refuse ON reminders", "DROP FUNCTION refuse()"]}


async def test_a_move_and_its_turn_change_share_one_commit(env: Env) -> None:
    thread = await env.new_game(env.alice, env.bob, env.cy)
    db = env.service.store.db
    commits = db.group.commits if isinstance(db, SqliteDb) else None
    await play(env, thread, DRAFT[:1])  # Cy bids: Bob is up
    if isinstance(db, SqliteDb):
        assert commits is not None and db.group.commits == commits + 1
    state = await env.service.long.turn_state(1)
    assert state is not None and state.acting == (str(env.bob.id),) and state.stamp == 1
    rows = await db.fetch("SELECT user_id FROM reminders WHERE game_id = 1 AND sent_at IS NULL")
    assert [int(r[0]) for r in rows] == [env.bob.id]


async def test_a_turn_change_the_database_refuses_leaves_the_move_unstored(env: Env) -> None:
    thread = await env.new_game(env.alice, env.bob, env.cy)
    db = env.service.store.db
    for sql in _REFUSE[db.dialect]:
        await db.execute(sql)
    who, name, options = DRAFT[0]
    sent = await env.cmd(user_of(env, who), thread, name, **options)
    assert sent.ephemeral and "Something went wrong" in sent.content, sent.content
    assert await env.log_types() == []  # the action went with its turn change
    state = await env.service.long.turn_state(1)
    assert state is not None and state.acting == (str(env.cy.id),) and state.stamp == 0
    for sql in _ALLOW[db.dialect]:
        await db.execute(sql)
    # the same move again: stored with its turn change
    await play(env, thread, DRAFT[:2])
    assert await env.log_types() == ["bid", "bid"]
    state = await env.service.long.turn_state(1)
    assert state is not None and state.acting == (str(env.alice.id),) and state.stamp == 2
