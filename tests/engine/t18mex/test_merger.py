"""The phase-5 NdM merger: accepted (13315), declined by all then forced on an unfloated
company (the stock-market game), no merger (17849), and the NdM's discard (hotseat01)."""

from __future__ import annotations

from typing import Any

from engine.game import Game
from engine.titles.t18mex.state import mex_state
from tests.engine.t18mex._helpers import G13315, G17849, GHOT, GSTOCK, act, at, rejected


def _t(g: Game) -> Any:
    return g.title


def test_offer_order_and_acceptance() -> None:
    g = at(G13315, 265)  # UdY buys the first 5
    assert mex_state(g).merge_candidates == ["MEX", "CHI", "MC", "UdY", "SPM"]
    assert g.round.current() == ("MEX", "corporation") and g.round.kinds() == ["merge", "pass"]
    rejected(g, "UdY", "pass", "operating.interrupt", "MEX must first merge or pass")
    rejected(g, "MEX", "merge", "merger.order", "MEX is the company offered", corporation="CHI")
    before = at(G13315, 265)
    mex = before.state.corporations["MEX"]
    pres = next(c.owner for c in mex.certs if c.president)
    trains = {t.id for t in before.state.trains if t.owner == "MEX"}
    act(g, "MEX", "merge", corporation="MEX")
    st = g.state
    mex, ndm = st.corporations["MEX"], st.corporations["NdM"]
    assert mex.closed and mex.cell is None and not mex.ipoed
    assert next(c for c in ndm.certs if c.id == "NdM_9").owner == pres
    assert trains <= {t.id for t in st.trains if t.owner == "NdM"}
    assert ndm.cash == before.state.corporations["NdM"].cash + before.state.corporations["MEX"].cash
    assert mex_state(g).cert_limit_adjust == 0 and not mex_state(g).merge_candidates
    assert all(c.owner not in {p.id for p in st.players} for c in mex.certs)
    assert g.round.current() == ("CHI", "corporation")  # UdY's turn had ended: the OR goes on


def test_all_decline_then_the_unfloated_company_is_taken() -> None:
    g = at(GSTOCK, 465)
    assert mex_state(g).merge_candidates == ["CHI", "SPM", "UdY", "MC"]
    for corp in ("CHI", "SPM"):
        act(g, corp, "pass")
    assert mex_state(g).merge_candidates == ["UdY", "MC"]
    act(g, "UdY", "pass")  # the last floated one declines: MC (never started) is merged
    st = g.state
    assert st.corporations["MC"].closed and mex_state(g).merged == "MC"
    assert "NdM" in st.city_tokens[("I8", 0)]  # exchange token on MC's home, free
    assert mex_state(g).cert_limit_adjust == 0


def test_no_merger_raises_the_certificate_limit() -> None:
    g = at(G17849, 313)  # the NdM buys the first 5; every floated candidate declines
    limit = g.title.cert_limit(g)
    assert mex_state(g).merge_candidates == ["MEX", "UdY", "MC", "SPM"]
    assert "NdM_9" in _t(g).reserved_ids(g)
    for corp in ("MEX", "UdY", "MC", "SPM"):
        act(g, corp, "pass")
    assert g.title.cert_limit(g) == limit + 1  # nobody unfloated left to take over
    assert "NdM_9" not in _t(g).reserved_ids(g) and mex_state(g).merged is None


def test_ndm_discards_down_to_its_limit_after_the_merger() -> None:
    g = at(GHOT, 532)  # CHI merges into the NdM, which now has four trains
    ndm = g.state.corporations["NdM"]
    assert len(_t(g).counted_trains(g, ndm)) > g.title.train_limit_for(g, ndm) == 3
    assert g.round.current() == ("NdM", "corporation") and g.round.kinds() == ["discard_train"]
    rejected(g, "NdM", "discard_train", "train.discard", "does not own train", train="4D-0")
    act(g, "NdM", "discard_train", train="3'-1")
    assert len(_t(g).counted_trains(g, ndm)) == 3
    assert next(t for t in g.state.trains if t.id == "3'-1").discarded
