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
# the random player (python -m engine random) draws from a generator seeded by its caller; no
# rule imports it, so the rules stay deterministic
RANDOM_ALLOWED = {"randomplay.py"}


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
        if top in FORBIDDEN and not (top == "random" and rel in RANDOM_ALLOWED):
            bad.append(f"{rel}:{line} imports {name}")
        if top == "time" and rel not in CLOCK_ALLOWED:
            bad.append(f"{rel}:{line} imports {name} (a clock)")
    assert bad == []


def test_no_rule_imports_the_random_player() -> None:
    text = {str(p.relative_to(ENGINE)): p.read_text(encoding="utf-8") for p in SOURCES}
    importers = sorted(r for r, t in text.items() if "randomplay" in t and r != "randomplay.py")
    assert importers == ["__main__.py"]
