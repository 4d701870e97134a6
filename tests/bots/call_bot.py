"""A tiny external ACPC bot for the tests (no loki import): ``python3 call_bot.py HOST PORT``.

It speaks ACPC protocol 2.0.0 for the bundled limit hold'em games (heads-up reverse blinds: position 1
acts first pre-flop; 3+ players: position 2 first pre-flop; position 0 first afterwards) and always
calls.  Whose turn it is comes from the betting string alone.
"""

import socket
import sys


def to_act(n: int, betting: str):
    """The position to act, or None when the hand is over."""
    first = [1 if n == 2 else 2, 0, 0, 0]
    folded: set[int] = set()
    rounds = betting.split("/")
    for r, seg in enumerate(rounds):
        actor = first[r] % n
        while actor in folded:
            actor = (actor + 1) % n
        pending = n - len(folded)
        for ch in seg:
            if ch == "f":
                folded.add(actor)
                pending -= 1
            elif ch == "c":
                pending -= 1
            else:
                pending = n - len(folded) - 1
            if n - len(folded) == 1:
                return None
            actor = (actor + 1) % n
            while actor in folded:
                actor = (actor + 1) % n
        if r == len(rounds) - 1:
            return None if pending <= 0 else actor
    return None


def main(host: str, port: int) -> None:
    s = socket.create_connection((host, port))
    s.sendall(b"VERSION:2.0.0\r\n")
    f = s.makefile("rb")
    for raw in f:
        line = raw.decode().rstrip("\r\n")
        if not line.startswith("MATCHSTATE:"):
            continue
        _, pos, _, betting, cards = line.split(":")
        n = cards.split("/")[0].count("|") + 1
        if to_act(n, betting) == int(pos):
            s.sendall((line + ":c\r\n").encode())
    s.close()


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
