"""Statistical power and sample size (issue 36): the Williams test's power (:mod:`.williams`)."""
