"""MT systems: sacreBLEU's segment statistics for BLEU, chrF and TER (tokenizer options, the
compiled n-gram and TER kernels), the randomized tests of Graham, Mathur & Baldwin (WMT 2014),
the systems table and each segment's contribution to a pair's difference."""
