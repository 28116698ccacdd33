"""The rules of Chenghuang as small pure functions (the forward model).

Seats are numbered clockwise 0..n-1; "passes clockwise" is from seat s to seat (s + 1) mod n.
Holdings are counts per card kind (cards of a kind are interchangeable). Each function is compiled
with the engine's `compiled` (cached, no reference counting: they never allocate) and tested on
hand-built positions in tests/test_chenghuang_rules.py and tests/test_chenghuang_phases.py;
docs/rules/chenghuang.md maps every rule to its test.
"""

from simulator.games.engine import compiled, shuffle, uniform_index

from .declaration import (
    ANSWER, CARD, FACE_DOWN, FAN_MODE, HAND, N_KINDS, N_ROLES, POINTS_LEN, ROLE, S_MODE, SET_LEN, T,
)

# A role without a scoring ability: its derived points (T.points) are the printed ones.
PRINTED = ROLE.general_liu


# --- chance ---------------------------------------------------------------------------------------
@compiled
def draw_from(counts, rng):
    """Remove one card uniformly at random from a count vector; returns its kind (-1 if empty)."""
    total = 0
    for k in range(counts.size):
        total += counts[k]
    if total == 0:
        return -1
    pick = uniform_index(total, rng)
    for k in range(counts.size):
        if pick < counts[k]:
            counts[k] -= 1
            return k
        pick -= counts[k]
    return -1


# --- scoring --------------------------------------------------------------------------------------
@compiled
def kind_points(table, t0, kind, count):
    """Printed points of `count` cards of a kind: per-card points plus the set table.

    With the official table a 4th and later 忠信 / 孝行 adds nothing (the set row is flat from 3).
    """
    c = count if count < SET_LEN else SET_LEN - 1
    return table[t0 + T.each + kind] * count + table[t0 + T.set + kind * SET_LEN + c]


@compiled
def role_kind_points(table, t0, kind, count, role):
    """Points of `count` cards of one kind for a player holding `role`, by the rule (武判's named
    kind aside): 牛頭: 殺生 points are multiplied by T.ox. 謝將軍: +T.xie per 忠信 and per 孝行
    card. The table's derived entries (T.points) hold these values; see `kind_score`."""
    points = kind_points(table, t0, kind, count)
    if role == ROLE.ox_head and kind == CARD.killing:
        points *= table[t0 + T.ox]
    elif role == ROLE.general_xie and (kind == CARD.loyalty or kind == CARD.filial):
        points += table[t0 + T.xie] * count
    return points


@compiled
def derive_scoring(table):
    """Fill the table's derived entries (T.points, T.set_kind) from its printed ones; done once,
    when the table is built."""
    for role in range(N_ROLES):
        for kind in range(N_KINDS):
            row = T.points + (role * N_KINDS + kind) * POINTS_LEN
            for count in range(POINTS_LEN):
                table[row + count] = role_kind_points(table, 0, kind, count, role)
    for kind in range(N_KINDS):
        table[T.set_kind + kind] = 0
        for c in range(SET_LEN):
            if table[T.set + kind * SET_LEN + c] != 0:
                table[T.set_kind + kind] = 1


@compiled
def kind_score(table, t0, kind, count, role, judge_kind):
    """Points of `count` cards of one kind for a player holding `role`.

    武判: every card of the named kind scores T.judge (set kinds too: 3 忠信 score 15).
    Otherwise `role_kind_points`, read from the table's derived entries (T.points: scoring is
    the hottest rule, and they save the set-table arithmetic and the role tests). From
    POINTS_LEN - 2 cards on every further card adds the same points (past the set table), so
    larger counts extend the last step.
    """
    if role == ROLE.martial_judge and kind == judge_kind:
        return table[t0 + T.judge] * count
    row = t0 + T.points + (role * N_KINDS + kind) * POINTS_LEN
    if count < POINTS_LEN:
        return table[row + count]
    last = table[row + POINTS_LEN - 1]
    return last + (count - POINTS_LEN + 1) * (last - table[row + POINTS_LEN - 2])


@compiled
def showdown_score(table, t0, counts, c0, role, judge_kind):
    """A player's score as compared at the showdown: every kind, the S abilities and 刑具爺's +3;
    not 范將軍's penalty (it comes later, at scoring)."""
    total = 0
    for k in range(N_KINDS):
        total += kind_score(table, t0, k, counts[c0 + k], role, judge_kind)
    if role == ROLE.lord_of_implements:
        total += table[t0 + T.implements]
    return total


@compiled
def most_valuable_pair(table, counts, role, judge_kind):
    """The two cards whose removal lowers the score the most, evaluated exactly over all pairs
    (set kinds make single-card values misleading). Returns (kind a, kind b), a <= b; among equal
    pairs the lowest kind codes. With one card: (kind, -1); with none: (-1, -1).

    A score is a sum over kinds, so a pair's loss is what each kind loses (both cards of one kind:
    what that kind loses with two fewer)."""
    held = 0
    for k in range(N_KINDS):
        held += counts[k]
    if held == 0:
        return -1, -1
    if held == 1:
        for k in range(N_KINDS):
            if counts[k] > 0:
                return k, -1
    best_a = -1
    best_b = -1
    best = 0
    for a in range(N_KINDS):
        if counts[a] == 0:
            continue
        now_a = kind_score(table, 0, a, counts[a], role, judge_kind)
        loss_a = now_a - kind_score(table, 0, a, counts[a] - 1, role, judge_kind)
        for b in range(a, N_KINDS):
            if b == a:
                if counts[a] < 2:
                    continue
                loss = now_a - kind_score(table, 0, a, counts[a] - 2, role, judge_kind)
            else:
                if counts[b] == 0:
                    continue
                loss = loss_a + (kind_score(table, 0, b, counts[b], role, judge_kind)
                                 - kind_score(table, 0, b, counts[b] - 1, role, judge_kind))
            if best_a < 0 or loss > best:
                best = loss
                best_a = a
                best_b = b
    return best_a, best_b


@compiled
def fan_adjust(table, scores, held, n, fan, target):
    """范將軍 at the start of scoring. minus-one: the target loses T.fan_amount per card it holds;
    steal: up to T.fan_amount points of the target's round move to 范將軍. Returns points moved."""
    amount = table[T.fan_amount]
    if table[T.fan_mode] == FAN_MODE.steal_four:
        taken = min(amount, max(scores[target], 0))
        scores[target] -= taken
        scores[fan] += taken
        return taken
    cards = 0
    for k in range(N_KINDS):
        cards += held[target, k]
    scores[target] -= amount * cards
    return amount * cards


@compiled
def floor_scores(scores, n):
    """A round score is never below 0."""
    for s in range(n):
        if scores[s] < 0:
            scores[s] = 0


# --- ties and leaders -----------------------------------------------------------------------------
@compiled
def extremes(values, n, tied, highest):
    """Mark in `tied` the seats with the highest (or lowest) value; returns (how many, value)."""
    best = values[0]
    for s in range(1, n):
        if (values[s] > best) if highest else (values[s] < best):
            best = values[s]
    count = 0
    for s in range(n):
        if values[s] == best:
            tied[s] = 1
            count += 1
        else:
            tied[s] = 0
    return count, best


@compiled
def sole_top(values, n):
    """The seat with the highest value alone, or -1 when several share it."""
    best = 0
    count = 0
    for s in range(n):
        if s == 0 or values[s] > values[best]:
            best = s
            count = 1
        elif values[s] == values[best]:
            count += 1
    return best if count == 1 else -1


@compiled
def winning_margin(totals, winner, n):
    """The winner's lead over the best of the others (0 after a tie)."""
    second = -(1 << 62)
    for s in range(n):
        if s != winner and totals[s] > second:
            second = totals[s]
    return max(totals[winner] - second, 0)


@compiled
def first_marked(tied, n):
    for s in range(n):
        if tied[s]:
            return s
    return -1


@compiled
def next_captain_candidates(round_scores, n, tied):
    """Next round's captain: the lowest score of this round (ties: the captain picks)."""
    return extremes(round_scores, n, tied, False)


@compiled
def is_highest(showdown, n, seat):
    """The showdown test: a tie for the top score counts as highest."""
    for s in range(n):
        if showdown[s] > showdown[seat]:
            return False
    return True


# --- deal and draft -------------------------------------------------------------------------------
@compiled
def deal_roles(st, pool, n, rng):
    """Shuffle the role pool (the state's, kept shuffled from round to round) and deal one face
    up to each player; the rest are out."""
    shuffle(pool, pool.size, rng)
    for s in range(n):
        st.role[s] = pool[s]


@compiled
def deal_packs(st, deck, n, rng):
    """Shuffle the deck (the state's, kept shuffled from round to round) and deal 6 cards to each
    player (its first pack); the rest is set aside."""
    shuffle(deck, deck.size, rng)
    for s in range(n):
        for k in range(N_KINDS):
            st.packs[s, k] = 0
            st.held[s, k] = 0
        for i in range(HAND):
            st.packs[s, deck[s * HAND + i]] += 1


@compiled
def pack_in_hand(seat, pick, n):
    """At pick `pick` (0-based) seat s holds the pack first dealt to seat s - pick: every pick the
    packs move one seat clockwise. (seat - pick) mod n, without a division."""
    pack = seat - pick
    while pack < 0:
        pack += n
    return pack


@compiled
def draft_pick(st, seat, pack, kind):
    st.packs[pack, kind] -= 1
    st.held[seat, kind] += 1


@compiled
def discard(st, seat, kind):
    """The face-down discard after the draft: only the discarding seat knows it."""
    st.held[seat, kind] -= 1
    st.pile[kind] += 1
    st.pile_known[seat, kind] += 1


@compiled
def recount(st, n, seat):
    """Recount what can be known of `seat`'s layout (pub_count, peek_count) and its face-up and
    face-down cards (up_count, down_count) from its slots; every rule that changes a layout calls
    it, so the counts always agree with the slots. (Looks are rare, so the per-viewer counts are
    only redone for a seat that has or had a looked-at card.)"""
    any_seen = 0
    for k in range(N_KINDS):
        st.pub_count[seat, k] = 0
        st.up_count[seat, k] = 0
        st.down_count[seat, k] = 0
    for i in range(st.n_slots[seat]):
        kind = st.slot_kind[seat, i]
        up = st.slot_up[seat, i]  # 1 face up, 0 face down
        st.up_count[seat, kind] += up
        st.down_count[seat, kind] += 1 - up
        if up == 1 or st.slot_public[seat, i] == 1:
            st.pub_count[seat, kind] += 1
        else:
            any_seen |= st.slot_seen[seat, i]
    if any_seen == 0 and st.peeked[seat] == 0:
        return
    for v in range(n):
        for k in range(N_KINDS):
            st.peek_count[v, seat, k] = 0
    for i in range(st.n_slots[seat]):
        if st.slot_up[seat, i] == 0 and st.slot_public[seat, i] == 0:
            seen = st.slot_seen[seat, i]
            for v in range(n):
                if ((seen >> v) & 1) == 1:
                    st.peek_count[v, seat, st.slot_kind[seat, i]] += 1
    st.peeked[seat] = 1 if any_seen != 0 else 0


@compiled
def face_down_count(role):
    """柳將軍 lays out 3 face down (2 up); everyone else 2 face down (3 up)."""
    return 3 if role == ROLE.general_liu else 2


@compiled
def lay_out(st, n, seat, down):
    """Lay out the held cards: `down[k]` of kind k face down, the rest face up. Nothing of a fresh
    layout is public or has been looked at, so its counts are set here (what `recount` finds)."""
    i = 0
    for k in range(N_KINDS):
        held = st.held[seat, k]
        hidden = down[k]
        for c in range(held):
            st.slot_kind[seat, i] = k
            st.slot_up[seat, i] = 1 if c >= hidden else 0
            st.slot_public[seat, i] = 0
            st.slot_seen[seat, i] = 0
            i += 1
        st.up_count[seat, k] = held - hidden
        st.down_count[seat, k] = hidden
        st.pub_count[seat, k] = held - hidden
    st.n_slots[seat] = i
    if st.peeked[seat] != 0:
        for v in range(n):
            for k in range(N_KINDS):
                st.peek_count[v, seat, k] = 0
        st.peeked[seat] = 0


@compiled
def add_slot(st, seat, kind, up, public, seen):
    i = st.n_slots[seat]
    st.slot_kind[seat, i] = kind
    st.slot_up[seat, i] = up
    st.slot_public[seat, i] = public
    st.slot_seen[seat, i] = seen
    st.n_slots[seat] = i + 1
    st.held[seat, kind] += 1


@compiled
def remove_slot(st, seat, i):
    """Take card i off a layout (before the reveal); returns its kind."""
    kind = st.slot_kind[seat, i]
    last = st.n_slots[seat] - 1
    st.slot_kind[seat, i] = st.slot_kind[seat, last]
    st.slot_up[seat, i] = st.slot_up[seat, last]
    st.slot_public[seat, i] = st.slot_public[seat, last]
    st.slot_seen[seat, i] = st.slot_seen[seat, last]
    st.n_slots[seat] = last
    st.held[seat, kind] -= 1
    return kind


@compiled
def knows_slot(st, viewer, seat, i):
    """Does `viewer` know the kind of card i of `seat`'s layout (before the reveal)?"""
    if viewer == seat or st.slot_up[seat, i] == 1 or st.slot_public[seat, i] == 1:
        return True
    return ((st.slot_seen[seat, i] >> viewer) & 1) == 1


# --- abilities, in order 1..4 ---------------------------------------------------------------------
@compiled
def judge_names(st, n, seat, kind):
    """武判 (1) names a kind and turns all its cards of that kind sideways, face-down ones too: from
    now on their number and places are public."""
    st.judge_kind = kind
    for i in range(st.n_slots[seat]):
        if st.slot_kind[seat, i] == kind:
            st.slot_public[seat, i] = 1
    # The counts, as `recount` would find them: every card of the kind is public now, so none of
    # them counts as looked at.
    st.pub_count[seat, kind] = st.held[seat, kind]
    for v in range(n):
        st.peek_count[v, seat, kind] = 0


@compiled
def gan_draw(st, drawn, rng):
    """甘將軍 (2) draws 2 cards at random from the discard pile into `drawn` (counts by kind).
    Returns how many it drew (fewer if the pile is short)."""
    for k in range(N_KINDS):
        drawn[k] = 0
    got = 0
    for _ in range(2):
        kind = draw_from(st.pile, rng)
        if kind < 0:
            break
        drawn[kind] += 1
        got += 1
    return got


@compiled
def gan_keep(st, n, seat, drawn, kind):
    """甘將軍 adds the chosen drawn card to its layout face down and returns the other to the pile.
    Returns the returned kind (-1 if it drew one card only). Its pile knowledge: it cannot tell
    which copy of a kind it drew, so a drawn kind lowers what it knew there, and the returned card
    is known to be in the pile."""
    drawn[kind] -= 1
    add_slot(st, seat, kind, 0, 0, 0)
    st.down_count[seat, kind] += 1  # a face-down card nobody else knows: the only count it moves
    back = -1
    for k in range(N_KINDS):
        if drawn[k] > 0:
            back = k
    for k in range(N_KINDS):
        taken = drawn[k] + (1 if k == kind else 0)
        st.pile_known[seat, k] = max(st.pile_known[seat, k] - taken, 0)
    if back >= 0:
        drawn[back] -= 1
        st.pile[back] += 1
        st.pile_known[seat, back] += 1
    return back


@compiled
def peekable(st, viewer, seat):
    """Face-down cards of `seat` (another seat) whose kind `viewer` does not know: its layout less
    the cards anyone can name and those `viewer` has looked at (the counts `recount` keeps)."""
    count = st.n_slots[seat]
    for k in range(N_KINDS):
        count -= st.pub_count[seat, k] + st.peek_count[viewer, seat, k]
    return count


@compiled
def peek(st, n, viewer, seat, rng):
    """刑具爺 (3) looks at a face-down card of `seat` it has not seen (uniform among those);
    returns its kind."""
    pick = uniform_index(peekable(st, viewer, seat), rng)
    for i in range(st.n_slots[seat]):
        if not knows_slot(st, viewer, seat, i):
            if pick == 0:
                st.slot_seen[seat, i] |= 1 << viewer
                st.peek_count[viewer, seat, st.slot_kind[seat, i]] += 1
                st.peeked[seat] = 1
                return st.slot_kind[seat, i]
            pick -= 1
    return -1


@compiled
def find_slot(st, seat, kind, up, skip):
    """The first card of `seat`'s layout with that kind and face (1 up, 0 down), not slot `skip`."""
    for i in range(st.n_slots[seat]):
        if i != skip and st.slot_kind[seat, i] == kind and st.slot_up[seat, i] == up:
            return i
    return -1


@compiled
def source_slot(st, seat, source):
    """The layout slot a 文判 source action names (0-5 face up, 6-11 face down)."""
    if source < FACE_DOWN:
        return find_slot(st, seat, source, 1, -1)
    return find_slot(st, seat, source - FACE_DOWN, 0, -1)


@compiled
def scribe(st, n, seat, source, target):
    """文判 (4) slides one of its cards face down under another card: from now on it is a card of
    the copied kind (its own points and function no longer count). A copy of a face-up card is
    public; a copy of an own face-down card is known to 文判 and to whoever saw that card.
    Returns the copied kind."""
    i = source_slot(st, seat, source)
    old = st.slot_kind[seat, i]
    if target < FACE_DOWN:
        kind = target
        public = 1
        seen = 0
    else:
        kind = target - FACE_DOWN
        j = find_slot(st, seat, kind, 0, i)
        public = st.slot_public[seat, j]
        seen = st.slot_seen[seat, j]
    st.slot_kind[seat, i] = kind
    st.slot_up[seat, i] = 0
    st.slot_public[seat, i] = public
    st.slot_seen[seat, i] = seen
    st.held[seat, old] -= 1
    st.held[seat, kind] += 1
    recount(st, n, seat)
    return kind


# --- vote, admit, showdown ------------------------------------------------------------------------
@compiled
def admit_discard(st, n, seat, kind):
    """The accused who admits discards a card face down (a face-down one of that kind if it has
    one). Seats that knew that card know it went to the pile."""
    i = find_slot(st, seat, kind, 0, -1)
    if i < 0:
        i = find_slot(st, seat, kind, 1, -1)
    for v in range(n):
        if knows_slot(st, v, seat, i):
            st.pile_known[v, kind] += 1
    remove_slot(st, seat, i)
    recount(st, n, seat)
    st.pile[kind] += 1


@compiled
def showdown_scores(st, table, n):
    judge_kind = st.judge_kind
    for s in range(n):
        st.showdown[s] = showdown_score(table, 0, st.held[s], 0, st.role[s], judge_kind)


@compiled
def public_discard(st, n, seat, kind):
    """A card goes from a holding to the pile in view of everyone (after the reveal)."""
    st.held[seat, kind] -= 1
    st.pile[kind] += 1
    for v in range(n):
        st.pile_known[v, kind] += 1


@compiled
def lose_most_valuable(st, table, n, seat):
    """The accused who denied and really was the highest discards its 2 most valuable cards.
    Returns the two kinds (-1 where it had no card)."""
    a, b = most_valuable_pair(table, st.held[seat], st.role[seat], st.judge_kind)
    if a >= 0:
        public_discard(st, n, seat, a)
    if b >= 0:
        public_discard(st, n, seat, b)
    return a, b


@compiled
def take_from_pile(st, n, seat, kind):
    """The wrongly accused looks through the pile and takes one card (it now knows the pile)."""
    st.pile[kind] -= 1
    st.held[seat, kind] += 1
    for v in range(n):
        st.pile_known[v, kind] = max(st.pile_known[v, kind] - 1, 0)
    for k in range(N_KINDS):
        st.pile_known[seat, k] = st.pile[k]


# --- theft ----------------------------------------------------------------------------------------
@compiled
def horse_face_takes(st, n, seat):
    """馬面 takes every 竊盜 from the discard pile (in view of everyone). Returns how many."""
    got = st.pile[CARD.theft]
    st.pile[CARD.theft] = 0
    st.held[seat, CARD.theft] += got
    for v in range(n):
        st.pile_known[v, CARD.theft] = 0
    return got


@compiled
def thief_candidates(st, n, tied):
    """The players with the most 竊盜. Returns (how many, their 竊盜 count); count 0 = no theft."""
    best = 0
    for s in range(n):
        best = max(best, st.held[s, CARD.theft])
    count = 0
    for s in range(n):
        if best > 0 and st.held[s, CARD.theft] == best:
            tied[s] = 1
            count += 1
        else:
            tied[s] = 0
    return count, best


@compiled
def can_be_robbed(st, thief, seat):
    """Any other player holding a card, never 馬面."""
    if seat == thief or st.role[seat] == ROLE.horse_face:
        return False
    for k in range(N_KINDS):
        if st.held[seat, k] > 0:
            return True
    return False


@compiled
def steal(st, thief, victim, kind):
    st.held[victim, kind] -= 1
    st.held[thief, kind] += 1


# --- scoring --------------------------------------------------------------------------------------
@compiled
def scoring_role(table, role, showdown):
    """The role whose points a seat scores this round: its own, except 牛頭 and 謝將軍 (S: "at
    the showdown") when the S abilities count only at a showdown (T.s_mode) and the round had none
    (the accused admitted): they score the printed points."""
    if showdown or table[T.s_mode] == S_MODE.always:
        return role
    if role == ROLE.ox_head or role == ROLE.general_xie:
        return PRINTED
    return role


@compiled
def round_scores(st, table, n, fan, fan_target):
    """Scoring: every seat's showdown score of what it holds now (牛頭 and 謝將軍 as
    `scoring_role` says), then 范將軍 (fan >= 0), then the floor at 0; the round's points are
    added to the totals. Returns the points 范將軍 moved."""
    judge_kind = st.judge_kind
    showdown = st.admitted != ANSWER.admit
    for s in range(n):
        role = scoring_role(table, st.role[s], showdown)
        st.round_score[s] = showdown_score(table, 0, st.held[s], 0, role, judge_kind)
    moved = 0
    if fan >= 0 and fan_target >= 0:
        moved = fan_adjust(table, st.round_score, st.held, n, fan, fan_target)
    floor_scores(st.round_score, n)
    for s in range(n):
        st.totals[s] += st.round_score[s]
    return moved


@compiled
def seat_with_role(st, n, role):
    for s in range(n):
        if st.role[s] == role:
            return s
    return -1
