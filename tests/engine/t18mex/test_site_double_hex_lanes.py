"""Lanes as on the site: a single track meets only lane 1 of a two-lane edge. The brown Puebla
tiles (485P/486P) bring two lanes to the edge they share with Mexico City (O10): lane 1 to the
Puebla town, lane 0 through to edge 4. Laid on P11 while O10 still holds the green 479MC (its
edge has one track), lane 0's through track is not reached from Mexico City, so for a company
coming only from there the lay adds no track it reaches, and a Puebla tile holds no city: the
site refuses it ("Must be city tile or use new track"). The Mexico City half is a city tile and
may be laid."""

from __future__ import annotations

from engine.routes.graph import _lanes_meet
from tests.engine.t18mex._helpers import G13315, at


def test_lane_matching() -> None:
    assert _lanes_meet(None, None)
    assert _lanes_meet((2, 0), (2, 1)) and _lanes_meet((2, 1), (2, 0))
    assert not _lanes_meet((2, 0), (2, 0)) and not _lanes_meet((2, 1), (2, 1))
    assert _lanes_meet(None, (2, 1)) and _lanes_meet((2, 1), None)
    assert not _lanes_meet(None, (2, 0)) and not _lanes_meet((2, 0), None)


def test_puebla_half_refused_from_mexico_city_the_city_half_allowed() -> None:
    g = at(G13315, 266)  # green 479MC/479P; NdM and UdY hold Mexico City; O12 is empty
    st, t = g.state, g.title
    assert (st.tiles["O10"].tile, st.tiles["P11"].tile) == ("479MC", "479P")
    assert "O12" not in st.tiles
    ndm = st.corporations["NdM"]
    err = t.track_restriction_error(g, ndm, "P11", t.data.tiles["485P"], 0)
    assert err is not None and "hold a city" in err
    assert t.track_restriction_error(g, ndm, "O10", t.data.tiles["485MC"], 0) is None
