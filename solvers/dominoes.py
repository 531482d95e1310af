"""Dominoes (Fan Tan) double-dummy kernel: alpha-beta with a transposition table.

Arrays and integers in, integers out; the analyzer (:mod:`analyzer.dominoes`) compiles a
position into these arrays and turns the integer values back into exact fractions.

Encoding (kernel side only)
---------------------------
Ranks are *positions* along a suit's run, low to high in the preset's ace order
(``nr`` = 13 or 8 positions); ``sp`` is the starting rank's position (``-1``: not fixed
yet, the first card sets it, ``first-card`` presets)::

    own    ndarray(int8, shape=(4, 16))  seat holding (suit, position); -1 on the table
    lo, hi ndarray(int64, shape=(4,))    run ends of each suit (positions); hi = -1 and
                                         lo = 99 while the suit is unopened
    cnt    ndarray(int64, shape=(4,))    cards left in each hand
    move   16 * suit + position          (PASS = -1 at the root only)

The cards on the table are exactly the runs, so the runs fix every hand: the search key
is (runs, seat to move, starting position), and the stored value is the objective of the
places still to be handed out, ``sum(w[p] * places[k + i])`` over the seats still playing.
Passes are not nodes: the seat to move is always one who can play (a player who cannot
play passes; a player who plays an ace with ``acep >= 0`` plays again if he can), and a
seat with a single playable card plays it without a node ("forced chains"). When three
seats are out the fourth takes ``places[3]`` and the hand ends (rules.md, "Dominoes").

Objective: ``sum(w[p] * place_points[p])``; seats in the bit mask ``maxm`` maximise it,
the others minimise (design.md, "Solution concepts"). Values are int64: the analyzer
scales weights and places to integers.

Search: the root finds the value by binary search over the few values the places can
give, each step a null-window probe, all sharing the table (the DDS scheme for trick
counts). Inner nodes: fail-soft alpha-beta; cut when the places left cannot change the
objective (``vmin == vmax`` for the set of seats out) or cannot reach the window; of a
seat's *free* moves (an end beyond which the whole suit is his: nobody else can ever play
there) only one is searched, since they differ only in which of his free cards is left;
moves ordered by the table's best move, then by a static guess per card (``otab``).

Numba caching: ``_solve`` is the only recursive function and is entered from Python only;
every recursive call passes variables, never literals, so there is one signature (a
literal ``False`` or ``1`` makes a second one, whose cached reload segfaults in numba
0.68, as mutual recursion does). That is also why the step "play a card; if the seat is now
out, hand it its place, else go on" is written out at both call sites (the root's probes
and the inner loop) instead of in a helper: a helper that calls ``_solve`` would make the
recursion mutual.
"""

from numba import njit

from solvers.config import NUMBA_OPTS

INF = 1 << 60
UNOPENED_LO = 99
# 0x9E3779B97F4A7C15 as a signed 64-bit integer (Fibonacci hashing)
_GOLDEN = -7046029254386353131
KEY_GEN_SHIFT = 40  # keys carry the solve's generation stamp from this bit up


@njit(**NUMBA_OPTS)
def _gen(own, lo, hi, nr, sp, p, buf):
    """Playable moves of seat ``p`` into ``buf``; returns their number."""
    n = 0
    for s in range(4):
        h = hi[s]
        if h < 0:
            if own[s, sp] == p:
                buf[n] = s * 16 + sp
                n += 1
        else:
            lw = lo[s]
            if lw > 0 and own[s, lw - 1] == p:
                buf[n] = s * 16 + lw - 1
                n += 1
            if h < nr - 1 and own[s, h + 1] == p:
                buf[n] = s * 16 + h + 1
                n += 1
    return n


@njit(**NUMBA_OPTS)
def _gen_node(own, free, lo, hi, nr, sp, p, buf):
    """As :func:`_gen`, keeping only the first of ``p``'s *free* moves.

    A free move plays a card of an end beyond which every card of the suit is ``p``'s
    (``free[0]`` up, ``free[1]`` down; no ace when it replays): nobody else can ever play
    there, so which free card ``p`` plays changes nothing but the count he has left, and
    the positions after any two free moves have the same value.
    """
    n = 0
    nfree = 0
    for s in range(4):
        h = hi[s]
        if h < 0:
            if own[s, sp] == p:
                if free[0, s, sp] == p and free[1, s, sp] == p:
                    nfree += 1
                    if nfree > 1:
                        continue
                buf[n] = s * 16 + sp
                n += 1
        else:
            lw = lo[s]
            if lw > 0 and own[s, lw - 1] == p:
                if free[1, s, lw - 1] == p:
                    nfree += 1
                if free[1, s, lw - 1] != p or nfree == 1:
                    buf[n] = s * 16 + lw - 1
                    n += 1
            if h < nr - 1 and own[s, h + 1] == p:
                if free[0, s, h + 1] == p:
                    nfree += 1
                if free[0, s, h + 1] != p or nfree == 1:
                    buf[n] = s * 16 + h + 1
                    n += 1
    return n


@njit(**NUMBA_OPTS)
def _can(own, lo, hi, nr, sp, p):
    """True when seat ``p`` has a playable card."""
    for s in range(4):
        h = hi[s]
        if h < 0:
            if own[s, sp] == p:
                return True
        else:
            lw = lo[s]
            if lw > 0 and own[s, lw - 1] == p:
                return True
            if h < nr - 1 and own[s, h + 1] == p:
                return True
    return False


@njit(**NUMBA_OPTS)
def _apply(lo, hi, m):
    s = m >> 4
    pos = m & 15
    if hi[s] < 0:
        lo[s] = pos
        hi[s] = pos
    elif pos < lo[s]:
        lo[s] = pos
    else:
        hi[s] = pos


@njit(**NUMBA_OPTS)
def _undo(lo, hi, m):
    s = m >> 4
    pos = m & 15
    if lo[s] == hi[s]:
        lo[s] = UNOPENED_LO
        hi[s] = -1
    elif pos == lo[s]:
        lo[s] = pos + 1
    else:
        hi[s] = pos - 1


@njit(**NUMBA_OPTS)
def _next(own, lo, hi, nr, sp, cnt, p, again):
    """The next seat to play after ``p`` (passes skipped); -1 if nobody can play."""
    if again and cnt[p] > 0 and _can(own, lo, hi, nr, sp, p):
        return p
    q = p
    for _ in range(4):
        q = (q + 1) & 3
        if cnt[q] > 0 and _can(own, lo, hi, nr, sp, q):
            return q
    return -1


@njit(**NUMBA_OPTS)
def _key(lo, hi, p, sp, gen):
    key = 0
    for s in range(4):
        if hi[s] >= 0:
            key |= (lo[s] * 16 + hi[s] + 1) << (8 * s)
    return key | (p << 32) | (sp << 34) | gen


@njit(**NUMBA_OPTS)
def _last_seat(cnt):
    for q in range(4):
        if cnt[q] > 0:
            return q
    return -1


@njit(**NUMBA_OPTS)
def _order_table(own, nr, sp, maxm, acep, otab):
    """Move-ordering guesses ``otab[s, x]`` for playing card (s, x), by its holder.

    A play frees the cards beyond it (both ways for a starting card): good when they
    belong to the player's own side, bad when they belong to the other side; an ace that
    replays is good. The card's holder is the mover, so the table is static per solve.
    """
    for s in range(4):
        for pos in range(nr):
            p = own[s, pos]
            if p < 0:
                continue
            side = (maxm >> p) & 1
            score = 0
            if pos == acep:
                score += 8
            for d in (-1, 1):
                if (d < 0 and pos > sp) or (d > 0 and pos < sp):
                    continue
                for j in range(1, 13):
                    x = pos + d * j
                    if x < 0 or x >= nr:
                        break
                    o = own[s, x]
                    if o < 0:
                        break
                    wgt = 4 - j if j < 3 else 1
                    if ((maxm >> o) & 1) == side:
                        score += wgt
                    else:
                        score -= 2 * wgt
            otab[s, pos] = score


@njit(**NUMBA_OPTS)
def _solve(own, free, otab, lo, hi, cnt, nr, sp, acep, p, k, outm, alpha, beta, w, places, maxm,
           vmin, vmax, mv, sc, hm, hp, ply, tt, bits, gen, stats,
           root, every, moves_out, vals_out, cand):
    """Value of the places still to hand out, seat ``p`` to play (fail-soft alpha-beta).

    Inner nodes (``root = False``): ``p`` can play and fewer than three seats are out.

    The root (``root = True``, called from Python with ``ply = 0``): ``p`` holds cards and
    may have to pass; ``sp = -1`` means the first card (any card of ``p``) fixes the
    starting position. Root moves go to ``moves_out`` (``16 * suit + position``, or -1 for
    a pass) and the number of them is returned; with ``every`` each move's exact value
    goes to ``vals_out``, otherwise the position's value goes to ``vals_out[0]``. The root
    finds each value by binary search over ``cand`` (sorted int64: every value the places
    still to hand out can give) with null-window probes that share the table (as DDS
    does for trick counts); ``alpha``, ``beta`` are unused there.

    ``free`` ``int8[2, 4, 16]``: the seat owning every card of suit s from position x up
    (``free[0]``) or down (``free[1]``), else -1 (see :func:`_gen_node`); ``otab``
    ``int64[4, 16]``: move-ordering guesses, filled at the root (:func:`_order_table`).
    Scratch: ``mv``, ``sc`` ``int64[64, 16]``, ``hm``, ``hp`` ``int64[64]``. Transposition
    table: ``tt`` ``int64[2**bits, 4]`` (key, lower bound, upper bound, best move: one
    probe, one cache line); ``gen`` (a multiple of
    ``2**40``) stamps this solve's keys. ``stats[0]`` counts nodes, ``stats[1]`` table hits.
    """
    no = root != root  # False, typed as a variable: every recursive call has one signature
    if root:
        ply1 = ply + 1
        n = 0
        if sp < 0:
            for s in range(4):
                for x in range(nr):
                    if own[s, x] == p and hi[s] < 0:
                        moves_out[n] = s * 16 + x
                        n += 1
        else:
            n = _gen(own, lo, hi, nr, sp, p, moves_out)
            if n == 0:
                moves_out[0] = -1
                n = 1
        maximizing = ((maxm >> p) & 1) == 1
        if sp >= 0:
            _order_table(own, nr, sp, maxm, acep, otab)
        ntarget = n if every else 1
        for target in range(ntarget):
            m0 = target if every else 0
            m1 = target + 1 if every else n
            # binary search over the possible values with null-window probes
            ci = 0
            cj = cand.size - 1
            while ci < cj:
                mid = (ci + cj + 1) // 2
                t = cand[mid]
                a = t - 1
                b = t
                best = -INF if maximizing else INF
                for i in range(m0, m1):
                    m = moves_out[i]
                    if m < 0:
                        q = _next(own, lo, hi, nr, sp, cnt, p, no)
                        v = _solve(own, free, otab, lo, hi, cnt, nr, sp, acep, q, k, outm, a, b, w,
                                   places, maxm, vmin, vmax, mv, sc, hm, hp, ply1, tt, bits, gen, stats, no, no, moves_out, vals_out,
                                   cand)
                    else:
                        sp2 = sp if sp >= 0 else (m & 15)
                        if sp < 0:
                            _order_table(own, nr, sp2, maxm, acep, otab)
                        _apply(lo, hi, m)
                        cnt[p] -= 1
                        if cnt[p] == 0:
                            r = w[p] * places[k]
                            if k == 2:
                                v = r + w[_last_seat(cnt)] * places[3]
                            else:
                                q = _next(own, lo, hi, nr, sp2, cnt, p, no)
                                v = r + _solve(own, free, otab, lo, hi, cnt, nr, sp2, acep, q, k + 1,
                                               outm | (1 << p), a - r, b - r, w, places, maxm,
                                               vmin, vmax, mv, sc, hm, hp, ply1, tt, bits, gen, stats, no, no, moves_out,
                                               vals_out, cand)
                        else:
                            q = _next(own, lo, hi, nr, sp2, cnt, p, (m & 15) == acep)
                            v = _solve(own, free, otab, lo, hi, cnt, nr, sp2, acep, q, k, outm, a, b, w,
                                       places, maxm, vmin, vmax, mv, sc, hm, hp, ply1, tt, bits, gen, stats, no, no, moves_out,
                                       vals_out, cand)
                        if sp < 0:
                            lo[m >> 4] = UNOPENED_LO
                            hi[m >> 4] = -1
                        else:
                            _undo(lo, hi, m)
                        cnt[p] += 1
                    if maximizing:
                        if v > best:
                            best = v
                        if best >= b:
                            break
                    else:
                        if v < best:
                            best = v
                        if best <= a:
                            break
                if best >= t:
                    ci = mid
                else:
                    cj = mid - 1
            vals_out[target] = cand[ci]
        return n

    acc = 0
    ply0 = ply
    n = 0
    # forced chain: a seat with a single playable card plays it, no node
    while True:
        n = _gen_node(own, free, lo, hi, nr, sp, p, mv[ply])
        if n >= 2:
            break
        m = mv[ply, 0]
        _apply(lo, hi, m)
        cnt[p] -= 1
        hm[ply] = m
        hp[ply] = p
        ply += 1
        if cnt[p] == 0:
            acc += w[p] * places[k]
            k += 1
            outm |= 1 << p
            if k == 3:
                acc += w[_last_seat(cnt)] * places[3]
                for i in range(ply - 1, ply0 - 1, -1):
                    _undo(lo, hi, hm[i])
                    cnt[hp[i]] += 1
                return acc
            p = _next(own, lo, hi, nr, sp, cnt, p, False)
        else:
            p = _next(own, lo, hi, nr, sp, cnt, p, (m & 15) == acep)

    stats[0] += 1
    a = alpha - acc
    b = beta - acc
    result = 0
    done = False
    if vmin[outm] == vmax[outm]:  # the places left cannot change the objective
        result = vmin[outm]
        done = True
    elif vmax[outm] <= a:
        result = vmax[outm]
        done = True
    elif vmin[outm] >= b:
        result = vmin[outm]
        done = True
    key = 0
    idx = 0
    ttm = -1
    if not done:
        key = _key(lo, hi, p, sp, gen)
        idx = ((key * _GOLDEN) >> (64 - bits)) & ((1 << bits) - 1)
        if tt[idx, 0] == key:
            stats[1] += 1
            tl = tt[idx, 1]
            tu = tt[idx, 2]
            ttm = tt[idx, 3]
            if tl >= b:
                result = tl
                done = True
            elif tu <= a:
                result = tu
                done = True
            elif tl == tu:
                result = tl
                done = True
            else:
                if tl > a:
                    a = tl
                if tu < b:
                    b = tu
    if not done:
        row = mv[ply]
        srow = sc[ply]
        for i in range(n):
            if row[i] == ttm:
                srow[i] = 1 << 20
            else:
                srow[i] = otab[row[i] >> 4, row[i] & 15]
        a0 = a
        b0 = b
        maximizing = ((maxm >> p) & 1) == 1
        best = -INF if maximizing else INF
        bestm = -1
        for i in range(n):
            # selection: best remaining guess first
            j = i
            for t in range(i + 1, n):
                if srow[t] > srow[j]:
                    j = t
            if j != i:
                tmp = row[i]
                row[i] = row[j]
                row[j] = tmp
                tmp = srow[i]
                srow[i] = srow[j]
                srow[j] = tmp
            m = row[i]
            _apply(lo, hi, m)
            cnt[p] -= 1
            if cnt[p] == 0:
                r = w[p] * places[k]
                if k == 2:
                    v = r + w[_last_seat(cnt)] * places[3]
                else:
                    q = _next(own, lo, hi, nr, sp, cnt, p, False)
                    v = r + _solve(own, free, otab, lo, hi, cnt, nr, sp, acep, q, k + 1, outm | (1 << p),
                                   a - r, b - r, w, places, maxm, vmin, vmax, mv, sc, hm, hp,
                                   ply + 1, tt, bits, gen, stats, no,
                                   no, moves_out, vals_out, cand)
            else:
                q = _next(own, lo, hi, nr, sp, cnt, p, (m & 15) == acep)
                v = _solve(own, free, otab, lo, hi, cnt, nr, sp, acep, q, k, outm, a, b, w, places, maxm,
                           vmin, vmax, mv, sc, hm, hp, ply + 1, tt, bits, gen,
                           stats, no, no, moves_out, vals_out, cand)
            _undo(lo, hi, m)
            cnt[p] += 1
            if maximizing:
                if v > best:
                    best = v
                    bestm = m
                    if best > a:
                        a = best
            else:
                if v < best:
                    best = v
                    bestm = m
                    if best < b:
                        b = best
            if a >= b:
                break
        if tt[idx, 0] != key:
            tt[idx, 0] = key
            tt[idx, 1] = -INF
            tt[idx, 2] = INF
        if best <= a0:
            if best < tt[idx, 2]:
                tt[idx, 2] = best
        elif best >= b0:
            if best > tt[idx, 1]:
                tt[idx, 1] = best
        else:
            tt[idx, 1] = best
            tt[idx, 2] = best
        tt[idx, 3] = bestm
        result = best
    for i in range(ply - 1, ply0 - 1, -1):
        _undo(lo, hi, hm[i])
        cnt[hp[i]] += 1
    return acc + result
