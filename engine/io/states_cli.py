"""`python -m engine replay PATH --states`: the lockstep contract.

Each action of an export is applied through the live path (`Game.apply`, one at a time, undo,
redo and messages included); after each, one JSON line: the action id, the entity to act next,
the state in the end-state shape and the certificate holders. A refused action prints
`{"id", "rejected"}` and stops.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from engine.errors import EngineError
from engine.io.export18xx import acting_id, cert_holders, end_state, start_from_export


def print_states(data: dict[str, Any]) -> int:
    game, actions = start_from_export(data)
    out = sys.stdout
    for act in actions:
        aid = act.get("id")
        try:
            game.apply(act)
        except EngineError as err:
            out.write(json.dumps({"id": aid, "rejected": str(err), "rule": err.rule}) + "\n")
            out.flush()
            return 1
        except Exception as err:  # a fault, not a ruling: say so and stop
            out.write(json.dumps({"id": aid, "rejected": f"internal error: {err!r}"}) + "\n")
            out.flush()
            return 3
        line = {"id": aid, "acting": acting_id(game), "state": end_state(game),
                "certs": cert_holders(game)}
        out.write(json.dumps(line) + "\n")
        out.flush()
    return 0
