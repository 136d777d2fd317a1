"""reportgen: ranking bulletins and annexes for game-club leagues."""

__version__ = "0.1.0"
