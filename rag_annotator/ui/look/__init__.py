"""How the window looks to everyone: semantic colours, text zoom and accessible names (issue 21)."""
