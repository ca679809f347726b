"""hardpoint.fastcore: compiled kernels (Cython ahead-of-time, Numba for parallel trial loops).

Kernels work on flat arrays and never raise; the wrappers in `hardpoint`
validate and pack. Each module says which reference function it must agree
with. `hardpoint.backend` decides whether they are used.
"""
