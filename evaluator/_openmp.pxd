# Whether the C compiler had OpenMP on for the module that cimports this (the _OPENMP macro is
# defined exactly when -fopenmp, or the compiler's equivalent, was given).  Each compiled module
# exposes it as OPENMP, so a build that silently fell back to serial loops is visible at run time.
cdef extern from *:
    """
    #ifdef _OPENMP
    #define STUDODDS_OPENMP_COMPILED 1
    #else
    #define STUDODDS_OPENMP_COMPILED 0
    #endif
    """
    const int STUDODDS_OPENMP_COMPILED
