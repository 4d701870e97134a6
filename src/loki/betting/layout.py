"""The layout of a betting state vector: index constants and the status, action, legality and error codes.

See the :mod:`loki.betting` docstring for what each entry means.  The constants are module globals,
so numba compiles them into the kernels as constants.  (No imports here: ``from loki.betting.layout
import *`` brings in exactly the constants.)
"""

NMAX = 10

# header: the game, set at the start of the hand
N = 0
BUTTON = 1
SB_SEAT = 2
BB_SEAT = 3
SMALL_BLIND = 4
BIG_BLIND = 5
BET_SIZE = 6  # 4 entries, one per round
CAP = 10  # 4 entries, one per round
UNLIMITED = 14
SPLIT = 15
# registers
ROUND = 16
CUR = 17
STATUS = 18
POT = 19
DEAD = 20
MAX_BET = 21
N_RAISES = 22
RAISE_AMT = 23
SHORT = 24
N_IN = 25
N_ACTIONS = 26
BETS = 27
# the last action: LAST + L_*
LAST = 28
L_SEAT = 0
L_ACTION = 1
L_AMOUNT = 2
L_ALL_IN = 3
L_TO_CALL = 4
L_POT = 5
L_BETS = 6
L_N_IN = 7
L_VOLUNTARY = 8
L_ROUND = 9
LAST_SIZE = 10
HEADER = LAST + LAST_SIZE
# per-seat blocks
BET = HEADER
TOTAL = BET + NMAX
STACK = TOTAL + NMAX
FOLDED = STACK + NMAX
ALL_IN = FOLDED + NMAX
NEED = ALL_IN + NMAX
PK_ACTED = NEED + NMAX
ACTED = PK_ACTED + NMAX
VOLUNTARY = ACTED + NMAX
RAISED = VOLUNTARY + NMAX
RAISED_LAST = RAISED + NMAX
SIZE = RAISED_LAST + NMAX

# STATUS values
BETTING = 0
FOLDED_OUT = 1
SHOWDOWN = 2
# actions (the values of loki.engine.Action)
FOLD_A = 0
CALL_A = 1
RAISE_A = 2
# legal_mask bits
CAN_FOLD = 1
CAN_CALL = 2
CAN_RAISE = 4
# apply_action error codes (negative; the state is unchanged)
ERR_OVER = -1
ERR_CAPPED = -2
ERR_NO_RAISE = -3
ERR_FREE_FOLD = -4
# apply_action / start_betting result bits (>= 0)
ROUND_ENDED = 1
HAND_ENDED = 2
# apply_action_noting's extra result bit: the seat could bet/raise before its action
COULD_RAISE = 4
