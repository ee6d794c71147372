"""PERM-BOTH (Deutsch et al., 2021), as MTME runs it: the entry points (:mod:`.core` for two
metrics, :mod:`.pairs` for every pair, :mod:`.pooled` for pooled groups, :mod:`.spa` for soft
pairwise accuracy) and the compiled kernels they share."""
