"""Typed actions: the only way state changes. Pydantic models at the boundary.

Field names follow the 18xx.games export format (see docs/ENGINE-API.md), so a logged action
and one of ours have the same shape; ids (shares `GMO_1`, trains `2+-0`, tiles `58-0`, cities
`57-1-0`, market cells `80,1,4`) use the same spelling.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from engine.errors import EngineError

# limits on what one action may carry (a real move is far below each)
MAX_DEPTH = 8  # nesting of lists and objects
MAX_NODES = 4000  # values in one action, auto-actions included
MAX_TEXT = 2000  # characters in one string (a chat message)
MAX_ITEMS = 60  # elements of one list


class _Action(BaseModel):
    model_config = ConfigDict(extra="allow", frozen=True)

    id: int | None = Field(default=None, ge=0)
    entity: str | int | None = None
    entity_type: Literal["player", "corporation", "company", "minor"] | None = None
    auto_actions: list[dict[str, Any]] = Field(default_factory=list)
    created_at: int | None = None
    user: str | int | None = None


class Bid(_Action):
    type: Literal["bid"] = "bid"
    company: str
    price: int


class Par(_Action):
    type: Literal["par"] = "par"
    corporation: str
    share_price: str  # market cell id "<price>,<row>,<col>"


class BuyShares(_Action):
    type: Literal["buy_shares"] = "buy_shares"
    shares: list[str]
    percent: int | None = None
    share_price: int | bool | None = None
    swap: str | None = None


class SellShares(_Action):
    type: Literal["sell_shares"] = "sell_shares"
    shares: list[str]
    percent: int | None = None
    share_price: int | bool | None = None
    swap: str | None = None  # 18MEX: the pool's 5% NdM certificate taken back for a 10% sold


class Pass(_Action):
    type: Literal["pass"] = "pass"


class LayTile(_Action):
    type: Literal["lay_tile"] = "lay_tile"
    hex: str
    tile: str  # tile copy id "58-0"
    rotation: int = Field(ge=0, le=5, strict=True)


class PlaceToken(_Action):
    type: Literal["place_token"] = "place_token"
    city: str  # "<tile id>-<part index>"
    slot: int = 0
    tokener: str | None = None


class Route(BaseModel):
    model_config = ConfigDict(extra="allow")

    train: str
    connections: list[list[str]] = Field(default_factory=list)
    hexes: list[str] | None = None
    revenue: int | None = None
    revenue_str: str | None = None
    nodes: list[str] | None = None


class RunRoutes(_Action):
    type: Literal["run_routes"] = "run_routes"
    routes: list[Route]
    extra_revenue: int | None = None


class Dividend(_Action):
    type: Literal["dividend"] = "dividend"
    kind: Literal["payout", "withhold", "half"]


class BuyTrain(_Action):
    type: Literal["buy_train"] = "buy_train"
    train: str
    price: int
    variant: str | None = None
    exchange: str | None = None


class BuyCompany(_Action):
    type: Literal["buy_company"] = "buy_company"
    company: str
    price: int


class DiscardTrain(_Action):
    type: Literal["discard_train"] = "discard_train"
    train: str


class Assign(_Action):
    type: Literal["assign"] = "assign"
    target: str
    target_type: str = "hex"


class Choose(_Action):
    type: Literal["choose"] = "choose"
    choice: str


class Merge(_Action):
    type: Literal["merge"] = "merge"
    corporation: str


class Bankrupt(_Action):
    type: Literal["bankrupt"] = "bankrupt"


class EndGame(_Action):
    type: Literal["end_game"] = "end_game"


class Undo(_Action):
    type: Literal["undo"] = "undo"
    action_id: int | None = None


class Redo(_Action):
    type: Literal["redo"] = "redo"


class Message(_Action):
    type: Literal["message"] = "message"
    message: str = ""


class ProgramSharePass(_Action):
    """A player's standing order: pass in stock rounds (engine/programs.py). Unset flags are
    false (the site's older logs leave them out)."""

    type: Literal["program_share_pass"] = "program_share_pass"
    unconditional: bool | None = None
    indefinite: bool | None = None


class ProgramBuyShares(_Action):
    """A player's standing order: buy a corporation's shares until it floats or until holding
    a number of them (engine/programs.py)."""

    type: Literal["program_buy_shares"] = "program_buy_shares"
    corporation: str
    until_condition: int | str = "float"
    from_market: bool | None = None
    auto_pass_after: bool | None = None


class ProgramDisable(_Action):
    """A standing order ends: cancelled by its player, or by the engine with the reason."""

    type: Literal["program_disable"] = "program_disable"
    reason: str = ""
    original_type: str | None = None


class Program(_Action):
    """The site's logged checks (1870 destination connections). They change no state."""

    type: Literal["destination_connection"]


Action = Annotated[
    Bid | Par | BuyShares | SellShares | Pass | LayTile | PlaceToken | RunRoutes | Dividend
    | BuyTrain | BuyCompany | DiscardTrain | Assign | Choose | Merge | Bankrupt | EndGame
    | Undo | Redo | Message | ProgramSharePass | ProgramBuyShares | ProgramDisable | Program,
    Field(discriminator="type"),
]

_ADAPTER: TypeAdapter[Action] = TypeAdapter(Action)


def parse_action(data: dict[str, Any] | Any, *, size_checked: bool = False) -> Any:
    """Validate a dict (e.g. from JSON) into a typed action; raises EngineError naming what is
    wrong (an unknown type, a missing or mistyped field, a value too big or too deep).
    `size_checked`: its size was checked already (an automatic action inside a parsed one, an
    action of a log accepted once), so it is not walked again for it."""
    if isinstance(data, BaseModel):
        return data
    if not isinstance(data, dict):
        raise EngineError(f"A move is an object with a type, not {type(data).__name__}.",
                          rule="action.shape")
    if not size_checked:
        _check_size(data)
    try:
        # (the adapter's core validator asked directly: TypeAdapter.validate_python only passes
        # its default options on to it, at a cost felt over a stored log's thousand actions)
        return _ADAPTER.validator.validate_python(data)
    except ValidationError as err:
        raise EngineError(_explain(data, err), rule="action.shape") from None


def _check_size(data: Any) -> None:
    """Refuse actions nested too deep or too big before validating them."""
    if 0 <= _quick_size(data, 1) <= MAX_NODES:
        return
    _check_size_exactly(data)


_BIG = 2**53


def _quick_size(value: Any, depth: int) -> int:
    """The values in `value` when plainly within every limit of `_check_size_exactly` (plain
    dicts, lists, strings, numbers, None), else -1 (that check then finds what is wrong)."""
    t = type(value)
    if t is str:
        return 1 if len(value) <= MAX_TEXT else -1
    if t is int:
        return 1 if -_BIG <= value <= _BIG else -1
    if t is bool or t is float or value is None:
        return 1
    if t is dict:
        if len(value) > MAX_ITEMS or (value and depth >= MAX_DEPTH):
            return -1
        n = 1
        for k, v in value.items():
            if type(k) is not str or len(k) > 100:
                return -1
            tv = type(v)
            if tv is str and len(v) <= MAX_TEXT or tv is bool or v is None:
                n += 1
                continue
            m = _quick_size(v, depth + 1)
            if m < 0:
                return -1
            n += m
        return n
    if t is list or t is tuple:
        if len(value) > MAX_ITEMS or (value and depth >= MAX_DEPTH):
            return -1
        n = 1
        for v in value:
            m = _quick_size(v, depth + 1)
            if m < 0:
                return -1
            n += m
        return n
    return -1


def _check_size_exactly(data: Any) -> None:
    count = 0
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        count += 1
        if depth > MAX_DEPTH or count > MAX_NODES:
            raise EngineError("This move is nested too deep or is too big to be a move.",
                              rule="action.size")
        if isinstance(value, dict):
            if len(value) > MAX_ITEMS:
                raise EngineError("This move has too many fields.", rule="action.size")
            for k, v in value.items():
                if not isinstance(k, str) or len(k) > 100:
                    raise EngineError("This move has a field name that is not a name.",
                                      rule="action.shape")
                stack.append((v, depth + 1))
        elif isinstance(value, list | tuple):
            if len(value) > MAX_ITEMS:
                raise EngineError(f"A list of {len(value)} items is too long for a move "
                                  f"(at most {MAX_ITEMS}).", rule="action.size")
            stack.extend((v, depth + 1) for v in value)
        elif isinstance(value, str) and len(value) > MAX_TEXT:
            raise EngineError(f"A text of {len(value)} characters is too long for a move.",
                              rule="action.size")
        elif isinstance(value, int) and not isinstance(value, bool) and abs(value) > 2**53:
            raise EngineError(f"{value} is not a number a move can use.", rule="action.size")


def _explain(data: dict[str, Any], err: ValidationError) -> str:
    """The first problem of a ValidationError in plain words."""
    kind = data.get("type")
    first = err.errors()[0]
    loc = [str(x) for x in first.get("loc", ()) if not (isinstance(x, str) and x == kind)]
    where = ".".join(loc)
    if first.get("type") == "union_tag_invalid" or (not where and "tag" in first.get("type", "")):
        return f"{kind!r} is not a kind of move." if kind else "A move needs a type."
    if first.get("type") == "union_tag_not_found":
        return "A move needs a type (bid, par, buy_shares, lay_tile, ...)."
    if first.get("type") == "missing":
        return f"A {kind} move needs {where}."
    value = first.get("input")
    shown = repr(value) if not isinstance(value, dict | list) else type(value).__name__
    return f"{where or 'the move'}: {shown} is not allowed ({first.get('msg', 'invalid')})."


def dump_action(action: Any) -> dict[str, Any]:
    """The JSON-ready dict of an action (no None fields, no empty auto_actions)."""
    d: dict[str, Any] = action.model_dump(exclude_none=True)
    if not d.get("auto_actions"):
        d.pop("auto_actions", None)
    return d
