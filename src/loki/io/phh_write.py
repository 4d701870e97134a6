"""PHH text of a finished hand, written straight from the engine's records (no pokerkit).

:func:`hand_text` builds, with plain string formatting, exactly the text pokerkit writes for the
hand (``state_to_phh(state, ...).dumps()`` of :mod:`loki.io.phh_pokerkit`, byte for byte wherever
pokerkit's text reads back: a string it would write unreadably is escaped, :func:`phh_string`; the
tests compare the two on thousands of hands): the same fields in pokerkit's order, the same quoting, one
line per field (pokerkit wraps nothing), show-downs in pokerkit's order and pokerkit's split of a
pot (the odd chip to the first winner left of the button).  It reads only the engine's own records
of the hand: the events (``BlindPosted``, ``ActionTaken``, ``BoardDealt``, ``Showdown``), the hole
cards, the button, the chips each seat put in and the starting stacks.

How pokerkit writes a fixed-limit hold'em hand, as reproduced here:

- players ``p1..pn`` from the seat left of the button (heads-up ``p1`` is the big blind:
  pokerkit reverses the blinds itself; ``blinds_or_straddles`` stays ``[small, big, 0, ...]``);
- ``actions``: one ``d dh pK CARDS`` per player first, then ``pK f``, ``pK cc`` and ``pK cbr AMOUNT``
  (the player's chips in this betting round after the bet or raise, blinds included), ``d db CARDS``
  where the board is dealt, and at a show-down ``pK sm CARDS`` for every player in, starting with the
  last bettor or raiser of the river (``p1``'s side of the table when nobody bet) and going round;
- ``finishing_stacks``: starting stack minus chips put in plus the share of the pot (one pot: with
  unlimited stacks nobody is all-in);
- then ``event``, ``hand``, ``seats``, ``seat_count``, ``players`` and the other known PHH fields in
  pokerkit's field order, and user-defined fields (``_deal``, ...) in the order given.

A hand where somebody went all-in (finite stacks only: side pots, and pokerkit shows the hands before
the board is run out) is handed to :func:`loki.io.phh_pokerkit.state_to_phh` instead (slow but rare).

>>> from loki.engine import GameConfig, new_hand
>>> s = new_hand(GameConfig(n_players=3), button=2, hole_cards=["5d5c", "9hQd", "8dAs"], board="8s4h6d5sJs")
>>> s.apply_many("rfrrc" "cc" "rrc" "rrrrc")
>>> print(hand_text(s, ["a", "b", "c"], 7, {"event": "demo", "_deal": 3}))
variant = 'FT'
ante_trimming_status = false
antes = [0, 0, 0]
blinds_or_straddles = [5, 10, 0]
small_bet = 10
big_bet = 20
starting_stacks = [1000000, 1000000, 1000000]
actions = ['d dh p1 5d5c', 'd dh p2 9hQd', 'd dh p3 8dAs', 'p3 cbr 20', 'p1 f', 'p2 cbr 30', 'p3 cbr 40', 'p2 cc', 'd db 8s4h6d', 'p2 cc', 'p3 cc', 'd db 5s', 'p2 cbr 20', 'p3 cbr 40', 'p2 cc', 'd db Js', 'p2 cbr 20', 'p3 cbr 40', 'p2 cbr 60', 'p3 cbr 80', 'p2 cc', 'p3 sm 8dAs', 'p2 sm 9hQd']
event = 'demo'
hand = 7
seats = [1, 2, 3]
seat_count = 3
players = ['a', 'b', 'c']
finishing_stacks = [999995, 999840, 1000165]
_deal = 3
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import re
from decimal import Decimal
from math import inf

from loki.cards import format_cards
from loki.engine import CALL, RAISE, ActionTaken, BlindPosted, BoardDealt, HandState, Showdown
from loki.errors import ConfigError, HandHistoryError
from loki.io.limits import digits
from loki.io.phh_pokerkit import PHH_STACK, state_to_phh

__all__ = ["hand_text", "history_text", "phh_string", "phh_value"]

# pokerkit's HandHistory fields in its dump order (its dataclass order) that it writes for 'FT'
_ORDER = (
    "variant",
    "ante_trimming_status",
    "antes",
    "blinds_or_straddles",
    "small_bet",
    "big_bet",
    "starting_stacks",
    "actions",
    "author",
    "event",
    "url",
    "venue",
    "address",
    "city",
    "region",
    "postal_code",
    "country",
    "time",
    "time_zone",
    "day",
    "month",
    "year",
    "hand",
    "level",
    "seats",
    "seat_count",
    "table",
    "players",
    "finishing_stacks",
    "winnings",
    "currency",
    "currency_symbol",
    "time_limit",
    "time_banks",
)
# pokerkit's other HandHistory fields: kept by pokerkit when given, never written for 'FT'
_UNWRITTEN = frozenset({"bring_in", "min_bet", "user_defined_fields", "automations", "divmod", "rake", "parse_value"})
_KNOWN = frozenset(_ORDER) | _UNWRITTEN


#: characters a TOML literal string cannot hold (control characters other than tab, and DEL)
_NOT_LITERAL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")
#: a key TOML reads bare
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def phh_string(value: str) -> str:
    r"""A string as a TOML value, as pokerkit writes it where TOML can read that back: in single quotes, or in triple
    single quotes when it holds a ``'``.  pokerkit escapes nothing, so a string it would write unreadably (a control
    character or line break, or a run of three ``'``) is written as a TOML basic string with escapes instead
    (:func:`_basic_string`): a player's name cannot corrupt a hand history.

    Raises:
        HandHistoryError: a string that is not valid Unicode (a lone surrogate): no TOML string holds it.

    >>> print(phh_string("ann"), phh_string("it's"), phh_string("o'''brien"), phh_string("a\nb"))
    'ann' '''it's''' "o'''brien" "a\nb"
    """
    _check_unicode(value)
    if not _NOT_LITERAL.search(value):
        if "'" not in value:
            return "'" + value + "'"
        if "'''" not in value:  # TOML reads up to two quotes anywhere inside, the end included
            return "'''" + value + "'''"
    return _basic_string(value)


def _check_unicode(text: str) -> None:
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise HandHistoryError(f"PHH: the string {text!r} is not valid Unicode (a lone surrogate)") from None


def _basic_string(text: str) -> str:
    # a TOML basic string: JSON's escapes are TOML's, and TOML wants DEL escaped too
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def phh_value(value) -> str:
    """A field value as pokerkit writes it: ``true``/``false``, ints as ``repr``, strings in single
    quotes (triple quotes when the string holds a ``'``; escaped where pokerkit's would not read back:
    :func:`phh_string`), lists ``[a, b]``, dicts ``{k = v}``, anything else as ``repr``.

    Raises:
        HandHistoryError: a string that is not valid Unicode (:func:`phh_string`).

    >>> phh_value([1, "it's", True, ["a"]])
    "[1, '''it's''', true, ['a']]"
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return phh_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(map(phh_value, value)) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_key(k)} = {phh_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, datetime.time):
        return str(value)
    if isinstance(value, Decimal):
        return "inf" if value == inf else str(value)
    return repr(value)


def _key(key: str) -> str:
    # pokerkit quotes a key with whitespace in single quotes and writes every other key bare; a key TOML would not
    # read bare (a dot, a quote, ...) is quoted here too, and a key no single quotes can hold (a quote, a control
    # character) is a basic string (a key cannot be a multi-line string)
    if _BARE_KEY.fullmatch(key):
        return key
    _check_unicode(key)
    if "'" not in key and not _NOT_LITERAL.search(key):
        return "'" + key + "'"
    return _basic_string(key)


def history_text(hh) -> str:
    """A :class:`pokerkit.HandHistory` as PHH text: its ``dumps()`` (the same fields, order and quoting), with its
    strings and keys written by :func:`phh_string` and :func:`_key` so that they read back (pokerkit's own ``dumps``
    escapes nothing).

    Raises:
        HandHistoryError: a string that is not valid Unicode (:func:`phh_string`).
    """
    lines = [
        f"{_key(key)} = {phh_value(value)}"
        for key, value in dataclasses.asdict(hh).items()
        if (key in hh.required_field_names[hh.variant] or key in hh.optional_field_names) and value is not None
    ]
    lines += [f"{_key(key)} = {phh_value(value)}" for key, value in hh.user_defined_fields.items() if value is not None]
    return "\n".join(lines)


def hand_text(state: HandState, names=None, hand_id=None, fields: dict | None = None) -> str:
    """A finished hand as PHH text: ``state_to_phh(state, names, hand_id, fields).dumps()``, built
    from the engine's records (no trailing newline).

    Args:
        state: a finished hand (``max_bets`` 4, pokerkit's fixed-limit cap).
        names: display name per seat (``names[seat]``), written as ``players``.
        hand_id: the ``hand`` field (an int, or a string of digits; anything else leaves it out).
        fields: more PHH fields, e.g. ``{"event": "fig3-BR", "_deal": 17}`` (user-defined field
            names start with ``_``; a field set to None is left out).

    Raises:
        ConfigError: ``max_bets`` is not 4.
        HandHistoryError: a heads-up game with equal blinds (pokerkit, reversing the blinds, would
            open the betting with the wrong player and could not replay the file).
        ValueError: the hand is not finished, or was played without recording its events.
    """
    _check_writable(state)
    if any(state.all_in):
        return history_text(state_to_phh(state, names, hand_id, fields))
    cfg = state.config
    n, button = cfg.n_players, state.button
    seat_of = [(button + 1 + k) % n for k in range(n)]
    pk_of = {s: k for k, s in enumerate(seat_of)}
    actions, shown, river_opener = _action_lines(state, pk_of)
    won = _showdown(state, actions, shown, river_opener, pk_of)
    put_in = state.total_committed
    stacks = state.starting_stacks or (PHH_STACK,) * n
    data: dict = {
        "variant": "FT",
        "ante_trimming_status": False,
        "antes": [0] * n,
        "blinds_or_straddles": [cfg.small_blind, cfg.big_blind] + [0] * (n - 2),
        "small_bet": cfg.small_bet,
        "big_bet": cfg.big_bet,
        "starting_stacks": [stacks[s] for s in seat_of],
        "actions": actions,
        "finishing_stacks": [stacks[s] - put_in[s] + won[s] for s in seat_of],
        "seats": [s + 1 for s in seat_of],
        "seat_count": n,
    }
    if names:
        data["players"] = [names[s] for s in seat_of]
    if hand_id is not None:
        data["hand"] = int(hand_id) if digits(str(hand_id)) else None
    return _field_lines(data, fields)


def _check_writable(state: HandState) -> None:
    """Refuse a hand pokerkit's fixed-limit PHH cannot hold (see :func:`hand_text`)."""
    cfg = state.config
    if cfg.max_bets != 4:
        raise ConfigError(f"PHH (pokerkit fixed-limit) caps a round at 4 bets; this game has max_bets = {cfg.max_bets}")
    if not state.is_terminal:
        raise ValueError("PHH: the hand is not finished")
    if not state.events:
        raise ValueError("PHH: the hand kept no events (new_hand(..., record_events=False))")
    if cfg.n_players == 2 and cfg.small_blind == cfg.big_blind:
        raise HandHistoryError(
            "PHH: pokerkit cannot replay a heads-up hand with equal blinds (it would open with the big blind)"
        )


def _action_lines(state: HandState, pk_of: dict[int, int]) -> tuple[list[str], tuple, int]:
    """The ``actions`` of the hand up to the show-down (``d dh``, ``pK f|cc|cbr``, ``d db``), the show-down's
    hands and pokerkit's player who shows first (the river's last bettor or raiser, else ``p1``)."""
    n = state.config.n_players
    seat_of = {k: s for s, k in pk_of.items()}
    actions = [f"d dh p{k + 1} {format_cards(state.hole_cards(seat_of[k]))}" for k in range(n)]
    bets = [0] * n  # chips put in this betting round, per seat
    river_opener = 0
    shown: tuple = ()
    for ev in state.events:
        cls = type(ev)
        if cls is ActionTaken:
            k = pk_of[ev.seat]
            bets[ev.seat] += ev.amount
            if ev.action == RAISE:
                actions.append(f"p{k + 1} cbr {bets[ev.seat]}")
                if ev.round == 3:
                    river_opener = k
            else:
                actions.append(f"p{k + 1} cc" if ev.action == CALL else f"p{k + 1} f")
        elif cls is BoardDealt:
            actions.append("d db " + format_cards(ev.cards))
            bets = [0] * n
        elif cls is BlindPosted:
            bets[ev.seat] += ev.amount
        elif cls is Showdown:
            shown = ev.hands
    return actions, shown, river_opener


def _showdown(
    state: HandState, actions: list[str], shown: tuple, river_opener: int, pk_of: dict[int, int]
) -> list[int]:
    """Chips won per seat (pokerkit's split: the odd chip to the first winner left of the button); appends the
    show-down's ``pK sm CARDS`` lines to ``actions`` in pokerkit's order."""
    n = state.config.n_players
    won = [0] * n
    pot = sum(state.total_committed)
    if not shown:
        won[state.folded.index(False)] = pot
        return won
    by_k = {pk_of[seat]: (cards, rank) for seat, cards, rank in shown}  # hands in pokerkit's player order
    for i in range(n):
        k = (river_opener + i) % n
        if k in by_k:
            actions.append(f"p{k + 1} sm {format_cards(by_k[k][0])}")
    best = max(r for _, _, r in shown)
    winners = [seat for seat, _, r in shown if r == best]
    share, odd = divmod(pot, len(winners))
    for seat in winners:
        won[seat] = share
    won[winners[0]] += odd
    return won


def _field_lines(data: dict, fields: dict | None) -> str:
    """The PHH text of ``data`` (pokerkit's fields in its order) and ``fields`` (known ones in their place,
    user-defined ones after, in the order given; None values left out)."""
    extra = {}
    for key, value in (fields or {}).items():
        if key in _KNOWN:
            data[key] = value
        else:
            extra[key] = value
    lines = [f"{key} = {phh_value(data[key])}" for key in _ORDER if data.get(key) is not None]
    lines += [f"{_key(key)} = {phh_value(value)}" for key, value in extra.items() if value is not None]
    return "\n".join(lines)
