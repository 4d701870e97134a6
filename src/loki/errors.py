"""One error family for loki: every error loki raises on purpose is a :class:`LokiError`.

Catch :class:`LokiError` to handle anything loki reports about bad input; catch a subclass for one
kind of problem.  Each subclass also derives from the built-in exception callers relied on before
(``ValueError`` for bad values, ``OSError`` for files that cannot be written), so ``except
ValueError`` keeps working.  Messages are one line that names the input and what was expected.

=========================  ==========================================================  ============
class                      raised for                                                  also a
=========================  ==========================================================  ============
:class:`CardError`         malformed, out-of-range or duplicate cards                  ValueError
:class:`IllegalActionError`  an action that is not legal in the current hand state      ValueError
:class:`RangeError`        weight tables / ranges: wrong shape, negative or NaN        ValueError
:class:`ConfigError`       any configuration: game rules, player specs, tournaments    ValueError
:class:`PlayerSpecError`   a player spec or player config that cannot be built         ConfigError
:class:`TournamentConfigError`  a tournament TOML file or preset that cannot be run    ConfigError
:class:`ProtocolError`     ACPC protocol messages that do not parse or do not fit      ValueError
:class:`PeerError`         a network peer that times out, disconnects or floods        ProtocolError
:class:`HandHistoryError`  hand histories (PHH, ACPC logs) that do not parse or replay ValueError
:class:`JournalError`      a tournament journal that is corrupt or does not match      TournamentConfigError
:class:`OutputPathError`   an output path that cannot be written                        OSError, ValueError
:class:`InputError`        any other argument that is not what a function expects:     ValueError
                           out of range, wrong shape, inconsistent with the state, ValueError
:class:`EstimatorError`    AIVAT: a hand or action distribution it cannot evaluate     ValueError
=========================  ==========================================================  ============

>>> from loki.cards import parse_card
>>> try:
...     parse_card("Xx")
... except LokiError as e:
...     print(type(e).__name__, isinstance(e, ValueError))
CardError True
"""

from __future__ import annotations

__all__ = [
    "LokiError",
    "CardError",
    "IllegalActionError",
    "RangeError",
    "ConfigError",
    "PlayerSpecError",
    "TournamentConfigError",
    "ProtocolError",
    "PeerError",
    "HandHistoryError",
    "JournalError",
    "OutputPathError",
    "InputError",
    "EstimatorError",
    "tagged",
]


class LokiError(Exception):
    """Base class of every error loki raises on purpose (bad input, bad configuration, bad peers)."""


class CardError(LokiError, ValueError):
    """Malformed, out-of-range (not 0..51) or duplicate cards; the message quotes the input."""


class IllegalActionError(LokiError, ValueError):
    """An action that is not legal in the current state (the state is left unchanged).

    Attributes: ``seat`` (the player to act, or None if nobody is), ``action`` (what was tried),
    ``legal`` (tuple of legal :class:`loki.engine.Action`).
    """

    def __init__(self, message: str, seat: int | None = None, action: object = None, legal: tuple = ()):
        super().__init__(message)
        self.seat = seat
        self.action = action
        self.legal = legal


class RangeError(LokiError, ValueError):
    """A weight table or range that is not a ``(1326,)`` array of finite non-negative weights, or has
    no live weight where one is needed."""


class ConfigError(LokiError, ValueError):
    """A configuration value out of range or of the wrong type (game rules, thresholds, options)."""


class PlayerSpecError(ConfigError):
    """A player spec (``loki2:BRS:LA``) or player configuration table that cannot be built; the
    message names the spec and the offending part."""


class TournamentConfigError(ConfigError):
    """A tournament configuration that cannot be run (one line naming the file and the problem)."""


class ProtocolError(LokiError, ValueError):
    """An ACPC protocol message that does not parse or does not fit the game."""


class PeerError(ProtocolError):
    """A network peer (an ACPC dealer or a seat) that did not answer in time, closed the connection or
    sent a line longer than allowed; the message names the peer (:mod:`loki.io.netlines`)."""


class HandHistoryError(LokiError, ValueError):
    """A hand history (PHH file, ACPC log) that does not parse or does not replay on the engine."""


class JournalError(TournamentConfigError):
    """A tournament journal that is corrupt or belongs to another run (names the file and line)."""


class OutputPathError(LokiError, OSError, ValueError):
    """An output path (results folder, log, plot, hand histories) that cannot be written.

    Also a ``ValueError``: the output-path checks raised ``ValueError`` before the error family, and
    callers catch it."""


class InputError(LokiError, ValueError):
    """Any other argument that is not what a function expects (out of range, wrong shape, inconsistent with the
    state, asked too early: e.g. payoffs before the hand is over); the message names the argument."""


class EstimatorError(LokiError, ValueError):
    """A hand the AIVAT estimator cannot evaluate (:mod:`loki.aivat`): a player's reported action
    distribution that is not a distribution over the legal actions giving mass to the action taken, a
    hand that is not finished, or recorded decisions that do not match the hand's actions."""


def tagged(option: str, exc: BaseException) -> LokiError:
    """``exc`` as a :class:`~loki.errors.LokiError` of the same class when possible, its message
    prefixed by the command-line ``option`` it came from (``"--player: unknown player type ..."``).

    >>> from loki.errors import PlayerSpecError
    >>> e = tagged("--player", PlayerSpecError("unknown player type 'x'"))
    >>> type(e).__name__, str(e)
    ('PlayerSpecError', "--player: unknown player type 'x'")
    """
    message = f"{option}: {' '.join(str(exc).split())}"
    if isinstance(exc, LokiError):
        try:
            return type(exc)(message)
        except TypeError:  # a subclass with a richer constructor
            pass
    return ConfigError(message)
