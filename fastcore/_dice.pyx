# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Counter-based d6 generator (DICE-03), compiled.

Must agree bit for bit with `hardpoint.dice.die_face` (the reference) on the
test vectors in seeds/dice_vectors.toml. The C functions live in hp_dice.h so
every kernel draws dice inside its own nogil loop.
"""
from libc.stdint cimport uint64_t, int64_t

cdef extern from "hp_dice.h" nogil:
    uint64_t hp_mix64(uint64_t z)
    uint64_t hp_stream_key(uint64_t seed, uint64_t trial)
    int hp_face(uint64_t key, uint64_t k)


def mix64(uint64_t z):
    """SplitMix64 step (same as hardpoint.dice.mix64)."""
    return hp_mix64(z)


def die_face(uint64_t seed, uint64_t trial, uint64_t k):
    """The k-th d6 of trial `trial` under `seed` (same as hardpoint.dice.die_face)."""
    return hp_face(hp_stream_key(seed, trial), k)


def fill_faces(uint64_t seed, uint64_t first_trial, unsigned char[:, ::1] out):
    """Write faces 0..n_dice-1 of trials first_trial.. into `out` (n_trials x n_dice)."""
    cdef Py_ssize_t t, k
    cdef uint64_t key
    with nogil:
        for t in range(out.shape[0]):
            key = hp_stream_key(seed, first_trial + <uint64_t>t)
            for k in range(out.shape[1]):
                out[t, k] = <unsigned char>hp_face(key, <uint64_t>k)


def count_hits(uint64_t seed, uint64_t first_trial, Py_ssize_t n_trials, int needed):
    """Floor loop: roll 2d6 per trial, count rolls >= needed (natural 2 misses)."""
    cdef Py_ssize_t t
    cdef uint64_t key
    cdef int a, b
    cdef int64_t hits = 0
    with nogil:
        for t in range(n_trials):
            key = hp_stream_key(seed, first_trial + <uint64_t>t)
            a = hp_face(key, 0)
            b = hp_face(key, 1)
            if a + b != 2 and a + b >= needed:
                hits += 1
    return hits
