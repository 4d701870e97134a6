"""Explanations for people: rich tables for the terminal (``loki explain``, the ``e`` key of ``loki play``).

:func:`render_explanation` returns a rich renderable (a :class:`rich.console.Group`); :func:`grid_text` draws a
13×13 weight grid as a heatmap (darker = less likely).
"""

from __future__ import annotations

from typing import Any

from loki.explain.grids import GRID_NAMES
from loki.explain.records import DecisionExplanation, Grid
from loki.io.names import shown_markup

__all__ = ["render_explanation", "grid_text", "pretty_cards", "STREETS"]

STREETS = ("pre-flop", "flop", "turn", "river")
_SUITS = {"s": "♠", "h": "[red]♥[/]", "d": "[red]♦[/]", "c": "♣"}


#: How a Simulator decision's believed play-outs rated their hands (:attr:`loki.simulator.SimConfig.believed_values`),
#: as its headline says it (nothing for the other players' weight tables).
_BELIEVED_VALUES = {"uniform": " on uniform values", "own": ", the opponents on uniform values"}


def pretty_cards(text: str) -> str:
    """Cards text (``"AhKs"``) with suit symbols as rich markup (``"A[red]♥[/] K♠"``); ``"-"`` when empty."""
    return " ".join(text[i] + _SUITS.get(text[i + 1], text[i + 1]) for i in range(0, len(text) - 1, 2)) or "-"


def _heat(x: float) -> str:
    """Background colour of a weight in [0, 1]: dark red (0.01) to bright green (1)."""
    x = min(max(x, 0.0), 1.0)
    r = int(120 * (1 - x) + 20)
    g = int(40 + 170 * x)
    b = int(40 + 20 * x)
    return f"rgb({r},{g},{b})"


def grid_text(grid: Grid) -> Any:
    """A 13×13 class grid as a rich :class:`~rich.text.Text` heatmap (class names on coloured cells)."""
    from rich.text import Text

    t = Text()
    for i, row in enumerate(grid):
        for j, x in enumerate(row):
            name = GRID_NAMES[i][j]
            if x is None:
                t.append(f"{name:<4}", style="dim")
            else:
                t.append(f"{name:<4}", style=f"black on {_heat(x)}" if x > 0.45 else f"white on {_heat(x)}")
        t.append("\n")
    return t


def _f(x: float | None, d: int = 3) -> str:
    return "-" if x is None else f"{x:.{d}f}"


def _header(e: DecisionExplanation) -> list[Any]:
    played = ""
    if e.played and e.played != e.action:
        played = f" (played: {e.played}" + (f": {shown_markup(e.played_why, None)}" if e.played_why else "") + ")"
    parts: list[Any] = [
        f"[bold]hand {shown_markup(e.hand)}[/] · seat {e.seat} [bold]{shown_markup(e.player)}[/] · "
        f"{STREETS[e.street]} · "
        f"{pretty_cards(e.hole)} | {pretty_cards(e.board)} · pot {e.pot:g} · to call {e.to_call:g} → "
        f"[bold cyan]{e.action}[/]{played}",
        # it names the bot, whose name holds the log's name of the player
        f"[italic]{shown_markup(e.summary, None)}[/]",
    ]
    if e.error:
        parts.append(f"[red]explanation incomplete: {shown_markup(e.error, None)}[/]")
    return parts


def _values_part(v: Any) -> list[Any]:
    from rich.table import Table

    t = Table()
    for col in ("HS", "HS_n", "PPot", "NPot", "EHS", "EHS'", "ahead / tied / behind"):
        t.add_column(col, justify="right")
    tot = (v.ahead + v.tied + v.behind) or 1.0
    t.add_row(
        _f(v.hs),
        _f(v.hs_n),
        _f(v.ppot),
        _f(v.npot),
        _f(v.ehs),
        f"[bold]{_f(v.ehs_prime)}[/]",
        f"{100 * v.ahead / tot:.1f}% / {100 * v.tied / tot:.1f}% / {100 * v.behind / tot:.1f}%",
    )
    many = "s" if v.n_opponents != 1 else ""
    return [f"[bold]our hand against the field[/] ({v.n_opponents} opponent{many}, look-ahead {v.lookahead})", t]


def _preflop_part(p: Any) -> list[Any]:
    from rich.table import Table

    who = "the adaptive pre-flop model" + (", heads-up" if p.heads_up is not None else "")
    if p.model == "expert":
        who = "the expert system"
    if p.contest is not None:
        return _contest_part(p)
    parts: list[Any] = [f"[bold]pre-flop strategy[/] ({who}) — {p.plays}"]
    t = Table()
    for col in ("class", f"IR (IR{p.ir_table})", "group (E)", "position", "Make1", "Make2", "Make4", "chosen"):
        t.add_column(col, justify="right")

    def mark(s: str) -> str:
        x = p.thresholds[s]
        return f"[green]{x:.0f} ✓[/]" if p.ir >= x else f"{x:.0f}"

    t.add_row(
        p.hand_class,
        f"{p.ir:.0f}",
        f"{p.group} ({p.expected_players:.1f})",
        str(p.position),
        mark("MAKE1"),
        mark("MAKE2"),
        mark("MAKE4"),
        f"[bold]{p.strategy}[/]",
    )
    parts.append(t)
    if p.small_blind and p.call_limit is not None:
        parts.append(f"small blind: Call1/Call2 thresholds 100 below Make1/Make2; calls up to {p.call_limit} bets")
    return parts


def _contest_part(p: Any) -> list[Any]:
    from rich.table import Table

    c = p.contest
    parts: list[Any] = [f"[bold]pre-flop contest[/] ({p.hand_class}) — {p.plays}"]
    t = Table()
    for col in ("seat", "in if we call", "in if we raise", "re-raise", "card-blind", "model"):
        t.add_column(col, justify="right")
    for o in c.opponents:
        t.add_row(
            str(o.seat),
            f"{o.play_call:.2f}",
            f"{o.play_raise:.2f}",
            f"{o.reraise:.2f}",
            f"{o.card_blindness:.2f}",
            "yes" if o.modelled else "no",
        )
    parts.append(t)
    se = f" ± {c.se_call:.3f}" if c.se_call > 0 else ""
    line = f"share of the pot: call {c.equity_call:.3f}{se}"
    if c.ev_raise is not None:
        line += f", raise {c.equity_raise:.3f}; EV call {c.ev_call:+.1f}, raise {c.ev_raise:+.1f} chips"
    else:
        line += f"; EV call {c.ev_call:+.1f} chips (raising capped)"
    if c.to_call > 0:
        line += f"; a call needs {c.required:.3f}"
    parts.append(line)
    return parts


def _rules_part(r: Any) -> list[Any]:
    from rich.table import Table

    th = r.thresholds
    parts: list[Any] = [
        f"[bold]rule chain[/]: '{r.rule}' fired"
        + ("" if r.generator == "rules" else f" ({r.generator} generator)")
        + f"; triple (f, c, r) = [{r.triple[0]:.3f}, {r.triple[1]:.3f}, "
        f"{r.triple[2]:.3f}]" + (f", u = {r.u:.3f}" if r.u is not None else "")
    ]
    t = Table()
    for col in ("rule", "fold", "check/call", "bet/raise"):
        t.add_column(col, justify="right" if col != "rule" else "left")
    for s in r.shares:
        t.add_row(s.rule, _f(s.fold), _f(s.call), _f(s.raise_), style="bold" if s.rule == r.rule else "")
    parts.append(t)
    aggr = f", aggressive raise above {th.aggressive_call_raise:.2f}" if th.aggressive_call_raise is not None else ""
    widths = f" (ramps ±{th.make_width:.2f} / ±{th.odds_width:.2f})" if th.make_width or th.odds_width else ""
    parts.append(
        f"thresholds: make1 {th.make1:.2f}, make2 {th.make2:.2f}{aggr}; pot odds {th.pot_odds:.3f}, "
        f"pot odds₂ {th.pot_odds2:.3f}, showdown odds {th.showdown_odds:.3f}{widths}; "
        f"semi-bluff {'on' if th.semi_bluff else 'off'}"
    )
    return parts


def _simulation_part(sim: Any) -> list[Any]:
    from rich.table import Table

    if sim.contest is not None and sim.trials == 0:
        head = (
            f"[bold]card-blind values[/]: every live opponent card-blind with probability {sim.blind_weight:.2f}, "
            "so the contest valuation decides (no play-out)"
        )
    else:
        head = ""
    head = head or (
        f"[bold]Simulator[/]: {sim.trials} of {sim.max_trials} trials"
        + (f", cut off early ({sim.cutoff_rule} rule)" if sim.cutoff else f", cut-off rule {sim.cutoff_rule}")
        + (", always-call play-outs" if sim.always_call else "")
        + (
            f", believed play-outs{_BELIEVED_VALUES.get(sim.believed_values, '')} (opponents played as: "
            f"{', '.join(sim.played_as)})"
            if sim.played_as
            else ""
        )
    )
    t = Table()
    for col in ("action", "EV (chips)", "sd (chips)"):
        t.add_column(col, justify="right")
    if sim.to_call > 0:
        t.add_row("fold", "0.0", "0.0")
    t.add_row("check/call", f"{sim.ev_call:+.2f}", f"{sim.sd_call:.2f}")
    if sim.can_raise:
        t.add_row("bet/raise", f"{sim.ev_raise:+.2f}", f"{sim.sd_raise:.2f}")
    parts: list[Any] = [head, t]
    if sim.contest is not None:
        c = sim.contest
        if sim.trials > 0:
            parts.append(
                f"values: {sim.blind_weight:.2f} x the contest valuation's + {1 - sim.blind_weight:.2f} x the play-outs' "
                "(the probability that every live opponent is card-blind)"
            )
        cards = ", ".join(f"seat {o.seat} card-blind {o.card_blindness:.2f}" for o in c.opponents)
        parts.append(
            f"contest: share of the pot {c.equity_call:.3f} if we call, {c.equity_raise:.3f} if we raise; "
            f"EV call {c.ev_call:+.1f}"
            + (f", raise {c.ev_raise:+.1f}" if c.ev_raise is not None else "")
            + f" chips ({cards})"
        )
    return parts


def _reweight_text(w: Any) -> str:
    if w is None:
        return "-"
    text = f"{w.action} on the {STREETS[w.street]}: {w.method}"
    if w.mu is not None:
        text += f" μ {w.mu:.2f} σ {w.sigma:.2f}"
    if w.model_weights:
        text += " (" + ", ".join(f"{k} {v:.2f}" for k, v in w.model_weights.items()) + ")"
    return text + ("" if w.changed else " (no change)")


def _opponents_part(opponents: Any, grids: bool) -> list[Any]:
    from rich.table import Table

    t = Table()
    for col in ("seat", "player", "most likely classes", "last re-weighting"):
        t.add_column(col)
    live = [o for o in opponents if o.live]  # a folded opponent is out of the field: not shown (the JSON keeps it)
    for o in live:
        likely = ", ".join(f"{c} {100 * s:.1f}%" for c, s in o.likely[:5])
        t.add_row(str(o.seat), shown_markup(o.name), likely, _reweight_text(o.reweight))
    folded = len(opponents) - len(live)
    head = "[bold]opponents in the hand, as modelled[/] (weight tables)" + (
        f"; {folded} folded not shown" if folded else ""
    )
    parts: list[Any] = [head, t] if live else [head]
    if grids:
        for o in opponents:
            if not o.live:
                continue
            parts.append(f"[bold]seat {o.seat} {shown_markup(o.name)}[/]: weight table now (mean weight per class)")
            parts.append(grid_text(o.weights))
            if o.reweight is not None and o.reweight.changed:
                parts.append(f"before its {o.reweight.action}:")
                parts.append(grid_text(o.reweight.before))
    return parts


def render_explanation(e: DecisionExplanation, grids: bool = False) -> Any:
    """The explanation as rich renderables (a :class:`rich.console.Group`): a header, the summary, then the parts
    that apply (hand values, pre-flop strategy, rule chain, simulation, opponents; with ``grids`` the weight tables
    as heatmaps).  Seats are shown as the record numbers them (from 1).
    """
    from rich.console import Group

    parts = _header(e)
    if e.values is not None:
        parts += _values_part(e.values)
    if e.preflop is not None:
        parts += _preflop_part(e.preflop)
    if e.rules is not None:
        parts += _rules_part(e.rules)
    if e.simulation is not None:
        parts += _simulation_part(e.simulation)
    if e.card_blind is not None:
        cb = e.card_blind
        why = (
            cb.passive_text()
            if cb.passive
            else f"{cb.actions} actions seen at showdowns: aggression and hand strength covary by {cb.covariance:+.3f}, "
            f"mean HS_1 {cb.strength:.3f}"
        )
        parts.append(
            f"[bold]Card-blind opponent[/]: seat {cb.opponent} ({why}); equity against a random holding "
            f"{cb.equity:.3f}: raise above {cb.raise_equity:.2f}, call from {cb.call_margin:.2f} × pot odds "
            f"{cb.pot_odds:.3f}"
        )
    if e.probabilities is not None:
        f, c, r_ = e.probabilities
        parts.append(f"drawn from: fold {f:.3f}, check/call {c:.3f}, bet/raise {r_:.3f}")
    if e.opponents:
        parts += _opponents_part(e.opponents, grids)
    return Group(*parts)
