"""Import and export of the 18xx.games game-export JSON.

Ids (shares `GMO_1`, trains `2+-0`, tiles `58-0`, cities `I1-0-0`, market cells `80,1,4`) are
spelled the same way in our actions, so mapping is the identity, except that player ids are
strings here (the site uses numbers, or names in hotseat games).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from engine.core import shares
from engine.errors import EngineError
from engine.game import Game

MAX_ACTIONS = 20_000  # the longest real games have about 1,000 actions
MAX_PLAYERS = 8


class ExportPlayer(BaseModel):
    model_config = ConfigDict(extra="allow")

    id: int | str | None = None
    name: str | None = Field(default=None, max_length=100)


class ExportSettings(BaseModel):
    model_config = ConfigDict(extra="allow")

    optional_rules: list[str] | None = Field(default=None, max_length=50)


class ExportAction(BaseModel):
    model_config = ConfigDict(extra="allow")

    id: int = Field(ge=0)
    type: str = Field(max_length=40)


class Export(BaseModel):
    """The shape of an 18xx.games export, as far as an import reads it."""

    model_config = ConfigDict(extra="allow")

    title: str = Field(max_length=40)
    players: list[ExportPlayer] = Field(max_length=MAX_PLAYERS)
    settings: ExportSettings | None = None
    # as in the export; each one checked as an ExportAction by check_export (an action plainly
    # of that shape without copying it into a model: a long log's validation was a twentieth
    # of its import)
    actions: list[Any] = Field(default_factory=list)


_ACTION: TypeAdapter[ExportAction] = TypeAdapter(ExportAction)


def _action_id(index: int, action: Any) -> int:
    """The id of an action of the export as ExportAction validates it (plainly valid ones
    without a model); a ValidationError located in the export (`actions.<index>...`)."""
    if type(action) is dict:
        aid, kind = action.get("id"), action.get("type")
        if type(aid) is int and aid >= 0 and type(kind) is str and len(kind) <= 40:
            return aid
    try:
        return _ACTION.validate_python(action).id
    except ValidationError as err:
        raise ValidationError.from_exception_data(
            "Export", [{**e, "loc": ("actions", index, *e["loc"])}  # type: ignore[typeddict-unknown-key]
                       for e in err.errors()]) from None


def check_export(data: Any) -> Export:
    """Refuse (EngineError) an export that is not one: its shape, title, options, players
    (known count, unique ids) and its actions (each with an id, in order, not too many)."""
    from engine.core.data import load_title_data
    from engine.titles import TITLES

    if not isinstance(data, dict):
        raise EngineError("This is not an 18xx.games game export (an object with title, players "
                          "and actions).", rule="import.shape")
    actions = data.get("actions")
    if isinstance(actions, list) and len(actions) > MAX_ACTIONS:
        raise EngineError(f"The export has {len(actions)} actions; an import takes at most "
                          f"{MAX_ACTIONS}.", rule="import.size")
    try:
        export = Export.model_validate(data)
        ids = [_action_id(i, a) for i, a in enumerate(export.actions)]
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(x) for x in first.get("loc", ()))
        raise EngineError(f"This is not an 18xx.games game export: {where or 'the file'} "
                          f"{first.get('msg', 'is invalid').lower()}.", rule="import.shape") from None
    if export.title not in TITLES:
        raise EngineError(f"This export is of {export.title!r}: the bot plays the titles "
                          f"{', '.join(TITLES)}.", rule="import.title")
    limits = load_title_data(export.title).meta.get("players", {})
    low, high = int(limits.get("min", 2)), int(limits.get("max", MAX_PLAYERS))
    if not low <= len(export.players) <= high:
        raise EngineError(f"{export.title} is for {low}-{high} players; the export has "
                          f"{len(export.players)}.", rule="import.players")
    keys = []
    for p in export.players:
        if p.id is None and p.name is None:
            raise EngineError("Every player of the export needs an id or a name.",
                              rule="import.players")
        keys.append(str(p.id) if p.id is not None else str(p.name))
    if len(set(keys)) != len(keys):
        raise EngineError("Two players of the export have the same id.", rule="import.players")
    known = {o["id"] for o in load_title_data(export.title).meta.get("optional_rules", [])}
    unknown = [o for o in (export.settings.optional_rules or []) if o not in known] \
        if export.settings else []
    if unknown:
        raise EngineError(f"{export.title} has no option {', '.join(unknown)}.",
                          rule="import.option")
    last = 0
    for aid in ids:
        if aid <= last:
            raise EngineError(f"The export's action ids are out of order: {aid} after {last}.",
                              rule="import.order")
        last = aid
    return export


def _player_key(p: dict[str, Any]) -> str:
    return str(p["id"]) if p.get("id") is not None else str(p["name"])


def _normalise(action: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    a = dict(action)
    kind, entity = a.get("entity_type"), a.get("entity")
    if kind == "player" or (kind is None and isinstance(entity, int)):
        ent = str(a["entity"])
        a["entity"] = names.get(ent, ent)
    elif entity is not None and type(entity) is not str:  # (a string stays as it is)
        a["entity"] = str(entity)
    autos = a.get("auto_actions")
    if autos:
        a["auto_actions"] = [_normalise(x, names) for x in autos]
    if "skip" in a:
        del a["skip"]
    if "original_id" in a:
        del a["original_id"]
    return a


def start_from_export(data: dict[str, Any]) -> tuple[Game, list[dict[str, Any]]]:
    """A new Game with the export's title, players and options, and the export's actions
    (normalised to our ids), not yet applied. The game is an import (`Game.imported`): the
    actions are a real game's log, and applied through `Game.apply` too their logged values
    stand."""
    check_export(data)
    players = [(_player_key(p), str(p.get("name", _player_key(p)))) for p in data["players"]]
    names = {str(p.get("name")): _player_key(p) for p in data["players"] if p.get("id") is None}
    options = (data.get("settings") or {}).get("optional_rules") or []
    game = Game(data["title"], players, options)
    game.raw_player_ids = {_player_key(p): p.get("id", p.get("name")) for p in data["players"]}
    game.imported = True
    return game, [_normalise(a, names) for a in data.get("actions", [])]


def import_game(data: dict[str, Any], *, upto: int | None = None,
                before: Callable[[Game, Any], None] | None = None) -> Game:
    """Build a Game from an export. `upto`: keep only actions with id <= upto."""
    game, actions = start_from_export(data)
    if upto is not None:
        actions = [a for a in actions if a.get("id", 0) <= upto]
    game.load_log(actions, before=before)
    return game


def export_game(game: Game, *, game_id: Any = None) -> dict[str, Any]:
    """The game as an 18xx.games export (players, options, the whole log, result)."""
    raw = getattr(game, "raw_player_ids", {})
    players = [{"id": raw.get(pid, pid), "name": name} for pid, name in game.players]
    out: dict[str, Any] = {
        "id": game_id if game_id is not None else "bot",
        "title": game.title_name,
        "players": players,
        "settings": {"optional_rules": list(game.options)},
        "actions": [_export_action(a, raw) for a in game.export_actions()],
        "status": "finished" if game.finished else "active",
    }
    if game.finished:
        out["result"] = {str(raw.get(k, k)): v for k, v in game.result().items()}
        out["game_end_reason"] = game.state.end_reason
    return out


def _export_action(a: dict[str, Any], raw: dict[str, Any]) -> dict[str, Any]:
    if a.get("entity_type") == "player" and a.get("entity") in raw:
        a = dict(a)
        a["entity"] = raw[a["entity"]]
    if a.get("auto_actions"):
        a["auto_actions"] = [_export_action(x, raw) for x in a["auto_actions"]]
    return a


def acting_id(game: Game) -> Any:
    """The entity to act next as the export names it (player id, or corporation / minor /
    company name); None once the game is over."""
    if game.finished:
        return None
    eid, etype = game.current_entity()
    if etype == "player":
        return game.raw_player_ids.get(eid, eid)
    return eid


def cert_holders(game: Game) -> dict[str, Any]:
    """Certificate id -> holder: player id as exported, `ipo` (unsold or in the treasury),
    `market`, or the holding corporation."""
    raw = game.raw_player_ids
    out: dict[str, Any] = {}
    for c in game.state.corporations.values():
        if c.closed:
            continue
        for cert in c.certs:
            owner = cert.owner
            if owner == c.id:
                owner = "ipo"
            out[cert.id] = raw.get(owner, owner)
    return out


def end_state(game: Game) -> dict[str, Any]:
    """Final positions in the shape of the reference end-states."""
    st, t = game.state, game.title
    raw = getattr(game, "raw_player_ids", {})
    players = []
    for p in st.players:
        players.append({
            "id": raw.get(p.id, p.id),
            "name": p.name,
            "cash": p.cash,
            "value": t.player_value(game, p),
            "bankrupt": True if p.bankrupt else None,
            "shares": {c.id: shares.percent(c, p.id) for c in st.corporations.values()
                       if shares.percent(c, p.id)},
            "companies": [c.id for c in st.companies.values() if c.owner == p.id and not c.closed],
        })
    corps: list[dict[str, Any]] = []
    minors: list[dict[str, Any]] = []
    for c in st.corporations.values():
        pres = shares.president(c)
        entry = {
            "name": c.id,
            "ipoed": c.ipoed,
            "floated": c.floated,
            "closed": c.closed,
            "share_price": t.market.price(c.cell) if c.cell else None,
            "par_price": c.par,
            "treasury": c.cash,
            "president": raw.get(pres, pres) if pres else None,
            "trains": [tr.face for tr in st.trains if tr.owner == c.id and not tr.gone],
            "tokens_placed": sum(1 for tok in c.tokens if tok.hex is not None),
        }
        if c.kind == "minor":
            owner = t.controller(game, c.id, "minor")
            entry["owner"] = raw.get(owner, owner) if owner else None
        (minors if c.kind == "minor" else corps).append(entry)
    return {"players": players, "corporations": corps, "minors": minors, "bank_cash": st.bank.cash}
