# How the module that cimports this was compiled, for run-time checks:
# * STUDODDS_OPENMP_COMPILED: the C compiler had OpenMP on (_OPENMP is defined exactly when
#   -fopenmp, or the compiler's equivalent, was given); a build that silently fell back to
#   serial loops is visible at run time.
# * STUDODDS_DEBUG_COMPILED: setup.py's debug build (STUDODDS_DEBUG_BUILD=1: bounds checks on).
# * STUDODDS_CYTHON_VERSION: the Cython that generated the C code (for the provenance record).
cdef extern from *:
    """
    #ifdef _OPENMP
    #define STUDODDS_OPENMP_COMPILED 1
    #else
    #define STUDODDS_OPENMP_COMPILED 0
    #endif
    #ifndef STUDODDS_CYTHON_VERSION
    #define STUDODDS_CYTHON_VERSION "unknown"
    #endif
    #ifdef STUDODDS_DEBUG_BUILD
    #define STUDODDS_DEBUG_COMPILED 1
    #else
    #define STUDODDS_DEBUG_COMPILED 0
    #endif
    """
    const int STUDODDS_OPENMP_COMPILED
    const int STUDODDS_DEBUG_COMPILED
    const char* STUDODDS_CYTHON_VERSION
