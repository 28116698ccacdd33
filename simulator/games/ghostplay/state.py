"""The state of a Ghost Play game: the fields the rules read and write. The engine adds its own
(each seat's `role`, the observation, the legal mask, the strategy slots, the trace cursor and
every tally; see simulator/games/engine.py).

Taoist cards of one type are interchangeable, so a hand is a count per type. Ghost-deck cards are
card ids (positions in the config's deck, copies expanded), each with its attributes in the
`g_*` tables. The public part of the game (spirit power, hand sizes, ghosts in play, points, the
exorcism under way and its log) is also written into the observation by the rules that change
it, once for everybody; observers only write a seat's private part.
"""

import numpy as np

from simulator.games.base import Field

from .declaration import MAX_GHOST_CARDS, MAX_KING_CARDS, MAX_PLAYERS, MAX_REWARD, MAX_TAOIST, \
    MAX_TYPES

_P, _G, _T = MAX_PLAYERS, MAX_GHOST_CARDS, MAX_TYPES
i8 = np.int64

FIELDS = (
    # --- the setup (params.setup, once per run; the engine adds the knobs declared `state=True`
    # in params.KEYS) ---
    Field("identity_deck", i8, (_P,), "the identities dealt (the draft's table for the count)"),
    Field("n_types", i8, (), "Taoist card types"),
    Field("type_colour", i8, (_T,), "each type's colour"),
    Field("type_value", i8, (_T,), "each type's vote value"),
    Field("type_play", i8, (_T,), "each type's use in the day (PLAY)"),
    Field("type_effect", i8, (_T,), "each type's effect (EFFECT)"),
    Field("type_amount", i8, (_T,), "each type's effect amount"),
    Field("type_count", i8, (_T,), "cards of each type in the deck"),
    Field("taoist_size", i8, (), "Taoist cards in the deck"),
    Field("ghost_size", i8, (), "ghost-deck cards"),
    Field("g_kind", i8, (_G,), "each card's kind (KIND)"),
    Field("g_colour", i8, (_G,), "a ghost's colour (-1 for an event)"),
    Field("g_requirement", i8, (_G,), "a ghost's requirement"),
    Field("g_points", i8, (_G,), "a ghost's points"),
    Field("g_possess", i8, (_G,), "a ghost's possession rule (POSSESS)"),
    Field("g_reward", i8, (_G, MAX_REWARD), "a ghost's reward by participants (1..8)"),
    Field("g_pool", i8, (_G,), "a ghost's pool (rules.reward = \"pool\")"),
    Field("g_effect", i8, (_G,), "an event's effect (EVENT)"),
    Field("g_amount", i8, (_G,), "an event's amount"),
    Field("king_cards", i8, (), "ghost-king cards"),
    Field("king_seal", i8, (MAX_KING_CARDS,), "each ghost-king card's seal value"),
    # --- identities ---
    Field("former", i8, (_P,), "each seat's dealt identity (the ghost king's before it rose)"),
    Field("known", i8, (_P, _P), "[v, s]: the identity seat v knows seat s to have, or -1"),
    Field("king", i8, (), "the ghost king's seat, or -1"),
    Field("seal_lives", i8, (), "lives that break the seal this game"),
    Field("lives", i8, (), "the ghost king's lives"),
    Field("seal_broken", i8, (), "1 once the seal broke"),
    # --- Taoist cards ---
    Field("pile", i8, (MAX_TAOIST,), "the draw pile, one type code per card (top: the end)"),
    Field("pile_size", i8, (), "cards in the draw pile"),
    Field("discard", i8, (_T,), "the discard pile by type"),
    Field("discard_size", i8, (), "cards in the discard pile"),
    Field("spent", i8, (_T,), "other cards played this turn, by type: in front of their players "
                              "until the turn ends, then discarded"),
    Field("spent_size", i8, (), "other cards played this turn"),
    Field("hand", i8, (_P, _T), "each seat's hand by type"),
    Field("colours", i8, (_P, 2), "each seat's hand by colour"),
    Field("hand_size", i8, (_P,), "cards in each seat's hand"),
    Field("spirit", i8, (_P,), "each seat's spirit power"),
    Field("artifact", i8, (_P,), "the artifact type in front of each seat, or -1"),
    # --- ghosts ---
    Field("ghost_order", i8, (_G,), "the ghost deck, shuffled: card ids, top first"),
    Field("ghost_next", i8, (), "cards revealed so far"),
    Field("card_state", i8, (_G,), "what became of each card (CARD_STATE)"),
    Field("slot_card", i8, (_G,), "the card of each ghost in play, in arrival order"),
    Field("slot_target", i8, (_G,), "the seat each ghost in play possesses"),
    Field("in_play", i8, (), "ghosts in play"),
    Field("possessed", i8, (_P,), "ghosts possessing each seat"),
    Field("points", i8, (_P,), "ghost points in front of each seat"),
    # --- this turn, for the rise of the ghost king ---
    Field("reached_three", i8, (_P,),
          "1: an arrival this turn brought the seat to 3 or more ghosts"),
    Field("cleared", i8, (_P,), "1: a ghost of the seat was dispelled this turn"),
    Field("seventh_card", i8, (), "the card of this turn's 7th ghost, or -1"),
    Field("seventh_gone", i8, (), "1: that 7th ghost was dispelled this turn"),
    Field("arrivals", i8, (), "ghosts that possessed a player this game"),
    # --- the exorcism under way ---
    Field("ex_seq", i8, (), "exorcisms and summonings so far this game"),
    Field("vote_cards", i8, (_P, _T), "each voter's cards on the table, by type"),
    Field("vote_positive", i8, (_P,), "each voter's positive cards"),
    Field("vote_negative", i8, (_P,), "each voter's negative cards"),
    Field("positive_value", i8, (_P,), "their vote value"),
    Field("negative_value", i8, (_P,), "their vote value"),
    Field("on_table", i8, (_P,), "1: the voter's cards are on the table (not yet discarded)"),
    Field("shown", i8, (_P,), "-1 not challenged, 0 showed only positive, 1 had a negative"),
    # --- per seat this game, for the tallies ---
    Field("hosted", i8, (_P,), "exorcisms each seat hosted"),
    Field("dispelled", i8, (_P,), "ghosts each seat dispelled as host"),
    Field("rise_turn", i8, (), "the turn a ghost king rose, or 0"),
    # --- the caps (declaration.CAPS; params.turn_cap, params.decision_cap) ---
    Field("turn_cap", i8, (), "the most turns a game can last"),
    Field("decision_cap", i8, (), "the most decisions one turn can ask"),
    Field("turn_decisions", i8, (), "decisions asked this turn"),
    # --- what the trace has not told yet (kernel.trace_draws) ---
    Field("drawn", i8, (_P, _T), "cards of each type each seat drew since the last trace"),
    Field("reshuffled", i8, (), "reshuffles since the last trace"),
    # --- scratch ---
    Field("order", i8, (_P,), "scratch: seats in an order"),
)
