"""The game's story in the bot: a move's reply says what followed from it, /history shows the
moves in effect under round headers with their events, /catchup what happened since the
player's last move and then the current card.

The events come from the engine (engine/events.py): `game.last_events` for the move just made,
`engine.events.story(game)` for a whole log (replayed on an engine thread, kept per game and
log length). Words: bot/narrate.py."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot import history, narrate, summary
from bot.replies import BotError, Reply
from bot.store import ActionRecord, GameRecord
from engine.events import Event, story
from engine.game import Game
from engine.timeline import timeline
from engine.view import GameView
from render.chart import render_chart

if TYPE_CHECKING:
    from bot.core import ServiceCore

LIMIT = 1900  # a message's text, with room for the header lines
STORIES_KEPT = 8  # whole-log stories kept (the games most recently asked about)
Story = tuple[str, dict[int, list[Event]]]  # the first round's name, events by action id
ActorOf = Callable[[ActionRecord], tuple[str, str | None]]  # a move's actor and entity
_stories: OrderedDict[tuple[int, int, int], Story] = OrderedDict()


def player_names(record: GameRecord) -> dict[str, str]:
    """Engine player id -> the name the bot shows."""
    return {p.engine_id: p.name for p in record.players}


def told(game: Game, action: dict[str, Any], shown: dict[str, str],
         cached: tuple[int, int] | None = None) -> tuple[str | None, list[str]]:
    """On an engine thread, right after a move: the move in words and what followed from it.
    `cached`: (game id, the log's length before the move): a whole-log story kept for that
    log grows by this move instead of being replayed again."""
    events: list[Event] = list(game.last_events)
    if cached is not None:
        _grow(cached, game, action, events)

    def name_of(pid: str) -> str:
        return shown.get(str(pid), str(pid))

    phrase = narrate.move_text(action, events, game, name_of)
    # the programmed moves the move brought (the site's auto_actions), in the order made
    made = [summary.auto_line(name_of(str(a.get("entity"))), a)
            for a in action.get("auto_actions") or ()
            if a.get("type") in ("pass", "buy_shares", "program_disable")]
    return phrase, made + narrate.lines(events, game, name_of, game_over=False, action=action)


def final_chart(game: Game, shown: dict[str, str]) -> bytes:
    """On an engine thread: the end-of-game chart (each player's worth over the operating
    rounds, each corporation's share price)."""
    return render_chart(timeline(game), lambda pid: shown.get(str(pid), str(pid)))


def reply_text(first: str, lines: Sequence[str]) -> str:
    """The move's line and its events, one bullet each, within a message's length."""
    text = first
    for line in lines:
        if len(text) + len(line) + 3 > LIMIT:
            text += "\n• …"
            break
        text += "\n• " + line
    return text


def _grow(cached: tuple[int, int], game: Game, action: dict[str, Any],
          events: list[Event]) -> None:
    """A story kept for the log before this move, now the story of the log with it (an undo
    or redo changes which moves are in effect: the story is then told again when asked)."""
    game_id, before = cached
    hit = _stories.pop((game_id, before, id(game)), None)
    if hit is None or action.get("type") in ("undo", "redo", "message") or "id" not in action:
        return
    hit[1][int(action["id"])] = events
    _stories[(game_id, before + 1, id(game))] = hit


def forget(game_id: int, length: int, game: Game) -> None:
    """The story grown by a move the store then refused (`told` runs before the move is
    stored): dropped, so that it is told again from the stored log when asked."""
    _stories.pop((game_id, length, id(game)), None)


def _story(game: Game, key: tuple[int, int, int]) -> Story:
    """On an engine thread: (the first round's name, events by action id) of the whole log."""
    hit = _stories.get(key)
    if hit is not None:
        _stories.move_to_end(key)
        return hit
    first = Game(game.title_name, game.players, game.options).round.name()
    found = (first, {int(act.id): events for act, events in story(game)})
    _stories[key] = found
    while len(_stories) > STORIES_KEPT:
        _stories.popitem(last=False)
    return found


def _rendered(game: Game, records: Sequence[ActionRecord], record: GameRecord,
              actor_of: ActorOf, key: tuple[int, int, int]) -> list[tuple[str, list[str]]]:
    """On an engine thread: for each move in effect, its line and its event lines (round
    headers as lines starting with "__")."""
    first, by_id = _story(game, key)
    shown = player_names(record)

    def name_of(pid: str) -> str:
        return shown.get(str(pid), str(pid))

    out: list[tuple[str, list[str]]] = [(f"__{first}__", [])] if first else []
    for rec in records:
        events = by_id.get(int(rec.action.get("id") or 0), [])
        actor, entity = actor_of(rec)
        phrase = narrate.move_text(rec.action, events, game, name_of)
        text = f"{rec.seq}. {summary.line(actor, entity, rec.action, phrase)}"
        after: list[str] = []
        for line in narrate.lines(events, game, name_of, action=rec.action):
            if line.startswith("— ") and line.endswith(" —"):
                after.append(f"__{line[2:-2]}__")
            else:
                after.append(line)
        out.append((text, after))
    return out


def _layout(blocks: Sequence[tuple[str, list[str]]], limit: int = LIMIT) -> str:
    """Moves and their events, newest kept when too long, round headers on their own lines."""
    rendered: list[str] = []
    for text, after in blocks:
        if text.startswith("__"):
            rendered.append(text)
            continue
        lines = [text]
        for line in after:
            lines.append(line if line.startswith("__") else f"   ↳ {line}")
        rendered.append("\n".join(lines))
    out: list[str] = []
    size = 0
    for block in reversed(rendered):
        if size + len(block) + 1 > limit:
            out.append("(earlier moves left out)")
            break
        out.append(block)
        size += len(block) + 1
    return "\n".join(reversed(out))


@dataclass(slots=True)
class StoryService:
    """/history and /catchup for a service (bot/service.py)."""

    service: ServiceCore

    def _actor_of(self, record: GameRecord) -> ActorOf:
        s = self.service

        def actor_of(rec: ActionRecord) -> tuple[str, str | None]:
            entity = rec.action.get("entity")
            actor = (s._user_name(record, rec.user_id) if rec.user_id is not None
                     else s._name(record, str(entity)))
            ent = str(entity) if rec.action.get("entity_type") != "player" else None
            return actor, ent

        return actor_of

    async def history(self, game_id: int, count: int = 10) -> Reply:
        s = self.service
        async with s._locks[game_id]:
            live = await s._live(game_id)
            stack, _ = history.effective(live.records)
            count = max(1, min(count, 50))
            shown = stack[-count:]
            key = (game_id, len(live.records), id(live.game))
            blocks = await s.run_engine(_rendered, live.game, stack, live.record,
                                        self._actor_of(live.record), key)
        if not stack:
            return Reply("No moves yet.", ephemeral=True)
        # the moves asked for, under the header of the round each began in
        wanted = {f"{r.seq}." for r in shown}
        picked: list[tuple[str, list[str]]] = []
        header: tuple[str, list[str]] | None = None
        for text, after in blocks:
            if text.startswith("__"):
                header = (text, [])
                continue
            if text.split(" ", 1)[0] in wanted:
                if header is not None:
                    picked.append(header)
                    header = None
                picked.append((text, after))
            rounds = [line for line in after if line.startswith("__")]
            if rounds:
                header = (rounds[-1], [])
        # a header already said by the move's own events is not repeated
        return Reply(_layout(_dedupe(picked)) or "No moves yet.", ephemeral=True)

    async def catchup(self, user_id: int, game_id: int) -> Reply:
        s = self.service
        async with s._locks[game_id]:
            record = await s.game_record(game_id)
            if record.status == "open":
                raise BotError("The game has not started yet.")
            me = record.player_by_user(user_id)
            if me is None:
                raise BotError("You are not a player in this game.")
            live = await s._live(game_id)
            stack, _ = history.effective(live.records)
            mine = [i for i, r in enumerate(stack) if r.user_id == user_id or (
                r.user_id is None and r.action.get("entity_type") == "player"
                and str(r.action.get("entity")) == me.engine_id)]
            since = stack[mine[-1] + 1:] if mine else stack
            key = (game_id, len(live.records), id(live.game))
            blocks = await s.run_engine(_rendered, live.game, stack, live.record,
                                        self._actor_of(live.record), key)
            view: GameView = await s.run_engine(live.game.view)
            stamp = len(live.records)
        wanted = {f"{r.seq}." for r in since}
        picked = [b for b in blocks if b[0].split(" ", 1)[0] in wanted]
        head = ("Since your last move:" if mine else "Since the start:") if picked else (
            "Nothing has happened since your last move.")
        body = _layout(picked, LIMIT - 200) if picked else ""
        turn = s._turn(live.game)
        if turn.finished:
            tail = s._result_text(record, turn)
        else:
            acting = ", ".join(s._name(record, a) for a in turn.acting) or "nobody"
            tail = f"Now: {view.round}, waiting for {acting}."
        reply = Reply("\n".join(x for x in (head, body, tail) if x), ephemeral=True)
        await s._add_images(reply, game_id, stamp, view, ("card",))
        return reply


def _dedupe(blocks: list[tuple[str, list[str]]]) -> list[tuple[str, list[str]]]:
    out: list[tuple[str, list[str]]] = []
    for b in blocks:
        if b[0].startswith("__") and out and b[0] in out[-1][1]:
            continue
        out.append(b)
    return out
