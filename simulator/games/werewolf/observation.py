"""What a seat may see: the observation vector and the legal-action mask for each decision.

These functions are the only bridge from the state to a strategy. The observation holds the public
record (kept in the observation itself, see state.py), the seat's own role and what the seat has
learnt privately: its own row of `known`, the lovers if it is one of them or cupid, the charmed if
it is the piper or charmed, the witch's potions, the bodyguard's last protection. Never another
seat's secret. The engine writes the decision kind, the seat and its role when it asks.
"""

from simulator.games.engine import (
    allow, clear_legal, forbid, inlined, shuffle_at, uniform_index,
)

from .declaration import MAX_PLAYERS, N_ROLES, NO, OBS, ROLE, UNKNOWN, YES
from .state import alive, claimed


@inlined
def observe(st, me, context):
    """The observation of seat `me` for a decision. `context` is (day, victim, suspect_a,
    suspect_b): the victim piece is the reference seat by day and the attacked seat for the
    witch's revival."""
    day, victim, suspect_a, suspect_b = context
    obs = st.obs
    obs[OBS.day] = day
    obs[OBS.victim] = victim
    obs[OBS.suspect_a] = suspect_a
    obs[OBS.suspect_b] = suspect_b
    for j in range(st.players):
        obs[OBS.known + j] = st.known[me, j]
    role = st.role[me]
    partner = st.lover[me]
    if partner >= 0 or me == st.cupid:
        a, b = lovers_of(st)
        obs[OBS.lovers] = a
        obs[OBS.lovers + 1] = b
    else:
        obs[OBS.lovers] = -1
        obs[OBS.lovers + 1] = -1
    obs[OBS.charmed] = st.charmed_bits if (st.charmed[me] or role == ROLE.piper) else 0
    witch = role == ROLE.witch
    obs[OBS.potions] = st.save_left[me] if witch else 0
    obs[OBS.potions + 1] = st.poison_left[me] if witch else 0
    obs[OBS.protected] = st.last_protected[me] if role == ROLE.bodyguard else -1


@inlined
def lovers_of(st):
    """The two lovers (lower seat first), or (-1, -1)."""
    for j in range(st.players):
        if st.lover[j] >= 0:
            return j, st.lover[j]
    return -1, -1


# --- legal masks ------------------------------------------------------------------------------
@inlined
def legal_living(st, n, exclude):
    """Legal: every living seat except `exclude` (-1 excludes nobody)."""
    clear_legal(st)
    living = alive(st)
    for j in range(n):
        if living[j] and j != exclude:
            allow(st, j)


@inlined
def legal_yes_no(st):
    clear_legal(st)
    allow(st, NO)
    allow(st, YES)


@inlined
def legal_kill(st, n):
    """The pack's victim: any living player (a werewolf too), never a living werewolf's lover
    (lovers never kill each other)."""
    legal_living(st, n, -1)
    for j in range(n if st.in_play[ROLE.cupid] else 0):  # lovers only where cupid is dealt
        if alive(st)[j] and st.role[j] == ROLE.werewolf and st.lover[j] >= 0:
            forbid(st, st.lover[j])
    if st.legal_count == 0:  # every living player is a wolf's lover: the pack must still choose
        legal_living(st, n, -1)


@inlined
def legal_claim(st, n, me):
    """Discussion: pass, or as the seer say of another living seat that it is (s) or is not
    (n + s) a werewolf. A seat that claimed the medium may only pass."""
    clear_legal(st)
    allow(st, 2 * n)  # pass
    if claimed(st)[me] == ROLE.medium:
        return
    for j in range(n):
        if alive(st)[j] and j != me:
            allow(st, j)
            allow(st, n + j)


@inlined
def legal_medium_claim(st, n, me, hanged):
    """Discussion: pass, or as the medium say the last hanged player was (h) or was not (n + h)
    a werewolf. A seat that claimed the seer may only pass."""
    clear_legal(st)
    allow(st, 2 * n)
    if claimed(st)[me] != ROLE.seer:
        allow(st, hanged)
        allow(st, n + hanged)


@inlined
def legal_pass_or_living(st, n, exclude, lover):
    """A seat, or pass: every living seat but `exclude` and `lover` (-1 for none)."""
    legal_living(st, n, exclude)
    if lover >= 0:
        forbid(st, lover)
    allow(st, 2 * n)


@inlined
def legal_pair(st, a, b):
    """Legal in the sentence vote: one of the two suspects."""
    clear_legal(st)
    allow(st, a)
    allow(st, b)


@inlined
def scramble_hidden(st, me, rng):
    """Replace every fact of the state that seat `me` cannot know by another possibility (the
    contract suite poisons the observation's private pieces itself, then checks that `me`'s
    observation does not change): the roles of the seats it knows nothing of are
    shuffled among them (the public setup stays the same), every other seat's private knowledge,
    the secret sentence ballots and tonight's secrets are made up; the lovers, unless `me` knows
    them, and the charmed, unless `me` is the piper or charmed, are drawn again."""
    n = st.players
    unknown = st.scratch
    count = 0
    for j in range(n):
        if st.known[me, j] == UNKNOWN and st.obs[OBS.revealed + j] < 0:
            unknown[count] = j
            count += 1
    shuffle_at(st.role, unknown, count, rng)
    for i in range(n):
        if i != me:
            for j in range(n):
                st.known[i, j] = uniform_index(N_ROLES + 1, rng) - 1
            st.save_left[i] = uniform_index(2, rng)
            st.poison_left[i] = uniform_index(2, rng)
            st.last_protected[i] = uniform_index(n, rng)
        st.sentence[i] = uniform_index(n, rng)
        st.shielded[i] = uniform_index(2, rng)
        st.marked[i] = uniform_index(2, rng)
        st.night_death[i] = uniform_index(2, rng) - 1
    st.owl_target = uniform_index(n, rng)
    if st.lover[me] < 0 and me != st.cupid:
        for i in range(n):
            st.lover[i] = -1
        x = uniform_index(n, rng)
        y = uniform_index(n, rng)
        if x != y and x != me and y != me:
            st.lover[x] = y
            st.lover[y] = x
            st.cupid = -1
    if not (st.charmed[me] or st.role[me] == ROLE.piper):
        bits = 0
        for i in range(n):
            st.charmed[i] = 0
            if i != me and uniform_index(2, rng):
                st.charmed[i] = 1
                bits |= 1 << i
        st.charmed_bits = bits
    for i in range(MAX_PLAYERS):  # (keeps the scratch row's use here from leaking)
        st.scratch[i] = 0
