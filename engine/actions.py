"""Typed actions: the only way state changes. Pydantic models at the boundary.

Field names follow the 18xx.games export format (see docs/ENGINE-API.md), so a logged action
and one of ours have the same shape; ids (shares `GMO_1`, trains `2+-0`, tiles `58-0`, cities
`57-1-0`, market cells `80,1,4`) use the same spelling.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter


class _Action(BaseModel):
    model_config = ConfigDict(extra="allow", frozen=True)

    id: int | None = None
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
    rotation: int = Field(ge=0, le=5)


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


class Program(_Action):
    """Standing orders of the site (auto-buy/auto-pass). They change no state."""

    type: Literal[
        "program_buy_shares", "program_share_pass", "program_disable", "destination_connection"
    ]


Action = Annotated[
    Bid | Par | BuyShares | SellShares | Pass | LayTile | PlaceToken | RunRoutes | Dividend
    | BuyTrain | BuyCompany | DiscardTrain | Assign | Choose | Merge | Bankrupt | EndGame
    | Undo | Redo | Message | Program,
    Field(discriminator="type"),
]

_ADAPTER: TypeAdapter[Action] = TypeAdapter(Action)


def parse_action(data: dict[str, Any] | Any) -> Any:
    """Validate a dict (e.g. from JSON) into a typed action; raises pydantic.ValidationError."""
    if isinstance(data, BaseModel):
        return data
    return _ADAPTER.validate_python(data)


def dump_action(action: Any) -> dict[str, Any]:
    """The JSON-ready dict of an action (no None fields, no empty auto_actions)."""
    d: dict[str, Any] = action.model_dump(exclude_none=True)
    if not d.get("auto_actions"):
        d.pop("auto_actions", None)
    return d
