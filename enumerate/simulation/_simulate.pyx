"""The game simulator's kernels (private; use :mod:`enumerate.simulation.simulate`).

**Random numbers.**  Philox4x64-10 -- the counter-based generator of Salmon et al. (2011),
numpy's ``numpy.random.Philox`` -- keyed by the seed ``S`` (128 bits: key word 0 is the low
half).  Game ``g``'s first word is word ``g mod 4`` of the block at counter ``(1, g // 4, 0, 0)``,
i.e. ``numpy.random.Philox(key=S, counter=(g // 4) << 64).random_raw(4)[g % 4]`` (one block
serves four games); should that word be rejected (below), the game goes on with its own stream
at the counters ``(j, g, 1, 0)``, j = 1, 2, ..., i.e. ``numpy.random.Philox(key=S, counter=(1 << 128)
| (g << 64)).random_raw()``.  A game's cards depend on (S, g) alone, so a run gives the same
games however it is split into chunks, threads or machines.

**Shuffling.**  The ten cards dealt (player 5, dealer up card, dealer 4 hole cards, in that
order) are the first ten steps of a Fisher-Yates shuffle of the 52-card deck: step i swaps
position i with position i + d_i, d_i uniform on 0 .. 51 - i.  The ten draws come from one 64-bit
word w at a time (Brackett-Rozinsky and Lemire, "Batched ranged random integer generation",
2024): with P = 52 x 51 x ... x 43 < 2^64, multiplying w by 52, the low 64 bits by 51, and so on
gives the digits d_0 .. d_9 of floor(w P / 2^64) in the mixed radix (52, 51, ..., 43), and the
final low word L = w P mod 2^64.  Rejecting w when L < 2^64 mod P (about 3 in 1,000 words;
Lemire's nearly divisionless rule) leaves floor(w P / 2^64) exactly uniform on 0 .. P - 1, so
every ordered deal of ten cards has probability exactly 1 / P.  A rejected word is replaced by
the next word of the game's stream.

**Settlement classes.**  The kernel does not handle money.  It sorts every game into a cell:
the player's hand category (10) times the game state -- folded; raised and the dealer does not
qualify; raised and the player wins; raised and tied; raised and the dealer wins -- and, for
each side bet and the progressive, a bin of its outcome.  What each cell pays is decided in
Python from the rules (:mod:`enumerate.simulation.settle`), in exact rationals.  Counts are
64-bit integers per chunk, summed exactly in Python.

Hands are ranked by the compiled evaluator (``evaluator._eval.eval5``).  The raise decision is
one bit per (player hand, up card), looked up only for the hand strengths whose decision depends
on the cards (``strength_flag`` 2; most strengths always raise or always fold).  Hands of one
strength differ only in suits, so with the cards sorted the suits s_0 .. s_4 name the hand: its
64 decisions (bit u: up card u) are ``raise_words[mixed_base[strength] + s_0 + 4 s_1 + ... +
256 s_4]``, about 1 MB for all such strengths, small enough to stay in cache.
"""
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint64_t
from cython.parallel cimport prange
from evaluator._eval cimport eval5, hand_index5, sort5, category_table, N_STRENGTHS
from evaluator._buildinfo cimport STUDODDS_DEBUG_COMPILED, STUDODDS_OPENMP_COMPILED
from enumerate.core._cancel cimport studodds_cancelled

#: True if this module was compiled with OpenMP.
OPENMP = bool(STUDODDS_OPENMP_COMPILED)
#: True for the debug build (bounds and initialisation checks on).
DEBUG_BUILD = bool(STUDODDS_DEBUG_COMPILED)

cdef extern from *:
    """
    #include <stdint.h>
    /* low 64 bits of a * b; the high 64 bits in *hi */
    static inline uint64_t sim_mulhilo(uint64_t a, uint64_t b, uint64_t *hi) {
    #if defined(__SIZEOF_INT128__)
        unsigned __int128 p = (unsigned __int128)a * b;
        *hi = (uint64_t)(p >> 64);
        return (uint64_t)p;
    #else
        uint64_t a_lo = (uint32_t)a, a_hi = a >> 32, b_lo = (uint32_t)b, b_hi = b >> 32;
        uint64_t p0 = a_lo * b_lo, p1 = a_lo * b_hi, p2 = a_hi * b_lo, p3 = a_hi * b_hi;
        uint64_t mid = (p0 >> 32) + (uint32_t)p1 + (uint32_t)p2;
        *hi = p3 + (p1 >> 32) + (p2 >> 32) + (mid >> 32);
        return (mid << 32) | (uint32_t)p0;
    #endif
    }
    /* Philox4x64 with 10 rounds (Random123's philox4x64_R(10, ctr, key)) */
    static inline void sim_philox(const uint64_t *ctr, uint64_t k0, uint64_t k1, uint64_t *out) {
        uint64_t x0 = ctr[0], x1 = ctr[1], x2 = ctr[2], x3 = ctr[3], hi0, lo0, hi1, lo1;
        for (int r = 0; r < 10; r++) {
            if (r) { k0 += 0x9E3779B97F4A7C15ULL; k1 += 0xBB67AE8584CAA73BULL; }
            lo0 = sim_mulhilo(0xD2E7470EE14C6C93ULL, x0, &hi0);
            lo1 = sim_mulhilo(0xCA5A826395121157ULL, x2, &hi1);
            x0 = hi1 ^ x1 ^ k0; x1 = lo1; x2 = hi0 ^ x3 ^ k1; x3 = lo0;
        }
        out[0] = x0; out[1] = x1; out[2] = x2; out[3] = x3;
    }
    """
    uint64_t sim_mulhilo(uint64_t a, uint64_t b, uint64_t* hi) noexcept nogil
    void sim_philox(const uint64_t* ctr, uint64_t k0, uint64_t k1, uint64_t* out) noexcept nogil

#: P = 52 x 51 x ... x 43: ordered deals of ten cards.
DEALS = 57407703889536000
cdef uint64_t _P = 57407703889536000ULL
cdef uint64_t _REJECT_BELOW = <uint64_t>((1 << 64) % DEALS)     # 2^64 mod P

# the game states of a cell (cell = state * 10 + the player's category)
cdef enum:
    FOLDED = 0
    NO_QUALIFY = 1
    WIN = 2
    TIE = 3
    LOSE = 4
    N_CELLS = 50
    # side-bet kinds
    PLAYER_HAND = 0
    PLAYER_AND_UP = 1
    DEALER_BEATEN = 2
    POLL = 65536           # games between two looks at the cancel flag


def philox_block(uint64_t key0, uint64_t key1, uint64_t c0, uint64_t c1, uint64_t c2, uint64_t c3):
    """The four words of Philox4x64-10 at one counter (for the tests against numpy)."""
    cdef uint64_t ctr[4]
    cdef uint64_t out[4]
    ctr[0] = c0; ctr[1] = c1; ctr[2] = c2; ctr[3] = c3
    sim_philox(ctr, key0, key1, out)
    return [out[0], out[1], out[2], out[3]]


cdef struct Shoe:
    # a thread's dealing state: the deck (the identity between games), the Philox block of
    # games 4k .. 4k + 3 and k + 1 (0: none yet)
    uint8_t deck[52]
    uint64_t shared[4]
    uint64_t shared_of


cdef inline void _shoe(Shoe* shoe) noexcept nogil:
    """A fresh shoe: the deck in order, no block yet."""
    cdef int i
    for i in range(52):
        shoe.deck[i] = i
    shoe.shared_of = 0


cdef inline void _deal_from(uint64_t k0, uint64_t k1, uint64_t game, Shoe* shoe, uint8_t* out) noexcept nogil:
    """:func:`_deal` from a shoe."""
    _deal(k0, k1, game, shoe.deck, out, shoe.shared, &shoe.shared_of)


cdef inline void _deal(uint64_t k0, uint64_t k1, uint64_t game, uint8_t* deck, uint8_t* out,
                       uint64_t* shared, uint64_t* shared_of) noexcept nogil:
    """The ten cards of ``game``; ``deck`` is the identity 0..51 on entry and on return.
    ``shared`` holds the block of games 4k .. 4k + 3, ``shared_of`` k + 1 (0: none yet)."""
    cdef uint64_t ctr[4]
    cdef uint64_t block[4]
    cdef uint64_t r, hi
    cdef int d[10]
    cdef int i, pos = 4
    cdef uint8_t t
    if shared_of[0] != (game >> 2) + 1:
        ctr[0] = 1; ctr[1] = game >> 2; ctr[2] = 0; ctr[3] = 0
        sim_philox(ctr, k0, k1, shared)
        shared_of[0] = (game >> 2) + 1
    r = shared[game & 3]
    ctr[0] = 0; ctr[1] = game; ctr[2] = 1; ctr[3] = 0
    while True:
        for i in range(10):
            r = sim_mulhilo(r, <uint64_t>(52 - i), &hi)
            d[i] = <int>hi
        if r >= _REJECT_BELOW:
            break
        if pos == 4:                       # the game's own stream, for a rejected word
            ctr[0] += 1
            sim_philox(ctr, k0, k1, block)
            pos = 0
        r = block[pos]
        pos += 1
    for i in range(10):
        t = deck[i]; deck[i] = deck[i + d[i]]; deck[i + d[i]] = t
        out[i] = deck[i]
    for i in range(9, -1, -1):
        t = deck[i]; deck[i] = deck[i + d[i]]; deck[i + d[i]] = t


def deal_games(uint64_t key0, uint64_t key1, uint64_t first, int64_t n):
    """(n, 10) uint8: the cards of games first .. first + n - 1 (player 5, up card, 4 hole
    cards), as the simulator deals them (for tests and for looking at single games)."""
    import numpy as np
    out = np.empty((n, 10), dtype=np.uint8)
    cdef uint8_t[:, ::1] o = out
    cdef Shoe shoe
    cdef int64_t g
    _shoe(&shoe)
    for g in range(n):
        _deal_from(key0, key1, first + <uint64_t>g, &shoe, &o[g, 0])
    return out


cdef inline int _suit_key(const uint8_t* c) noexcept nogil:
    """s_0 + 4 s_1 + ... + 256 s_4 for the suits of the five cards c[0..4] sorted (see the module)."""
    cdef int v[5]
    v[0] = c[0]; v[1] = c[1]; v[2] = c[2]; v[3] = c[3]; v[4] = c[4]
    sort5(v)
    return (v[0] & 3) | ((v[1] & 3) << 2) | ((v[2] & 3) << 4) | ((v[3] & 3) << 6) | ((v[4] & 3) << 8)


cdef inline int _best_of_six(const uint8_t* c) noexcept nogil:
    """Strength of the best five of the cards c[0..5]."""
    cdef int best = eval5(c[0], c[1], c[2], c[3], c[4])
    cdef int s
    s = eval5(c[0], c[1], c[2], c[3], c[5])
    if s > best: best = s
    s = eval5(c[0], c[1], c[2], c[4], c[5])
    if s > best: best = s
    s = eval5(c[0], c[1], c[3], c[4], c[5])
    if s > best: best = s
    s = eval5(c[0], c[2], c[3], c[4], c[5])
    if s > best: best = s
    s = eval5(c[1], c[2], c[3], c[4], c[5])
    if s > best: best = s
    return best


cdef struct Rules:
    # a plan's tables (see Plan in enumerate.simulation.simulate), as the kernels read them
    const uint64_t* raise_words
    const int32_t* mixed_base
    const uint8_t* strength_flag
    int qualifier
    int n_bets
    const int16_t* bet_class
    const int32_t* bet_kind
    const int32_t* bet_threshold
    const int32_t* bet_forfeits
    const int32_t* bet_k
    int bins_width
    int progressive
    int prog_forfeits
    const uint8_t* meter_category
    int use_events
    const int16_t* category          # the evaluator's category of each strength


cdef struct Counts:
    # one thread's counts: cells (50), side-bet bins (bets x width), progressive (11), meter events
    int64_t* cells
    int64_t* bet_bins
    int64_t* prog_bins
    int64_t* event_game
    int8_t* event_cat
    int64_t events


cdef inline void _settle(const Rules* r, Counts* out, uint64_t game, int up, int ps, int ds, int key,
                         int six) noexcept nogil:
    """Sort one game into its cells: the player's strength ``ps``, the dealer's ``ds``, the up
    card, the suit key of the player's sorted cards (read only for a strength whose decision
    depends on the suits; -1 when not computed, never read then) and the best five of the
    player's cards and the up card ``six`` (read only by a player-and-up side bet)."""
    cdef int pc = r.category[ps]
    cdef int flag = r.strength_flag[ps]
    cdef int raised, state, b, k, s, cls
    cdef int64_t* bins
    if flag == 2:
        raised = <int>((r.raise_words[r.mixed_base[ps] + key] >> up) & 1)
    else:
        raised = flag
    if not raised:
        state = FOLDED
    elif ds < r.qualifier:
        state = NO_QUALIFY
    elif ps > ds:
        state = WIN
    elif ps == ds:
        state = TIE
    else:
        state = LOSE
    out.cells[state * 10 + pc] += 1
    for b in range(r.n_bets):
        k = r.bet_k[b]
        bins = out.bet_bins + b * r.bins_width
        if r.bet_forfeits[b] and not raised:
            bins[2 * k + 1] += 1
            continue
        if r.bet_kind[b] == DEALER_BEATEN:
            cls = r.bet_class[b * N_STRENGTHS + ps]
            if ds >= r.bet_threshold[b] and cls >= 0 and ps > ds:
                bins[cls] += 1
            elif ds >= r.bet_threshold[b] and cls >= 0 and ps == ds:
                bins[k + cls] += 1
            else:
                bins[2 * k] += 1
            continue
        s = six if r.bet_kind[b] == PLAYER_AND_UP else ps
        cls = r.bet_class[b * N_STRENGTHS + s]
        bins[cls if cls >= 0 else 2 * k] += 1
    if r.progressive:
        if r.prog_forfeits and not raised:
            out.prog_bins[10] += 1
        else:
            out.prog_bins[pc] += 1
            if r.meter_category[pc] and r.use_events:
                out.event_game[out.events] = <int64_t>game
                out.event_cat[out.events] = <int8_t>pc
                out.events += 1


cdef void _run(uint64_t k0, uint64_t k1, uint64_t first, int64_t n, const uint8_t* up, const int16_t* ranked,
               const Rules* r, int need_six, Counts* out, const int32_t* cancel) noexcept nogil:
    """Settle games first .. first + n - 1: dealt and ranked here, or, when ``ranked`` is not
    NULL, read from ``up`` and ``ranked`` as :func:`_deal_ranked` left them."""
    cdef Shoe shoe
    cdef uint8_t c[10]
    cdef int64_t g
    cdef int ps, key, six = 0
    _shoe(&shoe)
    for g in range(n):
        if (g & (POLL - 1)) == 0 and studodds_cancelled(cancel):
            break
        if ranked != NULL:
            _settle(r, out, first + <uint64_t>g, up[g], ranked[4 * g], ranked[4 * g + 1], ranked[4 * g + 2],
                    ranked[4 * g + 3])
            continue
        _deal_from(k0, k1, first + <uint64_t>g, &shoe, c)
        ps = eval5(c[0], c[1], c[2], c[3], c[4])
        key = _suit_key(c) if r.strength_flag[ps] == 2 else -1
        if need_six:
            six = _best_of_six(c)
        _settle(r, out, first + <uint64_t>g, c[5], ps, eval5(c[5], c[6], c[7], c[8], c[9]), key, six)


cdef void _deal_ranked(uint64_t k0, uint64_t k1, uint64_t first, int64_t n, int need_six, uint8_t* up,
                       int16_t* ranked, const int32_t* cancel) noexcept nogil:
    """Deal and rank games first .. first + n - 1 once for several tables: per game the up card
    and (player strength, dealer strength, suit key, best five of six or 0)."""
    cdef Shoe shoe
    cdef uint8_t c[10]
    cdef int64_t g
    _shoe(&shoe)
    for g in range(n):
        if (g & (POLL - 1)) == 0 and studodds_cancelled(cancel):
            break
        _deal_from(k0, k1, first + <uint64_t>g, &shoe, c)
        up[g] = c[5]
        ranked[4 * g] = eval5(c[0], c[1], c[2], c[3], c[4])
        ranked[4 * g + 1] = eval5(c[5], c[6], c[7], c[8], c[9])
        ranked[4 * g + 2] = _suit_key(c)
        ranked[4 * g + 3] = _best_of_six(c) if need_six else 0


cdef Rules _rules(const uint64_t[::1] raise_words, const int32_t[::1] mixed_base, const uint8_t[::1] strength_flag,
                  int qualifier, const int16_t[:, ::1] bet_class, const int32_t[::1] bet_kind,
                  const int32_t[::1] bet_threshold, const int32_t[::1] bet_forfeits, const int32_t[::1] bet_k,
                  int progressive, int prog_forfeits, const uint8_t[::1] meter_category, int64_t n, int n_threads,
                  int64_t[:, ::1] cells, int64_t[:, :, ::1] bet_bins, int64_t[:, ::1] prog_bins,
                  int64_t[::1] event_game, int64_t[::1] n_events) except *:
    """A plan's arrays checked against each other and the outputs, as the kernels read them."""
    if n_threads < 1 or cells.shape[0] < n_threads or prog_bins.shape[0] < n_threads or n_events.shape[0] < n_threads:
        raise ValueError("an output array has fewer rows than threads")
    if cells.shape[1] != N_CELLS or prog_bins.shape[1] != 11:
        raise ValueError("cells or prog_bins has the wrong width")
    if mixed_base.shape[0] != N_STRENGTHS or strength_flag.shape[0] != N_STRENGTHS or meter_category.shape[0] != 10:
        raise ValueError("mixed_base, strength_flag or meter_category has the wrong length")
    cdef int s
    for s in range(N_STRENGTHS):
        if strength_flag[s] == 2 and (mixed_base[s] < 0 or mixed_base[s] + 1024 > raise_words.shape[0]):
            raise ValueError("mixed_base points outside raise_words")
    cdef int n_bets = bet_kind.shape[0]
    if bet_class.shape[0] != n_bets or (n_bets and bet_class.shape[1] != N_STRENGTHS) or bet_bins.shape[0] < n_threads:
        raise ValueError("side-bet arrays do not match")
    if bet_threshold.shape[0] != n_bets or bet_forfeits.shape[0] != n_bets or bet_k.shape[0] != n_bets:
        raise ValueError("side-bet arrays do not match")
    cdef int width = bet_bins.shape[2] if n_bets else 1
    cdef int b
    for b in range(n_bets):
        if 2 * bet_k[b] + 2 > width or bet_bins.shape[1] < n_bets:
            raise ValueError("side-bet bins too narrow")
    cdef int need_events = 0
    for b in range(10):
        need_events |= meter_category[b]
    if progressive and need_events and event_game.shape[0] < n:
        raise ValueError("event buffer shorter than the chunk")
    cdef Rules r
    r.raise_words = &raise_words[0]
    r.mixed_base = &mixed_base[0]
    r.strength_flag = &strength_flag[0]
    r.qualifier = qualifier
    r.n_bets = n_bets
    r.bet_class = &bet_class[0, 0] if n_bets else NULL
    r.bet_kind = &bet_kind[0] if n_bets else NULL
    r.bet_threshold = &bet_threshold[0] if n_bets else NULL
    r.bet_forfeits = &bet_forfeits[0] if n_bets else NULL
    r.bet_k = &bet_k[0] if n_bets else NULL
    r.bins_width = width
    r.progressive = progressive
    r.prog_forfeits = prog_forfeits
    r.meter_category = &meter_category[0]
    r.use_events = progressive and need_events
    r.category = category_table()
    return r


cdef inline Counts _counts(int t, int64_t start, const Rules* r, int64_t[:, ::1] cells, int64_t[:, :, ::1] bet_bins,
                           int64_t[:, ::1] prog_bins, int64_t[::1] event_game, int8_t[::1] event_cat) noexcept nogil:
    """Thread t's counts; its meter events go at the offset ``start`` of its first game."""
    cdef Counts c
    c.cells = &cells[t, 0]
    c.bet_bins = &bet_bins[t, 0, 0] if r.n_bets else NULL
    c.prog_bins = &prog_bins[t, 0]
    c.event_game = &event_game[start] if r.use_events else NULL
    c.event_cat = &event_cat[start] if r.use_events else NULL
    c.events = 0
    return c


def simulate_chunk(uint64_t key0, uint64_t key1, uint64_t first, int64_t n, int n_threads,
                   const uint8_t[::1] up, const int16_t[:, ::1] ranked,
                   const uint64_t[::1] raise_words, const int32_t[::1] mixed_base,
                   const uint8_t[::1] strength_flag, int qualifier,
                   const int16_t[:, ::1] bet_class, const int32_t[::1] bet_kind,
                   const int32_t[::1] bet_threshold, const int32_t[::1] bet_forfeits,
                   const int32_t[::1] bet_k, int need_six,
                   int progressive, int prog_forfeits, const uint8_t[::1] meter_category,
                   int64_t[:, ::1] cells, int64_t[:, :, ::1] bet_bins, int64_t[:, ::1] prog_bins,
                   int64_t[::1] event_game, int8_t[::1] event_cat, int64_t[::1] n_events,
                   int32_t[::1] cancel):
    """Simulate games first .. first + n - 1 on ``n_threads`` threads, each taking one
    contiguous share: thread t adds into row t of ``cells`` (t, 50), ``bet_bins`` (t, bets,
    width) and ``prog_bins`` (t, 11), and writes its meter events at the offset of its first
    game in ``event_game`` / ``event_cat`` (capacity n when the progressive has a meter award),
    their number in ``n_events[t]``.  The games are dealt and ranked here when ``ranked`` is
    None, else read from ``up`` and ``ranked`` as :func:`deal_ranked` left them (the same
    counts: one settlement, two ways to deal).  Stops early when ``cancel[0]`` is set."""
    if (ranked is None) != (up is None) or (ranked is not None and (up.shape[0] < n or ranked.shape[0] < n
                                                                     or ranked.shape[1] != 4)):
        raise ValueError("simulate_chunk: dealt buffers shorter than the chunk")
    cdef Rules r = _rules(raise_words, mixed_base, strength_flag, qualifier, bet_class, bet_kind, bet_threshold,
                          bet_forfeits, bet_k, progressive, prog_forfeits, meter_category, n, n_threads, cells,
                          bet_bins, prog_bins, event_game, n_events)
    cdef const uint8_t* dealt_up = &up[0] if ranked is not None and n else NULL
    cdef const int16_t* dealt = &ranked[0, 0] if ranked is not None and n else NULL
    cdef int t
    cdef int64_t start, length
    cdef Counts out
    for t in prange(n_threads, nogil=True, num_threads=n_threads, schedule="static", chunksize=1):
        start = n * t // n_threads
        length = n * (t + 1) // n_threads - start
        out = _counts(t, start, &r, cells, bet_bins, prog_bins, event_game, event_cat)
        _run(key0, key1, first + <uint64_t>start, length, (dealt_up + start) if dealt != NULL else NULL,
             (dealt + 4 * start) if dealt != NULL else NULL, &r, need_six, &out, &cancel[0])
        n_events[t] = out.events


def deal_ranked(uint64_t key0, uint64_t key1, uint64_t first, int64_t n, int n_threads, int need_six,
                uint8_t[::1] up, int16_t[:, ::1] ranked, int32_t[::1] cancel):
    """Deal and rank games first .. first + n - 1 once, for :func:`simulate_chunk` to settle
    under several tables: ``up[g]`` the up card, ``ranked[g]`` (player strength, dealer
    strength, suit key of the player's sorted cards, best five of the six cards or 0 unless
    ``need_six``).  Stops early when ``cancel[0]`` is set."""
    if n_threads < 1 or up.shape[0] < n or ranked.shape[0] < n or ranked.shape[1] != 4:
        raise ValueError("deal_ranked: buffers shorter than the chunk")
    cdef int t
    cdef int64_t start, length
    for t in prange(n_threads, nogil=True, num_threads=n_threads, schedule="static", chunksize=1):
        start = n * t // n_threads
        length = n * (t + 1) // n_threads - start
        if length:
            _deal_ranked(key0, key1, first + <uint64_t>start, length, need_six, &up[start], &ranked[start, 0],
                         &cancel[0])


def raise_bits(const uint8_t[:, ::1] cards_by_index, const int32_t[::1] row_of_index,
               const uint8_t[:, ::1] mask, uint64_t[::1] bits, uint8_t[::1] kind, int n_threads):
    """Expand a raise mask over canonical hands (rows x 47 up cards, as the count table lays
    them out) to every concrete hand: bit u of ``bits[h]`` is the decision for hand h (colex
    index) and up card u.  Suits are relabelled as :func:`enumerate.analysis.situation.canonical`
    does (new suit k = the old suit with the k-th largest rank mask, ties by suit number).
    ``kind[h]`` is 0 (never raises), 1 (raises with every up card) or 2 (depends on it)."""
    cdef int64_t h, n = cards_by_index.shape[0]
    if row_of_index.shape[0] != n or bits.shape[0] != n or kind.shape[0] != n or mask.shape[1] != 47:
        raise ValueError("raise_bits: array sizes do not match")
    for h in prange(n, nogil=True, num_threads=n_threads, schedule="static"):
        _expand(&cards_by_index[h, 0], &row_of_index[0], &mask[0, 0], mask.shape[0], &bits[h], &kind[h])


cdef void _expand(const uint8_t* cards, const int32_t* row_of_index, const uint8_t* mask, int64_t rows,
                  uint64_t* bits, uint8_t* kind) noexcept nogil:
    cdef int masks[4]
    cdef int order[4]
    cdef int new_suit[4]
    cdef int canon[5]
    cdef int i, j, t, u, v, col, below
    cdef int64_t row
    cdef uint64_t word = 0, held = 0
    for i in range(4):
        masks[i] = 0
        order[i] = i
    for i in range(5):
        masks[cards[i] & 3] |= 1 << (cards[i] >> 2)
        held |= (<uint64_t>1) << cards[i]
    # insertion sort of the suits by (mask descending, suit ascending)
    for i in range(1, 4):
        t = order[i]
        j = i - 1
        while j >= 0 and (masks[order[j]] < masks[t] or (masks[order[j]] == masks[t] and order[j] > t)):
            order[j + 1] = order[j]
            j -= 1
        order[j + 1] = t
    for i in range(4):
        new_suit[order[i]] = i
    for i in range(5):
        canon[i] = (cards[i] & ~3) | new_suit[cards[i] & 3]
    row = row_of_index[hand_index5(canon[0], canon[1], canon[2], canon[3], canon[4])]
    if row < 0 or row >= rows:
        kind[0] = 255          # the caller checks: a canonical hand missing from the table
        return
    for u in range(52):
        if (held >> u) & 1:
            continue
        v = (u & ~3) | new_suit[u & 3]
        below = 0
        for i in range(5):
            if canon[i] < v:
                below += 1
        col = v - below
        if mask[row * 47 + col]:
            word |= (<uint64_t>1) << u
    bits[0] = word
    if word == 0:
        kind[0] = 0
    elif word == (~held) & ((<uint64_t>1 << 52) - 1):
        kind[0] = 1
    else:
        kind[0] = 2
