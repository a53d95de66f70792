"""`borrowed` and `by_reference`, for the batched engines' numba kernels: their state is a tuple of
dozens of arrays, and numba reference-counts each array of it at every call and inlined helper; an
entry kernel that borrows the tuple once drops that (Split the Hoard's mask went from 5.9 to 0.5 ms
a step at B=4,096).

numba also passes a tuple to a function it does not inline field by field: Illimat's state of 57
arrays is ~450 machine words, copied at every call of a helper that calls another (~300 ns a
call, most of its engine's time). `by_reference` passes a pointer to the borrowed tuple instead,
one word, read field by field as the tuple is (``s.loc[b, c]``). Written by hand: numba has no
option for either.
"""

from __future__ import annotations

from numba import types
from numba.core import cgutils
from numba.core.imputils import impl_ret_borrowed, lower_getattr_generic
from numba.core.typing.templates import AttributeTemplate, infer_getattr
from numba.extending import intrinsic, models, register_model

from card_envs.numba_cache import njit


@intrinsic
def borrowed(typingctx, tup):
    """The tuple `tup` with each array's reference count pointer cleared: numba then drops the
    atomic reference counting of every copy of the tuple (each call and each inlined helper copies
    all its arrays). Safe while the caller keeps the arrays alive: the engine holds them for the
    whole kernel call, and no kernel keeps or returns them."""
    def codegen(context, builder, sig, args):
        return _without_counts(context, builder, sig.args[0], args[0])
    return tup(tup), codegen


@njit(cache=True)
def keep_alive(tup):
    """A use of `tup` after the last use of its borrowed copy or reference: numba frees arrays
    after their variable's last use, so a tuple a kernel made itself must be used again past its
    borrowed copy's last use."""
    return len(tup)


def _without_counts(context, builder, tuple_type, value):
    """`value` (of `tuple_type`) with each array's reference-count pointers cleared."""
    for i, ty in enumerate(tuple_type.types):
        if isinstance(ty, types.Array):
            ary = context.make_array(ty)(context, builder, value=builder.extract_value(value, i))
            ary.meminfo = cgutils.get_null_value(ary.meminfo.type)
            ary.parent = cgutils.get_null_value(ary.parent.type)
            value = builder.insert_value(value, ary._getvalue(), i)
    return value


class TupleRef(types.Type):
    """A pointer to a named tuple held in an entry kernel's frame; reads its fields by name."""

    def __init__(self, tuple_type: types.BaseNamedTuple):
        self.tuple_type = tuple_type
        super().__init__(name=f"TupleRef({tuple_type})")


@register_model(TupleRef)
class _TupleRefModel(models.PrimitiveModel):
    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, dmm.lookup(fe_type.tuple_type).get_value_type().as_pointer())


@infer_getattr
class _TupleRefAttributes(AttributeTemplate):
    key = TupleRef

    def generic_resolve(self, ty, attr):
        fields = ty.tuple_type.fields
        return ty.tuple_type.types[fields.index(attr)] if attr in fields else None


@lower_getattr_generic(TupleRef)
def _tuple_ref_getattr(context, builder, ty, value, attr):
    i = ty.tuple_type.fields.index(attr)
    field = builder.load(cgutils.gep_inbounds(builder, value, 0, i))
    return impl_ret_borrowed(context, builder, ty.tuple_type.types[i], field)


@intrinsic
def by_reference(typingctx, tup):
    """`borrowed(tup)` kept in the calling kernel's frame and passed on as a pointer: each call of
    a helper then copies one word instead of every field of every array. Named tuples only (their
    fields are read by name). Safe within the calling kernel, which holds the frame, as `borrowed`."""
    if not isinstance(tup, types.BaseNamedTuple):
        return None

    def codegen(context, builder, sig, args):
        ptr = cgutils.alloca_once(builder, args[0].type)
        builder.store(_without_counts(context, builder, sig.args[0], args[0]), ptr)
        return ptr
    return TupleRef(tup)(tup), codegen
