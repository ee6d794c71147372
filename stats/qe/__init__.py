"""Quality estimation: Graham (ACL 2015) (:mod:`.graham`), the WMT20-24 sentence-level tasks
(:mod:`.wmt`) and word-level tags (:mod:`.word`)."""
