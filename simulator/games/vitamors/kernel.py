"""The Vita Mors Conspiro kernel: one game, reading top to bottom like the rulebook.

    deal -> jesters' night (keep Prolong Life / Requiem, place the schemes) ->
    turns: offer (play, or remove a scroll) -> announce -> spells -> judgement -> altar ->
           ritual vote (once an altar is full enough) -> ... -> the ritual, or the card limit

Every rule lives in rules.py; every decision goes through the engine's `ask`, which hands the
seat's strategy its observation (observation.observe) and legal mask only, and takes a decision
with a single legal action without asking. Announcements and reports (public claims) are asked
only of strategies that talk.
"""

from simulator.games.engine import (
    ask, compiled, event, finish_team_game, first_player, kernel, play_games, talks, tracing,
    uniform_index,
)

from .declaration import (
    DECISION, EFFECT, END, EV, EXILE, FACTION_SILENT, ITEM, JESTER, MAX_ALTAR, MAX_LENGTH, N_ITEMS,
    N_TILES, OBS, OFFER, PACKED, PASS, PROPOSAL, SILENT, SPELLS, STARTING_PLAYER, SWAP, TEAM, TR,
    UNKNOWN,
)
from .observation import (
    legal_brink, legal_offer, legal_range, legal_ranks, legal_report_faction, legal_scrolls,
    legal_scythes, legal_seats, observe,
)
from .rules import (
    announce, can_swap_adjacent, change_limit, change_needed, deal, exchange_sacrifice, flip,
    initiator, judgement_result, limit_reached, night_leader, offer_card, place, place_scheme,
    publish_votes, remove_scroll, report_faction, report_rank, ritual_due, ritual_outcome,
    ritual_patterns, scrolls_left, see_faction, see_sacrifice, swap_adjacent, yes_votes,
)
from .state import feathers

PLAIN = (UNKNOWN, UNKNOWN, UNKNOWN)  # the observer's context outside the night and the spells


@compiled
def altars_code(st, altar, radix):
    """An altar's ranks as trace digits (rank + 1; 0 ends the row), the first card lowest."""
    code = 0
    for i in range(st.altar_n[altar] - 1, -1, -1):
        code = code * radix + st.deck_rank[st.altar[altar, i]] + 1
    return code


@compiled
def trace_altars(st, seat):
    if tracing(st):
        event(st, TR.altars, st.altar_n[0], st.altar_n[1],
              altars_code(st, 0, PACKED.altars.life), altars_code(st, 1, PACKED.altars.death))


# --- the jesters' night ---------------------------------------------------------------------------
@compiled
def jesters_night(st, start, rng):
    """The jesters open their eyes (rules.deal gave them their knowledge); in expert mode they keep
    one of Prolong Life / Requiem; then every scheme of the setup replaces a scythe at a position
    of their choice (rules.jesters_swap "choose": or stays aside). The first jester in turn order
    from the starting player speaks for them."""
    leader = night_leader(st, start)
    st.night_leader = leader
    event(st, TR.night, leader, UNKNOWN, st.jester_count, 0)
    prolong = st.scheme_count[ITEM.prolong - N_TILES]
    requiem = st.scheme_count[ITEM.requiem - N_TILES]
    kept = UNKNOWN
    if prolong > 0 and requiem > 0:
        legal_range(st, 2)
        choice = ask(st, leader, DECISION.keep_scheme, rng, observe, PLAIN)
        kept = ITEM.prolong if choice == 0 else ITEM.requiem
        event(st, TR.keep, leader, UNKNOWN, kept, ITEM.requiem if choice == 0 else ITEM.prolong)
    elif prolong > 0:
        kept = ITEM.prolong
    elif requiem > 0:
        kept = ITEM.requiem
    st.kept = kept
    for item in range(N_TILES, N_ITEMS):
        if (item == ITEM.prolong or item == ITEM.requiem) and item != kept:
            continue
        for _ in range(st.scheme_count[item - N_TILES]):
            legal_scythes(st, st.jesters_swap == SWAP.choose)
            position = ask(st, leader, DECISION.place_scheme, rng, observe, (item, UNKNOWN, UNKNOWN))
            if position == PASS:
                event(st, TR.scheme, leader, UNKNOWN, item, UNKNOWN)
            else:
                tile = st.scroll_item[position]
                place_scheme(st, position, item)
                event(st, TR.scheme, leader, position, item, tile)


# --- spells ---------------------------------------------------------------------------------------
@compiled
def resolve(st, item, caster, sacrificer, rng):
    """The flipped item performs its effect through the caster. Returns True when the card has
    left the sacrifice area (veil)."""
    st.events[EV.spell_gaze + item] += 1
    st.spells_cast[EV.spell_gaze + item] += 1
    st.game_spells[item] += 1
    if st.role[caster] == EXILE:
        st.game_exile_spells[item] += 1
    effect = st.effect_of[item]
    event(st, TR.flip, caster, UNKNOWN, item, effect)
    context = (UNKNOWN, effect, UNKNOWN)
    if effect == EFFECT.see_sacrifice:
        rank = see_sacrifice(st, caster)
        if st.claim[st.sacrifice] >= 0 and st.claim[st.sacrifice] != rank:
            st.events[EV.gaze_exposed] += 1
        event(st, TR.gaze, caster, sacrificer, rank, 0)
        if talks(st, caster):
            legal_ranks(st)
            said = ask(st, caster, DECISION.report_rank, rng, observe, context)
            report_rank(st, caster, said)
            if said != SILENT:
                event(st, TR.report_rank, caster, sacrificer, said, rank)
    elif effect == EFFECT.see_faction:
        legal_seats(st, caster)
        target = ask(st, caster, DECISION.peek_target, rng, observe, context)
        faction = see_faction(st, caster, target)
        if faction == JESTER:
            st.events[EV.peek_found_jester] += 1
        event(st, TR.peek, caster, target, faction, 0)
        if talks(st, caster):
            legal_report_faction(st)
            said = ask(st, caster, DECISION.report_faction, rng, observe,
                       (UNKNOWN, effect, target))
            report_faction(st, caster, target, said)
            if said != FACTION_SILENT:
                event(st, TR.report_faction, caster, target, said, faction)
    elif effect == EFFECT.swap_adjacent:
        if can_swap_adjacent(st):
            legal_brink(st)
            pair = ask(st, caster, DECISION.brink_swap, rng, observe, context)
            altar = pair // MAX_ALTAR
            swap_adjacent(st, altar, pair % MAX_ALTAR)
            event(st, TR.brink, caster, altar, pair % MAX_ALTAR, 1)
            trace_altars(st, caster)
        else:
            event(st, TR.brink, caster, UNKNOWN, UNKNOWN, 0)
    elif effect == EFFECT.veil:
        legal_range(st, 2)
        altar = ask(st, caster, DECISION.veil_altar, rng, observe, context)
        rank = st.deck_rank[st.sacrifice]
        place(st, altar)
        st.events[EV.veiled] += 1
        event(st, TR.veil, caster, altar, rank, 0)
        return True
    elif effect == EFFECT.exchange_sacrifice:
        old = st.deck_rank[st.sacrifice]
        if exchange_sacrifice(st):
            st.events[EV.exchanged] += 1
            event(st, TR.exchange, caster, sacrificer, st.deck_rank[st.sacrifice], old)
        else:
            event(st, TR.exchange, caster, sacrificer, UNKNOWN, old)
    elif effect == EFFECT.card_limit:
        event(st, TR.limit, caster, UNKNOWN, change_limit(st, st.card_limit_step),
              st.card_limit_step)
    elif effect == EFFECT.ritual_votes:
        event(st, TR.needed, caster, UNKNOWN, change_needed(st, st.ritual_votes_step),
              st.ritual_votes_step)
    return False


@compiled
def spells(st, sacrificer, rng):
    """Once a card is played, each player with a feather, in turn order from the sacrificer, may
    propose a spell: discard the feather, name a scroll and a caster, who flips it
    (`rules.spells_per_card = "one"`: the first spell cast ends the proposals). Returns True
    when a veil placed the card (no judgement, no further spell)."""
    n = st.players
    for k in range(n):
        seat = (sacrificer + k) % n
        if feathers(st)[seat] == 0 or scrolls_left(st) == 0:
            continue
        legal_range(st, 2)
        if ask(st, seat, DECISION.propose, rng, observe, PLAIN) != PROPOSAL.propose:
            event(st, TR.decline, seat, UNKNOWN, 0, 0)
            continue
        feathers(st)[seat] = 0
        legal_scrolls(st)
        position = ask(st, seat, DECISION.spell_scroll, rng, observe, PLAIN)
        legal_seats(st, UNKNOWN)
        caster = ask(st, seat, DECISION.spell_caster, rng, observe, PLAIN)
        event(st, TR.propose, seat, caster, position, st.setup_tile[position])
        item = flip(st, position)
        if resolve(st, item, caster, sacrificer, rng):
            return True
        if st.spells_per_card == SPELLS.one:
            return False
    return False


# --- judgement and the ritual ---------------------------------------------------------------------
@compiled
def judgement(st, sacrificer, rng):
    """Everyone votes at once, life (0) or death (1); the majority decides, a tie follows the
    sacrificer's vote. Returns the altar."""
    n = st.players
    legal_range(st, 2)
    for s in range(n):
        st.ballot[s] = ask(st, s, DECISION.judgement, rng, observe, PLAIN)
    for s in range(n):
        event(st, TR.vote, s, UNKNOWN, st.ballot[s], 0)
    altar, tied = judgement_result(st, sacrificer)
    publish_votes(st, OBS.votes)
    st.obs[OBS.judged] += 1
    if tied:
        st.events[EV.judgement_ties] += 1
    event(st, TR.judged, sacrificer, UNKNOWN, altar, 1 if tied else 0)
    return altar


@compiled
def ritual(st, rng):
    """Everyone votes at once whether to start the ritual. With enough yes votes (2; 3 after
    Requiem) the game ends: the yes voters reveal their factions, the majority of them initiates
    (a tie: the exiles), the altars are revealed and the ritual succeeds or fails. Returns the end
    code, or -1 when the ritual is not started."""
    n = st.players
    legal_range(st, 2)
    for s in range(n):
        st.ballot[s] = ask(st, s, DECISION.ritual, rng, observe, PLAIN)
    for s in range(n):
        event(st, TR.ritual_vote, s, UNKNOWN, st.ballot[s], 0)
    publish_votes(st, OBS.ritual_votes)
    st.obs[OBS.rituals] += 1
    st.events[EV.ritual_votes] += 1
    yes = yes_votes(st)
    started = yes >= st.needed
    event(st, TR.ritual, yes, st.needed, 1 if started else 0, 0)
    if not started:
        return -1
    st.ritual_yes_hist[min(yes, st.ritual_yes_hist.size - 1)] += 1
    team = initiator(st)
    for s in range(n):
        if st.ballot[s] == 1:
            event(st, TR.reveal, s, UNKNOWN, st.role[s], 0)
    life, death = ritual_patterns(st)
    if life:
        st.events[EV.life_pattern] += 1
    if death:
        st.events[EV.death_pattern] += 1
    event(st, TR.pattern, team, UNKNOWN, 1 if life else 0, 1 if death else 0)
    winner, end = ritual_outcome(life or death, team)
    return end


# --- the turn -------------------------------------------------------------------------------------
@compiled
def play_turn(st, turn, seat, rng):
    """One sacrificer's turn. Returns the end code, or -1 while the game goes on."""
    st.clock = turn
    st.sacrificer = seat
    st.obs[OBS.turn] = turn
    st.obs[OBS.sacrificer] = seat
    event(st, TR.turn, seat, UNKNOWN, turn, 0)
    legal_offer(st, seat)
    if st.legal_count == 0:  # no card and no scroll (a config the params refuse): nothing to do
        return -1
    if scrolls_left(st) == 0:
        st.events[EV.forced_offers] += 1
    if ask(st, seat, DECISION.offer, rng, observe, PLAIN) == OFFER.remove:
        legal_scrolls(st)
        position = ask(st, seat, DECISION.remove_scroll, rng, observe, PLAIN)
        remove_scroll(st, position)
        st.events[EV.scrolls_removed] += 1
        event(st, TR.remove, seat, position, st.scroll_item[position], st.setup_tile[position])
        trace_altars(st, seat)
        return -1
    card = offer_card(st, seat)
    rank = st.deck_rank[card]
    st.events[EV.cards_played] += 1
    event(st, TR.play, seat, UNKNOWN, rank, 0)
    hand = st.hand[seat]
    event(st, TR.draw, seat, UNKNOWN, st.deck_rank[hand] if hand >= 0 else UNKNOWN, 0)
    if talks(st, seat):
        legal_ranks(st)
        said = ask(st, seat, DECISION.announce, rng, observe, PLAIN)
        announce(st, seat, said)
        if said != SILENT:
            if said != rank:
                st.events[EV.false_announcements] += 1
            event(st, TR.announce, seat, UNKNOWN, said, rank)
    if not spells(st, seat, rng):
        place(st, judgement(st, seat, rng))
    trace_altars(st, seat)
    if ritual_due(st):
        end = ritual(st, rng)
        if end >= 0:
            return end
    if limit_reached(st):
        return END.card_limit
    return -1


@compiled
def winner_of(end):
    if end == END.success_exiles or end == END.failure_jesters:
        return TEAM.exiles
    return TEAM.jesters


@compiled
def tally_game(st, winner):
    """The game's own tallies of a finished game."""
    st.life_cards_hist[min(st.altar_n[0], st.life_cards_hist.size - 1)] += 1
    st.death_cards_hist[min(st.altar_n[1], st.death_cards_hist.size - 1)] += 1
    for item in range(N_ITEMS):
        st.spell_exile_casters[EV.spell_gaze + item] += st.game_exile_spells[item]
        if winner == TEAM.exiles:
            st.spell_exile_wins[EV.spell_gaze + item] += st.game_spells[item]


@compiled
def play_game(st, rng):
    """One game: the deal, the starting player, the jesters' night, then turns until the ritual
    or the card limit ends it."""
    n = st.players
    deal(st, rng)
    fixed = st.starting_player == STARTING_PLAYER.seat_0
    start = 0 if fixed else uniform_index(n, rng)
    st.start = start
    first_player(st, start)
    event(st, TR.setup, n, st.jester_count, st.mode, st.limit)
    for s in range(n):
        event(st, TR.deal, s, UNKNOWN, st.role[s], st.deck_rank[st.hand[s]])
    event(st, TR.start, start, UNKNOWN, st.starting_player, 0)
    jesters_night(st, start, rng)
    seat = start
    turn = 0
    end = -1
    while end < 0:
        turn += 1
        end = play_turn(st, turn, seat, rng)
        if end < 0 and turn >= MAX_LENGTH:  # unreachable: each turn removes a scroll or places
            end = END.card_limit            # a card, and the params bound both
        if end < 0:
            event(st, TR.passes, seat, (seat + 1) % n, 0, 0)
        seat = (seat + 1) % n
    winner = winner_of(end)
    tally_game(st, winner)
    finish_team_game(st, winner, end, turn)
    event(st, TR.winner, UNKNOWN, UNKNOWN, winner, end)


@kernel
def play(st, games, rng):
    """Play `games` complete games and add their outcomes into the state's tallies."""
    return play_games(st, games, rng)
