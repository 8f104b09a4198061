"""The home token is the charter's first token, as on the site: a company whose first token is
not down places it when it starts operating, even if other tokens of its are already on the
map (the NdM, merged into before its first turn, holds the merged company's tokens but not yet
its own home station in Mexico City)."""

from __future__ import annotations

from tests.engine.t18mex._helpers import G13315, at


def test_home_token_goes_down_although_merger_tokens_are_placed() -> None:
    g = at(G13315, 265)
    st = g.state
    ndm = st.corporations["NdM"]
    home = ndm.tokens[0]
    assert (home.hex, home.cost) == ("O10", 0)
    # as if the NdM had not operated yet: its home station empty, its I12 token from a merger
    st.city_tokens[("O10", 0)] = [None, "UdY"]
    home.hex = None
    g.title.place_home_token(g, ndm)
    assert home.hex == "O10" and st.city_tokens[("O10", 0)] == ["NdM", "UdY"]
    # placed once: a second call changes nothing
    g.title.place_home_token(g, ndm)
    assert [t.hex for t in ndm.tokens].count("O10") == 1
