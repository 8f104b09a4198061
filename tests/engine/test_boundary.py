"""engine/ is pure: no Discord, database, image, asyncio, clock or randomness imports, and it
does not import render/ or bot/."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "engine"
FORBIDDEN = {"discord", "aiosqlite", "PIL", "asyncio", "sqlite3", "random", "datetime",
             "render", "bot"}
# a CLI may time itself; nothing the rules depend on may read a clock
CLOCK_ALLOWED = {"__main__.py", "io/routes_cli.py"}


def _imports(path: Path) -> list[tuple[str, int]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.append((node.module, node.lineno))
    return out


SOURCES = sorted(ENGINE.rglob("*.py"))


def test_engine_has_sources() -> None:
    assert len(SOURCES) > 20


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ENGINE)))
def test_engine_imports_nothing_impure(path: Path) -> None:
    rel = str(path.relative_to(ENGINE))
    bad = []
    for name, line in _imports(path):
        top = name.split(".")[0]
        if top in FORBIDDEN:
            bad.append(f"{rel}:{line} imports {name}")
        if top == "time" and rel not in CLOCK_ALLOWED:
            bad.append(f"{rel}:{line} imports {name} (a clock)")
    assert bad == []
