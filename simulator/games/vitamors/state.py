"""The state of a Vita Mors Conspiro game: the fields the rules read and write (the engine adds its
own: each seat's `role` (its faction), the observation `obs`, the legal mask, the tallies).

Character cards are numbered 0..deck_size-1 (card ids); `deck_rank[id]` is a card's rank. What a
seat knows of the cards is a bit mask over card ids (`knows`), of the factions a bit mask over
seats (`faction_known`). Public claims and reports are kept per card, so they travel with the card
(a brink swap moves them along). The public record (feathers, the scroll board, the altars as
everyone sees them, the votes, the claims) lives in the observation itself: the rules update it
once for everybody (`publish`), and an observer only writes the deciding seat's private part.
"""

import numpy as np

from simulator.games.base import Field
from simulator.games.engine import inlined

from .declaration import (
    MAX_ALTAR, MAX_DECK, MAX_PLAYERS, MAX_SCROLLS, N_ITEMS, N_SCHEMES, OBS,
)

_P, _S, _D = MAX_PLAYERS, MAX_SCROLLS, MAX_DECK
i8 = np.int64

FIELDS = (
    # --- the setup (written once per run by params.setup; the engine adds the knobs declared
    # `state=True` in params.KEYS) ---
    Field("factions", i8, (_P,), "the faction cards dealt each game (role codes)"),
    Field("jester_count", i8, (), "jesters dealt"),
    Field("n_ranks", i8, (), "ranks in the character deck"),
    Field("deck_size", i8, (), "character cards in the deck"),
    Field("deck_rank", i8, (_D,), "the rank of each card id"),
    Field("n_scrolls", i8, (), "scroll positions of the setup"),
    Field("setup_tile", i8, (_S,), "the tile (item 0..2) above each scroll position"),
    Field("scheme_count", i8, (N_SCHEMES,), "schemes of each kind set aside for the jesters"),
    Field("effect_of", i8, (N_ITEMS,), "the effect each item performs (EFFECTS code)"),
    # --- a game ---
    Field("start", i8, (), "the starting player"),
    Field("night_leader", i8, (), "the jester who speaks for the jesters at night"),
    Field("sacrificer", i8, (), "the seat holding the Reaper"),
    Field("pile", i8, (_D,), "the draw pile, card ids, from `top` on"),
    Field("top", i8, (), "index of the draw pile's top card in `pile`"),
    Field("hand", i8, (_P,), "each seat's hand card (card id), -1 none"),
    Field("altar", i8, (2, MAX_ALTAR), "card ids on each altar, in order of arrival"),
    Field("altar_n", i8, (2,), "cards on each altar"),
    Field("sacrifice", i8, (), "the card id in the sacrifice area, -1 when empty"),
    Field("scroll_item", i8, (_S,), "what each scroll performs: its tile's item if it is a "
                                    "scythe, else its scheme's item"),
    Field("knows", i8, (_P,), "bit c: the seat knows the rank of card c"),
    Field("faction_known", i8, (_P,), "bit s: the seat knows seat s's faction"),
    Field("card_by", i8, (_D,), "the seat that offered the card, -1"),
    Field("claim", i8, (_D,), "the rank announced for the card by its sacrificer, -1"),
    Field("claimer", i8, (_D,), "who announced it, -1"),
    Field("report", i8, (_D,), "the rank a see-sacrifice caster reported for the card, -1"),
    Field("reporter", i8, (_D,), "who reported it, -1"),
    Field("limit", i8, (), "the card limit now"),
    Field("needed", i8, (), "yes votes the ritual needs now"),
    Field("kept", i8, (), "the scheme kept of prolong / requiem (item), -1"),
    Field("ballot", i8, (_P,), "this vote's ballots (secret until all are in)"),
    Field("game_spells", i8, (N_ITEMS,), "spells of this game, by the item flipped"),
    Field("game_exile_spells", i8, (N_ITEMS,), "of those, cast by an exile"),
    Field("ranks_scratch", i8, (MAX_ALTAR,), "scratch: an altar's ranks"),
)


# --- the public record, kept in the observation --------------------------------------------------
@inlined
def feathers(st):
    """1 if the seat still has its feather (public)."""
    return st.obs[OBS.feathers:OBS.feathers + MAX_PLAYERS]


@inlined
def scroll_state(st):
    """Each scroll position's SCROLL code (public)."""
    return st.obs[OBS.scroll_state:OBS.scroll_state + MAX_SCROLLS]


@inlined
def scroll_shown(st):
    """The item each flipped scroll showed (public), -1 otherwise."""
    return st.obs[OBS.scroll_shown:OBS.scroll_shown + MAX_SCROLLS]
