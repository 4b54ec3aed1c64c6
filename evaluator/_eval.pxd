# C-level interface of the lookup-table evaluator, for other Cython modules to cimport.
# Cards are ints 0..51: rank * 4 + suit (rank 0 = deuce .. 12 = ace; suit 0..3 = c, d, h, s).
# A 5-card set is addressed by its colex index: C(a,1)+C(b,2)+C(c,3)+C(d,4)+C(e,5), a<b<c<d<e.
from libc.stdint cimport int16_t, int32_t, int64_t

cdef enum:
    N_CARDS = 52
    N_HANDS = 2598960      # C(52, 5)
    N_STRENGTHS = 7462     # distinct 5-card hand ranks

# Hand categories in poker order.  The royal flush is the top straight flush, kept apart
# because paytables may pay it separately.
cdef enum:
    HIGH_CARD = 0
    ONE_PAIR = 1
    TWO_PAIR = 2
    TRIPS = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    QUADS = 7
    STRAIGHT_FLUSH = 8
    ROYAL_FLUSH = 9

# Pointer to the binomial table: binom[n * 6 + k] = C(n, k) for n in 0..52, k in 0..5.
cdef const int32_t* binom_table() noexcept nogil
# Pointer to the strength table: strength[colex index] = 0..7461 (higher is better, equal = tie).
cdef const int16_t* strength_table() noexcept nogil   # NULL until strength_by_index() is called
# Pointer to the category of each strength (0 = high card .. 8 = straight flush, 9 = royal flush).
cdef const int16_t* category_table() noexcept nogil
# Sort five values in place (a 9-step sorting network).
cdef void sort5(int* c) noexcept nogil
# Colex index of five distinct cards given in any order.
cdef int32_t hand_index5(int a, int b, int c, int d, int e) noexcept nogil
# Strength of five distinct cards given in any order.
cdef int16_t eval5(int a, int b, int c, int d, int e) noexcept nogil
# The order-independent evaluator's tables, for incremental evaluation in nested loops: a hand
# is a flush iff the AND of its cards' suit bits is non-zero; a flush's strength is
# by_flush[OR of rank bits], any other hand's by_key[sum of card keys].
cdef void key_tables(const int32_t** card_key, const int32_t** card_rank_bit,
                     const int32_t** card_suit_bit, const int16_t** by_key,
                     const int16_t** by_flush) noexcept nogil
