"""One module per external format: parse → domain values → store, and back."""
