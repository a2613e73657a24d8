"""The rules modules: numbers and pure rule functions, one module per rulebook."""
