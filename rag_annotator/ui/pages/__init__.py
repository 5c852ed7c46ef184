"""Pages wing: a document shown as the expert knows it (a PDF's page with the passage
highlighted, or its text with its headings), rendered off the key path, and the words
selected on it."""
