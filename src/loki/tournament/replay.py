"""Replay real hand histories through Loki: statistics, agreement with the logged actions and
the quality of the opponent models.

For every hand of a log (ACPC ``STATE`` lines or PHH) and every player, a Loki bot (from the
registry, ``loki1`` by default) sits in that player's seat and is driven through the logged hand
with its ``begin_hand / observe / act / end_hand`` protocol: at each of that player's decision
points the bot is asked for its action (compared with the logged one), then the logged action is
applied.  One bot per player name is kept for the whole log, and the table is presented with
fixed seats (the ACPC seat rotation undone), so its opponent models follow the same opponents.

At every showdown, for each bot and each opponent it modelled who showed a hand, the percentile
of the shown holding within the bot's final weight table (``bot.models[seat].weights``, over the
holdings live for that bot: not clashing with the board or its own cards) is recorded: 50 means
an uninformative model, higher means the model had the real hand among its likely holdings
(ties count half).

With ``estimator="aivat"`` each hand's AIVAT corrections (:mod:`loki.aivat`) are computed from the
logged cards and betting: a log shows every player's hole cards (ACPC ``STATE`` lines do) but not the
distributions the players drew their actions from, so only the chance corrections apply (no action
correction).  The report then gives every player's winnings per hand with 95 % intervals, the hand being
the unit of sampling, by both estimators, and the variance ratio (:meth:`ReplayReport.estimates`).

A hand that does not replay (bad cards, an illegal action, a misplaced ``/``) is checked on the
engine *before* the bots see it; with ``skip_bad=True`` (what ``loki replay`` uses) it is left out
and listed in :attr:`ReplayReport.skipped` instead of aborting the whole report.  Lines of an
ACPC log that are not ``STATE``/``SCORE``/comments are listed in :attr:`ReplayReport.warnings`
by :func:`load_log` (``FILE:LINE``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from loki.engine import Action, new_hand
from loki.errors import HandHistoryError
from loki.io.acpc_log import HandRecord
from loki.io.limits import MAX_REPLAY_PLAYERS
from loki.io.names import shown, shown_markup
from loki.io.plots import figures, save_figure
from loki.io.tableview import plural
from loki.modeler.quality import ModelQuality, holding_percentile
from loki.tournament.handstats import HandCounts, hand_counts

if TYPE_CHECKING:
    from loki.players.base import Player

__all__ = [
    "PlayerStats",
    "ReplayReport",
    "replay_hands",
    "load_hands",
    "load_log",
    "render_report",
    "plot_percentiles",
    "holding_percentile",
    "PLOT_SUFFIXES",
    "DEFAULT_SPEC",
    "logged_spec",
]

PLOT_SUFFIXES = (".png", ".pdf", ".svg")


@dataclass
class PlayerStats(HandCounts):
    """Per player: the :class:`~loki.tournament.handstats.HandCounts` of its hands (``vpip_pct``, ``pfr_pct``,
    ``af``, ...), ``name``, ``decisions`` asked of the bot and how many ``agree`` with the log,
    ``chips`` won."""

    name: str = ""
    bot: str = ""
    decisions: int = 0
    agree: int = 0
    chips: float = 0.0

    @property
    def aggression(self) -> float:
        """Post-flop aggression factor :attr:`af`, infinite with bets/raises but no call, 0 with neither."""
        af = self.af
        return af if af is not None else float("inf") if self.pf_raises else 0.0

    @property
    def agreement_pct(self) -> float:
        return 100.0 * self.agree / self.decisions if self.decisions else 0.0


@dataclass
class ReplayReport:
    """Result of :func:`replay_hands`: ``stats`` per player name, ``percentiles`` (one per tracked
    showdown hand: observer, opponent, hand id, percentile), payoff check counts."""

    stats: dict[str, PlayerStats]
    percentiles: list[tuple[str, str, object, float]] = field(default_factory=list)
    hands: int = 0
    payoff_mismatches: list = field(default_factory=list)
    player_spec: str = "loki1"
    small_bet: int = 10
    skipped: list = field(default_factory=list)  # (hand id or FILE:LINE, message)
    warnings: list = field(default_factory=list)  # "FILE:LINE: ..." of ignored log lines
    quality: ModelQuality = field(default_factory=ModelQuality)  # the bots' model stores, merged
    hand_chips: dict[str, list[float]] = field(default_factory=dict)  # per player: chips of each hand played
    hand_corrections: dict[str, list[float]] | None = None  # per player: AIVAT correction of each hand (chips)

    @property
    def percentile_values(self) -> np.ndarray:
        return np.array([p[3] for p in self.percentiles], dtype=float)

    def to_dict(self) -> dict:
        """A JSON-able report: per player its hands, VPIP/PFR (%), aggression, decisions and agreement (%),
        chips and sb/hand; the showdown percentiles (cases, mean, quartiles), the model quality
        (:meth:`loki.modeler.ModelQuality.summary`), each player's sb/hand with intervals by the plain estimator and,
        with ``estimator="aivat"``, by AIVAT (:meth:`estimates`), payoff mismatches, skipped hands and ignored lines."""
        v = self.percentile_values
        q = np.percentile(v, [25, 50, 75]) if v.size else None
        players = []
        for st in self.stats.values():
            players.append(
                {
                    "name": st.name,
                    "bot": st.bot,
                    "hands": st.hands,
                    "vpip_pct": st.vpip_pct,
                    "pfr_pct": st.pfr_pct,
                    "aggression": st.aggression if np.isfinite(st.aggression) else None,
                    "decisions": st.decisions,
                    "agree_pct": st.agreement_pct,
                    "chips": st.chips,
                    "sb_per_hand": st.chips / self.small_bet / st.hands if st.hands else None,
                }
            )
        return {
            "player": self.player_spec,
            "hands": self.hands,
            "players": players,
            "percentiles": {
                "cases": int(v.size),
                "mean": float(v.mean()) if v.size else None,
                "quartiles": None if q is None else [float(x) for x in q],
            },
            "model_quality": self.quality.summary(),
            "estimates": self.estimates(),
            "payoff_mismatches": len(self.payoff_mismatches),
            "skipped": [[str(h), str(m)] for h, m in self.skipped],
            "warnings": [str(w) for w in self.warnings],
        }

    def estimates(self, level: float = 0.95) -> list[dict]:
        """Each player's winnings per hand in small bets, the hand being the unit of sampling.

        Returns:
            One dict per player (in order of appearance): ``name``, ``hands``, ``sb_per_hand`` and ``ci``
            (plain mean and half-width of its ``level`` interval; None with fewer than 2 hands) and, when
            the replay computed AIVAT corrections, ``aivat_sb_per_hand``, ``aivat_ci``, ``variance_ratio``
            (AIVAT / plain per-hand variance) and ``correction`` (mean correction, sb/hand; expectation 0).

        Source: Burch, Schmid, Moravčík, Morrill, Bowling, AIVAT, AAAI-18 (:mod:`loki.aivat`).
        """
        import math

        from loki.stats import mean_ci

        out = []
        for nm, chips in self.hand_chips.items():
            x = np.asarray(chips, dtype=float) / self.small_bet
            m, h = mean_ci(x, level)
            e: dict = {"name": nm, "hands": int(x.size), "sb_per_hand": m, "ci": None if math.isnan(h) else h}
            if self.hand_corrections is not None:
                c = np.asarray(self.hand_corrections[nm], dtype=float) / self.small_bet
                y = x + c
                ma, ha = mean_ci(y, level)
                vx = float(x.var(ddof=1)) if x.size > 1 else 0.0
                e["aivat_sb_per_hand"] = ma
                e["aivat_ci"] = None if math.isnan(ha) else ha
                e["variance_ratio"] = float(y.var(ddof=1)) / vx if vx > 0 else None
                e["correction"] = float(c.mean()) if c.size else math.nan
            out.append(e)
        return out


def load_hands(path, max_hands: int | None = None) -> list[HandRecord]:
    """Hands of an ACPC log (any suffix but ``.phh``/``.phhs``) or a PHH file (the first bad hand raises), read as
    a stream within the limits of :mod:`loki.io.limits` (``max_hands``: stop reading after that many)."""
    p = Path(path)
    if p.suffix in (".phh", ".phhs"):
        from loki.io.phh import read_phh

        return read_phh(p, max_hands=max_hands)
    from loki.io.acpc_log import read_acpc_log

    return read_acpc_log(p, max_hands=max_hands).hands


def load_log(path, max_hands: int | None = None) -> tuple[list[HandRecord], list, list[str]]:
    """``(hands, skipped, warnings)`` of an ACPC log or PHH file, leaving out the hands that cannot
    be read (``skipped``: ``(hand id or FILE:LINE, message)``; ``warnings``: ignored lines).

    The file is read as a stream within the limits of :mod:`loki.io.limits` (at most 64 MiB; ``/dev/zero``
    is refused, never read whole); with ``max_hands`` reading stops after that many hands.

    Raises:
        HandHistoryError: the file as a whole cannot be read (missing, binary, too large, no STATE line).
    """
    p = Path(path)
    skipped: list = []
    if p.suffix in (".phh", ".phhs"):
        from loki.io.phh import read_phh

        return read_phh(p, skipped, max_hands=max_hands), skipped, []
    from loki.io.acpc_log import read_acpc_log

    lg = read_acpc_log(p, strict=False, max_hands=max_hands)
    return lg.hands, list(lg.skipped), list(lg.warnings)


def _fixed_offset(names: Sequence[str], order: dict) -> int | None:
    n = len(names)
    off = (order[names[0]] - 0) % n
    if all(order[names[pos]] == (pos + off) % n for pos in range(n)):
        return off
    return None


class _Replayer:
    """The state of :func:`replay_hands` across hands: one bot per player name, its statistics, the report."""

    def __init__(
        self,
        records: Sequence[HandRecord],
        player_spec: str | None,
        seed: int,
        wrap: Callable[[str, Player], Player] | None,
        before_hand: Callable[[HandRecord, dict[int, Player], dict[int, str]], None] | None,
        estimator: str,
    ) -> None:
        from loki.errors import ConfigError

        if estimator not in ("plain", "aivat"):
            raise ConfigError(f"estimator {estimator!r}: expected 'plain' or 'aivat'")
        self.oracle = None
        if estimator == "aivat":
            from loki.aivat import EquityOracle

            self.oracle = EquityOracle()
        self.spec, self.seed, self.wrap, self.before_hand = player_spec, seed, wrap, before_hand
        self.first_n = records[0].n_players if records else 0
        players = {nm for rec in records for nm in rec.names}
        if len(players) > MAX_REPLAY_PLAYERS:  # each name gets a bot with its models: memory and time grow with them
            src = records[0].extra.get("source", "") if records[0].extra else ""
            where = str(src).rsplit(":", 1)[0] + ": " if src else ""
            raise HandHistoryError(
                f"{where}{len(players):,} player names, more than the {MAX_REPLAY_PLAYERS:,} one replay models (each "
                "name gets its own bot): replay fewer hands (--hands) or split the log by players"
            )
        self.seen: set = set()  # hand ids replayed: a hand number met again is skipped, not counted twice
        self.order: dict[str, int] = {}
        self.bots: dict[str, Player] = {}
        self.stats: dict[str, PlayerStats] = {}
        small_bet = records[0].config.small_bet if records else 10
        shown_spec = player_spec if player_spec is not None else f"the logged bots (else {DEFAULT_SPEC})"
        self.report = ReplayReport(self.stats, player_spec=shown_spec, small_bet=small_bet)
        if self.oracle is not None:
            self.report.hand_corrections = {}

    def check(self, rec: HandRecord) -> None:
        """The hand replays on the engine, with the player count of the log's first hand and a name per seat (else
        HandHistoryError)."""
        if rec.hand_id in self.seen:
            raise HandHistoryError(
                f"{rec.where}: hand number {shown(rec.hand_id)} was met before in the log; counted once (replay "
                "concatenated logs one at a time)"
            )
        rec.replay()
        if rec.n_players != self.first_n:
            raise HandHistoryError(f"{rec.where}: {rec.n_players} players, the log's first hand has {self.first_n}")
        if rec.names and len(set(rec.names)) != len(rec.names):  # one bot per name: two seats cannot share one
            raise HandHistoryError(f"{rec.where}: a player name appears twice in the hand ({list(rec.names)})")

    def seat(self, rec: HandRecord):
        """The hand's fixed seats (the ACPC rotation undone) and its players, told that the hand begins:
        ``(state, players by seat, names by seat, seat of each log position)``."""
        from loki.players.registry import make_player

        n = rec.n_players
        names = list(rec.names) if rec.names else [f"p{i + 1}" for i in range(n)]
        for nm in names:
            if nm not in self.order:
                self.order[nm] = len(self.order)
        off = (_fixed_offset(names, self.order) if len(self.order) == n else None) or 0
        seat_of_pos = [(pos + off) % n for pos in range(n)]
        name_at = {seat_of_pos[pos]: names[pos] for pos in range(n)}
        holes: list[str | None] = [None] * n
        for pos in range(n):
            holes[seat_of_pos[pos]] = rec.hole_cards[pos]
        button = (rec.button + off) % n
        config = rec.config
        if isinstance(config.stacks, tuple):  # finite stacks (PHH): they move with their players
            stacks = [0] * n
            for pos in range(n):
                stacks[seat_of_pos[pos]] = config.stacks[pos]
            config = dataclasses.replace(config, stacks=tuple(stacks))
        try:
            state = new_hand(config, button, hole_cards=holes, board=rec.board)
        except ValueError as e:
            raise HandHistoryError(f"hand {rec.hand_id}: {e}") from None
        players: dict[int, Player] = {}
        for seat in range(n):
            nm = name_at[seat]
            if nm not in self.bots:
                spec = self.spec if self.spec is not None else logged_spec(nm) or DEFAULT_SPEC
                bot = make_player(spec, seed=self.seed + self.order[nm], name=f"{spec}@{shown(nm)}")
                self.bots[nm] = bot if self.wrap is None else self.wrap(nm, bot)
                self.stats[nm] = PlayerStats(name=nm, bot=spec)
            players[seat] = self.bots[nm]
            players[seat].begin_hand(seat, config, state.hole_cards(seat), button)
        if self.before_hand is not None:
            self.before_hand(rec, players, name_at)
        return state, players, name_at, seat_of_pos

    def play(self, rec: HandRecord, state, players: dict, name_at: dict) -> None:
        """Drive the players through the logged actions, asking the actor's bot at each decision."""
        seen = 0
        actions = [a for a in rec.betting if a != "/"]  # (the '/' were checked by rec.replay())
        for k in range(len(actions) + 1):
            events = state.events
            while seen < len(events):
                ev = events[seen]
                seen += 1
                for pl in players.values():
                    pl.observe(ev)
            if k == len(actions):
                break
            actor = state.current_player
            if actor is None:
                raise HandHistoryError(f"hand {rec.hand_id}: betting {rec.betting!r} goes on after the hand ended")
            logged = Action.parse(actions[k])
            legal = state.legal_actions()
            if logged not in legal:
                raise HandHistoryError(f"hand {rec.hand_id}: illegal logged action {logged.name} in {rec.betting!r}")
            st = self.stats[name_at[actor]]
            choice = players[actor].act(state.view(actor), legal)
            st.decisions += 1
            st.agree += int(Action.parse(choice) == logged)
            state.apply(logged)
        if not state.is_terminal:
            raise HandHistoryError(f"hand {rec.hand_id}: betting {rec.betting!r} does not finish the hand")

    def tally(self, rec: HandRecord, state, players: dict, name_at: dict, seat_of_pos: list[int]) -> None:
        """Statistics, payoffs (checked against the log), AIVAT corrections and showdown percentiles of a hand."""
        n, report = rec.n_players, self.report
        for seat, c in enumerate(hand_counts(state)):
            self.stats[name_at[seat]] += c
        if rec.payoffs is not None:
            mine = [state.payoffs[seat_of_pos[pos]] for pos in range(n)]
            # a log writes a fractional payoff with six decimals (format_payoff: 5/3 as 1.666667)
            if any(abs(float(a) - float(b)) > 1e-6 for a, b in zip(mine, rec.payoffs, strict=True)):
                report.payoff_mismatches.append((rec.hand_id, tuple(mine), tuple(rec.payoffs)))
        for seat in range(n):
            self.stats[name_at[seat]].chips += state.payoffs[seat]
            report.hand_chips.setdefault(name_at[seat], []).append(float(state.payoffs[seat]))
        if self.oracle is not None and report.hand_corrections is not None:
            from loki.aivat import hand_corrections

            corr = hand_corrections(state, None, self.oracle).total
            for seat in range(n):
                report.hand_corrections.setdefault(name_at[seat], []).append(float(corr[seat]))
        if state.went_to_showdown:
            self.percentiles(rec, state, players, name_at)
        for seat, pl in players.items():
            pl.end_hand(state.view(seat))

    def percentiles(self, rec: HandRecord, state, players: dict, name_at: dict) -> None:
        """Each bot's percentile of every shown opponent holding in its model of that opponent."""
        shown = state.shown_cards()
        board = list(state.board)
        for seat, pl in players.items():
            models = getattr(pl, "models", None)
            if not models:
                continue
            dead = board + list(state.hole_cards(seat))
            for opp, cards in shown.items():
                if opp == seat or opp not in models:
                    continue
                pct = holding_percentile(models[opp].weights, cards, dead)
                self.report.percentiles.append((name_at[seat], name_at[opp], rec.hand_id, pct))

    def finish(self) -> ReplayReport:
        """The report, with the bots' model stores merged into its model quality."""
        for bot in self.bots.values():
            store = getattr(bot, "models", None)
            if store is not None and hasattr(store, "quality"):
                self.report.quality.merge(store.quality)
        return self.report


#: The bot of a replay where none is given and a player's name is not a loki spec.
DEFAULT_SPEC = "loki1"


def logged_spec(name: str) -> str | None:
    """The loki player spec a log's player name stands for, or None: ``loki match`` and ``loki dealer`` name a seat
    by its spec with ``-`` for ``:`` (ACPC logs reserve ``:``), so ``loki2-BRS-adaptive`` is ``loki2:BRS:adaptive``.
    Only a short spec of letters, digits and ``= . _ -`` is read back (never a path: a name from a log does not open
    files); an oracle is not.

    >>> logged_spec("loki2-BRS-adaptive"), logged_spec("calling"), logged_spec("Hyperborean"), logged_spec("x.toml")
    ('loki2:BRS:adaptive', 'calling', None, None)
    """
    import re

    from loki.players.registry import parse_player

    if len(name) > 100 or not re.fullmatch(r"[A-Za-z][A-Za-z0-9=._-]*", name) or name.lower().endswith(".toml"):
        return None
    spec = name.replace("-", ":")
    try:
        cfg = parse_player(spec)
    except ValueError:  # PlayerSpecError, ConfigError: not a spec
        return None
    return None if getattr(cfg, "cheats", False) else spec


def replay_hands(
    records: Sequence[HandRecord],
    player_spec: str | None = DEFAULT_SPEC,
    seed: int = 0,
    progress=None,
    skip_bad: bool = False,
    wrap: Callable[[str, Player], Player] | None = None,
    before_hand: Callable[[HandRecord, dict[int, Player], dict[int, str]], None] | None = None,
    estimator: str = "plain",
) -> ReplayReport:
    """Replay ``records`` with one bot per player (see the module docstring).

    Args:
        player_spec: the bot in every seat; None: each player's own bot where its name is a loki spec
            (:func:`logged_spec`: a ``loki match`` log), else :data:`DEFAULT_SPEC`.
        skip_bad: leave out hands that do not replay, listing them in ``report.skipped``.
        wrap: ``wrap(name, bot) -> player``, called once per player name when its bot is made; the player it
            returns sits in that player's seats (e.g. :class:`loki.explain.ExplainedPlayer`).
        before_hand: ``before_hand(record, players by seat, names by seat)``, called after every player's
            ``begin_hand`` and before the first event of each replayed hand.
        estimator: ``"plain"`` or ``"aivat"`` (also compute each hand's AIVAT chance corrections:
            :attr:`ReplayReport.hand_corrections`, :meth:`ReplayReport.estimates`).

    Raises:
        HandHistoryError: more than :data:`~loki.io.limits.MAX_REPLAY_PLAYERS` player names in ``records`` (before any
            bot is made); (without ``skip_bad``) a hand that does not replay (bad cards, illegal betting, misplaced
            ``/``) or whose hand id was replayed before; the message names the hand and its file.
        ConfigError: an ``estimator`` other than ``"plain"`` or ``"aivat"``.
    """
    r = _Replayer(records, player_spec, seed, wrap, before_hand, estimator)
    for rec in records:
        try:  # checked on the engine before any bot sees the hand
            r.check(rec)
        except ValueError as e:
            if not skip_bad:
                raise
            r.report.skipped.append((rec.hand_id, str(e)))
            continue
        r.seen.add(rec.hand_id)
        state, players, name_at, seat_of_pos = r.seat(rec)
        r.play(rec, state, players, name_at)
        r.tally(rec, state, players, name_at, seat_of_pos)
        r.report.hands += 1
        if progress is not None:
            progress(r.report.hands)
    return r.finish()


def render_report(report: ReplayReport, console=None, title: str = "replay") -> None:
    """Print the report as rich tables."""
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    console = console or Console()
    t = Table(
        title=shown_markup(f"{shown(title)}: {plural(report.hands, 'hand')}, decisions by {report.player_spec}", None)
    )
    for col in ("player", "bot", "hands", "VPIP %", "PFR %", "aggression", "decisions", "bot agrees %", "chips",
                "sb/hand"):  # fmt: skip
        t.add_column(col, justify="left" if col in ("player", "bot") else "right")
    for st in report.stats.values():
        sb = st.chips / report.small_bet / st.hands if st.hands else 0.0
        t.add_row(
            Text(shown(st.name)),  # a name from the log: escaped, never markup
            Text(st.bot),
            str(st.hands),
            f"{st.vpip_pct:.1f}",
            f"{st.pfr_pct:.1f}",
            f"{st.aggression:.2f}" if np.isfinite(st.aggression) else "-",  # bets without a call: as --json's null
            str(st.decisions),
            f"{st.agreement_pct:.1f}",
            f"{st.chips:+g}",
            f"{sb:+.3f}",
        )
    console.print(t)
    if report.hand_corrections is not None:
        a = Table(title="winnings, sb/hand with 95% intervals (the hand as unit): plain and AIVAT (chance corrections)")
        for col in ("player", "hands", "plain", "± 95%", "AIVAT", "± 95%", "var. ratio", "mean corr."):
            a.add_column(col, justify="left" if col == "player" else "right")
        for e in report.estimates():
            a.add_row(
                Text(shown(e["name"])),
                str(e["hands"]),
                f"{e['sb_per_hand']:+.3f}",
                "-" if e["ci"] is None else f"{e['ci']:.3f}",
                f"{e['aivat_sb_per_hand']:+.3f}",
                "-" if e["aivat_ci"] is None else f"{e['aivat_ci']:.3f}",
                "-" if e["variance_ratio"] is None else f"{e['variance_ratio']:.3f}",
                f"{e['correction']:+.3f}",
            )
        console.print(a)
    v = report.percentile_values
    if v.size:
        q = np.percentile(v, [25, 50, 75])
        console.print(
            f"showdown holdings within the model's weight table: {plural(v.size, 'case')}, mean percentile "
            f"{v.mean():.1f} (quartiles {q[0]:.1f} / {q[1]:.1f} / {q[2]:.1f}; 50 = uninformative)"
        )
    else:
        console.print("no showdown with a modelled opponent")
    mq = report.quality.summary()
    if mq["loglik_per_action"] is not None or mq["collapse_rate"] is not None:
        ll, cr = mq["loglik_per_action"], mq["collapse_rate"]
        console.print(
            "opponent models: log-likelihood per observed action "
            + ("n/a" if ll is None else f"{ll:.3f}")
            + " (−1.099 = uninformative), collapse rate "
            + ("n/a" if cr is None else f"{100 * cr:.2f} %")
            + f" of {plural(report.quality.reweights, 're-weighting')}"
        )
    if report.payoff_mismatches:
        console.print(
            f"[red]{plural(len(report.payoff_mismatches), 'hand')} where the engine's payoffs differ from the log[/]"
        )
    else:
        console.print("payoffs recomputed by the engine equal the logged ones")
    if report.skipped:
        console.print(f"[red]{plural(len(report.skipped), 'hand')} skipped[/] (they do not replay):", markup=True)
        for hid, msg in report.skipped[:20]:
            console.print(f"  skipped hand {shown(hid, None)}: {shown(msg, None)}", markup=False, highlight=False)
        if len(report.skipped) > 20:
            console.print(f"  ... and {len(report.skipped) - 20} more")
    if report.warnings:
        console.print(f"[yellow]{plural(len(report.warnings), 'log line')} ignored[/]:")
        for w in report.warnings[:10]:
            console.print(f"  {shown(w, None)}", markup=False, highlight=False)
        if len(report.warnings) > 10:
            console.print(f"  ... and {len(report.warnings) - 10} more")


def plot_percentiles(report: ReplayReport, path) -> Path:
    """Histogram of the showdown percentiles (matplotlib, Agg) saved to ``path``."""
    with figures() as plt:
        fig, ax = plt.subplots(figsize=(6, 4))
        v = report.percentile_values
        ax.hist(v, bins=20, range=(0, 100), color="tab:blue", edgecolor="white")
        ax.axvline(50, color="gray", ls="--", lw=1)
        ax.set_xlabel("percentile of the shown holding in the weight table")
        ax.set_ylabel("showdown hands")
        ax.set_title(
            f"model quality ({report.player_spec}, {v.size} cases, mean {v.mean() if v.size else float('nan'):.1f})"
        )
        return save_figure(fig, path, dpi=100)
