"""The gold-set file: connection contract, migrations, the store that owns every SQL string,
history (for undo and audit) and backups."""
