"""The state of a Salem game: the fields the rules read and write (the engine adds its own: each
seat's `role`, the observation `obs`, the legal mask, the strategy slots, the trace cursor and
every tally; see simulator.games.engine).

Only the kernel and the rules see the state; a strategy sees the observation built from it
(observation.py). The public record (who is alive, the cards in front of each player, the
accusations, the tryal rows with what is revealed, the discard pile, the event log) is kept in
the observation itself: the rules update it once for everybody, and a decision only writes the
deciding seat's private part. The accessors below read and write those pieces by name.

Tryal cards are physical cards with an id (0..dealt-1): `tryal_kind[id]`, `tryal_up[id]` (face
up) and `tryal_known[id]` (a bit per seat that knows the kind of the face-down card). Each seat's
row lists the ids in front of it (`row[seat, slot]`, `row_len[seat]`): tryals are never removed
from the game, so their number is conserved. Playing cards are interchangeable within a kind:
hands and the discard pile are counts by kind; the draw deck is a sequence (`pile[0]` is its
bottom, `pile[pile_size - 1]` its top).
"""

import numpy as np

from simulator.games.base import Field
from simulator.games.engine import inlined

from .declaration import (
    EVENTS, MAX_DECK, MAX_PLAYERS, MAX_TRYAL_CARDS, MAX_TRYALS, N_CARDS, N_CHARACTERS, N_FRONT,
    N_TRYAL_KINDS, OBS,
)

_P, _T = MAX_PLAYERS, MAX_TRYALS
i8 = np.int64

FIELDS = (
    # --- the setup (written once per run by params.setup; the engine adds the knobs declared
    # `state=True` in params.KEYS) ---
    Field("deck_counts", i8, (N_CARDS,), "playing cards of each kind in the game"),
    Field("tryal_counts", i8, (N_TRYAL_KINDS,), "tryal cards of each kind dealt"),
    Field("tryals_each", i8, (), "tryals each player is dealt"),
    Field("char_pool", i8, (N_CHARACTERS,), "the characters that may be dealt"),
    Field("pool_size", i8, (), "characters in the pool"),
    Field("draft", i8, (), "1: each player is dealt 2 characters and keeps 1"),
    # --- seats ---
    Field("character", i8, (_P,), "each seat's character"),
    Field("ever_witch", i8, (_P,), "1 if the seat ever held a Witch tryal (the witch team)"),
    Field("hand", i8, (_P, N_CARDS), "each seat's hand by card kind"),
    Field("known_team", i8, (_P, _P), "what seat v knows of seat s's team: -1, 0 town, 1 witch"),
    Field("known_witch", i8, (_P, _P), "face-down Witch tryals seat v knows seat s holds"),
    # --- tryal cards ---
    Field("n_tryals", i8, (), "tryal cards dealt"),
    Field("tryal_kind", i8, (MAX_TRYAL_CARDS,), "each tryal card's kind"),
    Field("tryal_up", i8, (MAX_TRYAL_CARDS,), "1 once the tryal card is face up"),
    Field("tryal_known", i8, (MAX_TRYAL_CARDS,), "bit v: seat v knows this face-down tryal"),
    Field("row", i8, (_P, _T), "the tryal ids in front of each seat, by slot"),
    Field("row_len", i8, (_P,), "tryals in front of each seat"),
    # --- playing cards ---
    Field("pile", i8, (MAX_DECK,), "the draw deck, bottom first (Night at pile[0])"),
    Field("pile_size", i8, (), "cards in the draw deck"),
    # --- the turn and the night ---
    Field("outcome", i8, (), "the end condition once the game is over, else -1"),
    Field("turn_seat", i8, (), "the player whose turn it is"),
    Field("turn_over", i8, (), "1 once a Night ended the current turn"),
    Field("night_victim", i8, (), "tonight's victim, -1"),
    Field("night_guard", i8, (), "whom the constable protects tonight, -1"),
    Field("confessing", i8, (_P,), "dawn: each seat's secret choice (slot, PHIPS or STOP)"),
    Field("confessed", i8, (_P,), "1 if the seat confessed at this dawn"),
    Field("ann_pending", i8, (_P,), "reveals Ann Putnam's ability still owes draws for"),
    Field("first_cat", i8, (), "the seat the witches gave the Black Cat on the first night"),
    Field("first_cat_team", i8, (), "its team then"),
    Field("converted", i8, (_P,), "1 if the seat was converted by the Conspiracy being resolved"),
    Field("phase", i8, (), "PHASE of the deaths being resolved (names how the witches won)"),
    Field("game_events", i8, (len(EVENTS),), "this game's event counts (per-game tallies)"),
    Field("played", i8, (), "cards played this turn"),
    # --- scratch ---
    Field("scratch", i8, (MAX_DECK,), "scratch: cards being shuffled or arranged"),
    Field("scratch2", i8, (MAX_DECK,), "scratch: more cards"),
    Field("seats", i8, (_P,), "scratch: seats"),
    Field("votes", i8, (_P,), "scratch: votes received"),
    Field("takes", i8, (_P,), "scratch: the tryal each seat takes at a Conspiracy"),
    Field("take_slots", i8, (_P,), "scratch: the giver's slot of the tryal each seat takes"),
    Field("spoils", i8, (N_CARDS,), "the cards being chosen from (Proctor, Tituba, the draft)"),
    Field("picks", i8, (MAX_DECK,), "Tituba's picks, top first"),
    Field("dying", i8, (_P,), "scratch: players dying together"),
)


# --- the public record, kept in the observation -----------------------------------------------
@inlined
def alive(st):
    """1 if the seat is alive."""
    return st.obs[OBS.alive:OBS.alive + _P]


@inlined
def hand_size(st):
    return st.obs[OBS.hand_size:OBS.hand_size + _P]


@inlined
def accusations(st):
    """Accusations in front of each seat (kept by rules.recount)."""
    return st.obs[OBS.accusations:OBS.accusations + _P]


@inlined
def face_down(st):
    return st.obs[OBS.face_down:OBS.face_down + _P]


@inlined
def team_shown(st):
    return st.obs[OBS.team_shown:OBS.team_shown + _P]


@inlined
def discard(st):
    """The discard pile by card kind."""
    return st.obs[OBS.discard:OBS.discard + N_CARDS]


@inlined
def front(st, seat, kind):
    """Cards of `kind` in front of `seat`."""
    return st.obs[OBS.front + seat * N_FRONT + kind]


@inlined
def set_front(st, seat, kind, count):
    st.obs[OBS.front + seat * N_FRONT + kind] = count


@inlined
def add_front(st, seat, kind, delta):
    st.obs[OBS.front + seat * N_FRONT + kind] += delta


@inlined
def revealed(st, seat, kind):
    """Revealed tryals of `kind` in front of `seat`."""
    return st.obs[OBS.revealed + seat * N_TRYAL_KINDS + kind]


@inlined
def parris_left(st):
    return st.obs[OBS.parris_left:OBS.parris_left + _P]


@inlined
def tituba_left(st):
    return st.obs[OBS.tituba_left:OBS.tituba_left + _P]


@inlined
def phips_left(st):
    return st.obs[OBS.phips_left:OBS.phips_left + _P]
