"""Pure-Python domain: values, enums, named operations and validation. No Qt, no SQL."""
