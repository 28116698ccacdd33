"""The game engine: what every game's kernel shares, so that a kernel reads like its rulebook.

A game's compiled code works on one *state*: a NumPy record holding the game's own fields (declared
in its `state.py`), the engine's fields below, and every tally. Numba passes a record to a function
as one pointer, so phases take `(st, rng)` and nothing is threaded through them: the strategy
slots, the observation and legal mask, each seat's strategy memory, the trace cursor and the tallies
are all in `st`. `simulator.games.driver` builds the state from the game's declaration, fills the
setup, binds the strategies and reads the tallies back.

What a game's kernel uses:

* `compiled` / `inlined`: the decorators for rules, phases and observation builders (cached, no
  reference counting: they never allocate; `inlined` ones are inlined into their callers);
* `ask(st, seat, kind, rng, observe, context)`: a decision. The legal mask must be set
  (`clear_legal`, then `allow`, `forbid` or `set_legal`); with one legal action it is taken
  without asking;
  otherwise `observe(st, seat, context)` fills the seat's observation (skipped for a blind
  strategy, which gets the blank one) and the seat's strategy is called with it, its parameters
  and its memory. An illegal answer stops the run with a message naming the strategy, the seat,
  the decision kind and the value;
* `event(st, code, actor, target, value, extra)`: one trace row (free when not tracing);
* `finish_team_game`, `finish_individual_game`, `finish_game`: the standard tallies;
* `within_cap(st, cap, count, limit)`: a bound the rules give (the most turns a game, decisions
  a turn...), one of the game's declared `CAPS`: a game past it stops the run with a line naming
  the game (driver.CapFault), where a loop the rules fail to end would hang it;
* `play_games(st, games, rng)`: the game loop, called by the game's `play` entry; it plays
  the game's `play_game(st, rng)` (called by its address, which the driver sets).

Everything Numba-specific (views without reference counts, calls by address, inline PCG64, bit
tricks) is in `kernel_support`, which games never import.
"""

import numpy as np
from numba import njit

from simulator.games.base import (
    FLAG_BLIND, MAX_STRATEGY_PARAMS, MAX_STRATEGY_SLOTS, MEMORY_PER_SEAT, OBS_KIND,
    OBS_FIRST, OBS_ME, OBS_ROLE, CapExceeded, IllegalAction, NoLegalAction,
)
from simulator.games import kernel_support as _ks

# --- decorators for game code -------------------------------------------------------------------
# Rules, phases, observation builders and strategy helpers: compiled once and cached, and without
# reference counting, because they never allocate and the state they work on is owned by the
# caller for the whole run (Numba refuses to compile an allocation without reference counting, so
# that is checked when compiling). Each compiles once for its arguments' types: a call with
# constants does not compile another copy per constant.
compiled = _ks.typed_by_value_type(njit(cache=True, _nrt=False))
# The same, inlined into every caller: for the small steps of the hot paths.
inlined = njit(cache=True, _nrt=False, inline="always")
# A game's entry point, `play(st, games, rng)`.
kernel = njit(cache=True)

# Randomness for rules: one uniform double per draw, on the run's generator.
random_double = _ks.random_double
uniform_index = _ks.uniform_index


@inlined
def shuffle(values, count, rng):
    """Shuffle values[:count] in place, uniformly (Fisher-Yates from the end: one uniform_index
    per position, so the same stream gives the same order in every game)."""
    for i in range(count - 1, 0, -1):
        j = uniform_index(i + 1, rng)
        tmp = values[i]
        values[i] = values[j]
        values[j] = tmp


@inlined
def shuffle_pairs(values, partners, count, rng):
    """Shuffle values[:count] and partners[:count] by the same permutation (cards with their
    owners), with the stream `shuffle` uses."""
    for i in range(count - 1, 0, -1):
        j = uniform_index(i + 1, rng)
        tmp = values[i]
        values[i] = values[j]
        values[j] = tmp
        tmp = partners[i]
        partners[i] = partners[j]
        partners[j] = tmp


@inlined
def shuffle_at(values, places, count, rng):
    """Shuffle the entries of `values` at places[:count] among themselves (the roles of the
    seats a player knows nothing of), with the stream `shuffle` uses."""
    for i in range(count - 1, 0, -1):
        j = uniform_index(i + 1, rng)
        a = places[i]
        b = places[j]
        tmp = values[a]
        values[a] = values[b]
        values[b] = tmp


# --- legal masks ----------------------------------------------------------------------------------
# Games build a decision's mask with these four, which keep the number of legal actions in
# `st.legal_count`, so that `ask` knows at once whether the decision is forced.
@inlined
def clear_legal(st):
    """No action legal (the whole mask: its size is fixed, so this is a few wide stores)."""
    for a in range(st.legal.size):
        st.legal[a] = False
    st.legal_count = 0


@inlined
def allow(st, action):
    """Make `action` legal."""
    if not st.legal[action]:
        st.legal_count += 1
    st.legal[action] = True


@inlined
def forbid(st, action):
    """Make `action` illegal."""
    if st.legal[action]:
        st.legal_count -= 1
    st.legal[action] = False


@inlined
def set_legal(st, action, flag):
    """Make `action` legal or not, by `flag`."""
    was = 1 if st.legal[action] else 0  # (the mask is bytes: no unsigned arithmetic on it)
    now = 1 if flag else 0
    st.legal_count += now - was
    st.legal[action] = now


@inlined
def forced_action(st):
    """The only legal action, or -1 when there is a real choice."""
    count = st.legal_count
    if count > 1:
        return -1
    if count == 0:
        raise NoLegalAction("a decision without a legal action")
    for a in range(st.legal.size):
        if st.legal[a]:
            return a
    return -1


@inlined
def nothing(st, seat, context):
    """An observer that adds nothing to what the state's observation already holds."""
    return


# --- decisions ------------------------------------------------------------------------------------
@inlined
def slot_of(st, seat):
    """The strategy slot of a seat: by its seat and its current role."""
    return st.slot_table[seat, st.role[seat]]


@inlined
def talks(st, seat):
    """Does the seat's strategy want the game's optional public decisions (FLAG_TALKS), in the
    role the seat holds now (StrategyInfo.talks_as)?"""
    return ((st.slot_speaks[slot_of(st, seat)] >> st.role[seat]) & 1) != 0


@inlined
def is_blind(st, seat):
    """Does the seat's strategy decide without an observation (FLAG_BLIND)?"""
    return (st.slot_flags[slot_of(st, seat)] & FLAG_BLIND) != 0


@inlined
def ask(st, seat, kind, rng, observe, context):
    """The seat's decision of `kind` (the legal mask already set): the only legal action, or its
    strategy's choice after `observe(st, seat, context)` has filled its observation."""
    action = forced_action(st)
    if action >= 0:
        st.forced[kind] += 1
        return action
    st.decisions[kind] += 1
    slot = slot_of(st, seat)
    if st.slot_flags[slot] & FLAG_BLIND:
        obs = st.blank
    else:
        observe(st, seat, context)
        obs = st.obs
        obs[OBS_ME] = seat
        obs[OBS_ROLE] = st.role[seat]
        obs[OBS_FIRST] = st.first_seat
    obs[OBS_KIND] = kind
    st.asking_seat = seat
    st.asking_kind = kind
    memory = _ks.subarray(st.memory, st.memory_offset[seat, slot], st.slot_memory[slot])
    action = _ks.call_strategy(st.slot_address[slot], kind, obs,
                               _ks.flag_view(st.legal, st.n_actions), st.slot_params[slot],
                               memory, rng)
    if action < 0 or action >= st.n_actions or not st.legal[action]:
        st.returned = action
        raise IllegalAction("a strategy returned an illegal action")
    st.asking_seat = -1  # a fault from here on is not this strategy's
    return action


# --- caps -----------------------------------------------------------------------------------------
@inlined
def within_cap(st, cap, count, limit):
    """Stop the game when `count` is past `limit`, the most its rules allow of `cap` (a code of
    the game's declared CAPS): the run stops with a line naming the game, not a hang."""
    if count > limit:
        st.cap_passed = cap
        st.cap_limit = limit
        raise CapExceeded("a game went past a cap its rules declare")


# --- the trace ------------------------------------------------------------------------------------
@inlined
def tracing(st):
    """Is this game traced? (For trace-only work a game would otherwise skip.)"""
    return st.trace_rows < st.trace_limit


@inlined
def event(st, code, actor, target, value, extra):
    """One trace row: (the game's clock, code, actor, target, value, extra)."""
    k = st.trace_rows
    if k < st.trace_limit:
        rows = _ks.trace_view(st.trace_address, st.trace_capacity)
        rows[k, 0] = st.clock
        rows[k, 1] = code
        rows[k, 2] = actor
        rows[k, 3] = target
        rows[k, 4] = value
        rows[k, 5] = extra
        st.trace_rows = k + 1


# --- a game's start and end -----------------------------------------------------------------------
@inlined
def begin_game(st):
    """Zero every seat's strategy memory; open the trace for the game that is traced."""
    for i in range(st.memory_used):
        st.memory[i] = 0.0
    if st.trace_game < 0 or st.trace_game == st.game_index:
        st.trace_limit = st.trace_capacity
    else:
        st.trace_limit = 0
    st.clock = 0
    st.first_seat = -1
    st.margin = -1
    st.leader = -1
    st.first_leader = -1
    st.lead_changes = 0
    st.leads_noted = 0


# --- tempo: the first player, the lead, the margin ------------------------------------------------
@inlined
def first_player(st, seat):
    """Name the game's first player (first captain, start player): the engine then counts wins
    by position in turn order from it (position k: seat first + k, every game numbering its
    seats in its own turn order, clockwise or not)."""
    st.first_seat = seat


@inlined
def note_leader(st, seat):
    """Name the seat leading after a round (-1: nobody, or a tie): the engine counts whether the
    first round's leader wins and how often the lead changes hands."""
    if st.leads_noted == 0:
        st.first_leader = seat
    if seat >= 0:  # a tie keeps the last sole leader: A, tie, B is one change; A, tie, A none
        if st.leader >= 0 and seat != st.leader:
            st.lead_changes += 1
        st.leader = seat
    st.leads_noted += 1


@inlined
def tally_tempo(st):
    """The tempo tallies of a finished game (st.won is set)."""
    n = st.players
    if st.first_seat >= 0:
        winners = 0
        for seat in range(n):
            winners += st.won[seat]
        half = n // 2
        halves = 0
        for seat in range(n):
            position = seat - st.first_seat
            if position < 0:
                position += n
            won = st.won[seat]
            st.position_games[position] += 1
            st.position_wins[position] += won
            contrast = n * won - winners
            st.position_contrast_sq[position] += contrast * contrast
            if position < half:
                halves += won
            elif position >= n - half:
                halves -= won
        st.halves_contrast[0] += halves
        st.halves_contrast_sq[0] += halves * halves
    if st.margin >= 0:
        st.margin_hist[min(st.margin, st.margin_hist.size - 1)] += 1
    if st.first_leader >= 0:
        st.leader_games[0] += 1
        st.leader_wins[0] += st.won[st.first_leader]
    if st.leads_noted > 0:
        st.lead_changes_hist[min(st.lead_changes, st.lead_changes_hist.size - 1)] += 1


@inlined
def finish_game(st, winner, end, length):
    """The standard tallies of a finished game: `st.won` says which seats won, `winner` is the
    winning team (team games) or seat (individual games), -1 for a draw."""
    st.winner = winner
    st.games[0] += 1
    if winner < 0:
        st.draws[0] += 1
    elif st.team_game:
        st.team_wins[winner] += 1
    st.end_counts[end] += 1
    st.length_hist[min(length, st.length_hist.size - 1)] += 1
    winners = 0
    for seat in range(st.players):
        winners += st.won[seat]
    for seat in range(st.players):
        role = st.role[seat]
        slot = st.slot_table[seat, role]
        won = st.won[seat]
        st.seat_wins[seat] += won
        contrast = st.players * won - winners
        st.seat_contrast_sq[seat] += contrast * contrast
        st.role_games[role] += 1
        st.role_wins[role] += won
        st.slot_games[slot] += 1
        st.slot_wins[slot] += won
    tally_tempo(st)


@inlined
def finish_team_game(st, team, end, length):
    """A team game's end: every seat whose role is on `team` wins (-1: nobody, a draw)."""
    for seat in range(st.players):
        st.won[seat] = 1 if team >= 0 and st.role_team[st.role[seat]] == team else 0
    finish_game(st, team, end, length)


@inlined
def finish_individual_game(st, seat, end, length):
    """An individual game's end: `seat` wins alone (-1: nobody, a draw)."""
    for s in range(st.players):
        st.won[s] = 1 if s == seat else 0
    finish_game(st, seat, end, length)


# --- per-game moments of the ratios over seat-games -------------------------------------------------
# A rate over seat-games (a role's wins per role's seat-games) is a ratio of two sums over games;
# its variance needs each game's contributions: the engine keeps, for every tally declared per a
# count (base.clustered), the sums over games of y_g², x_g·y_g and x_g² (`<name>_by_game`).
@inlined
def remember_ratios(st):
    """Note every ratio's y and x now (before the first game)."""
    tallies = _ks.record_words(st, st.tally_offset, st.tally_words)
    at = 0
    for pair in range(st.moment_pairs):
        y, x, entries = st.moment_plan[pair, 0], st.moment_plan[pair, 1], st.moment_plan[pair, 2]
        for i in range(entries):
            st.moment_last[at] = tallies[y + i]
            st.moment_last[at + 1] = tallies[x + i]
            at += 2


@inlined
def add_game_moments(st):
    """Add this game's contributions' squares and products to the moments (after the game)."""
    tallies = _ks.record_words(st, st.tally_offset, st.tally_words)
    at = 0
    for pair in range(st.moment_pairs):
        y, x, entries = st.moment_plan[pair, 0], st.moment_plan[pair, 1], st.moment_plan[pair, 2]
        out = st.moment_plan[pair, 3]
        for i in range(entries):
            now_y = tallies[y + i]
            now_x = tallies[x + i]
            dy = now_y - st.moment_last[at]
            dx = now_x - st.moment_last[at + 1]
            st.moment_last[at] = now_y
            st.moment_last[at + 1] = now_x
            at += 2
            if dx != 0 or dy != 0:
                tallies[out + 3 * i] += dy * dy
                tallies[out + 3 * i + 1] += dx * dy
                tallies[out + 3 * i + 2] += dx * dx


@inlined
def play_games(st, games, rng):
    """The game loop of a game's `play` entry: the game's `play_game(st, rng)` plays one whole
    game, from the deal to its `finish_*`. It is called by its address in the state (set by the
    driver), so this entry compiles without it (see kernel_support)."""
    if st.game_address == 0:  # a state not made by driver.new_state: nothing to call
        raise ValueError("the state has no play_game to call (make it with driver.new_state)")
    rng = _ks.borrowed_rng(rng)
    remember_ratios(st)
    for _ in range(games):
        begin_game(st)
        _ks.call_game(st.game_address, st, rng)
        add_game_moments(st)
        st.game_index += 1
    return st.trace_rows
