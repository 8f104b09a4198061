from __future__ import annotations

from PIL import Image

from render.layout import Point
from render.theme import RGB

SIZE = 900  # small images keep the tests fast


def pixel(img: Image.Image, p: Point) -> RGB:
    px = img.getpixel((round(p[0]), round(p[1])))
    assert isinstance(px, tuple)
    return (int(px[0]), int(px[1]), int(px[2]))


def near(a: RGB, b: RGB, tol: int = 40) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


def dark(a: RGB) -> bool:
    return max(a) < 90
