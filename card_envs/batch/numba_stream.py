"""`stream_row` and `stream_fence`, for numba kernels that write observation rows much larger
than the cache.

At B=4,096 a step of 3 Piles writes 13 MB of observations: a plain store first reads each line it
writes from memory (to own it), so every byte costs a read and a write. A row built in a small
scratch row (in the L1 cache) and then streamed out with non-temporal stores is only written:
3 Piles' fused step kernel took 1.5-1.8 ms instead of 1.9-2.3 (2 players, B=4,096, a loaded
machine). Piles' took longer with it (2.2 -> 2.5 ms, whole lines streamed; 3.3 -> 4.4 with its
rows' partial lines too), so it writes its rows plainly: measure before using it.
Written by hand: numba exposes neither the store hint nor a fence.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from card_envs.numba_cache import njit
from numba.core import cgutils
from numba.extending import intrinsic


@intrinsic
def _stream_chunks(typingctx, dst, dst_at, src, src_at, chunks):
    """dst[dst_at:dst_at + 4 chunks] = src[src_at:...], 16 bytes a non-temporal store: float32
    contiguous 1-d arrays, dst + dst_at 16-byte aligned (the caller's, not checked)."""
    arrays = (dst, src)
    if not all(isinstance(a, types.Array) and a.ndim == 1 and a.layout == "C" and a.dtype == types.float32
               for a in arrays):
        return None

    def codegen(context, builder, sig, args):
        d, d_at, s, s_at, count = args
        vector = ir.VectorType(ir.FloatType(), 4)
        d_ptr = builder.bitcast(builder.gep(context.make_array(sig.args[0])(context, builder, d).data, [d_at]),
                                vector.as_pointer())
        s_ptr = builder.bitcast(builder.gep(context.make_array(sig.args[2])(context, builder, s).data, [s_at]),
                                vector.as_pointer())
        hint = builder.module.add_metadata([ir.Constant(ir.IntType(32), 1)])
        with cgutils.for_range(builder, count) as loop:
            value = builder.load(builder.gep(s_ptr, [loop.index]), align=4)
            store = builder.store(value, builder.gep(d_ptr, [loop.index]), align=16)
            store.set_metadata("nontemporal", hint)
        return context.get_dummy_value()
    return types.void(dst, types.intp, src, types.intp, types.intp), codegen


@njit(cache=True, inline="always")
def stream_row(dst, src):
    """dst[:] = src[:] for float32 rows of one size: plain stores up to dst's first cache line
    boundary and after its last, non-temporal ones between. Call `stream_fence` before the kernel
    returns."""
    size = dst.shape[0]
    head = min(size, ((64 - (dst.ctypes.data & 63)) & 63) // 4)
    for i in range(head):
        dst[i] = src[i]
    chunks = (size - head) // 16 * 4  # whole cache lines only: a line streamed in part is read back
    _stream_chunks(dst, head, src, head, chunks)
    for i in range(head + 4 * chunks, size):
        dst[i] = src[i]


@intrinsic
def stream_fence(typingctx):
    """A fence: the streamed stores before it are ordered before every later access (streamed
    stores are not ordered otherwise)."""
    def codegen(context, builder, sig, args):
        builder.fence("seq_cst")
        return context.get_dummy_value()
    return types.void(), codegen
