"""Human judgements: the gold standard of Graham, Mathur & Baldwin (WMT 2014) and the accuracy
of significance tests against it (:mod:`.gold`, :mod:`.accuracy`), and WMT22-25 human rankings
(:mod:`.ranking`) with paired by-domain tests and Stouffer's combination (:mod:`.paired`)."""
