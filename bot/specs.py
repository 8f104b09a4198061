"""The command set's specs: every command's name, description and parameters, in order, shared
by the Discord cogs (bot/cogs), the terminal mode (bot/local.py) and the e-mail transport
(bot/mail); bot.commands runs them.  A move's spec names its builder in bot.moves."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Concatenate

from bot import auto, longcmds, moves
from engine.legal import Legal


@dataclass(frozen=True, slots=True)
class Param:
    name: str
    description: str
    required: bool = True
    kind: type = str  # str | int
    autocomplete: bool = False  # values come from game.legal() (/map: the regions and hexes)


@dataclass(frozen=True, slots=True)
class Spec:
    name: str
    description: str
    params: tuple[Param, ...] = ()
    # builder in bot.moves, for moves: the legal answer (with names), then the arguments
    move: Callable[Concatenate[Legal, ...], dict[str, Any]] | None = None


def _p(name: str, description: str, **kw: Any) -> Param:
    return Param(name, description, **kw)


_CORP = _p("corporation", "corporation id, e.g. GMO", autocomplete=True)
_COMPANY = _p("company", "private company id", autocomplete=True)
_PRICE = _p("price", "price in $", autocomplete=True)
_TRAIN = _p("train", "train id, e.g. 2+-0", autocomplete=True)

MOVES: tuple[Spec, ...] = (
    Spec(
        "bid",
        "Bid on a private company",
        (_COMPANY, _p("price", "price in $ (default: the lowest, the price in a fixed-price "
                               "draft)", required=False, autocomplete=True)),
        moves.bid,
    ),
    Spec("par", "Start a corporation at a par price", (_CORP, _PRICE), moves.par),
    Spec(
        "buy",
        "Buy one share",
        (_CORP, _p("share", "which share (default: cheapest)", required=False, autocomplete=True)),
        moves.buy,
    ),
    Spec(
        "sell",
        "Sell shares",
        (
            _CORP,
            _p("percent", "percent to sell", autocomplete=True),
            _p("shares", "certificate ids, e.g. GMO_3 GMO_4 (optional)", required=False),
        ),
        moves.sell,
    ),
    Spec("pass", "Pass", (), moves.pass_),
    Spec(
        "lay",
        "Lay or upgrade a tile",
        (
            _p("hex", "hex, e.g. E12", autocomplete=True),
            _p("tile", "tile", autocomplete=True),
            _p("rotation", "rotation 0-5 (leave it out: a picture of those that fit)",
               required=False, kind=int, autocomplete=True),
            _p("company", "use this private company's ability", required=False),
        ),
        moves.lay_tile,
    ),
    Spec(
        "token",
        "Place a station token",
        (
            _p("city", "city", autocomplete=True),
            _p("slot", "slot", required=False, kind=int),
            _p("company", "use this private company's ability", required=False),
        ),
        moves.place_token,
    ),
    Spec(
        "run",
        "Run trains: the best run shown to confirm, or your routes",
        (_p("routes", "empty: the best run to confirm; 'best': run it at once; stops per "
                      "train (Memphis-Grenada;Jackson-Meridian); or JSON", required=False),),
        moves.run_routes,
    ),
    Spec(
        "dividend",
        "Pay out, withhold or pay half",
        (_p("kind", "payout, withhold or half", autocomplete=True),),
        moves.dividend,
    ),
    Spec(
        "train",
        "Buy a train",
        (
            _TRAIN,
            _p("price", "price in $ (default: the lowest)", required=False, autocomplete=True),
            _p("variant", "train variant, e.g. 4D (optional)", required=False),
        ),
        moves.buy_train,
    ),
    Spec("discard", "Discard a train over the limit", (_TRAIN,), moves.discard_train),
    Spec(
        "private",
        "Buy a private company for the corporation",
        (_COMPANY, _PRICE),
        moves.buy_company,
    ),
    Spec(
        "choose",
        "Make a choice the game asks for (private abilities, options)",
        (_p("choice", "choice", autocomplete=True),),
        moves.choose,
    ),
    Spec(
        "assign",
        "Use a private ability on a hex",
        (
            _p("target", "hex, e.g. E12"),
            _p("company", "the private company whose ability it is", required=False),
        ),
        moves.assign,
    ),
    Spec("bankrupt", "Declare bankruptcy", (), moves.bankrupt),
    # title-specific moves, named as players know them; the engine decides if they apply
    Spec(
        "protect",
        "1870: price-protect the shares just sold (buy the bundle back)",
        (
            _CORP,
            _p("shares", "certificate ids (default: the engine picks)", required=False),
        ),
        moves.protect,
    ),
    Spec(
        "redeem",
        "1870: the corporation redeems one of its shares",
        (_CORP, _p("share", "share (default: one from the market)", required=False)),
        moves.redeem,
    ),
    Spec("reissue", "1870: the corporation reissues its redeemed shares", (_CORP,), moves.reissue),
    Spec(
        "connect",
        "1870: connection run - destination token on the Map or the Charter",
        (_p("where", "Map or Charter", required=False, autocomplete=True),),
        moves.connect,
    ),
    Spec(
        "merge",
        "18MEX: accept the NdM merger offered to your corporation (/pass declines)",
        (_p("corporation", "the corporation offered the merger", required=False),),
        moves.merge,
    ),
)

OTHER: tuple[Spec, ...] = (
    Spec(
        "create",
        "Create a game in this channel (it gets its own thread)",
        (
            _p("title", "18MS, 1870 or 18MEX"),
            _p("options", "optional rules, comma separated", required=False),
        ),
    ),
    Spec("join", "Join the game of this thread"),
    Spec("leave", "Leave the game before it starts"),
    Spec(
        "start",
        "Start the game (seating as mentions in order, or random)",
        (_p("seating", "players in seat order, e.g. @a @b @c", required=False),),
    ),
    Spec("games", "List the games of this server"),
    Spec("abandon", "Abandon the game (creator or admins)"),
    Spec("end", "End the game now, scored as it stands (creator or admins)"),
    Spec("export", "Export the game as an 18xx.games JSON file"),
    Spec("status", "Show the game's status"),
    Spec(
        "map",
        "Show the map, one region of it, or the hexes around a hex (legible on a phone)",
        (
            _p("region", "a region of the map, e.g. A1-D8 (the list: leave it empty and type)",
               required=False, autocomplete=True),
            _p("hex", "a hex, e.g. E12: the close-up around it", required=False,
               autocomplete=True),
        ),
    ),
    Spec("market", "Show the stock market"),
    Spec("history", "Show the last moves", (_p("count", "how many", required=False, kind=int),)),
    Spec("legal", "What may the acting player do now?"),
    Spec("catchup", "What happened since your last move, then the current card"),
    Spec(
        "help",
        "The commands, or how to use one",
        (_p("command", "a command's name, e.g. token", required=False, autocomplete=True),),
    ),
    Spec("undo", "Undo the latest move (another player's needs their consent)"),
    Spec("redo", "Redo the move just undone"),
)

MAX_OPTION_TEXT = 6000  # Discord caps an option at 6000 characters
MAX_IMPORT_BYTES = 20_000_000  # a long real game exports to about 1 MB

LONG_GAMES: tuple[Spec, ...] = longcmds.specs(Spec, _p)  # reminders, clocks, seats
AUTO: tuple[Spec, ...] = auto.specs(Spec, _p)  # programmed moves (bot/auto.py)
SPECS: dict[str, Spec] = {s.name: s for s in MOVES + OTHER + LONG_GAMES + AUTO}
MOVE_PARAMS: dict[str, dict[str, Param]] = {s.name: {p.name: p for p in s.params} for s in MOVES}
