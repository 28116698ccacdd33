"""The rules of The Werewolves in Village as small pure @njit functions (the forward model).

Seats are numbered clockwise 0..n-1. "The player to the right of X" is the next seat clockwise,
(X + 1) mod n; every clockwise distance below is measured that way. Each function is tested on
hand-built positions in tests/test_werewolf_rules.py; docs/rules/werewolf.md maps rules to tests.
"""

from simulator.games.engine import inlined, uniform_index

from .declaration import END, HUMAN, ROLE_TEAM, UNKNOWN, WOLF
from .state import alive, claimed_seer, named_wolf, votes


# --- setup -------------------------------------------------------------------------------------
def wolves_for_players(players, thresholds):
    """Werewolves dealt for a head count: the last threshold (players_from, wolves) that applies.

    The text: 2 wolves for 8 role players and up, 3 from 16, 4 from 20 ("剩餘人數").
    """
    wolves = 0
    for players_from, count in sorted(thresholds):
        if players >= players_from:
            wolves = count
    return wolves


@inlined
def shuffle_into(target, source, n, rng):
    """Deal: copy the first n entries of `source` into `target` and shuffle them uniformly
    (Fisher–Yates)."""
    for i in range(n):
        target[i] = source[i]
    for i in range(n - 1, 0, -1):
        j = uniform_index(i + 1, rng)
        tmp = target[i]
        target[i] = target[j]
        target[j] = tmp


@inlined
def reset_for_deal(st, n):
    """Everyone alive, nothing known but what the deal itself tells (own team; wolves know wolves)."""
    for i in range(n):
        alive(st)[i] = 1
        named_wolf(st)[i] = 0
        claimed_seer(st)[i] = 0
        votes(st)[i] = 0
        st.sentence[i] = 0
        for j in range(n):  # the rest of the row (seats beyond n) is never read
            st.known_team[i, j] = UNKNOWN
    for i in range(n):
        st.known_team[i, i] = ROLE_TEAM[st.role[i]]
        if ROLE_TEAM[st.role[i]] == WOLF:
            # werewolves wake together on the first night and know each other
            for j in range(n):
                if ROLE_TEAM[st.role[j]] == WOLF:
                    st.known_team[i, j] = WOLF


# --- counting and victory ----------------------------------------------------------------------
@inlined
def is_wolf(role):
    return ROLE_TEAM[role] == WOLF


@inlined
def living_counts(st, n):
    """(living humans, living wolves): humans are everyone not on the wolf team."""
    humans = 0
    wolves = 0
    for i in range(n):
        if alive(st)[i]:
            if ROLE_TEAM[st.role[i]] == WOLF:
                wolves += 1
            else:
                humans += 1
    return humans, wolves


@inlined
def victory(st, n):
    """End condition code, or -1 while the game goes on. Checked after every death.

    1. every werewolf dead -> humans win; 2. every human, or every human but one, dead -> wolves
    win; 3. wolves alive equal humans alive -> wolves win. (Deaths come one at a time here, so
    "equal" is the first moment wolves are not outnumbered.)
    """
    humans, wolves = living_counts(st, n)
    if wolves == 0:
        return END.wolves_dead
    if humans <= 1:
        return END.humans_gone
    if wolves >= humans:
        return END.parity
    return -1


@inlined
def winner_of(end_code):
    return HUMAN if end_code == END.wolves_dead else WOLF


# --- night -------------------------------------------------------------------------------------
@inlined
def pack_leader(st, n):
    """The wolf who speaks for the pack: the living werewolf with the lowest seat (-1 if none)."""
    for i in range(n):
        if alive(st)[i] and ROLE_TEAM[st.role[i]] == WOLF:
            return i
    return -1


@inlined
def first_living_with_role(st, n, role):
    for i in range(n):
        if alive(st)[i] and st.role[i] == role:
            return i
    return -1


@inlined
def seer_learns(st, seer, target):
    """The seer sees whether the target is a werewolf: the target's team, nothing more."""
    st.known_team[seer, target] = ROLE_TEAM[st.role[target]]
    return st.known_team[seer, target]


@inlined
def kill(st, seat):
    alive(st)[seat] = 0


# --- day ---------------------------------------------------------------------------------------
@inlined
def clockwise_distance(origin, seat, n):
    """Seats from `origin` to `seat` going clockwise (0 for the origin itself)."""
    distance = seat - origin
    return distance + n if distance < 0 else distance


@inlined
def publish_claim(st, claimant, target):
    """A public claim "I am the seer and seat `target` is a werewolf"."""
    named_wolf(st)[target] = 1
    claimed_seer(st)[claimant] = 1


@inlined
def suspect_vote_order(st, n, reference, order):
    """Fill `order` with the living seats in voting order: clockwise from the reference's right.

    Returns how many seats were written.
    """
    k = 0
    for step in range(1, n + 1):
        seat = reference + step  # (reference + step) mod n, without a division per seat
        if seat >= n:
            seat -= n
        if alive(st)[seat]:
            order[k] = seat
            k += 1
    return k


@inlined
def beats(votes_a, seat_a, votes_b, seat_b, reference, n):
    """True if seat_a ranks above seat_b: more votes, or equal votes and nearer clockwise to the
    night's wolf victim (the text's tie rule for both votes)."""
    if votes_a != votes_b:
        return votes_a > votes_b
    return clockwise_distance(reference, seat_a, n) < clockwise_distance(reference, seat_b, n)


@inlined
def choose_suspects(st, n, reference):
    """The suspect vote's result: (footprint, fur, tied) for the top two living vote-getters.

    With no owl man, the most-voted gets the footprint and the second the fur; ties are broken by
    clockwise distance from the reference seat. `tied` says whether a tie decided a place.
    """
    first = -1
    second = -1
    for seat in range(n):
        if not alive(st)[seat]:
            continue
        if first < 0 or beats(votes(st)[seat], seat, votes(st)[first], first, reference, n):
            second = first
            first = seat
        elif second < 0 or beats(votes(st)[seat], seat, votes(st)[second], second, reference, n):
            second = seat
    tied = False
    if second >= 0:
        for seat in range(n):
            if alive(st)[seat] and seat != first and seat != second:
                if votes(st)[seat] == votes(st)[second]:
                    tied = True
        if votes(st)[first] == votes(st)[second]:
            tied = True
    return first, second, tied


@inlined
def sentence_result(st, suspect_a, suspect_b, reference, n):
    """The suspect with more sentence votes is hanged; a tie hangs the one nearer clockwise to the
    night's wolf victim. Returns (hanged, tied)."""
    va = st.sentence[suspect_a]
    vb = st.sentence[suspect_b]
    if beats(va, suspect_a, vb, suspect_b, reference, n):
        return suspect_a, va == vb
    return suspect_b, va == vb
