"""The rules of The Werewolves in Village as small compiled functions (the forward model).

Seats are numbered clockwise 0..n-1. "The player to the right of X" is the next seat clockwise,
(X + 1) mod n; every clockwise distance below is measured that way. Each function is tested on
hand-built positions in tests/test_werewolf_rules.py and tests/test_werewolf_roles.py;
docs/rules/werewolf.md maps rules to tests.

Deaths: `kill` marks a seat dead at once and queues it; what a death sets off (a lover's grief, the
hunter's shot, the mayor's successor) is settled by the kernel, which asks those decisions.
"""

from simulator.games.engine import inlined, shuffle

from .declaration import (
    CAUSE, END, HUMAN, HUMAN_SIDE, MAX_PLAYERS, NOT_WOLF, OBS, ROLE, ROLE_TEAM, TIE, UNKNOWN,
    WOLF, WOLF_SIDE,
)
from .state import (
    alive, ballot, claimed, mayor_seat, named_clear, named_wolf, revealed, said, set_mayor, voted,
    votes,
)


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
    shuffle(target, n, rng)


@inlined
def reset_for_deal(st, n):
    """Everyone alive, nothing public yet, and each seat knowing only what the deal tells it: its
    own card; the werewolves each other (they wake together on night 1); the masons each other
    (they are called on night 1); the witch her two potions."""
    for i in range(n):
        alive(st)[i] = 1
        revealed(st)[i] = -1
        claimed(st)[i] = -1
        named_wolf(st)[i] = 0
        named_clear(st)[i] = 0
        votes(st)[i] = 0
        voted(st)[i] = -1
        ballot(st)[i] = -1
        for j in range(n):
            said(st)[i * MAX_PLAYERS + j] = -1
            st.known[i, j] = UNKNOWN  # the rest of the row (seats beyond n) is never read
        st.sentence[i] = 0
        st.lover[i] = -1
        st.charmed[i] = 0
        st.shielded[i] = 0
        st.last_protected[i] = -1
        st.marked[i] = 0
        st.night_death[i] = -1
        st.cause[i] = -1
        witch = 1 if st.role[i] == ROLE.witch else 0
        st.save_left[i] = witch
        st.poison_left[i] = witch
    set_mayor(st, -1)
    st.obs[OBS.hanged] = -1
    st.charmed_bits = 0
    st.cupid = -1
    st.owl_target = -1
    st.joins_pack = -1
    st.queued = 0
    st.settled = 0
    for r in range(st.in_play.size):
        st.in_play[r] = 0
    for i in range(n):
        role = st.role[i]
        st.in_play[role] += 1
        st.known[i, i] = role
        if role == ROLE.werewolf or role == ROLE.mason:
            for j in range(n):
                if st.role[j] == role:
                    st.known[i, j] = role


# --- camps and victory -----------------------------------------------------------------------------
@inlined
def camp_of(st, seat):
    """The camp a seat counts for in the victory rules (HUMAN, WOLF, or UNDECIDED: a paranoid
    before night 2)."""
    return st.role_camp[st.role[seat]]


@inlined
def living_counts(st, n):
    """(living humans, living wolf camp), by the camps the victory rules count."""
    humans = 0
    wolves = 0
    for i in range(n):
        if alive(st)[i]:
            camp = st.role_camp[st.role[i]]
            if camp == WOLF:
                wolves += 1
            elif camp == HUMAN:
                humans += 1
    return humans, wolves


@inlined
def lovers_across(st, a):
    """True if seat `a` has a lover and the two are in different camps (one wolf, one human)."""
    b = st.lover[a]
    if b < 0:
        return False
    ca = camp_of(st, a)
    cb = camp_of(st, b)
    return (ca == WOLF and cb == HUMAN) or (ca == HUMAN and cb == WOLF)


@inlined
def piper_has_won(st, n):
    """A living piper with every other living player charmed."""
    if st.in_play[ROLE.piper] == 0:
        return False
    for p in range(n):
        if alive(st)[p] and st.role[p] == ROLE.piper:
            everyone = True
            for j in range(n):
                if j != p and alive(st)[j] and not st.charmed[j]:
                    everyone = False
            if everyone:
                return True
    return False


@inlined
def victory(st, n):
    """End condition code, or -1 while the game goes on. Checked after every settled death and
    after the piper's charming. In order: 5. the piper's win; 4. lovers across the camps, the
    last two alive; 1. every player of the wolf camp dead -> humans win; 2. every human, or every
    human but one, dead -> wolves win; 3. the wolf camp at least as many as the humans -> wolves
    win."""
    if piper_has_won(st, n):
        return END.piper
    living = 0
    first = -1
    for i in range(n):
        if alive(st)[i]:
            living += 1
            if first < 0:
                first = i
    if living == 2 and st.lover[first] >= 0 and alive(st)[st.lover[first]] \
            and lovers_across(st, first):
        return END.lovers
    humans, wolves = living_counts(st, n)
    if wolves == 0:
        return END.wolves_dead
    if humans <= 1:
        return END.humans_gone
    if wolves >= humans:
        return END.parity
    return -1


@inlined
def camp_winner(end_code):
    """The camp an end condition makes win, or -1 (a lovers' or a piper's win)."""
    if end_code == END.wolves_dead:
        return HUMAN
    if end_code == END.lovers or end_code == END.piper:
        return -1
    return WOLF


@inlined
def mark_winners(st, n, end_code):
    """Set `st.won` for a finished game; returns the winning camp (-1: the lovers or the piper).

    A camp's win is won by every seat whose role is on it (the madman with the wolves, whatever
    the madman knob counts him as; a paranoid who never chose wins with nobody), except lovers
    across the camps, who win only together. The lovers' and the piper's wins are theirs alone."""
    winner = camp_winner(end_code)
    for s in range(n):
        won = 0
        if end_code == END.piper:
            won = 1 if alive(st)[s] and st.role[s] == ROLE.piper else 0
        elif end_code == END.lovers:
            won = 1 if alive(st)[s] else 0
        elif st.role[s] != ROLE.paranoid and ROLE_TEAM[st.role[s]] == winner \
                and not lovers_across(st, s):
            won = 1
        st.won[s] = won
    return winner


# --- night -------------------------------------------------------------------------------------
@inlined
def pack_leader(st, n):
    """The wolf who speaks for the pack: the living werewolf with the lowest seat (-1 if none)."""
    for i in range(n):
        if alive(st)[i] and st.role[i] == ROLE.werewolf:
            return i
    return -1


@inlined
def pack_meets(st, n):
    """The living werewolves wake together and know each other (a paranoid who became one meets
    the pack this way)."""
    for i in range(n):
        if alive(st)[i] and st.role[i] == ROLE.werewolf:
            for j in range(n):
                if alive(st)[j] and st.role[j] == ROLE.werewolf:
                    st.known[i, j] = ROLE.werewolf


@inlined
def reading(st, target):
    """What the seer or the medium is told: werewolf, or not a werewolf (a madman reads "not")."""
    return ROLE.werewolf if st.role[target] == ROLE.werewolf else NOT_WOLF


@inlined
def seer_learns(st, seer, target):
    """The seer learns whether the target is a werewolf, nothing more (not the lovers). Checking
    the hamster kills him at daybreak. Returns True for a werewolf."""
    st.known[seer, target] = reading(st, target)
    if st.role[target] == ROLE.hamster and st.night_death[target] < 0:
        st.night_death[target] = CAUSE.seer
    return st.known[seer, target] == ROLE.werewolf


@inlined
def medium_learns(st, medium, hanged):
    """The medium learns whether the player hanged that day was a werewolf."""
    st.known[medium, hanged] = reading(st, hanged)
    return st.known[medium, hanged] == ROLE.werewolf


@inlined
def protect(st, bodyguard, target):
    """The bodyguard protects `target` tonight (from the wolves only)."""
    st.shielded[target] = 1
    st.last_protected[bodyguard] = target


@inlined
def bodyguard_finds_witness(st, bodyguard, target):
    """Naming the witness is refused: the bodyguard must choose again and so learns who the
    witness is. Returns True if `target` is the witness."""
    if st.role[target] == ROLE.witness:
        st.known[bodyguard, target] = ROLE.witness
        return True
    return False


@inlined
def witness_sees(st, witness, n):
    """An unnoticed peek: the witness learns who the werewolves are (those who woke)."""
    for j in range(n):
        if alive(st)[j] and st.role[j] == ROLE.werewolf:
            st.known[witness, j] = ROLE.werewolf


@inlined
def attack(st, target):
    """The wolves' attack on `target` (a caught witness: the witness). Returns 1 if it will kill
    at daybreak, 0 if it kills nobody: the target is protected by a bodyguard, or the hamster."""
    if st.shielded[target] or st.role[target] == ROLE.hamster:
        return 0
    if st.night_death[target] < 0:
        st.night_death[target] = CAUSE.wolves
    return 1


@inlined
def revive(st, target):
    """The witch's revival: the attacked player does not die of the attack."""
    if st.night_death[target] == CAUSE.wolves:
        st.night_death[target] = -1


@inlined
def poison(st, target):
    """The witch's poison: the target dies at daybreak (even if protected, even the hamster)."""
    if st.night_death[target] < 0:
        st.night_death[target] = CAUSE.poison


@inlined
def link(st, cupid, a, b):
    """Cupid's lovers: each dies when the other does; they and cupid know who they are."""
    st.cupid = cupid
    st.lover[a] = b
    st.lover[b] = a


@inlined
def paranoid_becomes(st, paranoid, target):
    """Night 2: the paranoid is told "seer", "another human-camp role" or "a wolf-camp role" and
    becomes the target's role and camp. Returns the signal (ROLE.seer, HUMAN_SIDE, WOLF_SIDE)."""
    role = st.role[target]
    if role == ROLE.seer:
        signal = ROLE.seer
    elif ROLE_TEAM[role] == WOLF:
        signal = WOLF_SIDE
    else:
        signal = HUMAN_SIDE
    st.known[paranoid, target] = signal
    st.in_play[ROLE.paranoid] -= 1
    st.in_play[role] += 1
    st.role[paranoid] = role
    st.known[paranoid, paranoid] = role
    if role == ROLE.witch:
        st.save_left[paranoid] = 1
        st.poison_left[paranoid] = 1
    if role == ROLE.werewolf:
        st.joins_pack = paranoid
    return signal


@inlined
def charm(st, target):
    st.charmed[target] = 1
    st.charmed_bits |= 1 << target


@inlined
def death_mark_kills(st, seat):
    """A death god's mark kills unless the player is a werewolf or the hamster (a madman dies)."""
    return st.role[seat] != ROLE.werewolf and st.role[seat] != ROLE.hamster


# --- deaths ---------------------------------------------------------------------------------------
@inlined
def kill(st, seat, cause):
    """The seat dies now: it is marked dead and queued, so that what its death sets off is
    settled. Under rules.reveal_dead its card is shown."""
    alive(st)[seat] = 0
    st.cause[seat] = cause
    st.queue[st.queued] = seat
    st.queued += 1
    if st.reveal_dead:
        revealed(st)[seat] = st.role[seat]


@inlined
def hunter_may_shoot(st, seat):
    """A dying hunter may shoot unless the witch's poison killed him."""
    return st.role[seat] == ROLE.hunter and st.cause[seat] != CAUSE.poison


# --- day ---------------------------------------------------------------------------------------
@inlined
def clockwise_distance(origin, seat, n):
    """Seats from `origin` to `seat` going clockwise (0 for the origin itself)."""
    distance = seat - origin
    return distance + n if distance < 0 else distance


@inlined
def vote_weight(st, seat):
    """The mayor's vote counts twice."""
    return 2 if seat == mayor_seat(st) else 1


@inlined
def publish_claim(st, claimant, role, target, is_wolf):
    """A public claim: "I am the <role> and <target> is (not) a werewolf"."""
    claimed(st)[claimant] = role
    said(st)[claimant * MAX_PLAYERS + target] = 1 if is_wolf else 0
    if is_wolf:
        named_wolf(st)[target] += 1
    else:
        named_clear(st)[target] += 1


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
def tie_place(st, seat, reference, n):
    """A seat's place in the day's ties (lower wins): its clockwise distance from the night's wolf
    victim (the text's rule). When the reference seat is alive (a night without a death), by
    `rules.tie_reference`: "first" keeps the distance (he is at 0 and wins every tie he is in),
    "after" counts from the seat after him (he comes last), "random" reads the order drawn at
    daybreak (`draw_tie_order`)."""
    distance = clockwise_distance(reference, seat, n)
    if st.tie_reference == TIE.first or not alive(st)[reference]:
        return distance
    if st.tie_reference == TIE.after:
        return distance - 1 if distance > 0 else n - 1
    return st.tie_rank[seat]


@inlined
def draw_tie_order(st, n, reference, rng):
    """At daybreak under `rules.tie_reference = "random"` with a living reference seat: the day's
    tie order, a uniform permutation of the seats. (No draw otherwise, so the other rules play
    the same games whatever this knob could have drawn.)"""
    if st.tie_reference == TIE.random and alive(st)[reference]:
        for seat in range(n):
            st.scratch[seat] = seat
        shuffle_into(st.tie_rank, st.scratch, n, rng)


@inlined
def beats(st, votes_a, seat_a, votes_b, seat_b, reference, n):
    """True if seat_a ranks above seat_b: more votes, or equal votes and first in the day's tie
    order (`tie_place`: nearer clockwise to the night's wolf victim; the text's tie rule for both
    votes)."""
    if votes_a != votes_b:
        return votes_a > votes_b
    return tie_place(st, seat_a, reference, n) < tie_place(st, seat_b, reference, n)


@inlined
def top_living(st, n, reference, counts, exclude):
    """The living seat ranked first by `counts` (ties: nearer clockwise to the reference),
    `exclude` left out; -1 if none. Also says whether a tie decided the place."""
    first = -1
    for seat in range(n):
        if alive(st)[seat] and seat != exclude:
            if first < 0 or beats(st, counts[seat], seat, counts[first], first, reference, n):
                first = seat
    tied = False
    if first >= 0:
        for seat in range(n):
            if alive(st)[seat] and seat != exclude and seat != first \
                    and counts[seat] == counts[first]:
                tied = True
    return first, tied


@inlined
def choose_suspects(st, n, reference):
    """The suspect vote's result: (footprint, fur, tied).

    The owl man's living suspect gets the footprint unconditionally and the most-voted other
    player the fur; with no owl man's suspect (none named, or dead) the two most-voted get them.
    Ties go to the seat nearer clockwise to the reference seat. `tied` says whether a tie decided
    a card. (One pass ranks the top two, one more looks for ties.)"""
    counts = votes(st)
    living = alive(st)
    owl = st.owl_target
    fixed = owl if owl >= 0 and living[owl] else -1
    first = -1
    second = -1
    for seat in range(n):
        if not living[seat] or seat == fixed:
            continue
        if first < 0 or beats(st, counts[seat], seat, counts[first], first, reference, n):
            second = first
            first = seat
        elif second < 0 or beats(st, counts[seat], seat, counts[second], second, reference, n):
            second = seat
    if fixed >= 0:  # the footprint is the owl man's; the ranking gives the fur only
        footprint, fur, last = fixed, first, first
        tied = False
    else:
        footprint, fur, last = first, second, second
        tied = counts[first] == counts[second]
    for seat in range(n):
        if living[seat] and seat != fixed and seat != first and seat != last \
                and counts[seat] == counts[last]:
            tied = True
    return footprint, fur, tied


@inlined
def sentence_result(st, suspect_a, suspect_b, reference, n):
    """The suspect with more sentence votes is hanged (the mayor's ballot counts twice); a tie
    hangs the one nearer clockwise to the night's wolf victim. Returns (hanged, tied)."""
    va = st.sentence[suspect_a]
    vb = st.sentence[suspect_b]
    if beats(st, va, suspect_a, vb, suspect_b, reference, n):
        return suspect_a, va == vb
    return suspect_b, va == vb
