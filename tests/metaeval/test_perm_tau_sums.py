"""Kendall's per-cell sign sums of a long group (stats.metaeval.perm_both._tau_sums, compiled)
against their definition summed pair by pair (a plain second formulation) and against the
merge-sort tree of stats.metaeval.perm_both._linear._LongGroup (its array fallback)."""

import numpy as np
import pytest

from stats.metaeval.perm_both import _linear, _tau_sums

pytestmark = pytest.mark.skipif(_tau_sums.compiled() is None, reason="numba not installed")


def _brute(g, v, u):
    # K_k = sum_t sign(g_k - g_t) sign(v_k - u_t), over the cells with a gold score
    ok = ~np.isnan(g)
    g, v, u = g[ok], v[ok], u[ok]
    return (np.sign(g[:, None] - g[None, :]) * np.sign(v[:, None] - u[None, :])).sum(axis=1)


@pytest.mark.parametrize("seed", range(4))
def test_sign_sums_match_definition_and_fallback(seed, monkeypatch):
    gen = np.random.default_rng(seed)
    n = 300 + 37 * seed
    g = gen.integers(0, 6, n).astype(float)  # many gold ties
    g[gen.random(n) < 0.05] = np.nan
    scores = {
        "a": np.round(gen.normal(size=n), 1),  # metric ties
        "b": gen.normal(size=n),
        "c": np.round(gen.normal(size=n), 1),
    }
    scores["c"][: n // 3] = scores["a"][: n // 3]  # scores shared between metrics
    grp = _linear._LongGroup(g, scores, "kendall")
    pairs = [(v, u) for v in scores for u in scores]
    got = {p: grp.k_sums(*p) for p in pairs}
    for v, u in pairs:
        assert got[v, u].dtype == np.int64
        np.testing.assert_array_equal(got[v, u], _brute(g, scores[v], scores[u]))
    monkeypatch.setattr(_tau_sums, "compiled", lambda: None)
    old = _linear._LongGroup(g, scores, "kendall")
    for p in pairs:
        np.testing.assert_array_equal(old.k_sums(*p), got[p])


def test_one_gold_block_and_tiny_groups():
    for n in (0, 1, 2, 5):
        g = np.zeros(n)
        v = np.arange(n, dtype=float)
        grp = _linear._LongGroup(g, {"v": v, "u": v[::-1].copy()}, "kendall")
        np.testing.assert_array_equal(grp.k_sums("v", "u"), np.zeros(n, dtype=np.int64))


@pytest.mark.parametrize("discrete", [0, 1])
def test_symmetric_ties_as_products_equal_the_kernel(discrete, monkeypatch):
    # identical outputs on a share of the items (ties on the same cells in every metric: the
    # symmetric route), one metric rounded (the tree route), gold with ties and gaps: the
    # array route of tau-b gives the kernel's numbers to the bit, draws included
    import stats
    from stats.metaeval.perm_both import _ties

    gen = np.random.default_rng(5)
    G = -np.round(gen.poisson(1.0, (6, 80)) * 0.5, 1)
    same = gen.random(80) < 0.3
    G[1:, same] = G[0, same]
    M = {}
    for i in range(4):
        m = G + gen.normal(0, 1 + i, G.shape)
        m[1:, same] = m[0, same]
        M[f"m{i}"] = np.round(m) if i < discrete else m
    G[gen.random(G.shape) < 0.05] = np.nan

    def run():
        return stats.perm_both(M, G, correlation="kendall", grouping="none", n_resamples=300,
                               rng=3, return_draws=True)

    monkeypatch.setattr(_linear, "SORT_GROUP_CELLS", {"kendall": 64, "kendall-c": 64,
                                                      "spearman": 64})
    served = []
    symmetric = _ties.Tied._symmetric
    monkeypatch.setattr(_ties.Tied, "_symmetric",
                        lambda self, *a: served.append(len(a[1])) or symmetric(self, *a))
    new = run()
    assert sum(served) > 0  # the array route served some pairs
    monkeypatch.setattr(_ties, "SYMMETRIC_PRODUCTS", False)
    old = run()
    assert np.isnan(new.draws).sum() == np.isnan(old.draws).sum()
    np.testing.assert_array_equal(new.draws, old.draws)
    assert new.draws.tobytes() == old.draws.tobytes()
    assert new.pvalue.equals(old.pvalue)
