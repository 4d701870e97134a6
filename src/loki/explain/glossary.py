"""The terms loki prints, defined once: hand strength and potential, the Bettor's thresholds, the players' statistics.

``loki explain --legend`` prints :data:`GLOSSARY`; docs/GLOSSARY.md is :func:`glossary_markdown` (a test keeps the two
the same).  Sources: PAPP98 (Papp's thesis), AAAI99, PENA99, and the usual poker-tracker statistics.

>>> GLOSSARY["HS_n"].split(":")[0]
'Hand strength against n opponents'
"""

from __future__ import annotations

__all__ = ["GLOSSARY", "glossary_lines", "glossary_markdown"]

#: term -> definition (one sentence or two; units and the source in parentheses).
GLOSSARY: dict[str, str] = {
    "HS": "Hand strength: the probability that our hand is ahead of one opponent's holding now, each holding weighted "
    "by that opponent's weight table (PAPP98 papp/node40).",
    "HS_n": "Hand strength against n opponents: HS to the power n, the chance to be ahead of all of them (PAPP98).",
    "PPot": "Positive potential: the probability that our hand, behind now, is ahead after the next card (PPot1; "
    "PPot2 deals the turn and river together) (PAPP98 papp/node40).",
    "NPot": "Negative potential: the probability that our hand, ahead now, is behind after the next card (NPot1; "
    "NPot2 the turn and river) (PAPP98 papp/node40).",
    "EHS": "Effective hand strength: HS_n x (1 - NPot) + (1 - HS_n) x PPot, the chance to end ahead (PAPP98 papp/node40).",
    "EHS'": "The optimistic EHS, NPot taken as 0: HS_n + (1 - HS_n) x PPot; the Bettor compares it with make1 and make2 "
    "(PAPP98 Eq. 6.4, papp/node76).",
    "make1, make2": "The Bettor's thresholds on EHS': at make1 (0.50) a hand is worth a bet or a call, at make2 "
    "(0.85) a raise (PAPP98 papp/node76); Loki-2's Triple Generator ramps its triples around them.",
    "probability triple": "[fold, call, raise] probabilities the Triple Generator gives a hand in a spot (AAAI99 §3).",
    "sb/hand": "Small bets won per hand (a limit game's small bet is the pre-flop and flop bet): the unit of results.",
    "± 95%": "Half-width of the 95 % interval of sb/hand, the deal the unit of sampling (duplicate: every deal played "
    "in every seating); 'significant' when the interval excludes 0.",
    "VPIP": "Voluntarily put money in pot: % of hands where the player called or raised before the flop (blinds do "
    "not count).",
    "PFR": "Pre-flop raise: % of hands where the player raised before the flop.",
    "AF": "Aggression factor: post-flop bets and raises per call (no unit; checks are not calls).",
    "WTSD": "Went to showdown: % of the flops a player saw that it took to a showdown.",
    "W$SD": "Won money at showdown: % of its showdowns the player won (a split pot counts as a win).",
    "collapse %": "% of an opponent model's re-weightings that left every possible holding at the weight floor (0.01): "
    "the model has learned nothing there (target 0).",
}


def glossary_lines(width: int = 80) -> list[str]:
    """The glossary as plain lines, ``TERM: definition`` wrapped at ``width`` columns with the continuation indented
    (what ``loki explain --legend`` prints)."""
    import textwrap

    out: list[str] = []
    for term, text in GLOSSARY.items():
        out += textwrap.wrap(f"{term}: {text}", width=max(width, 20), subsequent_indent="    ")
    return out


def glossary_markdown() -> str:
    """docs/GLOSSARY.md: a heading, a line on where the terms appear, and a table of :data:`GLOSSARY`."""
    rows = [
        "# Glossary",
        "",
        "<!-- generated from loki.explain.glossary (loki explain --legend prints the same); a test checks it -->",
        "",
        "The terms `loki explain`, `loki web`, `loki tournament` and the documents use.",
        "",
        "| term | definition |",
        "|---|---|",
    ]
    rows += [f"| {term} | {text} |" for term, text in GLOSSARY.items()]
    return "\n".join(rows) + "\n"
