"""The seven sections of the main window, one module each."""
