"""Poker Hand History (PHH) files through pokerkit's :class:`pokerkit.HandHistory`.

Writing drives a pokerkit ``FixedLimitTexasHoldem`` state through the hand (so the file is exactly
what pokerkit would write, show-downs in pokerkit's order) and dumps it; reading walks the PHH
action lines into a :class:`~loki.io.acpc_log.HandRecord`.

Seats: pokerkit's player ``k`` (``p{k+1}``) is our seat ``(button + 1 + k) mod n`` (pokerkit's
player 0 is the seat left of the button; heads-up it is the big blind).  Records read from PHH
use seat ``k`` with ``button = n - 1``.  Unlimited bankrolls are written as stacks of
:data:`PHH_STACK` chips.  Every hand also gets ``seats`` (our seat + 1 of each PHH player) and
``seat_count``; more fields (``event``, user-defined ``_deal``, ...) can be given per hand.

Several hands go to one ``.phhs`` text with :func:`phhs_text` (pokerkit's ``HandHistory.dumps_all``).

>>> from loki.engine import GameConfig, new_hand
>>> s = new_hand(GameConfig(n_players=3), button=2, hole_cards=["5d5c", "9hQd", "8dAs"], board="8s4h6d5sJs")
>>> s.apply_many("rfrrc" "cc" "rrc" "rrrrc")
>>> hh = state_to_phh(s, ["a", "b", "c"], 7, fields={"event": "demo", "_deal": 3})
>>> print(hh.dumps())  # doctest: +NORMALIZE_WHITESPACE
variant = 'FT'
ante_trimming_status = false
antes = [0, 0, 0]
blinds_or_straddles = [5, 10, 0]
small_bet = 10
big_bet = 20
starting_stacks = [1000000, 1000000, 1000000]
actions = ['d dh p1 5d5c', 'd dh p2 9hQd', 'd dh p3 8dAs', 'p3 cbr 20', 'p1 f', 'p2 cbr 30', 'p3 cbr 40',
  'p2 cc', 'd db 8s4h6d', 'p2 cc', 'p3 cc', 'd db 5s', 'p2 cbr 20', 'p3 cbr 40', 'p2 cc', 'd db Js',
  'p2 cbr 20', 'p3 cbr 40', 'p2 cbr 60', 'p3 cbr 80', 'p2 cc', 'p3 sm 8dAs', 'p2 sm 9hQd']
event = 'demo'
hand = 7
seats = [1, 2, 3]
seat_count = 3
players = ['a', 'b', 'c']
finishing_stacks = [999995, 999840, 1000165]
_deal = 3
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

from loki.cards import format_cards
from loki.engine import ActionTaken, BoardDealt, GameConfig, HandState
from loki.errors import ConfigError, HandHistoryError
from loki.io.acpc_log import HandRecord

__all__ = ["record_to_phh", "state_to_phh", "phhs_text", "write_phh", "read_phh", "phh_to_record", "PHH_STACK"]

PHH_STACK = 1_000_000


def _pk_automations():
    from pokerkit import Automation

    return (
        Automation.ANTE_POSTING,
        Automation.BET_COLLECTION,
        Automation.BLIND_OR_STRADDLE_POSTING,
        Automation.CARD_BURNING,
        Automation.RUNOUT_COUNT_SELECTION,
        Automation.HAND_KILLING,
        Automation.CHIPS_PUSHING,
        Automation.CHIPS_PULLING,
    )


@lru_cache(maxsize=16)
def _pk_game(blinds: tuple[int, int], small_bet: int, big_bet: int):
    """The pokerkit game of our limits (immutable, so shared by every hand)."""
    from pokerkit import FixedLimitTexasHoldem, Mode

    return FixedLimitTexasHoldem(_pk_automations(), True, 0, blinds, small_bet, big_bet, mode=Mode.CASH_GAME)


def state_to_phh(state: HandState, names=None, hand_id=None, fields: dict | None = None):
    """A finished :class:`HandState` as a :class:`pokerkit.HandHistory`.

    Args:
        state: a finished hand (``max_bets`` 4, pokerkit's fixed-limit cap).
        names: display name per seat (``names[seat]``), written as ``players``.
        hand_id: the ``hand`` field (an int, or a string of digits).
        fields: more PHH fields, e.g. ``{"event": "fig3-BR", "_deal": 17}`` (user-defined field names
            start with ``_``).

    Raises:
        ConfigError: ``max_bets`` is not 4.
        HandHistoryError: the hand does not replay in pokerkit.
    """
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # pokerkit's "card not recommended" (burn cards)
        return _state_to_phh(state, names, hand_id, fields)


def _state_to_phh(state, names, hand_id, fields):
    from pokerkit import HandHistory

    cfg = state.config
    if cfg.max_bets != 4:
        raise ConfigError(f"PHH (pokerkit fixed-limit) caps a round at 4 bets; this game has max_bets = {cfg.max_bets}")
    n, button = cfg.n_players, state.button
    pk_of = {(button + 1 + k) % n: k for k in range(n)}
    seat_of = {k: s for s, k in pk_of.items()}
    # pokerkit reverses the blinds heads-up by itself
    game = _pk_game((cfg.small_blind, cfg.big_blind), cfg.small_bet, cfg.big_bet)
    stacks = state.starting_stacks or (PHH_STACK,) * n
    pks = game(tuple(stacks[seat_of[k]] for k in range(n)), n)
    for k in range(n):  # pokerkit writes one "d dh" line per player whatever the dealing order
        pks.deal_hole(format_cards(state.hole_cards(seat_of[k])), k)
    for ev in state.events:
        if isinstance(ev, ActionTaken):
            if pks.actor_index != pk_of[ev.seat]:
                raise HandHistoryError(
                    f"pokerkit expects player {pks.actor_index} but seat {ev.seat} acts ({state.history!r})"
                )
            if ev.action == 0:
                pks.fold()
            elif ev.action == 1:
                pks.check_or_call()
            else:
                pks.complete_bet_or_raise_to()
        elif isinstance(ev, BoardDealt):
            if pks.can_burn_card():
                pks.burn_card("??")
            pks.deal_board(format_cards(ev.cards))
        while pks.showdown_index is not None:
            pks.show_or_muck_hole_cards(True)
    while pks.showdown_index is not None:
        pks.show_or_muck_hole_cards(True)
    kw = {"finishing_stacks": list(pks.stacks), "seats": [seat_of[k] + 1 for k in range(n)], "seat_count": n}
    if names:
        kw["players"] = [names[seat_of[k]] for k in range(n)]
    if hand_id is not None:
        kw["hand"] = int(hand_id) if str(hand_id).isdigit() else None
    if fields:
        kw.update(fields)
    return HandHistory.from_game_state(game, pks, **kw)


def record_to_phh(rec: HandRecord):
    """A :class:`HandRecord` as a :class:`pokerkit.HandHistory` (the hand is replayed on the engine)."""
    return state_to_phh(rec.replay(), rec.names or None, rec.hand_id)


def _as_phh(h):
    from pokerkit import HandHistory

    if isinstance(h, HandHistory):
        return h
    if isinstance(h, HandRecord):
        return record_to_phh(h)
    return state_to_phh(*h)


def phhs_text(hands: Iterable) -> str:
    """Hands (:class:`pokerkit.HandHistory`, :class:`HandRecord` or ``(HandState, names, hand_id[,
    fields])``) as the text of a ``.phhs`` file (pokerkit's ``HandHistory.dumps_all``: tables
    ``[1]``, ``[2]``, ...; the ``hand`` field, when given, carries the hand's own number)."""
    from pokerkit import HandHistory

    return HandHistory.dumps_all([_as_phh(h) for h in hands]) + "\n"


def write_phh(path, hands: Iterable) -> int:
    """Write hands (as for :func:`phhs_text`) to a ``.phhs`` file (``.phh`` for a single hand);
    returns how many were written."""
    from pokerkit import HandHistory

    hhs = [_as_phh(h) for h in hands]
    p = Path(path)
    if p.suffix == ".phh" and len(hhs) == 1:
        p.write_text(hhs[0].dumps() + "\n")
    else:
        p.write_text(HandHistory.dumps_all(hhs) + "\n")
    return len(hhs)


_CARDS_RE = None


def _cards_ok(text: str, count: int | None = None) -> bool:
    """``text`` is ``count`` cards (``As``, ``Td``, or ``??`` for unknown), none repeated."""
    global _CARDS_RE
    import re

    if _CARDS_RE is None:
        _CARDS_RE = re.compile(r"^(?:[2-9TJQKA][shdc]|\?\?)+$")
    if not _CARDS_RE.match(text) or (count is not None and len(text) != 2 * count):
        return False
    known = [text[i : i + 2] for i in range(0, len(text), 2) if text[i] != "?"]
    return len(set(known)) == len(known)


def phh_to_record(hh, hand_id=None, source: str = "<PHH>") -> HandRecord:
    """A pokerkit :class:`HandHistory` (fixed-limit Texas hold'em, ``variant = 'FT'``) as a record.

    Every action line is checked as it is read, against the fixed-limit rules played on our engine
    (with placeholder cards: the betting does not depend on them): the syntax (``d dh pK CARDS``,
    ``d db CARDS``, ``pK f|cc|cbr AMOUNT|sm [CARDS]``), the player numbers (1..n), the player to
    act, the board dealt only when a betting round is over, and the ``cbr`` amount (the round's
    bet after the raise, blinds included, as pokerkit writes it).

    Raises:
        HandHistoryError: other variants, missing fields, or a bad action line; the message names
            ``source``, the hand and the action line.
    """
    from loki.engine import new_hand

    where = f"{source}: hand {hand_id if hand_id is not None else getattr(hh, 'hand', None)}"
    if hh.variant != "FT":
        raise HandHistoryError(
            f"{where}: PHH variant {hh.variant!r}: only fixed-limit Texas hold'em ('FT') is supported"
        )
    try:
        n = len(hh.starting_stacks)
        bl = [int(x) for x in (hh.blinds_or_straddles or [])] + [0] * n
        config = GameConfig(
            n_players=n, small_bet=int(hh.small_bet), big_bet=int(hh.big_bet), small_blind=bl[0], big_blind=bl[1]
        )
    except (TypeError, ValueError) as e:
        raise HandHistoryError(
            f"{where}: bad or missing game fields (starting_stacks, blinds_or_straddles, small_bet, big_bet): {e}"
        ) from None
    sim = new_hand(config, n - 1, rng=0)  # placeholder cards: only the betting is checked
    holes = [""] * n
    board, betting = "", ""
    boards_dealt = 0
    for j, raw in enumerate(hh.actions, 1):
        line = str(raw).split("#", 1)[0].strip()
        if not line:
            continue
        at = f"{where}, action {j} {line!r}"
        parts = line.split()

        def player(tok: str) -> int:
            if not (len(tok) >= 2 and tok[0] == "p" and tok[1:].isdigit() and 1 <= int(tok[1:]) <= n):
                raise HandHistoryError(f"{at}: player {tok!r} is not one of p1..p{n}")  # noqa: B023 (called in this iteration)
            return int(tok[1:]) - 1

        if parts[:2] == ["d", "dh"]:
            if len(parts) != 4 or not _cards_ok(parts[3], 2):
                raise HandHistoryError(f"{at}: expected 'd dh pK CARDS' with two hole cards (e.g. 'd dh p1 AsKd')")
            k = player(parts[2])
            if "?" not in parts[3]:
                holes[k] = parts[3]
        elif parts[:2] == ["d", "db"]:
            if len(parts) != 3 or not _cards_ok(parts[2]) or len(parts[2]) not in (2, 6):
                raise HandHistoryError(f"{at}: expected 'd db CARDS' (three flop cards or one card)")
            if sim.is_terminal and not sim.went_to_showdown or boards_dealt >= sim.round:
                raise HandHistoryError(f"{at}: board dealt before the betting round is over")
            want = 3 if boards_dealt == 0 else 1
            if len(parts[2]) != 2 * want:
                raise HandHistoryError(f"{at}: {want} board card(s) expected on this street")
            board += parts[2]
            betting += "/"
            boards_dealt += 1
        elif parts[0].startswith("p") and len(parts) >= 2:
            k = player(parts[0])
            code = parts[1]
            if code == "sm":
                if len(parts) > 2:
                    if not _cards_ok(parts[2], 2):
                        raise HandHistoryError(f"{at}: expected 'pK sm CARDS' with two hole cards")
                    if "?" not in parts[2]:
                        holes[k] = parts[2]
                continue
            if code not in ("f", "cc", "cbr") or (code == "cbr") != (len(parts) == 3) or len(parts) > 3:
                raise HandHistoryError(f"{at}: expected 'pK f', 'pK cc', 'pK cbr AMOUNT' or 'pK sm CARDS'")
            if sim.is_terminal:
                raise HandHistoryError(f"{at}: the hand is already over")
            if boards_dealt != sim.round:
                raise HandHistoryError(f"{at}: the board of this betting round has not been dealt")
            cp = sim.current_player
            if cp != k:
                who = "nobody" if cp is None else f"p{cp + 1}"
                raise HandHistoryError(f"{at}: {who} is to act, not p{k + 1}")
            a = {"f": "f", "cc": "c", "cbr": "r"}[code]
            try:
                sim.apply(a)
            except ValueError as e:
                raise HandHistoryError(f"{at}: illegal in fixed-limit: {e}") from None
            if code == "cbr":
                try:
                    amount = float(parts[2])
                except ValueError:
                    raise HandHistoryError(f"{at}: bet amount {parts[2]!r} is not a number") from None
                if amount != sim.committed[k]:
                    raise HandHistoryError(
                        f"{at}: fixed-limit bet/raise to {sim.committed[k]} expected, not {parts[2]}"
                    )
            betting += a
        else:
            raise HandHistoryError(f"{at}: PHH action not understood")
    payoffs = None
    if hh.finishing_stacks:
        try:
            payoffs = tuple(int(f) - int(s) for f, s in zip(hh.finishing_stacks, hh.starting_stacks))
        except (TypeError, ValueError) as e:
            raise HandHistoryError(f"{where}: bad finishing_stacks: {e}") from None
    names = tuple(str(x) for x in hh.players) if hh.players else tuple(f"p{k + 1}" for k in range(n))
    if len(names) != n:
        raise HandHistoryError(f"{where}: {len(names)} players named for {n} starting stacks")
    hid = hand_id if hand_id is not None else (hh.hand if hh.hand is not None else 0)
    return HandRecord(hid, config, n - 1, tuple(holes), board, betting, payoffs, names, {"source": source})


def _load_phh(p: Path):
    """pokerkit's hand histories of a file; every failure as a HandHistoryError naming the file."""
    import tomllib

    from pokerkit import HandHistory

    try:
        data = p.read_bytes()
    except OSError as e:
        raise HandHistoryError(f"{p}: cannot read PHH file: {e}") from None
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        raise HandHistoryError(f"{p}: not a PHH file (not UTF-8 text; binary?)") from None
    import io
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # "unexpected field": reported below if it matters
            if p.suffix == ".phhs":
                return list(HandHistory.load_all(io.BytesIO(data)))
            return [HandHistory.load(io.BytesIO(data))]
    except tomllib.TOMLDecodeError as e:
        raise HandHistoryError(f"{p}: not valid PHH/TOML: {e}") from None
    except (TypeError, KeyError, ValueError, IndexError, AttributeError) as e:
        kind = f"{type(e).__name__}: " if isinstance(e, KeyError) else ""
        raise HandHistoryError(
            f"{p}: a hand with missing or unknown fields (variant, antes, starting_stacks, actions, ...): {kind}{e}"
        ) from None


def read_phh(path, skipped: list | None = None) -> list[HandRecord]:
    """All hands of a ``.phh``/``.phhs`` file as :class:`HandRecord` (hand ids numbered from 0 when absent).

    Args:
        skipped: if a list, hands that cannot be read are appended to it as ``(hand id, message)``
            and left out; otherwise the first one raises.

    Raises:
        HandHistoryError: unreadable, binary or malformed file, or (without ``skipped``) a bad hand; the
            message names the file, the hand and the action.
    """
    p = Path(path)
    out = []
    for i, hh in enumerate(_load_phh(p)):
        hid = hh.hand if getattr(hh, "hand", None) is not None else i
        try:
            out.append(phh_to_record(hh, hid, str(p)))
        except ValueError as e:
            if skipped is None:
                raise
            skipped.append((hid, str(e)))
    return out
