"""Freed memory kept by the C allocator for the next chunk of a large read.

A large member read a chunk at a time (a workbook's sheet of tens of megabytes) frees and
allocates buffers of a megabyte or more once per chunk: the inflated bytes, the rows joined,
the values cut out. glibc gives the top of its heap back to the kernel whenever more than its
trim threshold is free there, and the next chunk's buffers then fault every page in again:
on the design-diff bench, a third of the run's page faults and about 4% of its CPU. With
TOP_PAD kept at the top, those pages are reused. The peak memory does not grow: what is
kept is what the read held a moment before. The setting is the process's, made once.
"""

from __future__ import annotations

M_TOP_PAD = -2  # mallopt's parameter number (glibc's malloc.h)
TOP_PAD = 32 << 20  # bytes kept: a few chunks' buffers (16 MiB kept about half of the faults)
_asked = False


def keep_freed_memory() -> None:
    """Ask the C allocator, once per process, to keep TOP_PAD of freed memory."""
    global _asked
    if not _asked:
        _asked = True
        set_top_pad()


def set_top_pad() -> bool:
    """mallopt(M_TOP_PAD, TOP_PAD); whether the C library took it. One without mallopt
    (not glibc) is left as it is."""
    import ctypes

    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (AttributeError, OSError, TypeError):
        return False
    return bool(mallopt(M_TOP_PAD, TOP_PAD))
