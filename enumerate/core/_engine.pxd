# C-level interface of the count kernels, for other Cython modules to cimport.
#
# The counters of one sweep state: for every card set T of 1..4 cards, the number of hands
# added so far that contain T, at OFFk + (colex index of T among the k-card sets).
from libc.stdint cimport int32_t, uint8_t

cdef enum:
    OFF1 = 0
    OFF2 = 52
    OFF3 = 52 + 1326
    OFF4 = 52 + 1326 + 22100
    N_COUNTERS = 52 + 1326 + 22100 + 270725

# Count one hand (sorted cards c) in every 1..4-card subset's counter.
cdef void add_hand(int32_t* cnt, const uint8_t* c) noexcept nogil
