"""Players: the :class:`Player` protocol and the reference players."""

from loki.players.base import Player
from loki.players.simple import CallingStation, RandomPlayer

__all__ = ["Player", "RandomPlayer", "CallingStation"]
