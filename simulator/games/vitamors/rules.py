"""The rules of Vita Mors Conspiro: one small compiled function per rule, each tested on hand-built
positions (tests/test_vitamors_rules.py); the kernel only composes them.

Seats are numbered in turn order: the Reaper passes from seat s to seat s + 1 (mod n), "to the
right". Randomness only through the engine's draws (shuffle, uniform_index).
"""

from simulator.games.engine import inlined, shuffle

from .declaration import (
    ALTAR, END, EXILE, JESTER, MAX_ALTAR, N_TILES, OBS, REMOVED_SCROLL, REPLACED_SCYTHES,
    RITUAL_VOTE, SCROLL, SILENT, TEAM, UNKNOWN,
)
from .state import feathers, scroll_shown, scroll_state


# --- setup --------------------------------------------------------------------------------------
@inlined
def bit(index):
    """The mask with one bit set."""
    return 1 << index


@inlined
def knows_card(st, seat, card):
    return (st.knows[seat] >> card) & 1 == 1


@inlined
def knows_faction(st, seat, other):
    return (st.faction_known[seat] >> other) & 1 == 1


@inlined
def draw(st, seat):
    """The seat takes the draw pile's top card into its hand (none when the pile is empty)."""
    if st.top < st.deck_size:
        card = st.pile[st.top]
        st.top += 1
        st.hand[seat] = card
        st.knows[seat] |= bit(card)
    else:
        st.hand[seat] = UNKNOWN


@inlined
def deal(st, rng):
    """Shuffle the faction cards into the seats and the character cards into a draw pile; each
    seat draws one card. The jesters then open their eyes: they know each other and each other's
    starting cards. Everything on the table is reset."""
    n = st.players
    for s in range(n):
        st.role[s] = st.factions[s]
    shuffle(st.role, n, rng)
    for c in range(st.deck_size):
        st.pile[c] = c
        st.card_by[c] = UNKNOWN
        st.claim[c] = UNKNOWN
        st.claimer[c] = UNKNOWN
        st.report[c] = UNKNOWN
        st.reporter[c] = UNKNOWN
    shuffle(st.pile, st.deck_size, rng)
    st.top = 0
    for s in range(n):
        st.knows[s] = 0
        st.faction_known[s] = bit(s)
        draw(st, s)
    jester_cards = 0
    for s in range(n):
        if st.role[s] == JESTER:
            jester_cards |= bit(st.hand[s])
    everyone = bit(n) - 1
    for s in range(n):
        if st.role[s] == JESTER:
            st.faction_known[s] = everyone
            st.knows[s] |= jester_cards
    reset_table(st)


@inlined
def reset_table(st):
    """Empty altars and sacrifice area, every scroll of the setup present and showing its tile
    (a scythe), every feather in hand, the limits at their start values, no public claim."""
    n = st.players
    obs = st.obs
    st.altar_n[0] = 0
    st.altar_n[1] = 0
    st.sacrifice = UNKNOWN
    st.limit = st.card_limit
    st.needed = st.ritual_votes
    st.kept = UNKNOWN
    for item in range(st.game_spells.size):
        st.game_spells[item] = 0
        st.game_exile_spells[item] = 0
    for p in range(st.scroll_item.size):
        if p < st.n_scrolls:
            st.scroll_item[p] = st.setup_tile[p]
            scroll_state(st)[p] = SCROLL.present
        else:
            st.scroll_item[p] = UNKNOWN
            scroll_state(st)[p] = SCROLL.unused
        scroll_shown(st)[p] = UNKNOWN
    for s in range(n):
        feathers(st)[s] = 1
        st.ballot[s] = UNKNOWN
        obs[OBS.votes + s] = UNKNOWN
        obs[OBS.ritual_votes + s] = UNKNOWN
        obs[OBS.faction_claim + s] = UNKNOWN
        obs[OBS.faction_claimer + s] = UNKNOWN
    for i in range(2 * MAX_ALTAR):
        obs[OBS.altar_by + i] = UNKNOWN
        obs[OBS.altar_claim + i] = UNKNOWN
        obs[OBS.altar_claimer + i] = UNKNOWN
        obs[OBS.altar_report + i] = UNKNOWN
        obs[OBS.altar_reporter + i] = UNKNOWN
    obs[OBS.altar_size] = 0
    obs[OBS.altar_size + 1] = 0
    obs[OBS.judged] = 0
    obs[OBS.rituals] = 0
    obs[OBS.news] = 0
    obs[OBS.turn] = 0
    obs[OBS.card_limit] = st.limit
    obs[OBS.yes_needed] = st.needed
    shown = st.replaced_scythes == REPLACED_SCYTHES.shown
    for tile in range(N_TILES):
        obs[OBS.replaced + tile] = 0 if shown else UNKNOWN
    publish_sacrifice(st)


# --- the jesters' night ---------------------------------------------------------------------------
@inlined
def night_leader(st, start):
    """The jester who speaks for the jesters: the first one in turn order from the start player."""
    n = st.players
    for k in range(n):
        seat = (start + k) % n
        if st.role[seat] == JESTER:
            return seat
    return UNKNOWN


@inlined
def place_scheme(st, position, item):
    """A scheme replaces the scythe at `position`; the scythe leaves the game, unseen
    (`rules.replaced_scythes = "shown"`: set aside face up, so the table counts the scythes taken
    from under each tile, not from which position)."""
    st.scroll_item[position] = item
    if st.replaced_scythes == REPLACED_SCYTHES.shown:
        st.obs[OBS.replaced + st.setup_tile[position]] += 1
        st.obs[OBS.news] += 1


# --- the offer ------------------------------------------------------------------------------------
@inlined
def scrolls_left(st):
    """Scrolls still on the board."""
    count = 0
    for p in range(st.n_scrolls):
        if scroll_state(st)[p] == SCROLL.present:
            count += 1
    return count


@inlined
def remove_scroll(st, position):
    """The sacrificer does not offer: the scroll leaves the game unseen (`rules.removed_scroll =
    "shown"`: shown to everyone as it goes, like a flipped one)."""
    scroll_state(st)[position] = SCROLL.removed
    if st.removed_scroll == REMOVED_SCROLL.shown:
        scroll_shown(st)[position] = st.scroll_item[position]
    st.obs[OBS.news] += 1


@inlined
def offer_card(st, seat):
    """The sacrificer plays its hand card face down into the sacrifice area and draws a new one.
    Returns the card id."""
    card = st.hand[seat]
    st.sacrifice = card
    st.card_by[card] = seat
    st.claim[card] = UNKNOWN
    st.claimer[card] = UNKNOWN
    st.report[card] = UNKNOWN
    st.reporter[card] = UNKNOWN
    draw(st, seat)
    publish_sacrifice(st)
    return card


@inlined
def announce(st, seat, rank):
    """A public claim: the rank of the card in the sacrifice area (SILENT: no claim)."""
    if rank != SILENT:
        st.claim[st.sacrifice] = rank
        st.claimer[st.sacrifice] = seat
        publish_sacrifice(st)


# --- spells ---------------------------------------------------------------------------------------
@inlined
def flip(st, position):
    """The caster turns the named scroll over; it is discarded face up, so what it was is public.
    Returns the item it performs (its tile's for a scythe, its own for a scheme)."""
    item = st.scroll_item[position]
    scroll_state(st)[position] = SCROLL.flipped
    scroll_shown(st)[position] = item
    st.obs[OBS.news] += 1
    return item


@inlined
def see_sacrifice(st, caster):
    """The caster secretly looks at the card in the sacrifice area. Returns its rank."""
    st.knows[caster] |= bit(st.sacrifice)
    st.obs[OBS.news] += 1  # (public: everyone saw the scroll flipped)
    return st.deck_rank[st.sacrifice]


@inlined
def report_rank(st, caster, rank):
    """A public claim about the card the caster saw (SILENT: no claim)."""
    if rank != SILENT:
        st.report[st.sacrifice] = rank
        st.reporter[st.sacrifice] = caster
        publish_sacrifice(st)


@inlined
def see_faction(st, caster, target):
    """The caster secretly looks at the target's faction card. Returns it."""
    st.faction_known[caster] |= bit(target)
    st.obs[OBS.news] += 1  # (public: everyone saw the scroll flipped and the target named)
    return st.role[target]


@inlined
def report_faction(st, caster, target, faction):
    """A public claim about the faction the caster saw (2: no claim)."""
    if faction == EXILE or faction == JESTER:
        st.obs[OBS.faction_claim + target] = faction
        st.obs[OBS.faction_claimer + target] = caster
        st.obs[OBS.news] += 1


@inlined
def swap_adjacent(st, altar, i):
    """Cards i and i + 1 of the altar change places (their claims travel with them)."""
    card = st.altar[altar, i]
    st.altar[altar, i] = st.altar[altar, i + 1]
    st.altar[altar, i + 1] = card
    publish_altars(st)


@inlined
def can_swap_adjacent(st):
    return st.altar_n[0] >= 2 or st.altar_n[1] >= 2


@inlined
def exchange_sacrifice(st):
    """The card in the sacrifice area and the draw pile's top card change places, unseen.
    Returns False (nothing happens) when the pile is empty."""
    if st.top >= st.deck_size:
        return False
    old = st.sacrifice
    new = st.pile[st.top]
    st.pile[st.top] = old
    st.sacrifice = new
    st.card_by[new] = st.card_by[old]
    st.claim[new] = UNKNOWN
    st.claimer[new] = UNKNOWN
    st.report[new] = UNKNOWN
    st.reporter[new] = UNKNOWN
    publish_sacrifice(st)
    return True


@inlined
def change_limit(st, step):
    """The card limit moves by `step` for this game (kept between 1 and MAX_ALTAR)."""
    st.limit = min(max(st.limit + step, 1), MAX_ALTAR)
    st.obs[OBS.card_limit] = st.limit
    st.obs[OBS.news] += 1
    return st.limit


@inlined
def change_needed(st, step):
    """The yes votes the ritual needs move by `step` for this game (kept between 1 and the
    number of players)."""
    st.needed = min(max(st.needed + step, 1), st.players)
    st.obs[OBS.yes_needed] = st.needed
    st.obs[OBS.news] += 1
    return st.needed


# --- judgement and the altars ---------------------------------------------------------------------
@inlined
def judgement_result(st, sacrificer):
    """Majority of the ballots (0 life, 1 death); a tie follows the sacrificer's ballot.
    Returns (altar, tied)."""
    death = 0
    for s in range(st.players):
        death += st.ballot[s]
    life = st.players - death
    if death > life:
        return ALTAR.death, False
    if life > death:
        return ALTAR.life, False
    return st.ballot[sacrificer], True


@inlined
def publish_votes(st, piece):
    """The ballots become public (the votes are open once everyone has voted)."""
    for s in range(st.players):
        st.obs[piece + s] = st.ballot[s]
    st.obs[OBS.news] += 1


@inlined
def place(st, altar):
    """The card in the sacrifice area goes, face down, to the end of the altar's row."""
    st.altar[altar, st.altar_n[altar]] = st.sacrifice
    st.altar_n[altar] += 1
    st.sacrifice = UNKNOWN
    publish_altars(st)
    publish_sacrifice(st)


@inlined
def cards_on_altars(st):
    return st.altar_n[0] + st.altar_n[1]


@inlined
def ritual_due(st):
    """The Life Altar holds 3+ cards or the Death Altar 4+ (the setup's thresholds)."""
    return (st.altar_n[0] >= st.obs[OBS.life_cards]
            or st.altar_n[1] >= st.obs[OBS.death_cards])


@inlined
def limit_reached(st):
    """Both altars together hold the card limit (9; 10 with Prolong Life)."""
    return cards_on_altars(st) >= st.limit


# --- the ritual -----------------------------------------------------------------------------------
@inlined
def yes_votes(st):
    count = 0
    for s in range(st.players):
        if st.ballot[s] == RITUAL_VOTE.yes:
            count += 1
    return count


@inlined
def initiator(st):
    """The yes voters reveal their factions: the faction with more of them initiates the ritual;
    a tie goes to the exiles."""
    exiles = 0
    jesters = 0
    for s in range(st.players):
        if st.ballot[s] == RITUAL_VOTE.yes:
            if st.role[s] == JESTER:
                jesters += 1
            else:
                exiles += 1
    return TEAM.jesters if jesters > exiles else TEAM.exiles


@inlined
def life_pattern(ranks, count):
    """Three consecutive cards of the same rank."""
    for i in range(count - 2):
        if ranks[i] == ranks[i + 1] and ranks[i + 1] == ranks[i + 2]:
            return True
    return False


@inlined
def death_pattern(ranks, count):
    """Two separate pairs of consecutive cards of the same rank, the two ranks different. (Two
    pairs of different ranks cannot share a card, so any two such pairs are separate.)"""
    first = -1
    for i in range(count - 1):
        if ranks[i] == ranks[i + 1]:
            if first < 0:
                first = ranks[i]
            elif ranks[i] != first:
                return True
    return False


@inlined
def altar_ranks(st, altar):
    """The altar's ranks in order, in the scratch row; returns how many."""
    count = st.altar_n[altar]
    for i in range(count):
        st.ranks_scratch[i] = st.deck_rank[st.altar[altar, i]]
    return count


@inlined
def ritual_patterns(st):
    """All altar cards are revealed: (Life Altar pattern, Death Altar pattern)."""
    count = altar_ranks(st, ALTAR.life)
    life = life_pattern(st.ranks_scratch, count)
    count = altar_ranks(st, ALTAR.death)
    death = death_pattern(st.ranks_scratch, count)
    return life, death


@inlined
def ritual_outcome(success, team):
    """(winning team, end code): success, the initiator's faction wins; failure, the other."""
    if success:
        return team, END.success_exiles if team == TEAM.exiles else END.success_jesters
    return 1 - team, END.failure_exiles if team == TEAM.exiles else END.failure_jesters


# --- the public record ----------------------------------------------------------------------------
@inlined
def publish_sacrifice(st):
    """What everyone sees of the sacrifice area: who offered the card and the claims about it."""
    obs = st.obs
    card = st.sacrifice
    if card < 0:
        obs[OBS.sac_by] = UNKNOWN
        obs[OBS.sac_claim] = UNKNOWN
        obs[OBS.sac_claimer] = UNKNOWN
        obs[OBS.sac_report] = UNKNOWN
        obs[OBS.sac_reporter] = UNKNOWN
    else:
        obs[OBS.sac_by] = st.card_by[card]
        obs[OBS.sac_claim] = st.claim[card]
        obs[OBS.sac_claimer] = st.claimer[card]
        obs[OBS.sac_report] = st.report[card]
        obs[OBS.sac_reporter] = st.reporter[card]
    obs[OBS.news] += 1


@inlined
def publish_altars(st):
    """What everyone sees of the altars: the cards in order, who offered each and the claims."""
    obs = st.obs
    for altar in range(2):
        obs[OBS.altar_size + altar] = st.altar_n[altar]
        for i in range(st.altar_n[altar]):
            card = st.altar[altar, i]
            at = altar * MAX_ALTAR + i
            obs[OBS.altar_by + at] = st.card_by[card]
            obs[OBS.altar_claim + at] = st.claim[card]
            obs[OBS.altar_claimer + at] = st.claimer[card]
            obs[OBS.altar_report + at] = st.report[card]
            obs[OBS.altar_reporter + at] = st.reporter[card]
    obs[OBS.news] += 1
