"""Duplicate tournaments (AAAI-99 §6): schedule, runner, statistics, results, presets.

>>> from loki.tournament import config_from_dict, run_tournament, summarize
>>> cfg = config_from_dict({"name": "demo", "deals": 4, "block_deals": 2,
...                         "players": [{"type": "random", "count": 2}, {"type": "calling", "count": 1}]})
>>> run = run_tournament(cfg, workers=1)
>>> s = summarize(cfg, run.chips, run.counters)
>>> s["hands"], [t["type"] for t in s["types"]]
(12, ['random', 'calling'])
"""

from loki.stats import mean_ci
from loki.tournament.config import (
    Comparison,
    PlayerEntry,
    TournamentConfig,
    TournamentConfigError,
    config_from_dict,
    list_presets,
    load_config,
    load_preset,
)
from loki.tournament.runner import JournalError, ResumeError, TournamentRun, play_block, read_journal, run_tournament
from loki.tournament.schedule import deal_cards, seatings
from loki.tournament.stats import summarize

__all__ = [
    "Comparison",
    "PlayerEntry",
    "TournamentConfig",
    "TournamentConfigError",
    "ResumeError",
    "JournalError",
    "TournamentRun",
    "config_from_dict",
    "list_presets",
    "load_config",
    "load_preset",
    "play_block",
    "read_journal",
    "run_tournament",
    "deal_cards",
    "seatings",
    "mean_ci",
    "summarize",
]
