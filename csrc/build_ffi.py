"""cffi build script (API mode) for the ``holdem._core`` extension.

setup.py names it in ``cffi_modules``; setuptools runs it from the project
root.  Development builds go through ``pip install -e .``.
"""

import os
import sys

from cffi import FFI

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCES = ["hd_eval.c", "hd_enum.c", "hd_equity.c", "hd_signal.c"]


def _rel(name: str) -> str:
    # setuptools wants source paths relative to the project root
    return os.path.relpath(os.path.join(HERE, name))


ffibuilder = FFI()
with open(os.path.join(HERE, "holdem.cdef"), encoding="utf-8") as f:
    ffibuilder.cdef(f.read())

ffibuilder.set_source(
    "holdem._core",
    '#include "hd_internal.h"',
    sources=[_rel(name) for name in SOURCES],
    include_dirs=[_rel(".")],
    extra_compile_args=[] if sys.platform == "win32" else ["-O3", "-std=c99"],
)
