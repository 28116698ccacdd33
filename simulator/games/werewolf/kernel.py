"""The werewolf kernel: one game, reading top to bottom like the rulebook's round.

    deal -> (night: seer, wolves) -> (day: discussion, suspect vote, sentence vote) -> ... -> end

Every rule lives in rules.py; every decision goes through the engine's `ask`, which hands the
seat's strategy its observation (observation.observe) and legal mask only.
"""

from simulator.games.engine import (
    allow, ask, forbid, compiled, event, finish_team_game, kernel, play_games, talks,
)

from .declaration import CAUSE, EV, DECISION, HUMAN, ROLE, ROLE_TEAM, TR, WOLF
from .observation import legal_claim, legal_living, legal_pair, observe
from .rules import (
    choose_suspects, kill, living_counts, pack_leader, publish_claim, reset_for_deal, seer_learns,
    sentence_result, shuffle_into, suspect_vote_order, victory, winner_of,
)
from .state import alive, votes


@compiled
def night(st, day, rng):
    """Night `day`: the seer checks, then the pack kills. Returns (victim, end code)."""
    n = st.players
    st.clock = day
    event(st, TR.night, -1, -1, day, 0)
    for seat in range(n):  # the open vote's counts are "today's": none yet
        votes(st)[seat] = 0
    for seer in range(n):
        if alive(st)[seer] and st.role[seer] == ROLE.seer:
            legal_living(st, n, seer)
            target = ask(st, seer, DECISION.seer_check, rng, observe, (day, -1, -1, -1))
            team = seer_learns(st, seer, target)
            st.events[EV.seer_checks] += 1
            if team == WOLF:
                st.events[EV.seer_found_wolf] += 1
            event(st, TR.seer_check, seer, target, team, 0)

    leader = pack_leader(st, n)
    legal_living(st, n, -1)  # the pack may even pick a wolf
    victim = ask(st, leader, DECISION.wolf_kill, rng, observe, (day, -1, -1, -1))
    event(st, TR.wolf_kill, leader, victim, 0, 0)
    kill(st, victim)
    st.events[EV.night_kills] += 1
    if st.role[victim] == ROLE.seer:
        st.events[EV.seer_killed_at_night] += 1
    event(st, TR.death, victim, -1, st.role[victim], CAUSE.wolves)
    return victim, victory(st, n)


@compiled
def daytime(st, day, victim, rng):
    """Day `day`: discussion, the open suspect vote, the secret sentence vote, the hanging.
    Returns the end code (-1 while the game goes on)."""
    n = st.players
    order = st.order
    event(st, TR.day, -1, -1, day, 0)
    voters = suspect_vote_order(st, n, victim, order)

    # Discussion: only strategies that talk are asked; a claim is a public event.
    for i in range(voters):
        seat = order[i]
        if talks(st, seat):
            legal_claim(st, n, seat)
            target = ask(st, seat, DECISION.claim, rng, observe, (day, victim, -1, -1))
            if target != n:  # n = pass
                publish_claim(st, seat, target)
                st.events[EV.wolf_claims] += 1
                if ROLE_TEAM[st.role[target]] == WOLF:
                    st.events[EV.true_wolf_claims] += 1
                event(st, TR.claim, seat, target, 0, 0)

    # Suspect vote: open, one after another, clockwise from the victim's right. Legal: every
    # living seat but the voter's own (the mask is built once and the voter's seat masked out).
    legal_living(st, n, -1)
    for i in range(voters):
        seat = order[i]
        forbid(st, seat)
        target = ask(st, seat, DECISION.suspect_vote, rng, observe, (day, victim, -1, -1))
        allow(st, seat)
        votes(st)[target] += 1
        event(st, TR.suspect_vote, seat, target, 0, 0)
    footprint, fur, tied = choose_suspects(st, n, victim)
    if tied:
        st.events[EV.suspect_vote_ties] += 1
    event(st, TR.suspects, footprint, fur, votes(st)[footprint], votes(st)[fur])

    # Sentence vote: secret and simultaneous, so nobody's observation shows another's ballot.
    st.sentence[footprint] = 0
    st.sentence[fur] = 0
    legal_pair(st, footprint, fur)
    for i in range(voters):
        seat = order[i]
        target = ask(st, seat, DECISION.sentence_vote, rng, observe, (day, victim, footprint, fur))
        st.sentence[target] += 1
        event(st, TR.sentence_vote, seat, target, 0, 0)
    hanged, tied = sentence_result(st, footprint, fur, victim, n)
    if tied:
        st.events[EV.sentence_ties] += 1
    event(st, TR.hanged, hanged, -1, st.sentence[hanged],
          st.sentence[footprint] + st.sentence[fur] - st.sentence[hanged])
    kill(st, hanged)
    role = st.role[hanged]
    if ROLE_TEAM[role] == WOLF:
        st.events[EV.hanged_wolf] += 1
    else:
        st.events[EV.hanged_human] += 1
        if role == ROLE.seer:
            st.events[EV.hanged_seer] += 1
    event(st, TR.death, hanged, -1, role, CAUSE.hanged)
    return victory(st, n)


@compiled
def play_game(st, rng):
    """One game: the deal, then nights and days until a victory rule ends it."""
    n = st.players
    shuffle_into(st.role, st.deck, n, rng)
    reset_for_deal(st, n)
    for seat in range(n):
        event(st, TR.deal, seat, -1, st.role[seat], 0)
    day = 0
    end = -1
    while end < 0:
        day += 1
        victim, end = night(st, day, rng)
        if end >= 0:
            break
        end = daytime(st, day, victim, rng)
    winner = winner_of(end)
    humans, wolves = living_counts(st, n)
    st.margin = humans if winner == HUMAN else wolves  # the winning camp's survivors
    finish_team_game(st, winner, end, day)
    event(st, TR.winner, -1, -1, winner, end)


@kernel
def play(st, games, rng):
    """Play `games` complete games and add their outcomes into the state's tallies."""
    return play_games(st, games, rng, play_game)
