# A flag a long kernel polls so that it stops as soon as it is asked to (SIGINT, SIGTERM).
#
# The caller (enumerate.core.parallel.interruptible) runs the kernel on a helper thread, keeps the
# main thread free to take the signal, and sets flag[0] = 1; the kernel's threads read the flag
# through a volatile load (the compiler may not keep it in a register) at every known set or
# situation and every few thousand hands, and return early.  A cancelled kernel's output is
# discarded: the caller raises the signal's exception and checkpoints nothing of that call.
from libc.stdint cimport int32_t

cdef extern from *:
    """
    static inline int studodds_cancelled(const int *flag) {
        return flag != 0 && *(const volatile int *)flag != 0;
    }
    """
    int studodds_cancelled(const int32_t* flag) noexcept nogil
