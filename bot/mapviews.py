"""What /map may show besides the whole map: one region of it (render.regions.map_regions:
the map cut in about 4 x 4 hexes, each legible in a phone preview) or the close-up around one
hex.  `map_kind` turns the command's options into the renderer's image kind ("region:A1-D8",
"area:E12"), refusing a name the title does not have with the list of those it has;
`choices` are the autocomplete's offers.  The terminal mode takes the same options
(`map region=A1-D8`, `map hex=E12`, or `map region:A1-D8`, `map hex:E12`, or `map E12`)."""

from __future__ import annotations

import re

from bot.moves import filter_choices
from bot.replies import BotError
from engine.core.data import TitleData, load_title_data
from render.regions import map_regions

_HEX_NAME = re.compile(r"([A-Z]+)(\d+)")


def title_data(title: str) -> TitleData:
    return load_title_data(title)


def _unprefixed(text: str | None) -> tuple[str, str] | None:
    """("region" | "hex" | "", value) of an option's text: "region:A1-D8" and "hex:E5" (the
    terminal's words) name what they are; a bare value is what its option says."""
    if text is None or not str(text).strip():
        return None
    t = str(text).strip()
    key, sep, value = t.partition(":")
    if sep and key.lower() in ("region", "hex"):
        return key.lower(), value.strip()
    return "", t


def map_kind(data: TitleData, region: str | None, hex_: str | None) -> str:
    """The image kind of `/map region:NAME` or `/map hex:HEX` (see the module docstring)."""
    given = []
    for option, text in (("region", region), ("hex", hex_)):
        got = _unprefixed(text)
        if got is not None:
            given.append((got[0] or option, got[1]))
    if len(given) != 1:
        raise BotError("Give one of region or hex, not both.")
    what, value = given[0]
    regions = map_regions(data)
    if what == "region":
        found = _find(value, list(regions))
        if found is not None:
            return f"region:{found}"
        if _find(value, list(data.hexes)) is None:  # a hex typed as the first word is a hex
            raise BotError(f"The {data.title} map has no region {value!r}. {region_list(data)}")
        what = "hex"
    found = _find(value, list(data.hexes))
    if found is None:
        raise BotError(f"The {data.title} map has no hex {value!r}. {hex_list(data)}")
    return f"area:{found}"


def _find(value: str, names: list[str]) -> str | None:
    v = value.strip().upper()
    return next((n for n in names if n.upper() == v), None)


def region_list(data: TitleData) -> str:
    return "Regions: " + ", ".join(map_regions(data)) + "."


def hex_list(data: TitleData) -> str:
    """Every hex of the map, by row: "Hexes: A 2 4 6; B 3 5 ..."."""
    rows: dict[str, list[int]] = {}
    odd: list[str] = []
    for name in data.hexes:
        m = _HEX_NAME.fullmatch(name)
        if m:
            rows.setdefault(m.group(1), []).append(int(m.group(2)))
        else:
            odd.append(name)
    parts = [f"{r} " + " ".join(str(c) for c in sorted(cols))
             for r, cols in sorted(rows.items(), key=lambda kv: (len(kv[0]), kv[0]))]
    return "Hexes: " + "; ".join(parts + sorted(odd)) + "."


def _places(data: TitleData, hexes: tuple[str, ...] | list[str], most: int = 3) -> str:
    names = [str(data.hexes[n].location) for n in hexes if data.hexes[n].location]
    return ", ".join(dict.fromkeys(names[:most]))


def choices(data: TitleData, param: str, typed: str) -> list[tuple[str, str]]:
    """Autocomplete offers for /map's region or hex: (label, value), filtered by `typed`."""
    if param == "region":
        offers = []
        for name, hexes in map_regions(data).items():
            places = _places(data, hexes)
            offers.append((f"{name}: {places}"[:100] if places else name, name))
        return filter_choices(offers, typed)
    if param == "hex":
        t = typed.strip().upper()
        names = sorted(data.hexes, key=lambda n: (not n.startswith(t), len(n), n))
        offers = [(f"{n} {data.hexes[n].location}"[:100] if data.hexes[n].location else n, n)
                  for n in names]
        return filter_choices(offers, typed)
    return []
