"""Title-independent building blocks: title data, hexes and tiles, track graph, market."""
