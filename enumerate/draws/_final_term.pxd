# A term a table adds to the value of raising a final hand, beside the linear form of the dealer's
# counts the draws' rank kernel reads per class (enumerate/draws/_switch_ranks.pyx).
#
# The kernel knows, for every leaf of draws, the final hand's strength and class, the unseen cards
# of each rank (the dealer's and the rest of the deck's) and which ranks' cards of the up card's
# suit s0 are unseen; a term that depends on nothing else plugs in here -- Russian Poker's bought
# game does (enumerate/russian/_bought.pyx): what buying adds over the dealer hands that do not
# qualify, and how the purchases end.  A table's module makes the struct and hands it to the kernel
# in a capsule named CAPSULE; the kernel never imports the table's module.
#
# Units: with a term, the kernel's values of kind k (keep, switch 1..5, buy) are in units of
# 1 / (scale * unit[k]) antes per dealer hole-card set, the linear form's counts times unit[k].
from libc.stdint cimport int64_t

ctypedef bint (*term_prepare_t)(const void* ctx, void* key, const int* unseen, int strength, int cls,
                                int kind) noexcept nogil
ctypedef int64_t (*term_value_t)(const void* ctx, const void* key, const int* unseen, int unseen0,
                                 int64_t* fields) noexcept nogil


cdef struct FinalTerm:
    # prepare: fill ``key`` (key_bytes of scratch) for a final hand of this strength and class
    # with ``unseen[r]`` unseen cards of each rank r, drawn by an action of kind ``kind``; False
    # when the term is 0 for every such hand (value is then not called)
    # value: the term for a prepared key when the unseen s0 cards are of the ranks ``unseen0``
    # (13 bits), in units of 1 / (scale * unit[kind]) antes summed over the dealer sets; writes
    # n_fields counts (summed by class of final hand beside the kernel's own)
    const void* ctx
    term_prepare_t prepare
    term_value_t value
    size_t key_bytes
    int n_fields
    int64_t unit[7]


# The name of the capsule that carries a FinalTerm to the kernel.
cdef extern from *:
    """
    #define STUDODDS_FINAL_TERM_CAPSULE "studodds.final_term"
    """
    const char* CAPSULE "STUDODDS_FINAL_TERM_CAPSULE"
