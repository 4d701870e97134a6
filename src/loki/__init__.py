"""loki: a Python reimplementation of the University of Alberta's Loki-2 limit Texas Hold'em program.

Billings, Peña, Schaeffer, Szafron, "Using Probabilistic Knowledge and Simulation to Play Poker",
AAAI-99; Papp, "Dealing with Imperfect Information in Poker", MSc thesis, 1998; Peña,
"Probabilities and Simulations in Poker", MSc thesis, 1999.
"""

__version__ = "0.1.0"
