"""Title registry: each title is data files plus a Title subclass with short hooks."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.title import Title


def get_title(name: str) -> type[Title]:
    if name == "18MS":
        from engine.titles.t18ms.title import Title18MS

        return Title18MS
    if name == "1870":
        from engine.titles.t1870.title import Title1870

        return Title1870
    if name == "18MEX":
        from engine.titles.t18mex.title import Title18MEX

        return Title18MEX
    raise KeyError(f"Unknown title {name!r}: the bot knows 18MS, 1870 and 18MEX.")


TITLES = ("18MS", "1870", "18MEX")
