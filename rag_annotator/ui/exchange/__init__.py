"""Exchange wing: import and export dialogs and the workers that run them off the GUI thread."""
