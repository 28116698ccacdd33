"""The Salem kernel: one game, reading top to bottom like the rulebook.

    deal (characters, tryals, 3 cards each, the deck) -> the first night (the witches see each
    other and place the Black Cat) -> turns clockwise from the Black Cat's holder: each player
    draws 2 cards or plays cards (trials at 7 accusations); drawing Conspiracy passes tryals to
    the right, drawing Night brings the night (kill, protection, dawn confessions, the
    reshuffle) -> until every Witch tryal is revealed (the town) or every living player is a
    witch (the witches)

Every rule lives in rules.py; every decision goes through the engine's `ask`, which hands the
seat's strategy its observation (observation.observe) and legal mask only. A compound turn is a
sequence of decisions (docs/rules/salem.md: how each is encoded): `turn` (draw or play), then
`play` (a card, or stop), `target` (and `second_target`, `curse`), a `reveal` when the card
causes a trial, and so on.
"""

from simulator.games.engine import (
    allow, ask, clear_legal, compiled, event, finish_game, first_player, kernel, play_games,
    shuffle_pairs, tracing, uniform_index,
)

from .declaration import (
    ABIGAIL_CLEAR, ALIBI_WITNESS, ANN_PUTNAM, CARD, CAT_CHOOSER, CAUSE, CHAR, CONSPIRACY, DECISION,
    DECK_VIEW, DRAW, END, EV, HAND_KINDS, LEARN, LOG, MAX_TURNS, MODE, NIGHT_OUTCOME, N_CARDS,
    N_FRONT, OBS, PACKED, PHASE, PHIPS, PLACE, PROCTOR, STOP, TOWN, TR, TRYAL, TURN, WITCH,
)
from .observation import (
    legal_blue, legal_confess, legal_kinds, legal_living, legal_parris, legal_play,
    legal_second, legal_slots, legal_target, legal_turn, observe,
)
from .rules import (
    add_front, add_hand, ann_putnam_draws, ann_putnam_earns, apply_alibi, arrange_top,
    black_cat_holder, bury, constable_seat, discard_card, discard_front, discard_hand, give_tryal,
    has_ability, immune_to_theft, is_blue, is_red, living_count, log_event, matchmaker_partner,
    move_front, move_hand, next_living, night_at_bottom, pick_face_down, pop_card, publish_row,
    recount, recount_all, red_value, remove_tryal, reset_public, reveal_kills, reveal_tryal,
    set_character, shuffle, threshold_of, town_knowledge_goes_stale, two_left_purge, victory,
    void_when_two_left, witches_wake,
)
from .state import accusations, alive, discard, front, hand_size, parris_left, phips_left, \
    tituba_left

PLAIN = (-1, -1, -1, MODE.plain)


# --- what the trace shows beyond the decisions (no effect on play) -------------------------
@compiled
def trace_deck(st, view):
    """The draw deck in its order, top first (trace only)."""
    if tracing(st):
        for i in range(st.pile_size):
            event(st, TR.deck, -1, i + 1, st.pile[st.pile_size - 1 - i], view)


@compiled
def trace_discards(st, seat, place, reds_only, voided_only):
    """The cards of `seat`'s hand or front about to go to the discard pile, kind by kind (trace
    only): all of them, its red cards, or what the two-player rule voids (blue cards; in a hand,
    Scapegoat and Robbery too). Returns the cards counted."""
    total = 0
    kinds = HAND_KINDS if place == PLACE.hand else N_FRONT
    for k in range(kinds):
        count = st.hand[seat, k] if place == PLACE.hand else front(st, seat, k)
        if count <= 0 or reds_only and not is_red(k):
            continue
        if voided_only and not (is_blue(k) or place == PLACE.hand
                                and (k == CARD.scapegoat or k == CARD.robbery)):
            continue
        total += count
        event(st, TR.discards, seat, place, k, count)
    return total


@compiled
def witches_see_each_other(st):
    """The living witches open their eyes together (the rules' witches_wake), traced as what
    they privately learn."""
    witches_wake(st)
    if tracing(st):
        witches = 0
        for s in range(st.players):
            if alive(st)[s] and st.ever_witch[s]:
                witches += PACKED.witch_team.witches ** s
        event(st, TR.witch_team, -1, -1, witches, 0)


@compiled
def decide(st, seat, kind, rng, context):
    """Every decision of the game: the engine's `ask` with the one observer (context: target,
    card, first target, MODE)."""
    return ask(st, seat, kind, rng, observe, context)


# --- deaths ---------------------------------------------------------------------------------------
@compiled
def proctor_takes(st, dead, rng):
    """John Proctor (and Martha Corey with his ability), clockwise from the dead player, take up
    to 3 cards each from the dead player's hand before it is discarded."""
    n = st.players
    for step in range(1, n):
        p = (dead + step) % n
        if not alive(st)[p] or not has_ability(st, p, CHAR.john_proctor):
            continue
        if hand_size(st)[dead] == 0:
            return
        if st.john_proctor == PROCTOR.choose:
            event(st, TR.learns, p, dead, hand_size(st)[dead], LEARN.dead_hand)
        for k in range(N_CARDS):  # the hand he looks through
            st.spoils[k] = st.hand[dead, k]
        for _ in range(3):
            left = 0
            for k in range(N_CARDS):
                left += st.spoils[k]
            if left == 0:
                break
            if st.john_proctor == PROCTOR.blind:
                pick = uniform_index(left, rng)
                kind = 0
                while pick >= st.spoils[kind]:
                    pick -= st.spoils[kind]
                    kind += 1
            else:
                legal_kinds(st, st.spoils, HAND_KINDS, True)
                kind = decide(st, p, DECISION.proctor, rng, (dead, -1, -1, MODE.choice))
                if kind == STOP:
                    event(st, TR.stop, p, -1, DECISION.proctor, 0)
                    break
            st.spoils[kind] -= 1
            add_hand(st, dead, kind, -1)
            add_hand(st, p, kind, 1)
            event(st, TR.proctor, p, dead, kind, 0)
        for k in range(N_CARDS):
            st.spoils[k] = 0


@compiled
def die(st, seat, cause, rng):
    """`seat` dies of `cause` (CAUSE), and with it its Matchmaker partner (unless Mary Warren):
    John Proctor takes his cards, the dead discard everything, reveal their tryals and announce
    their team. Then the two-player rule and the victory are checked."""
    dying = st.dying
    dying[0] = seat
    count = 1
    partner = matchmaker_partner(st, seat)
    if partner >= 0 and alive(st)[partner] and not has_ability(st, partner, CHAR.mary_warren):
        dying[1] = partner
        count = 2
    for i in range(count):  # the dead are out at once: abilities follow the living
        alive(st)[dying[i]] = 0
    for i in range(count):
        dead = dying[i]
        why = cause if i == 0 else CAUSE.matchmaker
        team = -1 if st.dead_silent else (WITCH if st.ever_witch[dead] else TOWN)
        event(st, TR.death, dead, why, team, 0)
        proctor_takes(st, dead, rng)
        if tracing(st):
            trace_discards(st, dead, PLACE.hand, False, False)
            trace_discards(st, dead, PLACE.front, False, False)
            hidden = 0
            for slot in range(st.row_len[dead]):
                tid = st.row[dead, slot]
                if not st.tryal_up[tid]:
                    hidden += 1
                    if not st.dead_silent:
                        event(st, TR.turned_up, dead, -1, st.tryal_kind[tid], slot)
            if st.dead_silent and hidden > 0:
                event(st, TR.silent_tryals, dead, -1, hidden, 0)
        bury(st, dead)
        st.game_events[EV.deaths] += 1
        if i > 0:
            st.game_events[EV.matchmaker_deaths] += 1
        log_event(st, LOG.death, dead, why, team)
    recount_all(st)  # Martha Corey's right may have changed
    if living_count(st) == 2 and st.obs[OBS.two_left] == 0:
        if tracing(st):
            event(st, TR.two_left, -1, -1, 0, 0)
            for s in range(st.players):
                trace_discards(st, s, PLACE.hand, False, True)
                trace_discards(st, s, PLACE.front, False, True)
        gone = two_left_purge(st)
        st.game_events[EV.two_left] += 1
    st.outcome = victory(st)


# --- drawing --------------------------------------------------------------------------------------
@compiled
def draw_card(st, seat, why, rng):
    """`seat` draws a card (why: DRAW). Night brings the night at once; Conspiracy is resolved at
    once and goes to the discard pile; with two players left a blue card, Scapegoat or Robbery
    is discarded and another drawn. Returns the kind drawn."""
    while True:
        kind = pop_card(st)
        event(st, TR.draw, seat, -1, kind, why)
        if kind == CARD.night:
            night(st, rng)
            return kind
        if kind == CARD.conspiracy:
            conspiracy(st, seat, rng)
            discard(st)[CARD.conspiracy] += 1
            return kind
        if void_when_two_left(st, kind):
            discard(st)[kind] += 1
            event(st, TR.discarded, seat, -1, kind, 0)
            continue
        add_hand(st, seat, kind, 1)
        return kind


@compiled
def draw_cards(st, seat, count, why, rng):
    """`seat` draws `count` cards (a black card counts as one unless the knob replaces it), as
    long as the game goes on and the seat lives. Returns the red cards drawn."""
    reds = 0
    got = 0
    while got < count:
        if st.outcome >= 0 or not alive(st)[seat]:
            break
        kind = draw_card(st, seat, why, rng)
        if kind == CARD.night and st.turn_over:
            break
        if kind >= CARD.night and st.black_draw_replaced:
            continue
        got += 1
        if is_red(kind):
            reds += 1
    return reds


# --- trials -------------------------------------------------------------------------------------
@compiled
def trial(st, placer, accused, rng):
    """The accusations in front of `accused` reached the threshold: `placer`, who placed the
    last, reveals one of its face-down tryals; a Witch or the last tryal kills; the accused's red
    cards are discarded. Then Abigail Williams may discard her own accusations, Ann Putnam earns
    her draws (by default only if the placer held her ability as it revealed: knob
    rules.ann_putnam_held) and Rebecca Nurse draws."""
    n = st.players
    st.game_events[EV.trials] += 1
    legal_slots(st, accused)
    slot = decide(st, placer, DECISION.reveal, rng, (accused, -1, -1, MODE.plain))
    # Ann Putnam's ability as the tryal is revealed (the death it causes may change Martha
    # Corey's right)
    held = has_ability(st, placer, CHAR.ann_putnam)
    kind = reveal_tryal(st, accused, slot)
    st.game_events[EV.reveals] += 1
    if kind == TRYAL.witch:
        st.game_events[EV.trial_witch] += 1
    elif kind == TRYAL.constable:
        st.game_events[EV.constable_revealed] += 1
    log_event(st, LOG.trial, placer, accused, kind)
    event(st, TR.trial, placer, accused, kind, slot)
    if reveal_kills(st, accused, kind):
        st.phase = PHASE.day
        die(st, accused, CAUSE.trial, rng)
    else:
        trace_discards(st, accused, PLACE.front, True, False)
        discard_front(st, accused, True)
        st.outcome = victory(st)
    if st.outcome >= 0:
        return
    if alive(st)[placer] and has_ability(st, placer, CHAR.abigail_williams) \
            and accusations(st)[placer] > 0:
        clear_legal(st)
        allow(st, 0)
        allow(st, ABIGAIL_CLEAR)
        choice = decide(st, placer, DECISION.abigail, rng, PLAIN)
        event(st, TR.abigail, placer, -1, choice, 0)
        if choice == ABIGAIL_CLEAR:
            trace_discards(st, placer, PLACE.front, True, False)
            discard_front(st, placer, True)
    if alive(st)[placer] and ann_putnam_earns(st, placer, held):
        if st.ann_putnam == ANN_PUTNAM.at_once:
            event(st, TR.ann_putnam, placer, -1, 2, 0)
            draw_cards(st, placer, 2, DRAW.ann_putnam, rng)
        else:
            st.ann_pending[placer] += 1
    for step in range(n):
        nurse = (placer + step) % n
        if st.outcome >= 0 or st.turn_over:  # a Night drawn here ended the turn: no more draws
            return
        if nurse != accused and alive(st)[nurse] and has_ability(st, nurse, CHAR.rebecca_nurse):
            draw_cards(st, nurse, 1, DRAW.rebecca_nurse, rng)


@compiled
def check_trial(st, placer, target, rng):
    """A trial when the accusations in front of `target` reach its threshold for `placer`."""
    if alive(st)[target] and accusations(st)[target] >= threshold_of(st, target, placer):
        trial(st, placer, target, rng)


# --- playing a card -----------------------------------------------------------------------------------
@compiled
def play_card(st, seat, card, rng):
    """`seat` plays `card` (ALIBI_WITNESS: an Alibi as a Witness): its target(s), then its
    effect."""
    legal_target(st, seat, CARD.alibi if card == ALIBI_WITNESS else card)
    target = decide(st, seat, DECISION.target, rng, (-1, card, -1, MODE.plain))
    second = -1
    if card == CARD.scapegoat or card == CARD.robbery:
        legal_second(st, seat, target)
        second = decide(st, seat, DECISION.second_target, rng, (-1, card, target,
                                                                      MODE.plain))
    elif card == CARD.curse:
        legal_blue(st, target)
        second = decide(st, seat, DECISION.curse, rng, (target, card, -1, MODE.plain))
    add_hand(st, seat, CARD.alibi if card == ALIBI_WITNESS else card, -1)
    st.played += 1
    st.game_events[EV.cards_played] += 1
    event(st, TR.play, seat, target, card, second)
    if is_red(card):
        add_front(st, target, card, 1)
        recount(st, target)
        log_event(st, LOG.accuse, seat, target, red_value(st, target, card))
        event(st, TR.accusations, target, seat, accusations(st)[target],
              threshold_of(st, target, seat))
        check_trial(st, seat, target, rng)
        return
    if card == CARD.alibi:
        accusation_cards = front(st, target, CARD.accusation)
        evidence_cards = front(st, target, CARD.evidence)
        removed = apply_alibi(st, target)
        event(st, TR.alibi_removed, target, seat,
              accusation_cards - front(st, target, CARD.accusation),
              evidence_cards - front(st, target, CARD.evidence))
        discard_card(st, card, 1)
        log_event(st, LOG.alibi, seat, target, removed)
        event(st, TR.accusations, target, seat, accusations(st)[target],
              threshold_of(st, target, seat))
    elif card == CARD.stocks:
        add_front(st, target, card, 1)
        log_event(st, LOG.stocks, seat, target, 0)
    elif card == CARD.arson:
        discard_card(st, card, 1)
        if immune_to_theft(st, target):
            event(st, TR.no_effect, seat, target, card, 0)
        else:
            trace_discards(st, target, PLACE.hand, False, False)
            log_event(st, LOG.arson, seat, target, discard_hand(st, target))
    elif card == CARD.robbery:
        discard_card(st, card, 1)
        if immune_to_theft(st, target) or immune_to_theft(st, second):
            event(st, TR.no_effect, seat, target if immune_to_theft(st, target) else second,
                  card, 0)
        else:
            event(st, TR.learns, second, target, hand_size(st)[target], LEARN.robbed_hand)
            move_hand(st, target, second)
            log_event(st, LOG.robbery, seat, target, second)
    elif card == CARD.scapegoat:
        discard_card(st, card, 1)
        move_front(st, target, second)
        log_event(st, LOG.scapegoat, seat, target, second)
        event(st, TR.accusations, second, seat, accusations(st)[second],
              threshold_of(st, second, seat))
        check_trial(st, seat, second, rng)
    elif card == CARD.curse:
        discard_card(st, card, 1)
        add_front(st, target, second, -1)
        discard_card(st, second, 1)
        log_event(st, LOG.curse, seat, target, second)
    else:  # a blue card stays in front of its target
        add_front(st, target, card, 1)
        log_event(st, LOG.blue, seat, target, card)


# --- the parts of a turn --------------------------------------------------------------------------
@compiled
def play_phase(st, seat, rng):
    """Play any number of cards, one after another, each on another player; stop ends the turn
    (the first card is not optional: that would be a pass)."""
    first = True
    while st.outcome < 0 and st.turn_over == 0 and alive(st)[seat]:
        legal_play(st, seat, first)
        if st.legal_count == 0:
            break
        card = decide(st, seat, DECISION.play, rng, PLAIN)
        if card == STOP:
            event(st, TR.stop, seat, -1, DECISION.play, 0)
            break
        first = False
        play_card(st, seat, card, rng)


@compiled
def draw_phase(st, seat, rng):
    """Draw 2 cards; Giles Corey shows two red ones and draws a third."""
    reds = draw_cards(st, seat, 2, DRAW.turn, rng)
    if reds == 2 and st.outcome < 0 and st.turn_over == 0 and alive(st)[seat] \
            and has_ability(st, seat, CHAR.giles_corey):
        event(st, TR.giles, seat, -1, 0, 0)
        draw_cards(st, seat, 1, DRAW.giles_corey, rng)


@compiled
def parris_phase(st, seat, rng):
    """Samuel Parris draws up to 2 cards from the discard pile instead (no black cards)."""
    parris_left(st)[seat] -= 1
    for pick in range(2):
        legal_parris(st, pick > 0)
        kind = decide(st, seat, DECISION.parris, rng, PLAIN)
        if kind == STOP:
            event(st, TR.stop, seat, -1, DECISION.parris, 0)
            break
        discard(st)[kind] -= 1
        add_hand(st, seat, kind, 1)
        event(st, TR.parris, seat, -1, kind, 0)


@compiled
def tituba_phase(st, seat, rng):
    """Tituba looks through the deck (its top `tituba_depth` cards) and puts it in any order:
    a card kind for each position from the top, until she stops."""
    tituba_left(st)[seat] -= 1
    depth = st.pile_size
    if st.tituba_depth > 0 and st.tituba_depth < depth:
        depth = st.tituba_depth
    for k in range(N_CARDS):
        st.spoils[k] = 0
    for i in range(depth):
        st.spoils[st.pile[st.pile_size - 1 - i]] += 1
    event(st, TR.learns, seat, -1, depth, LEARN.deck)
    count = 0
    while count < depth:
        legal_kinds(st, st.spoils, N_CARDS, True)
        kind = decide(st, seat, DECISION.tituba, rng, (-1, -1, -1, MODE.choice))
        if kind == STOP:
            event(st, TR.stop, seat, -1, DECISION.tituba, 0)
            break
        st.picks[count] = kind
        st.spoils[kind] -= 1
        count += 1
        event(st, TR.tituba, seat, -1, kind, count)
    arrange_top(st, depth, st.picks, count)
    trace_deck(st, DECK_VIEW.tituba)
    for k in range(N_CARDS):
        st.spoils[k] = 0


@compiled
def take_turn(st, seat, rng):
    """One turn: skipped in the Stocks; otherwise draw 2 cards or play cards. Ann Putnam draws
    what her reveals earned at its end."""
    st.clock += 1
    st.obs[OBS.turn] = st.clock
    st.obs[OBS.current] = seat
    st.turn_seat = seat
    st.turn_over = 0
    st.played = 0
    st.ann_pending[seat] = 0
    event(st, TR.turn, seat, -1, st.clock, 0)
    if front(st, seat, CARD.stocks) > 0:
        add_front(st, seat, CARD.stocks, -1)
        discard_card(st, CARD.stocks, 1)
        st.game_events[EV.stocks_skips] += 1
        event(st, TR.stocks, seat, -1, front(st, seat, CARD.stocks), 0)
        return
    legal_turn(st, seat)
    action = decide(st, seat, DECISION.turn, rng, PLAIN)
    event(st, TR.action, seat, -1, action, 0)
    if action == TURN.play:
        play_phase(st, seat, rng)
    elif action == TURN.parris:
        parris_phase(st, seat, rng)
    else:
        if action == TURN.tituba:
            tituba_phase(st, seat, rng)
        st.game_events[EV.draw_turns] += 1
        draw_phase(st, seat, rng)
    if st.outcome < 0 and st.ann_pending[seat] > 0 and alive(st)[seat]:
        cards = ann_putnam_draws(st, seat)
        st.ann_pending[seat] = 0
        if cards > 0:
            event(st, TR.ann_putnam, seat, -1, cards, 0)
            draw_cards(st, seat, cards, DRAW.ann_putnam, rng)


# --- the night ---------------------------------------------------------------------------------------
@compiled
def witch_vote(st, kind, rng):
    """The living witches vote, one after another from the current player, each seeing the votes
    so far; the most votes wins, a tie is broken at random. Returns the seat chosen."""
    n = st.players
    for s in range(n):
        st.votes[s] = 0
    start = st.turn_seat if st.turn_seat >= 0 else 0
    for step in range(n):
        w = (start + step) % n
        if alive(st)[w] and st.ever_witch[w]:
            legal_living(st, -1)
            choice = decide(st, w, kind, rng, (-1, -1, -1, MODE.votes))
            st.votes[choice] += 1
            event(st, TR.kill_vote, w, choice, kind, 0)
    top = 0
    for s in range(n):
        top = max(top, st.votes[s])
    tied = 0
    for s in range(n):
        if alive(st)[s] and st.votes[s] == top:
            st.seats[tied] = s
            tied += 1
    return st.seats[uniform_index(tied, rng)] if tied > 1 else st.seats[0]


@compiled
def dawn(st, rng):
    """Every living player may confess (chosen secretly, then revealed in seat order from the
    current player); the victim dies unless protected, confessed or on Asylum."""
    n = st.players
    for s in range(n):
        st.confessed[s] = 0
        st.confessing[s] = STOP
    start = st.turn_seat
    for step in range(n):
        s = (start + step) % n
        if alive(st)[s]:
            legal_confess(st, s)
            st.confessing[s] = decide(st, s, DECISION.confess, rng, (-1, -1, -1, MODE.dawn))
    for step in range(n):
        s = (start + step) % n
        choice = st.confessing[s]
        st.confessing[s] = STOP
        if not alive(st)[s]:
            continue
        if choice == STOP:
            event(st, TR.stop, s, -1, DECISION.confess, 0)
            continue
        st.confessed[s] = 1
        st.game_events[EV.confessions] += 1
        if choice == PHIPS:
            phips_left(st)[s] -= 1
            st.game_events[EV.phips_confessions] += 1
            log_event(st, LOG.confess, s, -1, -1)
            event(st, TR.confess, s, -1, -1, PHIPS)
            continue
        kind = reveal_tryal(st, s, choice)
        st.game_events[EV.reveals] += 1
        if kind == TRYAL.constable:
            st.game_events[EV.constable_revealed] += 1
        log_event(st, LOG.confess, s, -1, kind)
        event(st, TR.confess, s, -1, kind, choice)
        if reveal_kills(st, s, kind):
            die(st, s, CAUSE.confession, rng)
            if st.outcome >= 0:
                return
    victim = st.night_victim
    if not alive(st)[victim]:
        outcome = NIGHT_OUTCOME.already_dead
    elif victim == st.night_guard:
        outcome = NIGHT_OUTCOME.protected
        st.game_events[EV.night_protected] += 1
    elif st.confessed[victim]:
        outcome = NIGHT_OUTCOME.confessed
        st.game_events[EV.night_confessed] += 1
    elif front(st, victim, CARD.asylum) > 0:
        outcome = NIGHT_OUTCOME.asylum
        st.game_events[EV.night_asylum] += 1
    else:
        outcome = NIGHT_OUTCOME.died
        st.game_events[EV.night_kills] += 1
    log_event(st, LOG.night, -1, victim, outcome)
    event(st, TR.dawn, -1, victim, outcome, 0)
    if outcome == NIGHT_OUTCOME.died:
        die(st, victim, CAUSE.night, rng)


@compiled
def night(st, rng):
    """Night: the witches wake and choose a victim, the constable protects someone, dawn
    (confessions, the kill), then the discard pile becomes the new deck, Night at its bottom.
    The turn in which Night was drawn ends (unless the knob lets its player finish it)."""
    n = st.players
    st.obs[OBS.nights] += 1
    st.game_events[EV.nights] += 1
    event(st, TR.night, -1, -1, st.obs[OBS.nights], 0)
    st.phase = PHASE.night
    witches_see_each_other(st)
    victim = witch_vote(st, DECISION.night_kill, rng)
    st.night_victim = victim
    tied = 0
    for s in range(n):
        if st.votes[s] == st.votes[victim]:
            tied += 1
    event(st, TR.victim, -1, victim, st.votes[victim], tied)
    st.night_guard = -1
    guard = constable_seat(st)
    if guard >= 0:
        legal_living(st, guard)
        if st.legal_count > 0:
            st.night_guard = decide(st, guard, DECISION.protect, rng, PLAIN)
            event(st, TR.protect, guard, st.night_guard, 0, 0)
    dawn(st, rng)
    st.night_victim = -1
    st.night_guard = -1
    st.phase = PHASE.day
    if st.outcome >= 0:
        return
    night_at_bottom(st, rng)
    event(st, TR.reshuffle, -1, -1, st.pile_size, 0)
    trace_deck(st, DECK_VIEW.shuffled)
    if not st.night_resumes_turn:
        st.turn_over = 1


# --- Conspiracy ---------------------------------------------------------------------------------------
@compiled
def pass_tryals(st, rng):
    """Every living player takes a face-down tryal, picked blind, from the living player on
    their left (the variant: one from each goes to the middle, shuffled, and each gets one back).
    Whoever receives a Witch joins the witches. Returns the players converted."""
    n = st.players
    middle = st.conspiracy == CONSPIRACY.middle
    for i in range(n):
        st.converted[i] = 0
        if alive(st)[i]:
            giver = next_living(st, i)
            st.takes[i] = pick_face_down(st, giver, rng)
            for slot in range(st.row_len[giver]):  # (each living seat gives one tryal)
                if st.row[giver, slot] == st.takes[i]:
                    st.take_slots[giver] = slot
    for i in range(n):
        if alive(st)[i]:
            giver = next_living(st, i)
            remove_tryal(st, giver, st.takes[i])
            st.seats[i] = giver
            if middle:  # nobody follows a card through the middle
                st.tryal_known[st.takes[i]] = 0
    if middle:  # shuffle the middle among the living
        count = 0
        for i in range(n):
            if alive(st)[i]:
                st.scratch[count] = st.takes[i]
                st.scratch2[count] = st.seats[i]
                count += 1
        shuffle_pairs(st.scratch, st.scratch2, count, rng)
        count = 0
        for i in range(n):
            if alive(st)[i]:
                st.takes[i] = st.scratch[count]
                st.seats[i] = st.scratch2[count]
                count += 1
    converted = 0
    for i in range(n):
        if alive(st)[i]:
            was = st.ever_witch[i]
            give_tryal(st, i, st.takes[i])
            kind = st.tryal_kind[st.takes[i]]
            event(st, TR.passed, st.seats[i], i, kind,
                  (1 if middle else 0) * PACKED.passed.middle
                  + st.take_slots[st.seats[i]] * PACKED.passed.given
                  + (st.row_len[i] - 1) * PACKED.passed.into)
            # through the middle nobody follows a tryal: whence and whither stay unknown
            event(st, TR.learns, i, -1 if middle else st.seats[i], kind, LEARN.received)
            event(st, TR.learns, st.seats[i], -1 if middle else i, kind, LEARN.taken)
            if st.ever_witch[i] and not was:
                st.converted[i] = 1
                converted += 1
                event(st, TR.joins_witches, i, -1, 0, 0)
    for i in range(n):
        if alive(st)[i]:
            publish_row(st, i)
    return converted


@compiled
def conspiracy(st, drawer, rng):
    """Conspiracy, resolved completely: the Black Cat's holder reveals a tryal (Mary Warren
    nothing), then the tryals pass; the witch team grows."""
    st.obs[OBS.conspiracies] += 1
    st.game_events[EV.conspiracies] += 1
    log_event(st, LOG.conspiracy, drawer, -1, st.obs[OBS.conspiracies])
    event(st, TR.conspiracy, drawer, -1, st.obs[OBS.conspiracies], 0)
    holder = black_cat_holder(st)
    if holder >= 0 and not has_ability(st, holder, CHAR.mary_warren):
        by_drawer = st.black_cat_chooser == CAT_CHOOSER.drawer and alive(st)[drawer]
        chooser = drawer if by_drawer else holder
        legal_slots(st, holder)
        slot = decide(st, chooser, DECISION.cat_reveal, rng, (holder, -1, -1, MODE.plain))
        kind = reveal_tryal(st, holder, slot)
        st.game_events[EV.reveals] += 1
        st.game_events[EV.black_cat_reveals] += 1
        if kind == TRYAL.constable:
            st.game_events[EV.constable_revealed] += 1
        log_event(st, LOG.cat_reveal, holder, chooser, kind)
        event(st, TR.cat_reveal, holder, chooser, kind, slot)
        if reveal_kills(st, holder, kind):
            st.phase = PHASE.day
            die(st, holder, CAUSE.black_cat, rng)
            if st.outcome >= 0:
                return
    st.game_events[EV.conversions] += pass_tryals(st, rng)
    town_knowledge_goes_stale(st)
    st.phase = PHASE.conversion
    st.outcome = victory(st)
    st.phase = PHASE.day


# --- the game ------------------------------------------------------------------------------------------
@compiled
def deal(st, rng):
    """Characters (each player keeps 1 of 2 with the draft), tryals dealt evenly, 3 cards each,
    then Conspiracy shuffled into the rest and Night at the bottom; the Black Cat is set aside."""
    n = st.players
    reset_public(st)
    for s in range(n):
        st.ever_witch[s] = 0
        st.row_len[s] = 0
        st.ann_pending[s] = 0
        st.confessing[s] = STOP
        st.confessed[s] = 0
        st.converted[s] = 0
        for k in range(N_CARDS):
            st.hand[s, k] = 0
        for t in range(n):
            st.known_team[s, t] = -1
            st.known_witch[s, t] = 0
    for k in range(N_CARDS):
        st.spoils[k] = 0
    # characters
    for i in range(st.pool_size):
        st.scratch[i] = st.char_pool[i]
    shuffle(st.scratch, st.pool_size, rng)
    for s in range(n):
        if st.draft:
            a, b = st.scratch[2 * s], st.scratch[2 * s + 1]
            st.spoils[a] = 1
            st.spoils[b] = 1
            clear_legal(st)
            allow(st, a)
            allow(st, b)
            kept = decide(st, s, DECISION.character, rng, (-1, -1, -1, MODE.choice))
            st.spoils[a] = 0
            st.spoils[b] = 0
            set_character(st, s, kept)
            event(st, TR.character, s, -1, kept, b if kept == a else a)
        else:
            set_character(st, s, st.scratch[s])
            event(st, TR.character, s, -1, st.scratch[s], -1)
    # tryals
    total = 0
    for kind in range(3):
        for _ in range(st.tryal_counts[kind]):
            st.scratch[total] = kind
            total += 1
    shuffle(st.scratch, total, rng)
    st.n_tryals = total
    for tid in range(total):
        st.tryal_kind[tid] = st.scratch[tid]
        st.tryal_up[tid] = 0
        st.tryal_known[tid] = 0
    for s in range(n):
        st.known_team[s, s] = TOWN
        for j in range(st.tryals_each):
            give_tryal(st, s, s * st.tryals_each + j)
        publish_row(st, s)
        if tracing(st):
            dealt = 0
            for j in range(st.row_len[s]):
                dealt += st.tryal_kind[st.row[s, j]] * PACKED.tryals.kinds ** j
            event(st, TR.tryals, s, -1, dealt, st.row_len[s])
            event(st, TR.learns, s, s, st.row_len[s], LEARN.own_tryals)
    # the playing cards: deal from the deck without the Black Cat, Night and Conspiracy
    count = 0
    for k in range(HAND_KINDS):
        if k != CARD.black_cat:
            for _ in range(st.deck_counts[k]):
                st.scratch2[count] = k
                count += 1
    shuffle(st.scratch2, count, rng)
    if tracing(st):  # dealt from the top: the end of scratch2
        for i in range(count):
            event(st, TR.deck, -1, i + 1, st.scratch2[count - 1 - i], DECK_VIEW.deal)
    at = count
    for s in range(n):
        for _ in range(st.starting_hand):
            at -= 1
            add_hand(st, s, st.scratch2[at], 1)
        if tracing(st):
            for k in range(N_CARDS):
                if st.hand[s, k] > 0:
                    event(st, TR.hand, s, -1, k, st.hand[s, k])
    for i in range(at):  # the rest, with Conspiracy, becomes the deck (Night at the bottom)
        discard(st)[st.scratch2[i]] += 1
    discard(st)[CARD.conspiracy] += st.deck_counts[CARD.conspiracy]
    st.pile_size = 0
    night_at_bottom(st, rng)
    trace_deck(st, DECK_VIEW.shuffled)


@compiled
def first_night(st, rng):
    """The witches see each other and put the Black Cat in front of a player (a witch may take
    it); its holder starts (without a Black Cat, a random player). Returns the first player."""
    n = st.players
    witches = 0
    for s in range(n):
        witches += st.ever_witch[s]
    event(st, TR.first_night, -1, -1, witches, 0)
    witches_see_each_other(st)
    st.first_cat = -1
    st.first_cat_team = -1
    if st.deck_counts[CARD.black_cat] == 0:
        return uniform_index(n, rng)
    seat = witch_vote(st, DECISION.black_cat, rng)
    add_front(st, seat, CARD.black_cat, 1)
    st.first_cat = seat
    st.first_cat_team = WITCH if st.ever_witch[seat] else TOWN
    log_event(st, LOG.blue, -1, seat, CARD.black_cat)
    tied = 0
    for s in range(n):
        if st.votes[s] == st.votes[seat]:
            tied += 1
    event(st, TR.black_cat, -1, seat, st.votes[seat], tied)
    return seat


@compiled
def settle(st):
    """Who won: the team of the end condition (none after the turn limit); with
    rules.last_convert_loses, the players the deciding Conspiracy converted lose with the town.
    Sets st.won and the winning margin (the winners still alive); returns the winning team."""
    end = st.outcome
    if end == END.turn_limit:
        winner = -1
    elif end == END.witch_tryals_revealed:
        winner = TOWN
    else:
        winner = WITCH
    survivors = 0
    for s in range(st.players):
        won = 1 if winner >= 0 and (WITCH if st.ever_witch[s] else TOWN) == winner else 0
        if won and st.last_convert_loses and end == END.witches_by_conversion and st.converted[s]:
            won = 0
        st.won[s] = won
        if won and alive(st)[s]:
            survivors += 1
    st.margin = survivors if winner >= 0 else -1
    return winner


@compiled
def tally_game(st):
    """The game's own tallies of a finished game."""
    ge = st.game_events
    for e in range(ge.size):
        st.events[e] += ge[e]
        st.per_game[e] += ge[e]
        st.per_game_sq[e] += ge[e] * ge[e]
    nights = ge[EV.nights]
    st.nights[0] += nights
    st.nights_sq[0] += nights * nights
    st.nights_hist[min(nights, st.nights_hist.size - 1)] += 1
    conversions = ge[EV.conversions]
    st.conversions[0] += conversions
    st.conversions_sq[0] += conversions * conversions
    st.conversions_hist[min(conversions, st.conversions_hist.size - 1)] += 1
    st.turns[0] += st.clock
    st.turns_sq[0] += st.clock * st.clock
    if st.first_cat >= 0:
        team = st.first_cat_team
        st.black_cat_games[team] += 1
        st.black_cat_wins[team] += st.won[st.first_cat]
        st.black_cat_deaths[team] += 1 - alive(st)[st.first_cat]


@compiled
def play_game(st, rng):
    """One game: the deal, the first night, turns until a victory."""
    st.outcome = -1
    st.phase = PHASE.day
    st.turn_seat = -1
    st.night_victim = -1
    st.night_guard = -1
    for e in range(st.game_events.size):
        st.game_events[e] = 0
    deal(st, rng)
    seat = first_night(st, rng)
    first_player(st, seat)
    while True:
        if st.clock >= MAX_TURNS:
            st.outcome = END.turn_limit
            break
        take_turn(st, seat, rng)
        if st.outcome >= 0:
            break
        seat = next_living(st, st.turn_seat)
    winner = settle(st)
    tally_game(st)
    finish_game(st, winner, st.outcome, st.clock)
    event(st, TR.winner, -1, -1, winner, st.outcome)


@kernel
def play(st, games, rng):
    """Play `games` complete games and add their outcomes into the state's tallies."""
    return play_games(st, games, rng)

