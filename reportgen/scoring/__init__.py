"""Pure scoring blocks shared by the circuits."""
