"""What a seat may see, and what it may do: the only bridge from the state to a strategy.

The public record (feathers, the scroll board, the altars as everyone sees them, the votes, the
claims) is kept in the observation itself by the rules (rules.publish_*). The observer writes the
deciding seat's private part: its hand card, the factions it knows, the ranks of the cards it knows,
and, for a jester, what lies under each scroll and which of Prolong Life / Requiem was kept. It
overwrites every private entry in use, so nothing of one seat's view is left for the next.
"""

import numpy as np

from simulator.games.engine import allow, clear_legal, compiled, inlined

from .declaration import (
    FACTION_SILENT, JESTER, MAX_ALTAR, MAX_PLAYERS, MAX_SCROLLS, N_TILES, OBS, PASS,
    REPLACED_SCYTHES, SCROLL, SILENT, UNKNOWN,
)
from .rules import knows_card, knows_faction, scrolls_left
from .state import scroll_state


# --- the observation ------------------------------------------------------------------------------
def init_observation(st) -> None:
    """The run's constants (params.setup writes the setup fields first); everything of a game
    unknown (-1) or empty."""
    obs = st.obs
    obs[:] = UNKNOWN
    for piece in (OBS.judged, OBS.rituals, OBS.news, OBS.turn):
        obs[piece] = 0
    obs[OBS.altar_size:OBS.altar_size + 2] = 0
    obs[OBS.feathers:OBS.feathers + MAX_PLAYERS] = 0


@compiled
def observe(st, me, context):
    """The private part of seat `me`'s observation. `context` is (placing, effect, peeked): the
    scheme being placed at night, the effect a caster is resolving and the seat whose faction it
    saw (else -1)."""
    placing, effect, peeked = context
    obs = st.obs
    n = st.players
    obs[OBS.placing] = placing
    obs[OBS.effect] = effect
    obs[OBS.peeked] = peeked
    hand = st.hand[me]
    obs[OBS.hand] = st.deck_rank[hand] if hand >= 0 else UNKNOWN
    for s in range(n):
        obs[OBS.known_faction + s] = st.role[s] if knows_faction(st, me, s) else UNKNOWN
    for altar in range(2):
        for i in range(st.altar_n[altar]):
            card = st.altar[altar, i]
            obs[OBS.altar_known + altar * MAX_ALTAR + i] = \
                st.deck_rank[card] if knows_card(st, me, card) else UNKNOWN
    card = st.sacrifice
    obs[OBS.sac_known] = st.deck_rank[card] if card >= 0 and knows_card(st, me, card) \
        else UNKNOWN
    jester = st.role[me] == JESTER
    for p in range(st.n_scrolls):
        obs[OBS.scroll_known + p] = st.scroll_item[p] \
            if jester and scroll_state(st)[p] != SCROLL.flipped else UNKNOWN
    obs[OBS.kept] = st.kept if jester else UNKNOWN


# --- legal masks ----------------------------------------------------------------------------------
@inlined
def legal_range(st, count):
    """Actions 0..count-1."""
    clear_legal(st)
    for a in range(count):
        allow(st, a)


@inlined
def legal_scythes(st, may_pass):
    """place_scheme: every position still holding a scythe (and PASS when allowed)."""
    clear_legal(st)
    for p in range(st.n_scrolls):
        if 0 <= st.scroll_item[p] < N_TILES:
            allow(st, p)
    if may_pass:
        allow(st, PASS)


@inlined
def legal_offer(st, seat):
    """Play (if the seat holds a card) or remove a scroll (if one is left)."""
    clear_legal(st)
    if st.hand[seat] >= 0:
        allow(st, 0)
    if scrolls_left(st) > 0:
        allow(st, 1)


@inlined
def legal_scrolls(st):
    """Every scroll still on the board."""
    clear_legal(st)
    for p in range(st.n_scrolls):
        if scroll_state(st)[p] == SCROLL.present:
            allow(st, p)


@inlined
def legal_ranks(st):
    """A claimed rank 0..R-1, or SILENT."""
    clear_legal(st)
    for r in range(st.n_ranks):
        allow(st, r)
    allow(st, SILENT)


@inlined
def legal_seats(st, exclude):
    """Every seat but `exclude` (-1: every seat)."""
    clear_legal(st)
    for s in range(st.players):
        if s != exclude:
            allow(st, s)


@inlined
def legal_brink(st):
    """Every pair of adjacent cards on either altar: altar * MAX_ALTAR + i."""
    clear_legal(st)
    for altar in range(2):
        for i in range(st.altar_n[altar] - 1):
            allow(st, altar * MAX_ALTAR + i)


@inlined
def legal_report_faction(st):
    clear_legal(st)
    allow(st, 0)
    allow(st, 1)
    allow(st, FACTION_SILENT)


# --- no peeking -----------------------------------------------------------------------------------
def scramble_hidden(st, me, rng) -> None:
    """Replace every fact of the state that seat `me` cannot know by another possibility (the
    contract suite poisons the observation's private pieces itself, then checks that `me`'s
    observation does not change; it runs on a copy of the state, interpreted).

    The ranks of the cards `me` does not know are shuffled among those cards (the other hands, the
    draw pile, face-down altar cards it has not seen); an exile's unknown factions are shuffled
    among the seats it has not seen; an exile's unflipped scrolls are shuffled among their
    positions (a scythe performs the tile above its new position; with the replaced scythes
    shown, among the positions under the same tile) and which of Prolong Life /
    Requiem was kept is drawn anew while neither has been shown; the other seats' knowledge and the
    ballots not yet counted are made up."""
    n = int(st.players)
    unknown_cards = [c for c in range(int(st.deck_size)) if not (int(st.knows[me]) >> c) & 1]
    ranks = rng.permutation(np.asarray([st.deck_rank[c] for c in unknown_cards], dtype=np.int64))
    for c, rank in zip(unknown_cards, ranks):
        st.deck_rank[c] = rank
    if st.role[me] != JESTER:
        seats = [s for s in range(n) if not (int(st.faction_known[me]) >> s) & 1]
        roles = rng.permutation(np.asarray([st.role[s] for s in seats], dtype=np.int64))
        for s, role in zip(seats, roles):
            st.role[s] = role
        hidden = [p for p in range(int(st.n_scrolls))
                  if st.obs[OBS.scroll_state + p] != SCROLL.flipped]
        # with the replaced scythes shown, a scheme stays among the positions of its tile
        groups = [[p for p in hidden if st.setup_tile[p] == tile] for tile in range(N_TILES)] \
            if st.replaced_scythes == REPLACED_SCYTHES.shown else [hidden]
        for group in groups:
            labels = rng.permutation(np.asarray(
                [st.scroll_item[p] if st.scroll_item[p] >= N_TILES else -1 for p in group],
                dtype=np.int64))
            for p, label in zip(group, labels):
                st.scroll_item[p] = label if label >= 0 else st.setup_tile[p]
        from .declaration import ITEM
        shown = [st.obs[OBS.scroll_shown + p] for p in range(MAX_SCROLLS)]
        if st.kept >= 0 and ITEM.prolong not in shown and ITEM.requiem not in shown:
            kept = ITEM.prolong if rng.random() < 0.5 else ITEM.requiem
            for p in hidden:
                if st.scroll_item[p] in (ITEM.prolong, ITEM.requiem):
                    st.scroll_item[p] = kept
            st.kept = kept
    full = (1 << n) - 1
    for s in range(n):
        if s != me:
            st.knows[s] = int(rng.integers(0, 1 << 62))
            st.faction_known[s] = int(rng.integers(0, full + 1))
            st.ballot[s] = int(rng.integers(0, 2))
