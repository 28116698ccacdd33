"""Small Numba helpers every game kernel uses.

Strategies are called through first-class function pointers, which Numba cannot inline. An array
argument that owns a reference count then costs two atomic operations per call, more than a cheap
strategy's whole body. The kernel owns its observation and legal-mask buffers for the whole call,
so it hands strategies *borrowed* views of them (same memory, no reference count).
"""

from llvmlite import ir
from numba import carray, config, njit, types
from numba.core import cgutils
from numba.extending import intrinsic


@intrinsic
def _address_as_pointer(typingctx, address):
    sig = types.voidptr(address)

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], cgutils.voidptr_t)

    return sig, codegen


@njit(cache=True, inline="always")
def borrowed(owner):
    """A view of a C-contiguous array that does not own a reference to it.

    Only for arrays that outlive every use of the view: kernel arguments (the caller holds them),
    or buffers the kernel keeps alive with `keep_alive` at its end.
    """
    return carray(_address_as_pointer(owner.ctypes.data), owner.shape, owner.dtype)


@intrinsic
def borrowed_rng(typingctx, rng):
    """The same Generator without its reference count (the caller keeps the real one alive)."""
    sig = rng(rng)

    def codegen(context, builder, signature, args):
        generator = cgutils.create_struct_proxy(signature.args[0])(context, builder, value=args[0])
        generator.meminfo = context.get_constant_null(types.MemInfoPointer(types.voidptr))
        return generator._getvalue()

    return sig, codegen


@intrinsic
def _next_double(typingctx, rng):
    """The generator's next uniform double: a direct call of its bit generator's next_double."""
    if not isinstance(rng, types.NumPyRandomGeneratorType):
        return None
    sig = types.float64(rng)

    def codegen(context, builder, signature, args):
        generator = cgutils.create_struct_proxy(signature.args[0])(context, builder, value=args[0])
        bits = cgutils.create_struct_proxy(types.NumPyRandomBitGeneratorType("bit_generator"))(
            context, builder, value=generator.bit_generator)
        address = context.get_value_type(types.uintp)
        function = ir.FunctionType(ir.DoubleType(), (address,)).as_pointer()
        return builder.call(builder.inttoptr(bits.fnptr_next_double, function), (bits.state,))

    return sig, codegen


@njit(cache=True, inline="always")
def random_double(rng):
    """Exactly `rng.random()` (the same number from the same stream), at a quarter of the cost.

    Numba compiles `Generator.random()` as a separate function that receives the whole generator
    by value and then calls the bit generator; in a game that draws a number for nearly every
    decision, those two calls were about a tenth of the run time. This makes the one call.
    """
    return _next_double(rng)


if config.DISABLE_JIT:
    # Interpreted (NUMBA_DISABLE_JIT=1, used to measure the JIT's speed-up): plain arrays are
    # already reference-safe, so a view is the array itself.
    def borrowed(owner):  # noqa: F811
        return owner

    def borrowed_rng(rng):  # noqa: F811
        return rng

    def random_double(rng):  # noqa: F811
        return rng.random()


@njit(cache=True)
def keep_alive(owners):
    """A last use of the buffers behind borrowed views, so they are not freed before it."""
    return len(owners)


@njit(cache=True, inline="always")
def record(trace, k, step, code, actor, target, value, extra):
    """Append one trace row if a trace buffer was given; returns the new row count."""
    if k < trace.shape[0]:
        trace[k, 0] = step
        trace[k, 1] = code
        trace[k, 2] = actor
        trace[k, 3] = target
        trace[k, 4] = value
        trace[k, 5] = extra
        return k + 1
    return k


@njit(cache=True, inline="always")
def checked_action(action, legal):
    """Guard a kernel against a strategy returning an illegal action (a bug in the strategy)."""
    if action < 0 or action >= legal.size or not legal[action]:
        raise ValueError("a strategy returned an illegal action")
    return action
