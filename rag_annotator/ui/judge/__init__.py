"""Judge wing: relevance judging of pooled (case, document) pairs, its dialogs."""
