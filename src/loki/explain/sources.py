"""Where explanations come from besides live play: a hand history, or one spot given on the command line.

- :func:`explain_log`: a hand history (PHH or ACPC log) replayed as :func:`loki.tournament.replay.replay_hands` does (one
  bot per player, driven through the logged hands); every decision point of the chosen player is explained
  (what the bot would do there and why), with the logged action as ``played``.  Seats are numbered as the log
  numbers them in each hand (:func:`log_seat_numbers`): an ACPC log's rotating positions + 1, a PHH file's
  ``seats``.
- :func:`explain_spot`: a spot given as our hole cards, the board and the betting so far (ACPC letters
  ``f c r``, ``/`` between streets optional); the other players' cards and the rest of the board are dealt
  from the seed (the bot cannot see them).  The bot is asked at each of its decisions in the betting and at
  the spot itself.

>>> exps = explain_spot("AhKh", "", "rc", players=3, spec="loki1")
>>> [(e.street, e.action, e.preflop.strategy) for e in exps]
[(0, 'raise', 'MAKE4')]
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from loki.cards import parse_cards
from loki.engine import Action, GameConfig, HandState, new_hand
from loki.errors import CardError, ConfigError, HandHistoryError
from loki.explain.core import ExplainedPlayer
from loki.explain.records import DecisionExplanation
from loki.io.acpc_log import HandRecord
from loki.io.limits import digits
from loki.io.names import shown

__all__ = [
    "explain_log",
    "played_why",
    "explain_spot",
    "resolve_player",
    "walk_betting",
    "log_seat_numbers",
    "phh_seat_numbers",
]


def resolve_player(records: Sequence[HandRecord], who: str) -> str:
    """The player name in ``records`` that ``who`` means: a name, or a seat number of the first hand as the log
    numbers it (:func:`log_seat_numbers`: an ACPC position + 1, a PHH ``seats`` entry).

    Raises:
        ConfigError: no such player (the message lists the names).
    """
    if not who.strip():
        raise ConfigError("--who '': expected a player name of the log or a seat number")
    seen: dict[str, None] = {}  # the names in order of appearance (a dict: a log may hold many)
    for rec in records:
        for nm in rec.names or [f"p{k + 1}" for k in range(rec.n_players)]:
            seen.setdefault(nm, None)
    names = list(seen)
    if who in seen:
        return who
    if digits(who) and records:
        first = list(records[0].names or [f"p{k + 1}" for k in range(records[0].n_players)])
        numbers = log_seat_numbers(records[0], dict(enumerate(first)))  # the log's own seat numbers
        k = int(who)
        if k in numbers:
            return first[numbers.index(k)]
        raise ConfigError(f"seat {who}: the first hand has seats {', '.join(map(str, sorted(numbers)))}")
    listed = ", ".join(shown(nm) for nm in names[:20]) + (f", ... ({len(names):,} in all)" if len(names) > 20 else "")
    raise ConfigError(f"no player {shown(repr(who))} in the hand history; players: {listed or 'none'}")


def log_seat_numbers(rec: HandRecord, names_at: dict[int, str]) -> list[int]:
    """The seat number (1-based) the log gives the player in each replay seat of ``rec``: an ACPC log's
    position + 1 in that hand (its seats rotate from hand to hand), a PHH hand's ``seats`` entry when the file
    has one (``rec.extra["seats"]``, :func:`phh_seat_numbers`), else its player number.

    Args:
        rec: the hand as read.
        names_at: the replay's player name per seat (:func:`loki.tournament.replay.replay_hands`).
    """
    n = rec.n_players
    order = list(rec.names) if rec.names else [f"p{k + 1}" for k in range(n)]
    seats = rec.extra.get("seats") if isinstance(rec.extra, dict) else None
    if not (isinstance(seats, (list, tuple)) and len(seats) == n and all(isinstance(x, int) for x in seats)):
        seats = None
    out = []
    for s in range(n):
        k = order.index(names_at[s]) if names_at.get(s) in order else s
        out.append(int(seats[k]) if seats is not None else k + 1)
    return out


def phh_seat_numbers(path: str | Path) -> dict[object, tuple[int, ...]]:
    """The ``seats`` field of each hand of a PHH file (the seat numbers of the table the hands were played at,
    as ``loki play`` and ``loki web`` write them), by hand id as :func:`loki.io.phh.read_phh` numbers them; hands
    without the field, and hands or files that cannot be read, give nothing (the seats are then numbered in PHH
    player order).  Read by :func:`~loki.io.phh.read_phh`, within its limits (records keep the field in
    ``extra["seats"]``, so a caller holding the records needs no second read)."""
    from loki.errors import HandHistoryError
    from loki.io.phh import read_phh

    try:
        recs = read_phh(path, skipped=[])
    except HandHistoryError:
        return {}
    out: dict[object, tuple[int, ...]] = {}
    for rec in recs:
        if "seats" in rec.extra:
            out.setdefault(rec.hand_id, rec.extra["seats"])
    return out


_ACTION_INDEX = {"fold": 0, "check": 1, "call": 1, "bet": 2, "raise": 2}


def played_why(e: DecisionExplanation, spec: str, logged: str | None) -> str:
    """Why the logged action ``e.played`` may differ from the replayed bot's ``e.action``, one phrase: another player
    played it (the log's player is not ``spec``: ``logged`` is its own spec, None when its name is no loki spec), the
    action is drawn at random (``e.probabilities``), or the bot's state or random trials differ in a replay."""
    if logged is None:
        return f"the log's player is not a loki bot; {spec} stands in for it"
    if logged != spec:
        return f"the log's player was {logged}; {spec} stands in for it (--player)"
    if e.probabilities is not None and e.played in _ACTION_INDEX:
        p = e.probabilities[_ACTION_INDEX[e.played]]
        if p > 0:
            return f"{spec} draws its action at random: {e.played} had probability {p:.2f} here"
        return (
            f"{e.played} has probability 0 in this replay: the bot's state differs from the match's (its opponent models "
            "and random draws follow the seed)"
        )
    return "the choice rests on random trials and the bot's state, which a replay does not repeat"


def explain_log(
    records: Sequence[HandRecord], who: str, spec: str | None = "loki1", seed: int = 0, skip_bad: bool = True
) -> tuple[list[DecisionExplanation], list]:
    """Explanations of every decision of player ``who`` in ``records`` (module docstring).  An explanation whose
    logged action differs from the bot's says why it may (:func:`played_why`).

    Args:
        records: the hands (:func:`loki.tournament.replay.load_log`).
        who: a player name or a 1-based seat of the first hand (:func:`resolve_player`).
        spec: the bot that sits in every seat (a registry spec); None: each player's own bot where its name is a loki
            spec (:func:`loki.tournament.replay.logged_spec`), else loki1.
        seed: seeds the bots as :func:`~loki.tournament.replay.replay_hands` does.
        skip_bad: leave out hands that do not replay (returned second, as ``(hand id, message)``).

    Returns:
        ``(explanations, skipped)``.

    Raises:
        ConfigError: unknown player; PlayerSpecError: bad spec; HandHistoryError: a bad hand without ``skip_bad``.
    """
    from loki.tournament.replay import DEFAULT_SPEC, logged_spec, replay_hands

    name = resolve_player(records, who)
    box: dict[str, ExplainedPlayer] = {}

    def wrap(nm: str, bot):
        if nm != name:
            return bot
        box[nm] = ExplainedPlayer(bot)
        return box[nm]

    def before(rec: HandRecord, players: dict, names_at: dict[int, str]) -> None:
        mine = box.get(name)
        if mine is None or mine.seat < 0:
            return
        if any(pl is mine for pl in players.values()):
            mine.hand_id = rec.hand_id
            mine.names = [names_at[s] for s in range(len(names_at))]
            mine.seat_numbers = log_seat_numbers(rec, names_at)

    report = replay_hands(records, spec, seed, skip_bad=skip_bad, wrap=wrap, before_hand=before)
    found = box.get(name)
    logged = logged_spec(name)
    mine = spec if spec is not None else logged or DEFAULT_SPEC
    out = []
    for e in found.explanations if found is not None else []:
        if e.played and e.played != e.action:
            e = e.model_copy(update={"played_why": played_why(e, mine, logged)})
        out.append(e)
    return out, list(report.skipped)


#: A spot's input strings at most (characters): two hole cards, five board cards, a hand's betting.
_MAX_SPOT_TEXT = {"--hole": 16, "--board": 32, "--betting": 1000}


def _clip(text: str, limit: int = 40) -> str:
    """``text`` quoted for a message, cut after ``limit`` characters (a long input is not echoed whole)."""
    return repr(text) if len(text) <= limit else f"{text[:limit]!r}... ({len(text)} characters)"


def walk_betting(state: HandState, betting: str, what: str = "--betting"):
    """Walk a (possibly unfinished) ACPC betting string on ``state``: yields ``(index, Action)`` before each
    action is applied (the caller applies it).  ``/`` are optional; where given, each must close a street.

    Raises:
        ConfigError: a bad letter, a misplaced ``/``, an illegal action or betting after the hand is over (the
            message names ``what`` and the position).
    """
    slashes = 0
    for i, ch in enumerate(betting):
        if ch in " ,":
            continue
        if ch == "/":
            slashes += 1
            if slashes != state.round or state.is_terminal:
                raise ConfigError(f"{what} {_clip(betting)}: misplaced '/' at position {i} (the street is not over)")
            continue
        if state.is_terminal:
            raise ConfigError(f"{what} {_clip(betting)}: the hand is over before position {i}")
        try:
            a = Action.parse(ch)
        except ValueError:
            raise ConfigError(
                f"{what} {_clip(betting)}: invalid action {ch!r} at position {i} (expected f, c, r or /)"
            ) from None
        if a not in state.legal_actions():
            raise ConfigError(f"{what} {_clip(betting)}: {a.name.lower()} is not legal at position {i}")
        yield i, a


def explain_spot(
    hole: str,
    board: str,
    betting: str,
    players: int = 2,
    spec: str = "loki1",
    seed: int = 0,
    button: int | None = None,
    config: GameConfig | None = None,
) -> list[DecisionExplanation]:
    """Explanations of a bot holding ``hole`` at the spot reached by ``betting`` (module docstring).

    Args:
        hole: our two cards (``"AhKh"``).
        board: the board cards visible at the spot (0, 3, 4 or 5 as the betting reached pre-flop … river).
        betting: the actions so far, ACPC letters; our seat is the one to act after them.
        players: 2..10.
        spec: the bot (registry spec).
        seed: seeds the unseen cards and the bot.
        button: the button seat, 1-based (default: the last seat, so seat 1 is the small blind, or the big blind
            heads-up).
        config: the rules (default: limit 10/20 with ``players`` seats).

    Returns:
        one explanation per decision of our seat, the spot's last.

    Raises:
        CardError: bad or repeated cards (``--hole``/``--board``), or a board of the wrong size for the street.
        ConfigError: a bad player count, button or betting string, betting that ends the hand, or an input longer
            than any spot needs (``--hole`` 16 characters, ``--board`` 32, ``--betting`` 1000).
        PlayerSpecError: a bad spec.
    """
    from loki.players.registry import make_player, title_of

    if not 2 <= players <= 10:
        raise ConfigError(f"--players {players}: expected 2..10")
    cfg = config or GameConfig(n_players=players)
    n = cfg.n_players
    b = n - 1 if button is None else button - 1
    if not 0 <= b < n:
        raise ConfigError(f"--button {button}: expected a seat 1..{n}")
    for option, text in (("--hole", hole), ("--board", board), ("--betting", betting)):
        if len(text) > _MAX_SPOT_TEXT[option]:
            raise ConfigError(f"{option} {_clip(text)}: longer than {_MAX_SPOT_TEXT[option]} characters")
    try:
        h = parse_cards(hole, count=2)
    except ValueError as e:
        raise CardError(f"--hole {_clip(hole)}: {e}") from None
    try:
        bd = parse_cards(board) if board else []
    except ValueError as e:
        raise CardError(f"--board {_clip(board)}: {e}") from None
    if len(set(h + bd)) != len(h) + len(bd):
        raise CardError(f"--hole {_clip(hole)} and --board {_clip(board)} share a card")
    # find our seat and street on any deal (betting legality does not depend on the cards)
    probe = new_hand(cfg, b, rng=0)
    steps: list[Action] = []
    for _, a in walk_betting(probe, betting):
        probe.apply(a)
        steps.append(a)
    if probe.is_terminal or probe.current_player is None:
        raise ConfigError(f"--betting {_clip(betting)}: the hand is over, there is no decision to explain")
    seat = int(probe.current_player)
    visible = (0, 3, 4, 5)[probe.round]
    if len(bd) != visible:
        raise CardError(
            f"--board {_clip(board)}: the betting reaches the {probe.street_name}, which shows {visible} board cards, "
            f"got {len(bd)}"
        )
    rng = np.random.default_rng(seed)
    deck = [c for c in rng.permutation(52).tolist() if c not in set(h + bd)]
    holes: list = []
    for s in range(n):
        holes.append(tuple(h) if s == seat else (deck.pop(), deck.pop()))
    full_board = bd + [deck.pop() for _ in range(5 - len(bd))]
    state = new_hand(cfg, b, hole_cards=holes, board=full_board)
    label = title_of(spec) if isinstance(spec, str) else "bot"
    bot = ExplainedPlayer(make_player(spec, seed=seed, name=label))
    bot.names = [label if s == seat else f"seat {s + 1}" for s in range(n)]
    bot.begin_hand(seat, cfg, state.hole_cards(seat), b)
    seen = 0
    for k in range(len(steps) + 1):
        while seen < len(state.events):
            bot.observe(state.events[seen])
            seen += 1
        if k == len(steps):
            break
        a = steps[k]
        if state.current_player == seat:
            bot.act(state.view(seat), state.legal_actions())
        state.apply(a)
    if state.current_player != seat:  # pragma: no cover - checked on the probe
        raise HandHistoryError("internal: the spot's seat differs from the probe's")
    bot.act(state.view(seat), state.legal_actions())
    return list(bot.explanations)
