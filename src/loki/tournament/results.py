"""The results folder and the terminal report of a tournament.

``write_results(run, out)`` writes into ``out`` (every file atomically: a temporary file renamed over
the old one, :mod:`loki.io.files`, so a crash or a full disk never leaves a half-written file):

- ``summary.json`` — the statistics of :func:`loki.tournament.stats.summarize` plus the
  configuration, as the typed record :class:`TournamentSummary` (deterministic: identical for
  identical seeds and configurations; the same bytes as the plain dict written with
  ``json.dumps(summary, indent=2)``); always strict JSON: a NaN or an infinity is an error
  (:func:`strict_json`), never a bare ``NaN`` in the file;
- ``run.json`` — wall-clock facts of this run (seconds, hands/s, blocks played now; with the ``aivat``
  estimator also the CPU seconds of the estimator and of the blocks, and their ratio) and the key of
  the journal's checksums (``journal_key``, :mod:`loki.tournament.journal`);
- ``deals.csv`` — one row per deal: ``deal`` then the net chips of every player over the deal's
  replays (column names are the player names);
- ``deals-aivat.csv`` — with the ``aivat`` estimator only: the same rows with the AIVAT corrections added
  (float chips; :mod:`loki.aivat`);
- ``sb_per_hand.png`` — bar chart of sb/hand per player type with 95 % error bars (AAAI-99
  Figures 3 and 4);
- ``cumulative.png`` — cumulative winnings (small bets) over deals per player type, and of each
  comparison with its 95 % band;
- ``hands/block-NNNNN.phhs`` — the hand histories in PHH (written while playing);
- ``journal.jsonl`` — the block journal used by ``--resume``.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any

import numpy as np
from pydantic import BaseModel, BeforeValidator, ConfigDict, StrictInt, StrictStr, field_serializer

from loki.errors import InputError
from loki.io.files import atomic_write_text
from loki.io.names import shown_markup
from loki.io.plots import figures, save_figure
from loki.stats import t_quantile
from loki.tournament.config import TournamentConfig
from loki.tournament.journal import AIVAT_DEALS, BAR_PLOT, CUMULATIVE_PLOT, DEALS, RUN_INFO, SUMMARY
from loki.tournament.stats import per_deal_sb, summarize

__all__ = [
    "write_results",
    "results_table",
    "plot_results",
    "pair_styles",
    "PLAY_STYLES",
    "TournamentSummary",
    "PlayerResult",
    "TypeResult",
    "ComparisonResult",
    "AivatSummary",
    "strict_json",
]

_RECORD = ConfigDict(frozen=True, extra="forbid")


def _only_float(v: Any) -> Any:
    """Refuse ints (and bools) where a float belongs: pydantic would turn ``1`` into ``1.0`` and the
    JSON would no longer be the plain dict's."""
    if not isinstance(v, float):
        raise ValueError(f"expected a float, got {v!r}")
    return v


#: A float kept as given (never converted from an int).
Float = Annotated[float, BeforeValidator(_only_float)]


class PlayerResult(BaseModel):
    """One player of ``summary.json``: who (``index`` 0-based in table order, ``name``, ``type`` label,
    ``spec``), sb/hand with the half-width ``ci`` of its 95 % interval over ``deals`` deals (``ci``
    None with fewer than 2 deals), and the style statistics over ``hands`` hands as fractions (None
    when undefined; :meth:`loki.tournament.handstats.HandCounts.fractions`)."""

    model_config = _RECORD

    index: StrictInt
    name: StrictStr
    type: StrictStr
    spec: StrictStr
    sb_per_hand: Float
    ci: Float | None
    deals: StrictInt
    hands: StrictInt
    vpip: Float | None
    pfr: Float | None
    af: Float | None
    wtsd: Float | None
    wsd: Float | None


class TypeResult(BaseModel):
    """One player type (label) of ``summary.json``: its ``players`` averaged per deal (fields as
    :class:`PlayerResult`)."""

    model_config = _RECORD

    type: StrictStr
    spec: StrictStr
    players: StrictInt
    sb_per_hand: Float
    ci: Float | None
    deals: StrictInt
    hands: StrictInt
    vpip: Float | None
    pfr: Float | None
    af: Float | None
    wtsd: Float | None
    wsd: Float | None


class ComparisonResult(BaseModel):
    """One ``[[compare]]`` of ``summary.json``: enhanced minus control, sb/hand paired by deal."""

    model_config = _RECORD

    name: StrictStr
    enhanced: list[StrictStr]
    control: list[StrictStr]
    sb_per_hand: Float
    ci: Float | None
    deals: StrictInt


class AivatPlayerResult(BaseModel):
    """One player of the ``aivat`` section (``index``, ``name`` as in :class:`PlayerResult`), then the
    figures of :func:`loki.tournament.stats.aivat_summary`: the AIVAT ``sb_per_hand`` and half-width ``ci`` over ``deals`` deals, ``variance_ratio`` (AIVAT / plain), ``sd`` and
    ``plain_sd`` (per deal, sb/hand), mean ``chance_correction`` and ``action_correction`` (sb/hand) and
    ``correction_ci``."""

    model_config = _RECORD

    index: StrictInt
    name: StrictStr
    sb_per_hand: Float
    ci: Float | None
    deals: StrictInt
    variance_ratio: Float | None
    sd: Float | None
    plain_sd: Float | None
    chance_correction: Float
    action_correction: Float
    correction_ci: Float | None


class AivatTypeResult(BaseModel):
    """One player type of the ``aivat`` section, then the figures of
    :func:`loki.tournament.stats.aivat_summary`: the AIVAT ``sb_per_hand`` and half-width ``ci`` over ``deals`` deals, ``variance_ratio`` (AIVAT / plain), ``sd`` and
    ``plain_sd`` (per deal, sb/hand), mean ``chance_correction`` and ``action_correction`` (sb/hand) and
    ``correction_ci``."""

    model_config = _RECORD

    type: StrictStr
    sb_per_hand: Float
    ci: Float | None
    deals: StrictInt
    variance_ratio: Float | None
    sd: Float | None
    plain_sd: Float | None
    chance_correction: Float
    action_correction: Float
    correction_ci: Float | None


class AivatComparisonResult(BaseModel):
    """One comparison of the ``aivat`` section (enhanced minus control, paired by deal), then the figures
    of :func:`loki.tournament.stats.aivat_summary`: the AIVAT ``sb_per_hand`` and half-width ``ci`` over ``deals`` deals, ``variance_ratio`` (AIVAT / plain), ``sd`` and
    ``plain_sd`` (per deal, sb/hand), mean ``chance_correction`` and ``action_correction`` (sb/hand) and
    ``correction_ci``."""

    model_config = _RECORD

    name: StrictStr
    sb_per_hand: Float
    ci: Float | None
    deals: StrictInt
    variance_ratio: Float | None
    sd: Float | None
    plain_sd: Float | None
    chance_correction: Float
    action_correction: Float
    correction_ci: Float | None


class AivatSummary(BaseModel):
    """The ``aivat`` section of ``summary.json`` (runs with an AIVAT ``estimator`` only): the value
    function's name, version and provenance, the action baselines and the AIVAT figures of every player, type and comparison, in the order of the
    plain sections.  The plain sections keep the plain estimate."""

    model_config = _RECORD

    value_function: StrictStr
    value_function_version: StrictStr = ""
    value_function_provenance: dict | None = None
    action_baselines: StrictStr = "value function"
    players: list[AivatPlayerResult]
    types: list[AivatTypeResult]
    comparisons: list[AivatComparisonResult]


class ModelQualityResult(BaseModel):
    """One player type of the ``model_quality`` section (:func:`loki.tournament.stats.quality_summary`): how well
    its opponent models knew the cards shown at showdowns (``median_percentile``, ``mean_percentile``; 50 = no
    information), ``loglik_per_action`` of the opponents' observed actions, ``collapse_rate`` (target 0) and,
    for an adaptive opponent model, ``model_weights``: each candidate model's mean weight at the end of the
    hands."""

    model_config = _RECORD

    type: StrictStr
    showdowns: StrictInt
    median_percentile: Float | None
    mean_percentile: Float | None
    loglik_per_action: Float | None
    collapse_rate: Float | None
    model_weights: dict[StrictStr, Float] | None = None


class TournamentSummary(BaseModel):
    """``summary.json``: the statistics of :func:`loki.tournament.stats.summarize` plus the
    configuration.  Floats are kept as Python floats (strict: an int is refused rather than
    re-typed), so :meth:`to_json` writes exactly what ``json.dumps`` of the plain dict wrote."""

    model_config = _RECORD

    name: StrictStr
    description: StrictStr
    seed: StrictInt
    deals: StrictInt
    hands: StrictInt
    n_players: StrictInt
    block_deals: StrictInt
    confidence: Float
    players: list[PlayerResult]
    types: list[TypeResult]
    comparisons: list[ComparisonResult]
    aivat: AivatSummary | None = None
    model_quality: list[ModelQualityResult] | None = None
    config: TournamentConfig | None = None

    @field_serializer("config")
    def _config_dict(self, config: TournamentConfig | None) -> dict[str, Any] | None:
        return None if config is None else config.to_dict()

    def to_dict(self) -> dict[str, Any]:
        """The JSON-able dict (key order of ``summary.json``; ``aivat``, ``model_quality``, ``config`` and a type's
        ``model_weights`` left out when None)."""
        exclude: dict[str, Any] = {k: True for k in ("aivat", "model_quality", "config") if getattr(self, k) is None}
        if self.model_quality is not None:  # model_weights only for the adaptive models' types
            quiet = {i: {"model_weights"} for i, q in enumerate(self.model_quality) if q.model_weights is None}
            if quiet:
                exclude["model_quality"] = quiet
        return self.model_dump(mode="json", exclude=exclude or None)

    def to_json(self) -> str:
        """The text of ``summary.json`` (``json.dumps(..., indent=2)`` and a newline), always strict JSON.

        Raises:
            InputError: a NaN or an infinity in the summary (strict JSON has neither; it can only come from
                results that are not numbers, which the journal refuses on read); the message names the field.
        """
        return strict_json(self.to_dict(), "summary.json")


def _nonfinite(value: Any) -> tuple[str, Any]:
    """The path (``players[2].sb_per_hand``) and the value of the first NaN or infinity in ``value``."""
    todo: list[tuple[Any, str]] = [(value, "")]
    while todo:
        v, p = todo.pop()
        if isinstance(v, float) and not math.isfinite(v):
            return p or "the value", v
        if isinstance(v, dict):
            todo.extend((x, f"{p}.{k}" if p else str(k)) for k, x in reversed(list(v.items())))
        elif isinstance(v, (list, tuple)):
            todo.extend((x, f"{p}[{i}]") for i, x in reversed(list(enumerate(v))))
    return "a value", None


def strict_json(value: Any, name: str) -> str:
    """``json.dumps(value, indent=2)`` and a newline, refusing NaN and infinities (``allow_nan=False``).

    Raises:
        InputError: a non-finite float; the message names ``name`` and the field.

    >>> strict_json({"a": [1.5, float("nan")]}, "summary.json")
    Traceback (most recent call last):
    ...
    loki.errors.InputError: summary.json: a[1] = nan is not a finite number (strict JSON has no NaN or infinity)
    """
    try:
        return json.dumps(value, indent=2, allow_nan=False) + "\n"
    except ValueError:
        where, bad = _nonfinite(value)
        raise InputError(
            f"{name}: {where} = {bad} is not a finite number (strict JSON has no NaN or infinity)"
        ) from None


def _fmt(v, spec="+.3f"):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "-"
    return format(v, spec)


def write_results(run, out: str | Path, *, plots: bool = True) -> TournamentSummary:
    """Write the results folder of a finished run (module docstring); returns the summary record.

    Raises:
        OSError: a file of the folder cannot be written.
    """
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    cfg = run.config
    corrections = getattr(run, "corrections", None)
    record = TournamentSummary.model_validate(
        {**summarize(cfg, run.chips, run.counters, corrections=corrections, quality=run.quality), "config": cfg}
    )
    summary = record.to_dict()
    atomic_write_text(out / SUMMARY, record.to_json())
    hands_now, rate = played_now(run)
    info = {
        "seconds": round(run.seconds, 3),
        "blocks_played_now": run.played_blocks,
        "hands_played_now": hands_now,
        "hands_per_second": rate,
        "block_seconds": sum(b.get("seconds", 0.0) for b in run.blocks),
    }
    if corrections is not None:
        est_cpu = sum(b["aivat"].get("seconds", 0.0) for b in run.blocks)
        block_cpu = sum(b["aivat"].get("block_cpu", 0.0) for b in run.blocks)
        info["aivat_cpu_seconds"] = round(est_cpu, 3)
        info["block_cpu_seconds"] = round(block_cpu, 3)
        # the estimator's CPU relative to the rest of the blocks' CPU (the tournament without it)
        info["aivat_cpu_overhead"] = round(est_cpu / (block_cpu - est_cpu), 4) if block_cpu > est_cpu else None
    info.update(run.extra)
    atomic_write_text(out / RUN_INFO, strict_json(info, RUN_INFO))
    names = [s.name for s in cfg.seats]
    buf = io.StringIO(newline="")
    w = csv.writer(buf)
    w.writerow(["deal"] + names)
    for d, row in enumerate(run.chips):
        w.writerow([d] + list(row))
    atomic_write_text(out / DEALS, buf.getvalue())
    if corrections is not None:
        chance, action = corrections
        buf = io.StringIO(newline="")
        w = csv.writer(buf)
        w.writerow(["deal"] + names)
        for d, (row, rc, ra) in enumerate(zip(run.chips, chance, action)):
            w.writerow([d] + [x + c + a for x, c, a in zip(row, rc, ra)])
        atomic_write_text(out / AIVAT_DEALS, buf.getvalue())
    if plots:
        plot_results(run, out, summary)
    return record


#: The playing styles of the presets (Table B.1's tightness x the Bettor's aggression); a spec's style is the part of
#: it that names one (``loki1:TC``, ``loki2:BR:TC`` -> ``TC``).
PLAY_STYLES = ("TC", "TA", "LC", "LA")
_STYLE_COLORS = {"TC": "tab:blue", "TA": "tab:orange", "LC": "tab:green", "LA": "tab:red", "": "tab:gray"}
_OTHER_COLORS = ("tab:purple", "tab:brown", "tab:pink", "tab:olive", "tab:cyan")
#: How each kind of player is drawn: (line style, marker, bar hatch).  Loki-1 solid with circles, Loki-2 dashed with
#: squares and hatched bars, anything else dotted with triangles.
_KIND_LOOK = {"loki1": ("-", "o", ""), "loki2": ("--", "s", "//"), "": (":", "^", "..")}


def pair_styles(types: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, str]]:
    """How the plots draw each player type, so that the Loki-1 and Loki-2 of one playing style read as a pair: one
    colour per style (:data:`PLAY_STYLES`; types without a style get colours of their own), and the player kind by
    line style, marker and hatch (Loki-1 solid, circles; Loki-2 dashed, squares, hatched).

    Args:
        types: ``summary["types"]`` entries (``type`` the label, ``spec`` the player spec).

    Returns:
        ``{label: {"color", "linestyle", "marker", "hatch"}}``.
    """
    out: dict[str, dict[str, str]] = {}
    others = iter(_OTHER_COLORS * (1 + len(types) // len(_OTHER_COLORS)))
    seen_other: dict[str, str] = {}
    for t in types:
        parts = [x.upper() for x in str(t["spec"]).split(":")]
        style = next((x for x in parts[1:] if x in PLAY_STYLES), "")
        kind = parts[0].lower() if parts[0].lower() in ("loki1", "loki2") else ""
        if style:
            color = _STYLE_COLORS[style]
        else:  # no style: one colour per spec without it (loki1 and loki2 of the default style still pair up)
            key = ":".join(x for x in parts[1:] if x not in ("B", "R", "S", "BR", "BRS")) or "default"
            color = seen_other.setdefault(key, _STYLE_COLORS[""] if key == "default" else next(others))
        ls, marker, hatch = _KIND_LOOK[kind]
        out[str(t["type"])] = {"color": color, "linestyle": ls, "marker": marker, "hatch": hatch}
    return out


def _bars(ax: Any, types: Sequence[Mapping[str, Any]], look: dict[str, dict[str, str]]) -> None:
    for i, t in enumerate(types):
        st = look[t["type"]]
        ax.bar(
            i,
            t["sb_per_hand"],
            yerr=t["ci"] or 0.0,
            capsize=4,
            color=st["color"],
            hatch=st["hatch"],
            edgecolor="black",
            linewidth=0.6,
            label=t["type"],
        )
    ax.axhline(0, color="black", lw=0.8)
    ax.set_xticks(range(len(types)))
    ax.set_xticklabels([t["type"] for t in types], rotation=20, ha="right")
    ax.set_ylabel("small bets / hand")


def _cumulative(ax: Any, k: np.ndarray, type_x: dict[str, np.ndarray], n: int, look: dict[str, dict[str, str]]) -> None:
    every = max(1, len(k) // 12)  # a dozen markers per line
    for lab, x in type_x.items():
        st = look.get(lab, {})
        # cumulative small bets won per player of the type (n hands per deal)
        ax.plot(
            k,
            np.cumsum(x) * n,
            label=lab,
            color=st.get("color"),
            linestyle=st.get("linestyle", "-"),
            marker=st.get("marker"),
            markevery=every,
            markersize=4,
        )
    ax.axhline(0, color="black", lw=0.8)
    ax.set_xlabel("deals")
    ax.set_ylabel("cumulative small bets (per player)")
    ax.set_title("winnings by player type (colour: style; solid Loki-1, dashed Loki-2)")
    ax.legend(fontsize=8)


def plot_results(run, out: Path, summary: dict) -> None:
    """``sb_per_hand.png`` and ``cumulative.png`` (matplotlib, Agg backend); each playing style has one colour, so
    the Loki-1 and Loki-2 of a style read as a pair (:func:`pair_styles`)."""
    with figures() as plt:
        cfg = run.config
        types = summary["types"]
        look = pair_styles(types)
        fig, ax = plt.subplots(figsize=(max(5, 1.3 * len(types) + 2), 4))
        _bars(ax, types, look)
        ax.set_title(f"{cfg.name}: {summary['deals']} deals, {summary['hands']} games (95% CI)")
        save_figure(fig, out / BAR_PLOT)

        x = per_deal_sb(run.chips, cfg.n_players, cfg.game_config().small_bet)
        D = x.shape[0]
        k = np.arange(1, D + 1)
        ncomp = len(cfg.compare)
        fig, axes = plt.subplots(1, 1 + (ncomp > 0), figsize=(11 if ncomp else 6, 4), squeeze=False)
        seats = cfg.seats
        type_x = {}
        for lab in cfg.labels:
            idx = [s.index for s in seats if s.label == lab]
            type_x[lab] = x[:, idx].mean(axis=1)
        _cumulative(axes[0, 0], k, type_x, cfg.n_players, look)
        if ncomp:
            ax = axes[0, 1]
            tq = t_quantile(0.975, max(D - 1, 1))
            for c in cfg.compare:
                d = (
                    np.mean([type_x[t] for t in c.enhanced], axis=0) - np.mean([type_x[t] for t in c.control], axis=0)
                ) * cfg.n_players
                cum = np.cumsum(d)
                sd = float(d.std(ddof=1)) if D > 1 else 0.0
                band = tq * sd * np.sqrt(k)
                named = [w for w in c.name.replace(":", " ").split() if w in PLAY_STYLES]  # "TC: B+R minus Loki-1"
                (line,) = ax.plot(k, cum, label=c.name, color=_STYLE_COLORS[named[0]] if named else None)
                ax.fill_between(k, cum - band, cum + band, color=line.get_color(), alpha=0.2)
            ax.axhline(0, color="black", lw=0.8)
            ax.set_xlabel("deals")
            ax.set_ylabel("cumulative difference (small bets)")
            ax.set_title("enhanced minus control (95% band)")
            ax.legend(fontsize=8)
        save_figure(fig, out / CUMULATIVE_PLOT)


def played_now(run: Any) -> tuple[int, float | None]:
    """``(hands, hands per second)`` this invocation played (a resumed run's journal not counted), as ``run.json``
    records them (``hands_played_now``, ``hands_per_second`` rounded to 2 decimals; None when nothing was played)."""
    hands = sum(b["hands"] for b in run.blocks[-run.played_blocks :]) if run.played_blocks else 0
    return hands, (round(hands / run.seconds, 2) if run.seconds > 0 and hands else None)


def _own(types: Mapping[str, Any], enhanced: list[str]) -> str:
    """The enhanced side's own sb/hand (AAAI-99's Figure 3 measure): its one type's ``value ± ci``, or the mean of its
    types' values (no interval: they are not independent)."""
    es = [types[t] for t in enhanced if t in types]
    if not es:
        return "-"
    if len(es) == 1:
        e = es[0]
        return _fmt(e["sb_per_hand"]) + ("" if e["ci"] is None else f" ± {e['ci']:.3f}")
    return _fmt(sum(e["sb_per_hand"] for e in es) / len(es)) + " (mean)"


#: The two lines ``loki tournament`` ends with: what its statistics and its interval column mean.
LEGEND = (
    "VPIP/PFR: % of hands entered/raised pre-flop; AF: (bets+raises)/calls post-flop; WTSD: % of flops seen to "
    "showdown; W$SD: % of showdowns won; collapse % and every other term: loki explain --legend.",
    "± 95%: the 95 % interval, the deal the unit; significant: it excludes 0 (short runs say no: the paper played "
    "2,500 deals); own: the enhanced players' winnings (AAAI-99's Figure 3 measure).",
)


def results_table(summary: TournamentSummary | Mapping[str, Any]) -> list[Any]:
    """Rich tables of the summary (player types and comparisons); the tournament's name, its labels and its
    comparisons' names are printed as written (:func:`loki.io.names.shown_markup`)."""
    from rich.table import Table

    if isinstance(summary, TournamentSummary):
        summary = summary.to_dict()

    pct = lambda v: _fmt(None if v is None else 100 * v, ".1f")  # noqa: E731
    t = Table(
        title=f"{shown_markup(summary['name'], None)}: {summary['deals']} deals x {summary['n_players']} seatings = "
        f"{summary['hands']} games, seed {summary['seed']}"
    )
    for col, j in (
        ("player type", "left"),
        ("n", "right"),
        ("sb/hand", "right"),
        ("± 95%", "right"),
        ("VPIP%", "right"),
        ("PFR%", "right"),
        ("AF", "right"),
        ("WTSD%", "right"),
        ("W$SD%", "right"),
    ):
        t.add_column(col, justify="left" if j == "left" else "right")
    for e in summary["types"]:
        t.add_row(
            shown_markup(e["type"], None),
            str(e["players"]),
            _fmt(e["sb_per_hand"]),
            _fmt(e["ci"], ".3f"),
            pct(e["vpip"]),
            pct(e["pfr"]),
            _fmt(e["af"], ".2f"),
            pct(e["wtsd"]),
            pct(e["wsd"]),
        )
    tables = [t]
    av = summary.get("aivat")
    if summary["comparisons"]:
        c = Table(title="enhanced minus control, paired by deal; own: the enhanced side's sb/hand")
        c.add_column("comparison")
        c.add_column("sb/hand", justify="right")
        c.add_column("± 95%", justify="right")
        c.add_column("significant", justify="center")
        if av:
            for col in ("AIVAT sb/hand", "± 95%", "significant", "var. ratio"):
                c.add_column(col, justify="center" if col == "significant" else "right")
        c.add_column("enhanced's own" + (" (AIVAT)" if av else ""), justify="right")
        types = {e["type"]: e for e in (av["types"] if av else summary["types"])}
        for i, e in enumerate(summary["comparisons"]):
            sig = "-" if e["ci"] is None else ("yes" if abs(e["sb_per_hand"]) > e["ci"] else "no")
            cells = [shown_markup(e["name"], None), _fmt(e["sb_per_hand"]), _fmt(e["ci"], ".3f"), sig]
            if av:
                a = av["comparisons"][i]
                asig = "-" if a["ci"] is None else ("yes" if abs(a["sb_per_hand"]) > a["ci"] else "no")
                cells += [_fmt(a["sb_per_hand"]), _fmt(a["ci"], ".3f"), asig, _fmt(a["variance_ratio"], ".3f")]
            cells.append(_own(types, e["enhanced"]))
            c.add_row(*cells)
        tables.append(c)
    if av:
        a_t = Table(title=f"AIVAT estimate (value function {av['value_function']}; plain estimate above)")
        for col in ("player type", "sb/hand", "± 95%", "plain ± 95%", "var. ratio", "chance corr.", "action corr."):
            a_t.add_column(col, justify="left" if col == "player type" else "right")
        for e, a in zip(summary["types"], av["types"]):
            a_t.add_row(
                shown_markup(a["type"], None),
                _fmt(a["sb_per_hand"]),
                _fmt(a["ci"], ".3f"),
                _fmt(e["ci"], ".3f"),
                _fmt(a["variance_ratio"], ".3f"),
                _fmt(a["chance_correction"]),
                _fmt(a["action_correction"]),
            )
        tables.insert(1, a_t)
    mq = summary.get("model_quality")
    if mq:
        q_t = Table(
            title="opponent-model quality at showdowns (percentile 50 = no information; log-lik. −1.099 = none)"
        )
        for col in ("player type", "showdowns", "median pct.", "mean pct.", "log-lik./action", "collapse %"):
            q_t.add_column(col, justify="left" if col == "player type" else "right")
        for e in mq:
            cr = e["collapse_rate"]
            q_t.add_row(
                shown_markup(e["type"], None),
                str(e["showdowns"]),
                _fmt(e["median_percentile"], ".1f"),
                _fmt(e["mean_percentile"], ".1f"),
                _fmt(e["loglik_per_action"], ".3f"),
                "-" if cr is None else f"{100 * cr:.2f}",
            )
        tables.append(q_t)
    return tables
