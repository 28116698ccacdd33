"""Spot the spy's kernel: one game, top to bottom like the rulebook's round.

    deal -> (round: secret vote, count, eliminate, check victory) -> ... -> end

HOOK: `play_game(st, rng)` in rulebook order, every decision through `ask`, every step that a
designer should see through `event`, the end through `finish_team_game` (or
`finish_individual_game`); and the entry `play`, which stays as it is.
"""

from simulator.games.engine import ask, compiled, event, finish_team_game, kernel, play_games

from .declaration import DECISION, EV, ROLE, TR
from .observation import legal_vote, observe_vote
from .rules import count_votes, deal, eliminate, most_voted, publish_ballots, victory
from .state import alive


@compiled
def voting_round(st, round_number, rng):
    """Every living player votes in secret; the most-voted is out. Returns the end code."""
    st.clock = round_number
    event(st, TR.round, -1, -1, round_number, 0)
    for seat in range(st.players):
        if alive(st)[seat]:
            legal_vote(st, seat)
            st.ballots[seat] = ask(st, seat, DECISION.vote, rng, observe_vote, (round_number,))
            event(st, TR.vote, seat, st.ballots[seat], 0, 0)
    count_votes(st)
    out, tied = most_voted(st, rng)
    if tied > 1:
        st.events[EV.vote_ties] += 1
    eliminate(st, out)
    publish_ballots(st)
    st.events[EV.spies_out if st.role[out] == ROLE.spy else EV.citizens_out] += 1
    event(st, TR.out, out, -1, st.role[out], st.votes[out])
    return victory(st)


@compiled
def play_game(st, rng):
    deal(st, rng)
    for seat in range(st.players):
        event(st, TR.deal, seat, -1, st.role[seat], 0)
    round_number = 0
    end = -1
    while end < 0:
        round_number += 1
        end = voting_round(st, round_number, rng)
    winner = 0 if end == 0 else 1  # END.spies_out: the town (team 0); else the spies
    survivors = 0
    for seat in range(st.players):  # the game's own tally (metrics.py)
        st.votes_received[seat] += st.received[seat]
        st.votes_received_sq[seat] += st.received[seat] * st.received[seat]
        if alive(st)[seat] and (st.role[seat] == ROLE.spy) == (winner == 1):
            survivors += 1
    st.margin = survivors  # the winning margin (engine tempo tallies): the winners left
    finish_team_game(st, winner, end, round_number)
    event(st, TR.winner, -1, -1, winner, end)


@kernel
def play(st, games, rng):
    """Play `games` games, adding their outcomes into the state's tallies."""
    return play_games(st, games, rng)
