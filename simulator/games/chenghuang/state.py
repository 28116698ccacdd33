"""The state of a Chenghuang game: the fields the rules read and write (the engine adds its own:
each seat's `role`, the observation `obs`, the legal mask, the strategy slots, the trace cursor and
every tally; see simulator.games.engine).

Only the kernel and the rule functions see the state; a strategy sees the observation built from
it (observation.py). Cards of one kind are interchangeable, so a holding is a count per kind
(`held`). Before the reveal the table layout also keeps one slot per laid-out card, to know which
face-down card each seat has seen (`slot_*`); after the reveal every card is public and only
`held` matters. Sizes use the game's maxima (6 players, the largest deck a config may ask for),
so the state, and the kernel, are the same for every setup.
"""

import numpy as np

from simulator.games.base import Field

from .declaration import MAX_DECK, MAX_PLAYERS, MAX_SLOTS, N_KINDS, N_ROLES, TABLE

_P, _K = MAX_PLAYERS, N_KINDS
i8 = np.int64

FIELDS = (
    # --- the setup (written once per run by params.setup) ---
    Field("deck", i8, (MAX_DECK,), "the deck, one kind code per card (kept shuffled from round to "
                                   "round)"),
    Field("deck_size", i8, (), "cards in the deck"),
    Field("pool", i8, (N_ROLES,), "the role pool dealt from each round (kept shuffled)"),
    Field("pool_size", i8, (), "roles in the pool"),
    Field("table", i8, (TABLE.size,), "the scoring table (declaration.TABLE)"),
    Field("deck_counts", i8, (_K,), "cards of each kind in the deck"),
    # --- the round's scalars ---
    Field("current_round", i8, (), "the round being played, from 1"),
    Field("captain", i8, (), "this round's captain"),
    Field("judge_kind", i8, (), "the kind 武判 named this round, or -1"),
    Field("voted", i8, (), "1 once every ballot of the vote is in"),
    Field("accused", i8, (), "the accused seat, or -1"),
    Field("admitted", i8, (), "-1 not yet decided, 0 denied, 1 admitted"),
    Field("highest", i8, (), "after a denial: 1 if the accused really had the top score, else 0; "
                             "-1 before"),
    Field("revealed", i8, (), "1 once every card on the table is face up"),
    Field("thief", i8, (), "the seat that steals this round, or -1"),
    # --- cards ---
    Field("held", i8, (_P, _K), "cards each seat holds, by (effective) kind"),
    Field("packs", i8, (_P, _K), "draft packs, by the seat they were dealt to"),
    Field("pile", i8, (_K,), "the discard pile"),
    Field("pile_known", i8, (_P, _K), "pile cards each seat knows of"),
    # --- the layout, card by card, and the counts kept from it ---
    Field("slot_kind", i8, (_P, MAX_SLOTS), "layout: kind of each laid-out card"),
    Field("slot_up", i8, (_P, MAX_SLOTS), "layout: 1 face up"),
    Field("slot_public", i8, (_P, MAX_SLOTS), "layout: 1 if its kind is public while face down"),
    Field("slot_seen", i8, (_P, MAX_SLOTS), "layout: bit v set if seat v has looked at it"),
    Field("n_slots", i8, (_P,), "layout: cards laid out"),
    Field("pub_count", i8, (_P, _K), "layout: cards of each kind anyone can name (face up or "
                                     "public), recounted from the slots after every change"),
    Field("peek_count", i8, (_P, _P, _K), "layout: [v, s, k] face-down cards of s of kind k that "
                                          "seat v has looked at (recounted likewise)"),
    Field("peeked", i8, (_P,), "layout: 1 if peek_count has entries for the seat"),
    Field("up_count", i8, (_P, _K), "layout: face-up cards of each kind (recounted likewise)"),
    Field("down_count", i8, (_P, _K), "layout: face-down cards of each kind (likewise)"),
    # --- vote and scores ---
    Field("votes", i8, (_P,), "votes received"),
    Field("showdown", i8, (_P,), "showdown scores (before 范將軍)"),
    Field("round_score", i8, (_P,), "points this round"),
    Field("totals", i8, (_P,), "total points"),
    Field("denied_right", i8, (_P,), "rounds each seat was accused, denied and proved not the "
                                     "highest"),
    # --- scratch ---
    Field("tied", i8, (_P,), "scratch: seats in a tie"),
    Field("up", i8, (_K,), "scratch: cards to lay face up"),
    Field("down", i8, (_K,), "scratch: cards laid face down"),
    Field("drawn", i8, (_K,), "scratch: the cards 甘將軍 drew"),
)
