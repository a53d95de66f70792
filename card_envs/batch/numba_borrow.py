"""`borrowed`, for the batched engines' numba kernels (Split the Hoard's, Dominion's): their state is
a tuple of dozens of arrays, and numba reference-counts each array of it at every call and inlined
helper; an entry kernel that borrows the tuple once drops that (Split the Hoard's mask went from
5.9 to 0.5 ms a step at B=4,096). Written by hand: numba has no option for it.
"""

from __future__ import annotations

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


@intrinsic
def borrowed(typingctx, tup):
    """The tuple `tup` with each array's reference count pointer cleared: numba then drops the
    atomic reference counting of every copy of the tuple (each call and each inlined helper copies
    all its arrays). Safe while the caller keeps the arrays alive: the engine holds them for the
    whole kernel call, and no kernel keeps or returns them."""
    def codegen(context, builder, sig, args):
        value = args[0]
        for i, ty in enumerate(sig.args[0].types):
            if isinstance(ty, types.Array):
                ary = context.make_array(ty)(context, builder, value=builder.extract_value(value, i))
                ary.meminfo = cgutils.get_null_value(ary.meminfo.type)
                ary.parent = cgutils.get_null_value(ary.parent.type)
                value = builder.insert_value(value, ary._getvalue(), i)
        return value
    return tup(tup), codegen
