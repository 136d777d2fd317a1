"""The circuits' own commands, added to `reportgen` by the registry (`CircuitInfo.commands`)."""
