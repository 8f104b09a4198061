"""Hex <-> pixel geometry, kept apart from hex names and game data.

Conventions (shared/reference/tiles-geometry.md): edges are numbered 0-5 clockwise on screen.
Pointy-topped: 0 SW, 1 W, 2 NW, 3 NE, 4 E, 5 SE.  Flat-topped: 0 S, 1 SW, 2 NW, 3 N, 4 NE, 5 SE.
Grid (x, y) is the doubled grid of the title data: pointy maps step 2 in x along a row, flat maps
step 2 in y along a column.  Angles here are screen angles in degrees (0 = east, 90 = south).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

SQRT3 = math.sqrt(3.0)
Point = tuple[float, float]

# Screen angle of the direction from a hex centre to the middle of edge 0.
_EDGE0_ANGLE = {"pointy": 120.0, "flat": 90.0}


@dataclass(frozen=True, slots=True)
class HexLayout:
    orientation: str  # "pointy" | "flat"
    radius: float  # centre to corner, pixels
    origin: Point  # pixel position of grid (0, 0)

    @property
    def apothem(self) -> float:
        """Centre to edge midpoint."""
        return self.radius * SQRT3 / 2

    @property
    def step(self) -> Point:
        """Pixels per grid unit in x and y."""
        if self.orientation == "pointy":
            return (self.apothem, 1.5 * self.radius)
        return (1.5 * self.radius, self.apothem)

    def center(self, x: int, y: int) -> Point:
        sx, sy = self.step
        return (self.origin[0] + x * sx, self.origin[1] + y * sy)

    def edge_angle(self, edge: int) -> float:
        return (_EDGE0_ANGLE[self.orientation] + 60.0 * edge) % 360.0

    def corner_angle(self, i: int) -> float:
        """Angle of corner i, the corner between edge i and edge i+1 (clockwise)."""
        return (self.edge_angle(i) + 30.0) % 360.0

    def edge_mid(self, c: Point, edge: int, frac: float = 1.0) -> Point:
        """The point `frac` of the way from the hex centre c to the middle of `edge`."""
        return polar(c, self.apothem * frac, self.edge_angle(edge))

    def corner(self, c: Point, i: int, frac: float = 1.0) -> Point:
        return polar(c, self.radius * frac, self.corner_angle(i))

    def polygon(self, c: Point, frac: float = 1.0) -> list[Point]:
        return [self.corner(c, i, frac) for i in range(6)]

    def edge_segment(self, c: Point, edge: int) -> tuple[Point, Point]:
        """The two corners bounding `edge` (counter-clockwise one first)."""
        return (self.corner(c, (edge - 1) % 6), self.corner(c, edge))

    def lane_point(self, c: Point, edge: int, lane: tuple[int, int] | None, width: float) -> Point:
        """Where a track meets an edge; lanes are spread clockwise along the edge.

        Lane i of n on one side meets lane n-1-i on the neighbour, which is the same spot since
        the neighbour runs along the shared edge the other way round.
        """
        m = self.edge_mid(c, edge)
        if lane is None or lane[0] <= 1:
            return m
        n, i = lane
        off = (i - (n - 1) / 2) * width
        ang = math.radians(self.edge_angle(edge) + 90.0)  # clockwise tangent
        return (m[0] + off * math.cos(ang), m[1] + off * math.sin(ang))

    def bounds(self, cells: Iterable[tuple[int, int]]) -> tuple[float, float, float, float]:
        """Pixel box (x0, y0, x1, y1) covering the hexes at these grid cells."""
        pts = [self.center(x, y) for x, y in cells]
        if self.orientation == "pointy":
            hx, hy = self.apothem, self.radius
        else:
            hx, hy = self.radius, self.apothem
        return (
            min(p[0] for p in pts) - hx,
            min(p[1] for p in pts) - hy,
            max(p[0] for p in pts) + hx,
            max(p[1] for p in pts) + hy,
        )


def fit_layout(
    orientation: str, cells: Iterable[tuple[int, int]], width: float, margin: float
) -> HexLayout:
    """A layout whose hexes fill `width` pixels (minus `margin` on each side)."""
    cells = list(cells)
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    span_x = max(xs) - min(xs)
    # width of the map in radii
    units = span_x * SQRT3 / 2 + SQRT3 if orientation == "pointy" else span_x * 1.5 + 2.0
    radius = (width - 2 * margin) / units
    probe = HexLayout(orientation, radius, (0.0, 0.0))
    x0, y0, _, _ = probe.bounds(zip(xs, ys, strict=True))
    return HexLayout(orientation, radius, (margin - x0, margin - y0))


def polar(c: Point, r: float, angle_deg: float) -> Point:
    a = math.radians(angle_deg)
    return (c[0] + r * math.cos(a), c[1] + r * math.sin(a))


def lerp(a: Point, b: Point, t: float) -> Point:
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


def bezier(p0: Point, p1: Point, p2: Point, p3: Point, n: int) -> list[Point]:
    """n+1 points on a cubic Bezier curve."""
    out = []
    for k in range(n + 1):
        t = k / n
        u = 1 - t
        a, b, c, d = u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t
        out.append(
            (
                a * p0[0] + b * p1[0] + c * p2[0] + d * p3[0],
                a * p0[1] + b * p1[1] + c * p2[1] + d * p3[1],
            )
        )
    return out


def arc_points(center: Point, r: float, a0: float, a1: float, n: int) -> list[Point]:
    """n+1 points on a circle arc from angle a0 to a1 (degrees, shortest way round)."""
    d = (a1 - a0 + 540.0) % 360.0 - 180.0
    return [polar(center, r, a0 + d * k / n) for k in range(n + 1)]
