"""A table a person plays through a browser: the step-wise game driver behind ``loki web`` (no web code here).

:class:`TableSession` seats one person and 1-9 bots (any player specs), deals hands with the button moving one
seat a hand, lets the bots act until it is the person's turn, and takes the person's actions one at a time.
Every bot is wrapped in the decision-neutral :class:`loki.explain.ExplainedPlayer`, so each bot decision has its
:class:`~loki.explain.records.DecisionExplanation`.  :meth:`TableSession.snapshot` is what the page shows, as
JSON-ready data, its seats numbered from 1 as in all of loki's output (the person is seat 1); other seats' cards
appear only once shown at the showdown, and bot explanations (which reveal the bot's cards) only after the hand,
or live in teaching mode.

Calls on one session are made one at a time (its lock); a call waits at most :data:`LOCK_WAIT` seconds for another
one (a bot deciding) to finish, then raises :class:`SessionBusy` having done nothing.

Finished hands are written to the session's PHH file after every hand (appended: a hand costs the same whatever came
before), so closing the browser never loses a finished hand.  A session keeps each finished hand as its PHH text (for
the download and a retry after a failed write) and plays at most :data:`MAX_HANDS` hands.

A bot that raises an error or answers an illegal action checks or calls in its place (the ACPC dealer's rule), so a
failing bot never stops the person's table; the snapshot's ``bot_errors`` says what happened.

>>> s = TableSession(["calling"], seed=1)
>>> snap = s.snapshot(); snap["hand"], snap["n_players"], len(snap["seats"])
(1, 2, 2)
"""

from __future__ import annotations

import logging
import os
import secrets
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from loki.cards import format_cards
from loki.engine import Action, GameConfig, HandState, new_hand
from loki.errors import ConfigError, IllegalActionError, InputError, LokiError
from loki.explain import ExplainedPlayer
from loki.explain.core import action_word
from loki.io.names import check_name, shown
from loki.io.phh_write import hand_text
from loki.io.tableview import HandLog, describe_pots, hand_results, position_names
from loki.players.base import Player
from loki.tournament.config import MAX_SEED

__all__ = ["TableSession", "SessionBusy", "MAX_BOTS", "HISTORY_KEEP", "MAX_HANDS", "LOCK_WAIT", "BOT_ERRORS_KEEP"]

log = logging.getLogger(__name__)

MAX_BOTS = 9
#: Finished hands whose explanations a session keeps in memory (the PHH file keeps every hand).
HISTORY_KEEP = 50
#: Hands one session plays at most (each kept as its PHH text, about 0.6 kB: a person plays ~100 an hour).
MAX_HANDS = 20_000
#: Seconds a call waits for a session another call is using (a bot deciding can take long) before it raises
#: :class:`SessionBusy`: no caller, and no server thread, waits longer than this for a session.
LOCK_WAIT = 3.0
#: Bot failures a session keeps to show (a bot that errors or answers an illegal action checks or calls instead).
BOT_ERRORS_KEEP = 20


class SessionBusy(LokiError):
    """The session is in use by another call (a bot is still deciding) for longer than :data:`LOCK_WAIT`: nothing
    was done, the same call may be made again (``loki web`` answers it 503)."""

    @classmethod
    def of(cls, session_id: str) -> SessionBusy:
        """The error for session ``session_id`` (its message says to try again)."""
        return cls(f"session {session_id} is busy: a bot is still deciding, try again")


def _button(st: HandState) -> int:
    """The button seat of a hand (through the public view)."""
    return int(st.view(0).button)


class _Seat(Player):
    """The person's seat: never asked to act by the driver (the page supplies the action)."""

    def __init__(self, name: str):
        self.name = name

    def act(self, view, legal_actions):  # pragma: no cover - the session never calls it
        raise IllegalActionError("the person's action comes from the page", view.seat, None, tuple(legal_actions))


class TableSession:
    """One person against bots (module docstring).

    Args:
        specs: one player spec per bot (1..9), e.g. ``["loki1", "loki2:BR"]``.
        seed: seeds the deal (``default_rng(seed)``) and the bots (bot ``i``: ``seed * 100 + i``, as ``loki play``).
        name: the person's display name.
        teaching: show each bot decision's explanation as soon as it is made (it reveals the bot's cards).
        phh_path: where the finished hands are written (each appended when it ends); None: nowhere.
        config: the rules (default: limit 10/20, blinds 5/10).

    Raises:
        ConfigError: no bots or more than 9, a bad name (over 40 characters, or not printable text: a control
            character or line break), or rules with ``max_bets`` other than 4 (PHH cannot hold them).
        PlayerSpecError: a spec the registry cannot build (the message names the seat as the page labels it and the
            field: ``seat 2 (players[0])``).
    """

    def __init__(
        self,
        specs: Sequence[str],
        seed: int = 0,
        name: str = "you",
        teaching: bool = False,
        phh_path: str | Path | None = None,
        config: GameConfig | None = None,
    ):
        from loki.errors import LokiError, tagged
        from loki.players.registry import make_player

        specs = list(specs)
        if not 1 <= len(specs) <= MAX_BOTS:
            raise ConfigError(f"players: {len(specs)} bots given, expected 1..{MAX_BOTS} (a table of 2-10)")
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MAX_SEED:
            got = (
                shown(repr(seed)[:80], 40)
                if not isinstance(seed, int) or seed.bit_length() <= 128
                else (f"an integer of {seed.bit_length():,} bits")
            )
            raise ConfigError(f"seed: expected an integer 0 to 2**64 - 1, got {got}")
        name = check_name(str(name).strip() or "you", "name", ConfigError, limit=40)
        n = len(specs) + 1
        self.config = config or GameConfig(n_players=n)
        if self.config.max_bets != 4:  # every finished hand is kept as PHH (pokerkit's fixed-limit rules)
            raise ConfigError(
                f"config: max_bets = {self.config.max_bets}; a table keeps its hands as PHH, which needs 4"
            )
        self.id = secrets.token_urlsafe(9)
        self.seed = seed
        self.teaching = bool(teaching)
        self.phh_path = Path(phh_path) if phh_path is not None else None
        self.lock = threading.RLock()  # taken through _locked (a bounded wait), never waited on for ever
        #: set by :meth:`close`: no bot acts after the decision in progress
        self.closed = threading.Event()
        self.human_seat = 0
        self.bots: list[ExplainedPlayer] = []
        for i, spec in enumerate(specs, start=1):
            try:
                bot = make_player(spec, seed=seed * 100 + i, name=f"{spec}-{i + 1}")
            except (LokiError, ValueError) as e:
                raise tagged(f"seat {i + 1} (players[{i - 1}])", e) from None
            self.bots.append(ExplainedPlayer(bot, keep=100))  # the page reads hand_explanations
        self.specs = specs
        self.names = [name] + [b.name for b in self.bots]
        for b in self.bots:
            b.names = self.names
        self.players: list[Player] = [_Seat(name), *self.bots]
        self.rng = np.random.default_rng(seed)
        self.hands_done = 0
        self.chips = [0.0] * n
        self._texts: list[str] = []  # the finished hands' PHH texts
        self._saved = 0  # of them in the file
        self.history: list[dict[str, Any]] = []  # finished hands: summary + explanations
        self.save_error: str | None = None
        #: the latest bot failures (at most :data:`BOT_ERRORS_KEEP`), each taken as a check or call
        self.bot_errors: list[str] = []
        self.bot_error_count = 0  # every one so far
        self.state: HandState
        self.log: HandLog
        self._seen = 0
        self._start_hand()

    # ---------------------------------------------------------------- the game
    @property
    def n(self) -> int:
        return self.config.n_players

    @property
    def hand_over(self) -> bool:
        return self.state.is_terminal

    def _start_hand(self) -> None:
        button = self.hands_done % self.n
        self.state = new_hand(self.config, button, rng=self.rng)
        self.log = HandLog(self.n)
        self._seen = 0
        for seat, pl in enumerate(self.players):
            pl.begin_hand(seat, self.config, self.state.hole_cards(seat), button)
        self._advance()

    def _feed(self) -> None:
        events = self.state.events
        while self._seen < len(events):
            ev = events[self._seen]
            self._seen += 1
            self.log.add(ev)
            for pl in self.players:
                pl.observe(ev)

    def close(self) -> None:
        """Stop the table (the server is stopping): a bot deciding finishes its decision (it cannot be cut short),
        and no bot acts after it; the hand in progress is left unfinished (unwritten, as every hand is until it
        ends).  Thread-safe; the session is not used after it."""
        self.closed.set()

    def _advance(self) -> None:
        """Bots act until it is the person's turn, the hand is over, or the table is closed (:meth:`close`)."""
        while True:
            self._feed()
            actor = self.state.current_player
            if actor is None:
                self._finish()
                return
            if actor == self.human_seat or self.closed.is_set():
                return
            self.state.apply(self._bot_action(actor))

    def _bot_action(self, actor: int) -> Action:
        """Bot ``actor``'s action.  A bot that raises an error, or answers something that is not a legal action,
        checks or calls (the ACPC dealer's rule for an invalid action), and the table goes on; the failure is kept in
        :attr:`bot_errors` (the page shows it) and logged."""
        legal = self.state.legal_actions()
        try:
            a = Action.parse(self.players[actor].act(self.state.view(actor), legal))
            if a in legal:
                return a
            why = f"an illegal action {a.name.lower()}"
        except Exception as e:  # noqa: BLE001 - a bot's failure must not stop the person's table
            why = f"an error ({type(e).__name__}: {' '.join(str(e).split())[:200]})"
        msg = f"hand {self.hands_done + 1}: {self.names[actor]} gave {why}; taken as a check or call"
        log.warning("web table %s: %s", self.id, msg)
        self.bot_errors.append(msg)
        self.bot_error_count += 1
        del self.bot_errors[:-BOT_ERRORS_KEEP]
        return Action.CALL

    def _finish(self) -> None:
        st = self.state
        for seat, pl in enumerate(self.players):
            pl.end_hand(st.view(seat))
        self.hands_done += 1
        self._texts.append(hand_text(st, self.names, self.hands_done))
        for i, x in enumerate(st.payoffs):
            self.chips[i] += float(x)
        self.history.append(self._hand_summary(st, self.hands_done))
        if len(self.history) > HISTORY_KEEP:
            del self.history[: len(self.history) - HISTORY_KEEP]
        self.save()

    def save(self) -> None:
        """Append the finished hands not yet in :attr:`phh_path` (PHH, the ``.phhs`` text :func:`loki.io.phh.phhs_text`
        writes); a failure is kept in :attr:`save_error` (shown on the page), the file cut back to its last whole hand,
        and the write retried after the next hand."""
        if self.phh_path is None or self._saved == len(self._texts):
            return
        from loki.io.outpath import open_output
        from loki.io.phh import phhs_text

        path, first = self.phh_path, self._saved
        chunk = ("\n" if first else "") + phhs_text(self._texts[first:], start=first + 1)  # a blank line between hands
        size = None
        try:
            with open_output(path, "the session's hand history", append=bool(first)) as f:  # a regular file only
                size = f.tell()
                f.write(chunk)
            self._saved = len(self._texts)
            self.save_error = None
        except OSError as e:
            self.save_error = f"cannot write {path}: {e}"
            if size is not None:
                try:
                    os.truncate(path, size)
                except OSError:
                    pass

    @contextmanager
    def _locked(self) -> Iterator[None]:
        """Hold :attr:`lock`, waiting at most :data:`LOCK_WAIT` seconds for it.

        Raises:
            SessionBusy: another call held it all that time.
        """
        if not self.lock.acquire(timeout=LOCK_WAIT):
            raise SessionBusy.of(self.id)
        try:
            yield
        finally:
            self.lock.release()

    def act(self, action: str | int | Action) -> None:
        """The person's action.

        Raises:
            SessionBusy: another call has held the session for :data:`LOCK_WAIT` seconds (nothing was done).
            IllegalActionError: not the person's turn, the hand is over, or the action is not legal now (the
                message says which actions are).
            InputError: not an action (``"f"``, ``"c"``, ``"r"``, ``"fold"``, ``"check"``, …); a ``ValueError``.
        """
        try:
            a = Action.parse(action)
        except ValueError as e:  # not an action at all: bad input (400), not an illegal move (409)
            raise InputError(str(e)) from None
        with self._locked():
            st = self.state
            if st.is_terminal:
                raise IllegalActionError("the hand is over: start the next hand", self.human_seat, a, ())
            if st.current_player != self.human_seat:
                raise IllegalActionError("it is not your turn", self.human_seat, a, ())
            legal = st.legal_actions()
            if a not in legal:
                tc = st.to_call(self.human_seat)
                ok = ", ".join(action_word(x, tc, st.bets_this_round) for x in legal)
                why = "checking is free" if a is Action.FOLD else "the betting is capped"
                raise IllegalActionError(
                    f"{a.name.lower()} is not possible here ({why}); legal: {ok}", self.human_seat, a, legal
                )
            st.apply(a)
            self._advance()

    def next_hand(self) -> None:
        """Deal the next hand.

        Raises:
            IllegalActionError: the current hand is not over, or the session has played :data:`MAX_HANDS` hands.
            SessionBusy: another call has held the session for :data:`LOCK_WAIT` seconds (nothing was done).
        """
        with self._locked():
            if not self.state.is_terminal:
                raise IllegalActionError("the hand is not over yet", self.human_seat, None, ())
            if self.hands_done >= MAX_HANDS:
                raise IllegalActionError(
                    f"this table has played {MAX_HANDS:,} hands, the most one table plays: start a new table",
                    self.human_seat,
                    None,
                    (),
                )
            self._start_hand()

    # ---------------------------------------------------------------- what the page shows
    def _hand_summary(self, st: HandState, number: int) -> dict[str, Any]:
        results, shown = hand_results(st)
        names = self.names
        exps = self._decision_order()
        return {
            "hand": number,
            "button": _button(st) + 1,
            "board": format_cards(st.board),
            "history": st.history,
            "payoffs": [float(x) for x in st.payoffs],
            "showdown": st.went_to_showdown,
            "shown": {
                str(s + 1): {"cards": format_cards(c), "hand": shown.get(s)} for s, c in st.shown_cards().items()
            },
            "pots": [
                {
                    "amount": p.amount,
                    "winners": [w + 1 for w in p.winners],
                    "shares": list(p.shares),
                    "hand": p.hand_name,
                }
                for p in results
            ],
            "results": describe_pots(results, names),
            "explanations": [e.model_dump(mode="json") for e in exps],
        }

    def hand_explanations(self) -> list[dict[str, Any]]:
        """This hand's bot explanations so far, in the order the decisions were made."""
        return [e.model_dump(mode="json") for e in self._decision_order()]

    def _decision_order(self) -> list:
        """This hand's bot explanations in the order of the action log."""
        out: list = []
        it = {b.seat: iter(b.hand_explanations) for b in self.bots}
        for line in self.log.lines:
            if line.seat is not None and line.verb != "posts" and line.seat in it:
                e = next(it[line.seat], None)
                if e is not None:
                    out.append(e)
        for b in self.bots:  # a decision whose action is not yet in the log
            out.extend(e for e in b.hand_explanations if e not in out)
        return out

    def snapshot(self) -> dict[str, Any]:
        """Everything the page shows, JSON-ready (module docstring for what is hidden).

        Raises:
            SessionBusy: another call has held the session for :data:`LOCK_WAIT` seconds.
        """
        with self._locked():
            st = self.state
            n = self.n
            pos = position_names(n, _button(st))
            over = st.is_terminal
            shown = st.shown_cards() if over else {}
            me = self.human_seat
            seats = []
            for s in range(n):
                cards = None
                if s == me:
                    cards = format_cards(st.hole_cards(s))
                elif s in shown:
                    cards = format_cards(shown[s])
                seats.append(
                    {
                        "seat": s + 1,
                        "name": self.names[s],
                        "human": s == me,
                        "position": pos[s],
                        "button": s == _button(st),
                        "folded": bool(st.folded[s]),
                        "to_act": (not over) and st.current_player == s,
                        "round_in": self.log.round_in[s],
                        "hand_in": self.log.hand_in[s],
                        "session": self.chips[s],
                        "cards": cards,
                        "spec": None if s == me else self.specs[s - 1],
                    }
                )
            legal: list[dict[str, Any]] = []
            if not over and st.current_player == me:
                tc = st.to_call(me)
                bs = st.bet_size
                for a in st.legal_actions():
                    word = action_word(a, tc, st.bets_this_round)
                    if a is Action.FOLD:
                        label = "Fold"
                    elif a is Action.CALL:
                        label = "Check" if tc == 0 else f"Call {tc:g}"
                    else:
                        label = f"Bet {bs:g}" if st.bets_this_round == 0 else f"Raise to {st.max_bet + bs:g}"
                    legal.append({"action": a.char, "word": word, "label": label})
            log = []
            for line in self.log.lines:
                who, seat = (None, None) if line.seat is None else (self.names[line.seat], line.seat + 1)
                log.append({"street": line.street, "seat": seat, "who": who, "verb": line.verb, "text": line.text})
            hs = max(self.hands_done, 1)
            sb = self.config.small_bet
            out: dict[str, Any] = {
                "id": self.id,
                "hand": self.hands_done + (0 if over else 1),
                "hands_done": self.hands_done,
                "n_players": n,
                "button": _button(st) + 1,
                "blinds": [self.config.small_blind, self.config.big_blind],
                "limits": [self.config.small_bet, self.config.big_bet],
                "street": st.street_name,
                "board": format_cards(st.board),
                "pot": float(st.pot),
                "to_call": float(st.to_call(me)) if not over else 0.0,
                "seats": seats,
                "legal": legal,
                "log": log,
                "hand_over": over,
                "teaching": self.teaching,
                "result": self.history[-1] if over and self.history else None,
                "session": {
                    "hands": self.hands_done,
                    "chips": list(self.chips),  # a copy: a kept snapshot does not follow later hands
                    "sb_per_hand": [x / sb / hs if self.hands_done else 0.0 for x in self.chips],
                },
                "phh": str(self.phh_path) if self.phh_path else None,
                "save_error": self.save_error,
                "bot_errors": list(self.bot_errors),
                "bot_error_count": self.bot_error_count,
            }
            if over:
                out["explanations"] = out["result"]["explanations"] if out["result"] else []
            elif self.teaching:
                out["explanations"] = self.hand_explanations()
            else:
                out["explanations"] = []
            if over and out["result"] is not None:
                out["result"] = {k: v for k, v in out["result"].items() if k != "explanations"}
            return out

    def past_hand(self, number: int) -> dict[str, Any]:
        """The summary and explanations of finished hand ``number`` (1-based).

        Raises:
            ConfigError: no such hand kept (only the last :data:`HISTORY_KEEP` are).
            SessionBusy: another call has held the session for :data:`LOCK_WAIT` seconds.
        """
        with self._locked():
            for h in self.history:
                if h["hand"] == number:
                    return h
            raise ConfigError(
                f"hand {number}: not among the finished hands kept "
                f"({', '.join(str(h['hand']) for h in self.history) or 'none yet'})"
            )

    def phh_text(self) -> str:
        """The finished hands as PHH text (``.phhs``).

        Raises:
            SessionBusy: another call has held the session for :data:`LOCK_WAIT` seconds.
        """
        from loki.io.phh import phhs_text

        with self._locked():
            if not self._texts:
                return ""
            return phhs_text(self._texts)
