"""Shared plumbing of :mod:`stats`, private: errors, result classes, validation, randomness
(:mod:`.random`: the check of ``rng`` and the resampling machinery), work and memory budgets,
progress and Stop, the lazily compiled (numba) paths, worker threads, column-wise correlations,
option vocabularies, the one number rule of files and options (:mod:`.numbers`), escaping and
keyword-only calls. Imports nothing heavy, so the command line can take
its choices from here without numpy."""
