"""`prefetch_rows`, for the batched engines' fused steps: the next block of games' state rows asked
from memory while the current block is played.

At B=4,096 a step writes its observations (23-27 MB for Illimat) through the cache, which then holds
little of the state (2.6 KB a game in ~60 arrays for Illimat) when the next step comes back to a
game: each array a game reads costs a wait on memory, and the CPU's own prefetchers do not follow
dozens of arrays at once. Asked a block ahead, Illimat's 4-player step ran ~15% faster. Written by
hand: numba exposes no prefetch.
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from card_envs.batch.numba_borrow import TupleRef

LINE = 64  # bytes in a cache line


def _prefetch_span(context, builder, start, length) -> None:
    """Prefetch the bytes [start, start + length) for reading into every cache level (llvm.prefetch:
    read, locality 3, data), a line at a time."""
    i32 = ir.IntType(32)
    hint = ir.FunctionType(ir.VoidType(), [ir.IntType(8).as_pointer(), i32, i32, i32])
    fn = cgutils.get_or_insert_function(builder.module, hint, "llvm.prefetch.p0i8")
    zero, line = context.get_constant(types.intp, 0), context.get_constant(types.intp, LINE)
    with cgutils.for_range_slice(builder, zero, length, line) as (offset, _):
        builder.call(fn, [builder.gep(start, [offset]), ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)])


@intrinsic
def prefetch_rows(typingctx, arrays, lo, hi):
    """Prefetch rows lo..hi-1 (lo <= hi, within the arrays) of each array of `arrays`: a tuple (or
    its `by_reference`) of C-contiguous arrays with a row per game, one contiguous span in each.
    A hint: it changes no value, and the tuple's other members are skipped."""
    tuple_type = arrays.tuple_type if isinstance(arrays, TupleRef) else arrays
    if not isinstance(tuple_type, types.BaseTuple):
        return None
    members = [(i, ty) for i, ty in enumerate(tuple_type.types) if isinstance(ty, types.Array)]
    if any(ty.layout != "C" or ty.ndim == 0 for _, ty in members):
        return None

    def codegen(context, builder, sig, args):
        value, first, last = args
        if isinstance(sig.args[0], TupleRef):
            value = builder.load(value)
        for i, ty in members:
            ary = context.make_array(ty)(context, builder, value=builder.extract_value(value, i))
            row = cgutils.unpack_tuple(builder, ary.strides, ty.ndim)[0]  # bytes a row
            start = builder.gep(builder.bitcast(ary.data, ir.IntType(8).as_pointer()), [builder.mul(first, row)])
            _prefetch_span(context, builder, start, builder.mul(builder.sub(last, first), row))
        return context.get_dummy_value()
    return types.void(arrays, types.intp, types.intp), codegen
