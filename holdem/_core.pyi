# The raw cffi extension built from csrc/ (API mode); see csrc/holdem.h.
from typing import Any

ffi: Any
lib: Any
