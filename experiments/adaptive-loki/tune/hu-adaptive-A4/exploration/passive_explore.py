"""Exploration (tuning seeds 1300-1302, as for A3): A3 heads-up against one opponent, the passive counts after every
hand (counted, never played: passive_answers huge). Prints per hand (answers, moves, the latched showdown verdict) as JSON:
    python passive_explore.py calling 200 1300 > ex_calling_1300.json"""

import json
import sys
import tomllib
from pathlib import Path

from loki.engine import GameConfig
from loki.players.registry import make_player
from loki.players.table import play_hand
from loki.tournament.schedule import deal_cards

A3 = Path(__file__).resolve().parents[2] / "hu-adaptive-A3" / "A3.toml"  # A3 as its validation played it
spec = tomllib.load(open(A3, "rb"))["player"]
spec["exploit"]["passive_answers"] = 100000
opp_spec, N, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
game = GameConfig(n_players=2)
me = make_player(spec, seed=seed)
opp = make_player(opp_spec, seed=seed + 1)
rows = []
for d in range(N):
    holes, board = deal_cards(seed, d, 2)
    play_hand(game, [me, opp], d % 2, None, hole_cards=holes, board=board)
    models = me.models  # type: ignore[attr-defined]  # a Loki player's opponent models (not on the Player protocol)
    m = models.get(1) if hasattr(models, "get") else models[1]
    st = m.stats
    rows.append((int(st.get("cb_answers", 0)), int(st.get("cb_moves", 0)), float(st.get("cb_blind", -1))))
print(json.dumps({"opp": opp_spec, "seed": seed, "rows": rows}))
