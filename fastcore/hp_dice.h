/* Counter-based d6 (DICE-03), shared by every Cython kernel.
 * Must agree bit for bit with hardpoint.dice (mix64, stream_key, face_from_key). */
#ifndef HP_DICE_H
#define HP_DICE_H
#include <stdint.h>

static inline uint64_t hp_mix64(uint64_t z) {
    z += 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline uint64_t hp_stream_key(uint64_t seed, uint64_t trial) {
    return hp_mix64(hp_mix64(seed) ^ trial);
}

static inline int hp_face(uint64_t key, uint64_t k) {
    return 1 + (int)((((hp_mix64(key ^ k) >> 32) * 6u) >> 32));
}
#endif
