"""The Chenghuang kernel: one game, reading top to bottom like the rulebook's round.

    captain -> roles -> draft -> discard and layout -> abilities 1..4 -> vote -> admit / deny
    (showdown) -> theft -> scoring -> ... (4 rounds) -> the highest total wins

Every rule lives in rules.py; every decision goes through the engine's `ask`, which hands the
seat's strategy its observation (observation.observe_*) and legal mask only, and takes a decision
with a single legal action without asking.
"""

from simulator.games.engine import (
    ask, compiled, event, finish_individual_game, first_player, kernel, note_leader, play_games,
    tracing, uniform_index,
)

from .declaration import (
    ABILITY_ORDER, ANSWER, CHOSEN, DECISION, END, EV, HAND, N_KINDS, NO_THEFT, OBS, PACKED, ROLE,
    SCORE_CLIP, TIE, TR, UNKNOWN,
)
from .observation import (
    clear_drawn, clear_private, clear_tie, legal_admit, legal_any_kind, legal_kinds, legal_marked,
    legal_peek, legal_seats, legal_source, legal_target, legal_theft, observe_draft,
    observe_drawn, observe_layout, observe_pile, observe_source, observe_table, observe_tie,
    publish_seats,
)
from .rules import (
    admit_discard, deal_packs, deal_roles, discard, draft_pick, extremes, face_down_count,
    first_marked, gan_draw, gan_keep, horse_face_takes, is_highest, judge_names, lay_out,
    lose_most_valuable, next_captain_candidates, pack_in_hand, peek, round_scores, scribe,
    seat_with_role, showdown_scores, sole_top, steal, take_from_pile, thief_candidates,
    winning_margin,
)


@compiled
def tie_break(st, what, rng):
    """The captain picks one of the seats marked in st.tied (a tie about `what`: TIE)."""
    captain = st.captain
    legal_marked(st, st.tied, st.players)
    choice = ask(st, captain, DECISION.tie_break, rng, observe_tie, (what,))
    clear_tie(st.obs)
    event(st, TR.tie_break, captain, choice, what, 0)
    return choice


# --- 0-1. captain and roles -----------------------------------------------------------------------
@compiled
def start_round(st, r, captain, rng):
    n = st.players
    st.clock = r
    st.current_round = r
    st.captain = captain
    st.judge_kind = UNKNOWN
    st.voted = 0
    st.accused = UNKNOWN
    st.admitted = UNKNOWN
    st.highest = UNKNOWN
    st.revealed = 0
    st.thief = UNKNOWN
    for kind in range(N_KINDS):
        st.pile[kind] = 0
    for s in range(n):
        st.votes[s] = 0
        st.n_slots[s] = 0
        if st.peeked[s] != 0:  # otherwise nobody has looked at its cards: its counts are 0
            for v in range(n):
                for kind in range(N_KINDS):
                    st.peek_count[v, s, kind] = 0
        st.peeked[s] = 0
        for kind in range(N_KINDS):
            st.pile_known[s, kind] = 0
            st.pub_count[s, kind] = 0
            st.up_count[s, kind] = 0
            st.down_count[s, kind] = 0
    clear_private(st.obs)
    deal_roles(st, st.pool[:st.pool_size], n, rng)
    publish_seats(st, n)
    event(st, TR.round, -1, -1, r, 0)
    for s in range(n):
        event(st, TR.role, s, -1, st.role[s], 0)


# --- 2. draft, discard, layout --------------------------------------------------------------------
@compiled
def draft(st, rng):
    """Each player is dealt a pack of 6; everyone keeps one card and passes the pack clockwise,
    6 times."""
    n = st.players
    deal_packs(st, st.deck[:st.deck_size], n, rng)
    if tracing(st):  # (the test saves a data-dependent branch per kind otherwise)
        for s in range(n):
            for kind in range(N_KINDS):
                if st.packs[s, kind] > 0:
                    event(st, TR.deal, s, -1, kind, st.packs[s, kind])
    for pick in range(HAND):
        for s in range(n):
            pack = pack_in_hand(s, pick, n)
            legal_kinds(st, st.packs[pack])
            kind = ask(st, s, DECISION.draft, rng, observe_draft, (pack, pick))
            draft_pick(st, s, pack, kind)
            event(st, TR.pick, s, pack, kind, pick + 1)
    st.obs[OBS.pick] = 0
    for kind in range(N_KINDS):
        st.obs[OBS.pack + kind] = 0


@compiled
def layout(st, rng):
    """Each player discards 1 card face down, then lays out 5: 3 up and 2 down (柳將軍 2 and 3)."""
    n = st.players
    up = st.up
    down = st.down
    for s in range(n):
        for kind in range(N_KINDS):
            up[kind] = 0
            down[kind] = 0
        legal_kinds(st, st.held[s])
        kind = ask(st, s, DECISION.discard, rng, observe_layout, (0,))
        discard(st, s, kind)
        event(st, TR.discard, s, -1, kind, 0)
        for kind in range(N_KINDS):
            up[kind] = st.held[s, kind]
        hide = face_down_count(st.role[s])
        for i in range(hide):
            legal_kinds(st, up)
            kind = ask(st, s, DECISION.hide, rng, observe_layout, (hide - i,))
            up[kind] -= 1
            down[kind] += 1
        lay_out(st, n, s, down)
        if tracing(st):
            for kind in range(N_KINDS):
                if st.held[s, kind] > 0:
                    event(st, TR.layout, s, -1, kind,
                          up[kind] * PACKED.layout.up + down[kind] * PACKED.layout.down)
    st.obs[OBS.to_hide] = 0


# --- 3. abilities in order 1..4 -------------------------------------------------------------------
@compiled
def abilities(st, rng):
    n = st.players
    for order in range(ABILITY_ORDER.size):
        role = ABILITY_ORDER[order]
        s = seat_with_role(st, n, role)
        if s < 0:
            continue
        if role == ROLE.martial_judge:
            legal_any_kind(st)
            kind = ask(st, s, DECISION.judge, rng, observe_table, ())
            judge_names(st, n, s, kind)
            event(st, TR.judge, s, -1, kind, st.held[s, kind])
        elif role == ROLE.general_gan:
            if gan_draw(st, st.drawn, rng) == 0:
                continue
            legal_kinds(st, st.drawn)
            kind = ask(st, s, DECISION.gan_keep, rng, observe_drawn, ())
            clear_drawn(st.obs)
            back = gan_keep(st, n, s, st.drawn, kind)
            event(st, TR.gan, s, -1, kind, back)
        elif role == ROLE.lord_of_implements:
            for _ in range(2):
                legal_peek(st, n, s)
                if st.legal_count == 0:
                    break
                target = ask(st, s, DECISION.peek, rng, observe_table, ())
                kind = peek(st, n, s, target, rng)
                event(st, TR.peek, s, target, kind, 0)
        elif role == ROLE.civil_judge:
            legal_source(st, s)
            source = ask(st, s, DECISION.scribe_source, rng, observe_table, ())
            legal_target(st, n, s, source)
            target = ask(st, s, DECISION.scribe_target, rng, observe_source, (source,))
            st.obs[OBS.source] = UNKNOWN
            kind = scribe(st, n, s, source, target)
            event(st, TR.scribe, s, source, target, kind)


# --- 5-6. vote, admit or deny, showdown -----------------------------------------------------------
@compiled
def vote(st, rng):
    """Secret simultaneous vote (no self-votes); the captain breaks a tie. Returns the accused."""
    n = st.players
    for s in range(n):
        legal_seats(st, n, s)
        target = ask(st, s, DECISION.vote, rng, observe_table, ())
        st.votes[target] += 1
        event(st, TR.vote, s, target, 0, 0)
    st.voted = 1
    publish_seats(st, n)
    st.events[EV.accusations] += 1
    count, top = extremes(st.votes, n, st.tied, True)
    if count > 1:
        st.events[EV.vote_ties] += 1
        accused = tie_break(st, TIE.vote, rng)
    else:
        accused = first_marked(st.tied, n)
    st.accused = accused
    event(st, TR.accused, accused, -1, top, count)
    return accused


@compiled
def judgement(st, accused, rng):
    """The accused admits (discards 2 of its choice) or denies (showdown: the highest loses its 2
    most valuable cards, anyone else takes 1 card from the pile)."""
    n = st.players
    showdown_scores(st, st.table, n)
    highest = is_highest(st.showdown, n, accused)
    if highest:
        st.events[EV.accused_highest] += 1
    legal_admit(st)
    choice = ask(st, accused, DECISION.admit, rng, observe_table, ())
    st.admitted = choice
    event(st, TR.admit, accused, -1, choice, 1 if highest else 0)
    if choice == ANSWER.admit:
        st.events[EV.admits] += 1
        if highest:
            st.events[EV.admits_highest] += 1
        for _ in range(2):
            legal_kinds(st, st.held[accused])
            if st.legal_count == 0:
                break
            kind = ask(st, accused, DECISION.admit_discard, rng, observe_table, ())
            admit_discard(st, n, accused, kind)
            event(st, TR.admit_discard, accused, -1, kind, 0)
        st.revealed = 1
        event(st, TR.reveal, -1, -1, 0, 0)
        return
    st.events[EV.denies] += 1
    st.revealed = 1
    st.highest = 1 if highest else 0
    event(st, TR.reveal, -1, -1, 1, 0)
    if highest:
        st.events[EV.deny_wrong] += 1
        a, b = lose_most_valuable(st, st.table, n, accused)
        event(st, TR.showdown_loss, accused, -1, a, b)
        return
    st.events[EV.deny_correct] += 1
    st.denied_right[accused] += 1
    legal_kinds(st, st.pile)
    if st.legal_count == 0:
        st.events[EV.compensation_empty] += 1
        return
    kind = ask(st, accused, DECISION.compensation, rng, observe_pile, ())
    take_from_pile(st, n, accused, kind)
    event(st, TR.compensation, accused, -1, kind, 0)


# --- 7. theft -------------------------------------------------------------------------------------
@compiled
def theft(st, rng):
    """馬面 takes the pile's 竊盜; the player with the most 竊盜 may take a card of the victim's
    choice from a player it names (or decline)."""
    n = st.players
    horse = seat_with_role(st, n, ROLE.horse_face)
    if horse >= 0:
        got = horse_face_takes(st, n, horse)
        st.events[EV.horse_face_takes] += got
        event(st, TR.horse_face, horse, -1, got, 0)
    count, most = thief_candidates(st, n, st.tied)
    if count == 0:
        st.events[EV.rounds_without_theft] += 1
        event(st, TR.no_theft, -1, -1, 0, 0)
        return
    if count > 1:
        st.events[EV.theft_ties] += 1
        thief = tie_break(st, TIE.theft, rng)
    else:
        thief = first_marked(st.tied, n)
    st.thief = thief
    if legal_theft(st, n, thief) == 0:
        event(st, TR.theft, thief, -1, -1, most)
        return
    victim = ask(st, thief, DECISION.theft_target, rng, observe_table, ())
    if victim == NO_THEFT:
        st.events[EV.theft_declined] += 1
        event(st, TR.theft_declined, thief, -1, 0, most)
        return
    legal_kinds(st, st.held[victim])
    kind = ask(st, victim, DECISION.theft_give, rng, observe_table, ())
    steal(st, thief, victim, kind)
    st.events[EV.thefts] += 1
    event(st, TR.theft, thief, victim, kind, most)


# --- 8. scoring -----------------------------------------------------------------------------------
@compiled
def scoring(st, last_round, rng):
    """范將軍 first, then every seat scores its cards. Returns the next round's captain."""
    n = st.players
    fan = seat_with_role(st, n, ROLE.general_fan)
    target = -1
    if fan >= 0:
        legal_seats(st, n, fan)
        target = ask(st, fan, DECISION.fan_target, rng, observe_table, ())
    moved = round_scores(st, st.table, n, fan, target)
    publish_seats(st, n)
    if fan >= 0:
        st.events[EV.fan_penalties] += 1
        event(st, TR.fan, fan, target, moved, 0)
    top = st.round_score[0]
    for s in range(1, n):
        top = max(top, st.round_score[s])
    for s in range(n):
        role = st.role[s]
        score = st.round_score[s]
        st.role_rounds[role] += 1
        st.role_round_sum[role] += score
        st.role_round_sq[role] += score * score
        if score == top:
            st.role_round_wins[role] += 1
        st.round_seats[st.current_round] += 1
        st.round_score_sum[st.current_round] += score
        st.round_score_sq[st.current_round] += score * score
        event(st, TR.round_score, s, -1, score, st.totals[s])
    note_leader(st, sole_top(st.totals, n))
    captain = st.captain
    st.events[EV.rounds] += 1
    if st.round_score[captain] == top:
        st.events[EV.captain_round_top] += 1
    if last_round:
        return captain
    count, low = next_captain_candidates(st.round_score, n, st.tied)
    if count > 1:
        st.events[EV.captain_ties] += 1
        return tie_break(st, TIE.captain, rng)
    return first_marked(st.tied, n)


# --- the game -------------------------------------------------------------------------------------
@compiled
def play_round(st, r, captain, how, rng):
    """Round r, steps 0 to 8 (`how`: how its captain was chosen, CHOSEN). Returns the next
    round's captain."""
    start_round(st, r, captain, rng)
    event(st, TR.captain, captain, -1, how, 0)
    draft(st, rng)
    layout(st, rng)
    abilities(st, rng)
    accused = vote(st, rng)
    judgement(st, accused, rng)
    theft(st, rng)
    return scoring(st, r == st.rounds, rng)


@compiled
def final_result(st, rng):
    """The highest total wins; a tie is broken by the last round's captain.
    Returns (winner, end condition)."""
    n = st.players
    count, best = extremes(st.totals, n, st.tied, True)
    if count > 1:
        st.events[EV.final_ties] += 1
        winner = tie_break(st, TIE.winner, rng)
        end = END.captain_tie
    else:
        winner = first_marked(st.tied, n)
        end = END.highest
    event(st, TR.winner, winner, -1, st.totals[winner], end)
    return winner, end


@compiled
def tally_scores(st, winner):
    """The game's own tallies of a finished game: the final totals by seat and by final role."""
    if winner == st.captain:
        st.events[EV.final_captain_wins] += 1
    for s in range(st.players):
        role = st.role[s]
        total = st.totals[s]
        clipped = min(max(total, 0), SCORE_CLIP)
        st.seat_score_sum[s] += total
        st.seat_score_sq[s] += total * total
        st.seat_score_hist[s, clipped] += 1
        st.role_score_sum[role] += total
        st.role_score_sq[role] += total * total
        st.role_score_hist[role, clipped] += 1


@compiled
def play_game(st, rng):
    """One game: a random first captain, the rounds, the final result."""
    for s in range(st.players):
        st.totals[s] = 0
        st.denied_right[s] = 0
    captain = uniform_index(st.players, rng)
    first_player(st, captain)
    how = CHOSEN.random
    for r in range(1, st.rounds + 1):
        captain = play_round(st, r, captain, how, rng)
        how = CHOSEN.lowest
    winner, end = final_result(st, rng)
    st.margin = winning_margin(st.totals, winner, st.players)
    tally_scores(st, winner)
    finish_individual_game(st, winner, end, st.rounds)


@kernel
def play(st, games, rng):
    """Play `games` complete games and add their outcomes into the state's tallies."""
    return play_games(st, games, rng)
