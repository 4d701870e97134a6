"""``loki explain``: why Loki decided as it did, for every decision of one player in a hand history, or for a
spot given on the command line."""

from __future__ import annotations

from pathlib import Path

import typer

from loki.cli._common import check_input_file, fail, hands_option, player_option, seed_option

__all__ = ["explain", "EXPLAIN_HANDS"]

#: Hands of a log ``loki explain FILE`` reads without ``--hands`` (each decision is a screenful).
EXPLAIN_HANDS = 5


def explain(
    file: Path | None = typer.Argument(
        None, dir_okay=False, help="ACPC log (STATE lines) or PHH file (.phh/.phhs); omit it to give a spot."
    ),
    who: str | None = typer.Option(
        None,
        "--who",
        metavar="NAME|SEAT",
        help="With FILE: the player whose decisions to explain (a name in the "
        "log, or a seat 1..n of its first hand, numbered as the log numbers it; default seat 1).",
    ),
    hole: str | None = typer.Option(None, "--hole", help="A spot: our hole cards, e.g. AhKh."),
    board: str = typer.Option("", "--board", help="A spot: the board cards showing (none, 3, 4 or 5), e.g. Qh7h2c."),
    betting: str = typer.Option(
        "",
        "--betting",
        help="A spot: the betting so far, ACPC letters f/c/r ('/' between streets optional); "
        "our seat is the one to act next, e.g. 'rcc/r'.",
    ),
    players: int = typer.Option(2, "--players", min=2, max=10, help="A spot: players at the table (2-10)."),
    button: int | None = typer.Option(None, "--button", min=1, help="A spot: the button seat (default: the last)."),
    player: str | None = player_option(
        None,
        "The bot that decides (in a log: in every seat; default: the logged player's own bot where its name is a "
        "loki spec, as loki match names seats, else loki1).",
    ),
    hands: int | None = hands_option(None, f"With FILE: only the first N hands (default {EXPLAIN_HANDS})."),
    seed: int = seed_option(0, "Seed of the bots and of a spot's unseen cards (>= 0)."),
    as_json: bool = typer.Option(
        False, "--json", help="Print the explanations as JSON, one object per line (messages go to stderr)."
    ),
    grids: bool = typer.Option(False, "--grids", help="Also draw each opponent's weight table as a 13x13 heatmap."),
    legend: bool = typer.Option(
        False, "--legend", help="Print the glossary (HS, HS_n, PPot, NPot, EHS', make1/make2, VPIP, ...) and exit."
    ),
) -> None:
    """Explain Loki's decisions: hand strength and potential against the field, the pre-flop strategy and its
    income-rate threshold, the rule that fired and its probability triple, the Simulator's EVs, and each
    opponent's weight table and how its last action re-weighted it."""
    import json

    from loki.cli._console import make_console, rule
    from loki.errors import HandHistoryError, LokiError, tagged
    from loki.explain.render import render_explanation
    from loki.explain.sources import explain_log, explain_spot
    from loki.io.names import shown
    from loki.players.registry import make_player

    if legend:
        import shutil

        from loki.explain.glossary import glossary_lines

        for line in glossary_lines(shutil.get_terminal_size((80, 24)).columns):
            typer.echo(line)
        return
    if player is not None:
        try:
            make_player(player, seed=seed)
        except (LokiError, ValueError) as e:
            raise tagged("--player", e) from None
    from loki.cli.warmup import ensure_warm

    skipped: list = []
    more = ""
    if file is not None:
        if hole is not None or board or betting:
            fail("give either FILE or a spot (--hole, --board, --betting), not both")
        check_input_file(file)
        from loki.explain.sources import resolve_player
        from loki.tournament.replay import DEFAULT_SPEC, load_log, logged_spec

        recs, skipped, _ = load_log(file, max_hands=hands or EXPLAIN_HANDS + 1)
        if hands is None and len(recs) > EXPLAIN_HANDS:  # by default a few hands, said so (a log has thousands)
            recs = recs[:EXPLAIN_HANDS]
            more = f" in the first {EXPLAIN_HANDS} hands of {shown(file.name)} (--hands N for more)"
        if not recs:
            raise HandHistoryError(f"FILE {file}: no hand that can be read")
        target = who if who is not None else "1"
        names = {nm for r in recs for nm in r.names}
        specs = [player] if player is not None else sorted({logged_spec(nm) or DEFAULT_SPEC for nm in names})
        resolve_player(recs, target)  # an unknown player before the warm-up
        ensure_warm(specs or [DEFAULT_SPEC])  # a first run compiles the bots' kernels now, with a message on stderr
        exps, bad = explain_log(recs, target, player, seed)
        skipped += bad
        if not exps and len(bad) == len(recs):  # every hand failed to replay: nothing explained, say why
            raise HandHistoryError(f"FILE {file}: no hand could be replayed ({bad[0][0]}: {bad[0][1]})")
    else:
        if hole is None:
            fail("give a hand history FILE, or a spot with --hole (and --board, --betting, --players)")
        if who is not None:
            fail("--who needs a FILE (in a spot the bot is the player to act)")
        player = player or "loki1"
        ensure_warm([player], players)
        exps = explain_spot(hole, board, betting, players, player, seed, button)
    from loki.io.tableview import plural

    if as_json:  # one object per line, as every --json
        for x in exps:
            typer.echo(json.dumps(x.model_dump(mode="json")))
        for hid, msg in skipped:
            typer.echo(f"skipped hand {shown(hid, None)}: {shown(msg, None)}", err=True)
        if more:
            typer.echo(f"{plural(len(exps), 'decision')} explained{more}", err=True)
        return
    console = make_console(highlight=False)
    for x in exps:
        rule(console)
        console.print(render_explanation(x, grids=grids))
    rule(console)
    console.print(f"{plural(len(exps), 'decision')} explained{more}", highlight=False, markup=False)
    for hid, msg in skipped:
        console.print(f"skipped hand {shown(hid, None)}: {shown(msg, None)}", markup=False)
