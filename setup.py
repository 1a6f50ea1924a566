"""The three compiled modules; everything else is in pyproject.toml.

- holdem._core: the C core through cffi (API mode), built by csrc/build_ffi.py;
- holdem._fastcall: the per-hand calls as a small CPython extension that
  reads holdem._core's tables (see csrc/hd_fastcall.c for why);
- holdem._engine: the state and rules of one hand (csrc/hd_hand.c) and the
  C base class of holdem.hand.Hand on them (csrc/hd_engine.c), reading the
  same tables; and the JSON text of its views and records (csrc/hd_json.c).

All three use the limited API, so one abi3 wheel serves
CPython 3.11 and later.
"""

import sys

from setuptools import Extension, setup


def extension(name: str, sources: list[str]) -> Extension:
    """A limited-API (abi3) extension module of the package, built from csrc/."""
    return Extension(
        name,
        sources=sources,
        depends=["csrc/hd_internal.h", "csrc/holdem.h", "csrc/hd_hand.h"],
        include_dirs=["csrc"],
        py_limited_api=True,
        extra_compile_args=[] if sys.platform == "win32" else ["-O3", "-std=c99"],
    )


fastcall = extension(
    "holdem._fastcall",
    ["csrc/hd_fastcall.c", "csrc/hd_shuffle.c", "csrc/hd_toml.c", "csrc/hd_phh.c"],
)
engine = extension("holdem._engine", ["csrc/hd_engine.c", "csrc/hd_hand.c", "csrc/hd_json.c"])

setup(
    cffi_modules=["csrc/build_ffi.py:ffibuilder"],
    ext_modules=[fastcall, engine],
    options={"bdist_wheel": {"py_limited_api": "cp311"}},
)
