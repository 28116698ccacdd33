"""The Ghost Play kernel: one game, top to bottom like the rulebook's turn.

    setup -> (turn: draw -> day: buy, artifact, other cards -> night: haunting, then an exorcism
    or, for the ghost king, a summoning -> the rise of the ghost king) -> ... until the ghost
    deck is empty -> the seal, or the sects' points

Every rule lives in rules.py; every decision goes through the engine's `ask` (by `decide`, which
counts it against the turn's cap), which hands the seat's strategy its observation
(observation.observe) and legal mask only, and takes a decision with a single legal action
without asking. The turns of a game and the decisions of a turn are capped (declaration.CAPS,
params.turn_cap and params.decision_cap): a game past a cap stops the run, never hangs it.
"""

from simulator.games.engine import (
    ask, compiled, event, finish_team_game, first_player, kernel, play_games, tracing,
    uniform_index, within_cap,
)

from .declaration import (
    CAP, CARD_STATE, CARD_WINDOWS, DAY_ORDER, DECISION, END, EV, EVENT, KIND, KING_DRAW_AT, LOOK,
    OBS, OUTCOME, PACKED, PASS, PLAY, RISE, ROLE, SEAL, TEAM, TR, VOTE_BASE, WINDOW,
)
from .observation import legal_buy, legal_challenge, legal_day_card, legal_ghost, legal_vote, \
    observe
from .rules import (
    add_life, artifact_spirit, buy_cards, build_taoist_pile, challenge, count_votes,
    deal_identities, discard_spent, discard_vote, draw_cards, draw_king_card, draw_phase_count,
    game_over, log_exorcism, look, mark_participants, open_exorcism, pay_reward, play_spell,
    possess, possession_target, remove_ghost, reset_table, resolve_event, reveal_card, rise,
    rise_candidate, score_ghost, seal_breaks, sect_points, sect_winner, set_artifact,
    set_card_state, settle_risen_ghosts, shuffle_ghost_deck, start_turn, take_vote,
)


# --- the trace of what the rules did without a decision -------------------------------------------
@compiled
def trace_draws(st):
    """Tell the trace what was drawn since it was last told: reshuffles, each seat's cards by type
    (private to the seat), then the Taoist piles' sizes."""
    told = st.reshuffled
    if st.reshuffled > 0:
        event(st, TR.reshuffle, -1, -1, st.reshuffled, 0)
        st.reshuffled = 0
    for s in range(st.players):
        for t in range(st.n_types):
            if st.drawn[s, t] > 0:
                event(st, TR.drawn, s, t, st.drawn[s, t], st.hand[s, t])
                st.drawn[s, t] = 0
                told += 1
    if told > 0:
        event(st, TR.piles, -1, -1, st.pile_size, st.discard_size)


@compiled
def trace_turn_end(st, turn):
    """The end of a turn in the trace: every seat's spirit power, cards, ghosts and points, then
    the ghosts in play, the piles, the ghost deck and the ghost king's lives."""
    if not tracing(st):
        return
    for s in range(st.players):
        event(st, TR.seat_at_end, s, st.artifact[s], st.spirit[s],
              st.hand_size[s] * PACKED.seat_at_end.cards
              + st.possessed[s] * PACKED.seat_at_end.ghosts
              + st.points[s] * PACKED.seat_at_end.points)
    event(st, TR.turn_end, st.in_play, st.lives,
          st.pile_size * PACKED.turn_end.pile + st.discard_size * PACKED.turn_end.discards,
          turn * PACKED.turn_end.turn + (st.ghost_size - st.ghost_next) * PACKED.turn_end.left)


# --- decisions ------------------------------------------------------------------------------------
@compiled
def decide(st, seat, kind, rng):
    """The seat's decision of `kind` (the legal mask set), one more of the turn's capped
    decisions."""
    st.turn_decisions += 1
    within_cap(st, CAP.decisions, st.turn_decisions, st.decision_cap)
    return ask(st, seat, kind, rng, observe, ())


# --- setup ----------------------------------------------------------------------------------------
@compiled
def setup_game(st, rng):
    """Identities dealt secretly; 4 Taoist cards to each player; the ghost deck shuffled; one
    ghost-king card shown; 4 spirit power each; a random first player. Returns the first player."""
    n = st.players
    reset_table(st)
    deal_identities(st, rng)
    for s in range(n):
        event(st, TR.identity, s, -1, st.role[s], 0)
    build_taoist_pile(st, rng)
    for s in range(n):
        draw_cards(st, s, st.start_hand, rng)
    trace_draws(st)
    shuffle_ghost_deck(st, rng)
    card = draw_king_card(st, rng)
    event(st, TR.king_card, -1, -1, card, st.seal_lives)
    first = uniform_index(n, rng)
    first_player(st, first)
    event(st, TR.first, first, -1, 0, 0)
    return first


# --- the draw and the day -----------------------------------------------------------------------
@compiled
def draw_phase(st, p, rng):
    """Draw 2 Taoist cards (the ghost king skips this)."""
    gained = artifact_spirit(st, p)
    drawn, reshuffles = draw_cards(st, p, draw_phase_count(st, p), rng)
    st.events[EV.reshuffles] += reshuffles
    event(st, TR.draw, p, -1, drawn, gained)
    trace_draws(st)


@compiled
def day(st, p, rng):
    """Buy extra cards with spirit power, set an artifact, play other cards (the ghost king skips
    this); rules.day_order = "cards-first": the artifact and other cards before buying."""
    if st.day_order == DAY_ORDER.cards_first:
        day_cards(st, p, rng)
        day_buy(st, p, rng)
    else:
        day_buy(st, p, rng)
        day_cards(st, p, rng)


@compiled
def day_buy(st, p, rng):
    """Spend spirit power on extra Taoist cards."""
    legal_buy(st, p)
    bought = decide(st, p, DECISION.buy, rng)
    if bought > 0:
        st.events[EV.reshuffles] += buy_cards(st, p, bought, rng)
        st.events[EV.cards_bought] += bought
    event(st, TR.buy, p, -1, bought, st.spirit[p])
    trace_draws(st)


@compiled
def day_cards(st, p, rng):
    """Set an artifact, then play other cards one at a time until PASS."""
    legal_day_card(st, p, PLAY.artifact)
    if st.legal_count > 1:
        t = decide(st, p, DECISION.artifact, rng)
        if t == PASS:
            event(st, TR.declined, p, DECISION.artifact, 0, 0)
        else:
            old = set_artifact(st, p, t)
            st.events[EV.artifacts] += 1
            event(st, TR.artifact, p, -1, t, old)
    play_spells(st, p, WINDOW.day, rng)


@compiled
def play_spells(st, v, window, rng):
    """Seat v plays other cards (spells) one at a time until PASS, in its day or (rules.card_windows
    = "every-window") in a window before or after a haunting. A played card stays out until the
    turn ends (rules.play_spell), so this ends: at most every other card of the deck once."""
    while True:
        legal_day_card(st, v, PLAY.spell)
        if st.legal_count == 1:
            break
        st.obs[OBS.card_window] = window
        t = decide(st, v, DECISION.spell, rng)
        if t == PASS:
            event(st, TR.declined, v, DECISION.spell, window, 0)
            break
        st.events[EV.reshuffles] += play_spell(st, v, t, rng)
        st.events[EV.spells] += 1
        event(st, TR.spell, v, -1, t, window)
        trace_draws(st)


@compiled
def card_window(st, p, window, rng):
    """Before or after the haunting (rules.card_windows = "every-window"): every player, from the
    turn player round, may play other cards."""
    if st.card_windows == CARD_WINDOWS.own_day:
        return
    for k in range(st.players):
        play_spells(st, (p + k) % st.players, window, rng)


# --- the night ------------------------------------------------------------------------------------
@compiled
def haunting(st, p, rng):
    """Reveal the top ghost-deck card: a ghost possesses a player as its card says; an event
    resolves at once ('reveal one more card' reveals the next, if any)."""
    n = st.players
    to_reveal = 1
    while to_reveal > 0:
        to_reveal -= 1
        card = reveal_card(st)
        if card < 0:
            break
        event(st, TR.reveal, p, -1, card, st.ghost_size - st.ghost_next)
        if st.g_kind[card] == KIND.event:
            st.events[EV.event_cards] += 1
            st.events[EV.reshuffles] += resolve_event(st, card, p, rng)
            event(st, TR.event, p, -1, card, st.g_effect[card])
            trace_draws(st)
            if st.g_effect[card] == EVENT.another:
                to_reveal += 1
            continue
        s = possession_target(st, card, p, rng)
        if s < 0:
            set_card_state(st, card, CARD_STATE.resolved)
            st.events[EV.unpossessed] += 1
            event(st, TR.unpossessed, p, -1, card, 0)
            continue
        possess(st, card, s)
        st.events[EV.possessions] += 1
        event(st, TR.possess, s, p, card,
              st.possessed[s] * PACKED.possess.on_seat + st.in_play * PACKED.possess.in_play)
    return n


@compiled
def vote_round(st, host, slot, summoning, rng):
    """Starting with the host and going round, every player may add Taoist cards face down as
    votes (a summoning: the ghost king alone)."""
    n = st.players
    colour = st.g_colour[st.slot_card[slot]]
    for k in range(n):
        v = (host + k) % n
        if summoning and v != host:
            continue
        legal_vote(st, v, colour)
        action = decide(st, v, DECISION.vote, rng)
        positive = action // VOTE_BASE
        negative = action % VOTE_BASE
        placed = take_vote(st, v, positive, negative, colour)
        event(st, TR.vote, v, host, placed, 0)
        for t in range(st.n_types):  # which cards, for the voter's eyes only
            if st.vote_cards[v, t] > 0:
                event(st, TR.vote_cards, v, t, st.vote_cards[v, t], st.hand[v, t])


@compiled
def challenges(st, host, rng):
    """The host challenges voters one at a time until it stops: only positive votes -> the
    exorcism fails at once (returns 1); a negative vote -> that voter's cards are discarded."""
    challenged = 0
    while True:
        legal_challenge(st, host)
        if st.legal_count == 1:
            break
        v = decide(st, host, DECISION.challenge, rng)
        if v == PASS:
            event(st, TR.declined, host, DECISION.challenge, 0, 0)
            break
        if challenged == 0:
            st.events[EV.exorcisms_challenged] += 1
        challenged += 1
        st.events[EV.challenges] += 1
        positive = st.vote_positive[v]
        negative = st.vote_negative[v]
        fails = challenge(st, v)
        event(st, TR.challenge, host, v, positive, negative)
        if fails:
            st.events[EV.challenges_backfired] += 1
            return 1, challenged
        st.events[EV.challenges_caught] += 1
    return 0, challenged


@compiled
def exorcism(st, host, slot, summoning, rng):
    """One exorcism (or the ghost king's summoning) of the ghost in `slot`: votes, challenges,
    the count, the dispel, points (or a life), the look and the rewards. Returns 1 if the ghost
    was dispelled (summoned)."""
    n = st.players
    card = st.slot_card[slot]
    target = st.slot_target[slot]
    open_exorcism(st, host, slot)
    event(st, TR.summon if summoning else TR.exorcise, host, target, card, slot)
    vote_round(st, host, slot, summoning, rng)
    failed, challenged = (0, 0) if summoning else challenges(st, host, rng)
    positive, negative = -1, -1
    won = 0
    for v in range(n):  # the votes left on the table: counted, or discarded after a failure
        if st.on_table[v] == 1:  # (unseen, or shown by the challenge that failed it)
            how = 1 if not failed else (2 if st.shown[v] >= 0 else 0)
            event(st, TR.shown, v, host, st.positive_value[v] * PACKED.shown.positive
                  + st.negative_value[v] * PACKED.shown.negative, how)
    if not failed:
        positive, negative = count_votes(st)
        won = 1 if positive - negative >= st.g_requirement[card] else 0
        event(st, TR.count, host, -1,
              positive * PACKED.count.positive + negative * PACKED.count.negative,
              st.g_requirement[card] * PACKED.count.requirement + won * PACKED.count.won)
    count = mark_participants(st, host)
    for v in range(n):
        discard_vote(st, v)
    if summoning:
        st.events[EV.summonings] += 1
        outcome = OUTCOME.summoned if won else OUTCOME.summon_failed
    else:
        st.events[EV.exorcisms] += 1
        st.hosted[host] += 1
        outcome = OUTCOME.dispelled if won else (OUTCOME.challenge_failed if failed else
                                                  OUTCOME.failed)
    if won:
        remove_ghost(st, slot)
        if summoning:
            st.events[EV.summonings_won] += 1
            lives = add_life(st, card)
            event(st, TR.life, host, target, card, lives)
        else:
            st.events[EV.exorcisms_won] += 1
            if challenged > 0:
                st.events[EV.challenged_won] += 1
            st.dispelled[host] += 1
            score_ghost(st, host, card)
            event(st, TR.dispel, host, target, card, st.points[host])
    if not summoning and (won or st.look == LOOK.always):
        event(st, TR.look, host, target, look(st, host, target), st.look_seen_by)
    paid = (st.summon_reward == 1 or not summoning) if won else st.failure_reward == 1
    if paid:
        index = 0
        for k in range(n):
            v = (host + k) % n
            if st.order[v] == 1:
                amount = pay_reward(st, v, card, index, count)
                index += 1
                event(st, TR.reward, v, host, amount, count)
    log_exorcism(st, host, card, target, outcome, positive, negative)
    return won


@compiled
def king_draws(st, p, rng):
    """The ghost king draws its Taoist card(s) in its night."""
    drawn, reshuffles = draw_cards(st, p, st.king_draw, rng)
    st.events[EV.reshuffles] += reshuffles
    event(st, TR.draw, p, -1, drawn, 0)
    trace_draws(st)


@compiled
def night(st, p, rng):
    """The night: the ghost king draws its card first (rules.king_draw_at); the haunting (the
    ghost king's only with rules.king_reveals); then the turn player may host an exorcism, or
    the ghost king summon, up to rules.exorcisms_per_turn times. Returns 1 if the seal broke at
    once."""
    summoning = p == st.king
    if summoning and st.king_draw_at == KING_DRAW_AT.night_start:
        king_draws(st, p, rng)
    if not summoning or st.king_reveals == 1:
        card_window(st, p, WINDOW.before_the_haunting, rng)
        haunting(st, p, rng)
        card_window(st, p, WINDOW.after_the_haunting, rng)
    if summoning and st.king_draw_at == KING_DRAW_AT.after_haunting:
        king_draws(st, p, rng)
    hosted = 0
    while hosted < st.exorcisms_per_turn and st.in_play > 0:
        legal_ghost(st, p, summoning)
        kind = DECISION.summon if summoning else DECISION.exorcise
        slot = decide(st, p, kind, rng)
        if slot == PASS:
            event(st, TR.declined, p, kind, 0, 0)
            return 0
        hosted += 1
        won = exorcism(st, p, slot, summoning, rng)
        if summoning and won and st.seal == SEAL.at_once and seal_breaks(st):
            st.seal_broken = 1
            return 1
    return 0


@compiled
def end_of_turn(st, p, turn, rng):
    """The rise of the ghost king, checked at the end of the turn; what becomes of the risen
    player's ghosts (rules.risen_ghosts). Returns 1 if the seal broke at once (their lives)."""
    s, rule, prevented = rise_candidate(st, p, rng)
    st.events[EV.rises_prevented] += prevented
    if prevented > 0:
        event(st, TR.prevented, p, -1, prevented, 0)
    if s < 0:
        return 0
    before = rise(st, s, turn)
    st.events[EV.rises] += 1
    st.events[EV.rise_by_three if rule == RISE.three else EV.rise_by_seventh] += 1
    if before == ROLE.evil:
        st.events[EV.evil_kings] += 1
    st.king_rises[0] += 1
    st.rise_turn_sum[0] += turn
    st.rise_turn_sq[0] += turn * turn
    st.rise_turn_hist[min(turn, st.rise_turn_hist.size - 1)] += 1
    seventh = st.seventh_card if rule == RISE.seventh else -1
    event(st, TR.rise, s, p, before, st.possessed[s] * PACKED.rise.ghosts + rule * PACKED.rise.rule
          + (seventh + 1) * PACKED.rise.seventh)
    moved = settle_risen_ghosts(st, s)
    if moved > 0:
        event(st, TR.risen_ghosts, s, st.risen_ghosts, moved, st.lives)
        if st.seal == SEAL.at_once and seal_breaks(st):
            st.seal_broken = 1
            return 1
    return 0


@compiled
def turn_ends(st, turn):
    """The other cards played this turn are discarded; the trace tells the end of the turn."""
    spent = discard_spent(st)
    if spent > 0:
        event(st, TR.spent, -1, -1, spent, 0)
    trace_turn_end(st, turn)


@compiled
def tally_game(st, turns):
    """The game's own tallies: points by sect and by identity, exorcisms hosted and won."""
    taiping, tianshi, evil = sect_points(st)
    st.team_points_sum[TEAM.taiping] += taiping
    st.team_points_sq[TEAM.taiping] += taiping * taiping
    st.team_points_sum[TEAM.tianshi] += tianshi
    st.team_points_sq[TEAM.tianshi] += tianshi * tianshi
    st.team_points_sum[TEAM.evil] += evil
    st.team_points_sq[TEAM.evil] += evil * evil
    for s in range(st.players):
        role = st.role[s]
        st.role_points_sum[role] += st.points[s]
        st.role_points_sq[role] += st.points[s] * st.points[s]
        st.role_hosted[role] += st.hosted[s]
        st.role_hosted_sq[role] += st.hosted[s] * st.hosted[s]
        st.role_dispelled[role] += st.dispelled[s]
        st.role_dispelled_sq[role] += st.dispelled[s] * st.dispelled[s]
    st.events[EV.turns] += turns
    return taiping, tianshi


@compiled
def play_game(st, rng):
    """One game: the setup, the turns until the ghost deck is empty, then the end."""
    n = st.players
    p = setup_game(st, rng)
    turn = 0
    at_once = 0
    while True:
        turn += 1
        within_cap(st, CAP.turns, turn, st.turn_cap)
        st.clock = turn
        start_turn(st, p, turn)
        event(st, TR.turn, p, -1, turn, 1 if p == st.king else 0)
        if p != st.king:
            draw_phase(st, p, rng)
            day(st, p, rng)
        at_once = night(st, p, rng)
        if not at_once:
            at_once = end_of_turn(st, p, turn, rng)
        turn_ends(st, turn)
        if at_once or game_over(st, p):
            break
        p = (p + 1) % n
    taiping, tianshi = tally_game(st, turn)
    if at_once or seal_breaks(st):
        st.events[EV.seal_breaks] += 1
        end = END.seal_at_once if at_once else END.seal
        event(st, TR.seal, st.king, -1, st.lives, st.seal_lives)
        event(st, TR.end, TEAM.evil, end, st.lives, st.seal_lives)
        finish_team_game(st, TEAM.evil, end, turn)
        return
    winner = sect_winner(st)
    st.margin = abs(taiping - tianshi)
    end = END.points if winner >= 0 else END.tie
    event(st, TR.end, winner, end, taiping, tianshi)
    finish_team_game(st, winner, end, turn)


@kernel
def play(st, games, rng):
    """Play `games` complete games and add their outcomes into the state's tallies."""
    return play_games(st, games, rng)


