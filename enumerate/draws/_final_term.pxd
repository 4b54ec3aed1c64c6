# A term a table adds to the value of raising a final hand, beside the linear form of the dealer's
# counts the draws' rank kernel reads per class (enumerate/draws/_switch_ranks.pyx).
#
# The kernel knows, for every leaf of draws, the final hand's strength and class, the unseen cards
# of each rank (the dealer's and the rest of the deck's) and which ranks' cards of the up card's
# suit s0 are unseen; a term that depends on nothing else plugs in here -- Russian Poker's bought
# game does (enumerate/russian/_bought.pyx): what buying adds over the dealer hands that do not
# qualify, and how the purchases end.  A term may also have a *side* part: a sum over the three
# other suits of one function of the key and the unseen ranks of that suit (the bought game when
# the up card is the card replaced and the dealer's four hole cards are of another suit), which
# the kernel adds per situation.  A table's module makes the struct and hands it to the kernel
# in a capsule named CAPSULE; the kernel never imports the table's module.
#
# Units: with a term, the kernel's values of kind k (keep, switch 1..5, buy) are in units of
# 1 / (scale * unit[k]) antes per dealer hole-card set, the linear form's counts times unit[k].
from libc.stdint cimport int64_t

ctypedef int (*term_prepare_t)(const void* ctx, void* key, const int* unseen, int strength, int cls,
                               int kind) noexcept nogil
ctypedef int64_t (*term_value_t)(const void* ctx, const void* key, const int* unseen, int unseen0,
                                 int64_t* fields) noexcept nogil
ctypedef int (*term_bound_t)(const void* ctx, const void* key, int64_t* base, int64_t* base_fields,
                             int64_t* lo, int64_t* hi) noexcept nogil
ctypedef void (*term_leaf_sum_t)(const void* ctx, const void* key, int unseen0, int n_opt, const int* ranks,
                                 const int64_t* m0, const int64_t* m1, int64_t mult, int64_t* gain,
                                 int64_t* fields) noexcept nogil


cdef struct FinalTerm:
    # prepare: fill ``key`` (key_bytes of scratch) for a final hand of this strength and class
    # with ``unseen[r]`` unseen cards of each rank r, drawn by an action of kind ``kind``; 0 when
    # the term is 0 for every such hand (value is then not called), else TERM_LIVE, or'ed with
    # TERM_SIDE when the key has a side part
    # value: the term for a prepared key when the unseen s0 cards are of the ranks ``unseen0``
    # (13 bits), in units of 1 / (scale * unit[kind]) antes summed over the dealer sets; writes
    # n_fields counts (summed by class of final hand beside the kernel's own)
    # bound (NULL: none): 0, or TERM_BOUNDED: the key's value without the parts that depend on
    # the unseen s0 ranks or on the other suits (base, base_fields) and the least and most those
    # parts add (lo, hi), or'ed with TERM_LEAF_SUM when leaf_sum may sum the s0 part over leaves
    # leaf_sum: that part summed over leaves whose unseen s0 ranks are unseen0 less any of the
    # ranks ``ranks`` (each absent in m0 of them, taken out in m1), times mult: the term (gain) and
    # its fields
    # side (NULL: none): the side part of a key for one other suit whose unseen ranks are
    # ``unseen_s`` (13 bits), with its fields (deltas: summed with value's)
    # side_sum: the side part summed over draws whose suit's unseen ranks are unseen_s less any of
    # the ranks ``ranks`` (that suit's card not drawn in m0 of them, drawn in m1), times mult
    const void* ctx
    term_prepare_t prepare
    term_value_t value
    term_bound_t bound
    term_leaf_sum_t leaf_sum
    term_value_t side
    term_leaf_sum_t side_sum
    size_t key_bytes
    int n_fields
    int64_t unit[7]
    # not_with_insurance: the term is not taken on an insured raise -- the player insures only when
    # the insurance is worth more than the term, and its fields are then not counted
    bint not_with_insurance


# The name of the capsule that carries a FinalTerm to the kernel, and the flags of prepare and bound.
cdef extern from *:
    """
    #define STUDODDS_FINAL_TERM_CAPSULE "studodds.final_term"
    """
    const char* CAPSULE "STUDODDS_FINAL_TERM_CAPSULE"

cdef enum:
    TERM_LIVE = 1
    TERM_SIDE = 2
    TERM_BOUNDED = 1
    TERM_LEAF_SUM = 2
