"""The guide inside the app (Help → Guide, F1), the first steps of an empty gold set and what
fills each empty section (issue 21, points 2 and 3)."""
