"""Small Numba helpers every game kernel uses.

Strategies are called through first-class function pointers, which Numba cannot inline. An array
argument that owns a reference count then costs two atomic operations per call, more than a cheap
strategy's whole body. The kernel owns its observation and legal-mask buffers for the whole call,
so it hands strategies *borrowed* views of them (same memory, no reference count).
"""

from llvmlite import binding as llvm_binding
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


# PCG64 (numpy's default bit generator): 128-bit LCG state, XSL-RR output. numpy keeps a pointer to
# {uint128 state; uint128 inc} as the first field of the bit generator's C state.
PCG64_MULTIPLIER = (0x2360ED051FC65DA4 << 64) | 0x4385DF649FCCF645


@intrinsic
def _pcg64_next_double(typingctx, rng):
    """The generator's next uniform double, computed inline: numpy's PCG64 step and its double
    conversion, on numpy's own state (so the stream is exactly `rng.random()`'s, and the two can be
    mixed). Only for a Generator over PCG64, which is what the runner hands every kernel."""
    if not isinstance(rng, types.NumPyRandomGeneratorType):
        return None
    sig = types.float64(rng)

    def codegen(context, builder, signature, args):
        generator = cgutils.create_struct_proxy(signature.args[0])(context, builder, value=args[0])
        bits = cgutils.create_struct_proxy(types.NumPyRandomBitGeneratorType("bit_generator"))(
            context, builder, value=generator.bit_generator)
        i64, i128 = ir.IntType(64), ir.IntType(128)
        c_state = builder.inttoptr(bits.state, i64.as_pointer().as_pointer())
        words = builder.load(c_state)  # the pcg state: state (128 bits), then inc (128 bits)
        state_ptr = builder.bitcast(words, i128.as_pointer())
        inc_ptr = builder.gep(state_ptr, [ir.Constant(ir.IntType(32), 1)])
        state = builder.load(state_ptr, align=8)
        inc = builder.load(inc_ptr, align=8)
        state = builder.add(builder.mul(state, ir.Constant(i128, PCG64_MULTIPLIER)), inc)
        builder.store(state, state_ptr, align=8)
        high = builder.trunc(builder.lshr(state, ir.Constant(i128, 64)), i64)
        value = builder.xor(high, builder.trunc(state, i64))
        rotation = builder.trunc(builder.lshr(state, ir.Constant(i128, 122)), i64)
        rotr = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i64, (i64, i64, i64)),
                                              "llvm.fshr.i64")
        out = builder.call(rotr, (value, value, rotation))
        mantissa = builder.uitofp(builder.lshr(out, ir.Constant(i64, 11)), ir.DoubleType())
        return builder.fmul(mantissa, ir.Constant(ir.DoubleType(), 1.0 / 9007199254740992.0))

    return sig, codegen


@njit(cache=True, inline="always")
def random_double(rng):
    """Exactly `rng.random()` (the same number from the same stream), at a fraction of the cost.

    Numba compiles `Generator.random()` as a separate function that receives the whole generator
    by value and then calls the bit generator through a pointer; a game draws a number for nearly
    every decision, and those calls were about a tenth of the run time. This computes numpy's
    PCG64 step inline instead (see `_pcg64_next_double`).
    """
    return _pcg64_next_double(rng)


@njit(cache=True, inline="always")
def uniform_index(count, rng):
    """A uniform integer in [0, count) from one double: floor(u * count). (Its bias for counts up
    to 64 is below 2**-46, far under anything a simulation can detect, and it is several times
    faster than Generator.integers inside Numba.) Every kernel and strategy draws with it."""
    return int(random_double(rng) * count)


@intrinsic
def strategy_address(typingctx, function):
    """The native address of a first-class strategy function's compiled code (0 if it has none:
    then only Numba's own first-class call can run it)."""
    from simulator.games.base import STRATEGY_SIGNATURE

    if not isinstance(function, (types.FunctionType, types.Dispatcher)):
        return None
    sig = types.int64(function)
    first_class = types.FunctionType(STRATEGY_SIGNATURE)

    def codegen(context, builder, signature, args):
        # a dispatcher (a tuple of one strategy repeated) is made a first-class function first
        value = context.cast(builder, args[0], signature.args[0], first_class)
        value = cgutils.create_struct_proxy(first_class)(context, builder, value=value)
        return builder.ptrtoint(value.jit_addr, ir.IntType(64))

    return sig, codegen


@intrinsic
def call_strategy(typingctx, address, kind, obs, legal, params, rng):
    """Call the strategy compiled at `address` (see `strategy_address`) with the platform's one
    signature, as Numba calls a first-class function, exceptions included. A kernel keeps the
    addresses in its state, so its round steps need not take the tuple of strategy functions (48
    words passed by value to every call)."""
    from simulator.games.base import STRATEGY_SIGNATURE

    sig = types.int64(address, kind, obs, legal, params, rng)
    declared = STRATEGY_SIGNATURE.args

    def codegen(context, builder, signature, args):
        values = [context.cast(builder, value, given, wanted)
                  for value, given, wanted in zip(args[1:], signature.args[1:], declared)]
        function_type = context.call_conv.get_function_type(types.int64, declared)
        pointer = builder.inttoptr(args[0], function_type.as_pointer())
        status, result = context.call_conv.call_function(builder, pointer, types.int64,
                                                         declared, values)
        with cgutils.if_unlikely(builder, status.is_error):
            context.call_conv.return_status_propagate(builder, status)
        return result

    return sig, codegen


@intrinsic
def _popcount(typingctx, x):
    if not isinstance(x, types.Integer):
        return None
    sig = types.int64(x)

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        value = context.cast(builder, args[0], signature.args[0], types.int64)
        ctpop = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i64, (i64,)),
                                               "llvm.ctpop.i64")
        return builder.call(ctpop, (value,))

    return sig, codegen


@njit(cache=True, inline="always")
def popcount(x):
    """The number of set bits of a non-negative int64 (one instruction where the CPU has it)."""
    return _popcount(x)


def _host_has_pdep() -> bool:
    """Can compiled code use BMI2's PDEP? Only when compiling for this host's CPU (a portable
    build, NUMBA_CPU_NAME set, must not assume it)."""
    if config.CPU_NAME or config.CPU_FEATURES:
        return False
    try:
        return bool(llvm_binding.get_host_cpu_features().get("bmi2"))
    except RuntimeError:  # a host LLVM cannot describe
        return False


HAS_PDEP = _host_has_pdep()


@intrinsic
def _deposit_bits(typingctx, source, mask):
    """PDEP: the low bits of `source` placed, in order, at the set bits of `mask`."""
    sig = types.int64(types.int64, types.int64)

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        pdep = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i64, (i64, i64)),
                                              "llvm.x86.bmi.pdep.64")
        return builder.call(pdep, args)

    return sig, codegen


@intrinsic
def _trailing_zeros(typingctx, x):
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        cttz = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(i64, (i64, ir.IntType(1))), "llvm.cttz.i64")
        return builder.call(cttz, (args[0], ir.Constant(ir.IntType(1), 0)))

    return sig, codegen


@njit(cache=True, inline="always")
def _skip_low(bits, pick, position, width):
    """One halving step of `nth_set_bit_by_halving`: when the wanted bit is above the low `width`
    bits, drop them."""
    low = popcount(bits & ((1 << width) - 1))
    above = pick >= low
    return ((bits >> width) if above else bits, (pick - low) if above else pick,
            (position + width) if above else position)


@njit(cache=True, inline="always")
def nth_set_bit_by_halving(bits, pick):
    """The position of the pick-th (0-based) set bit of a non-negative int64 with more than
    `pick` set bits, found by halving without a data-dependent branch."""
    position = 0
    bits, pick, position = _skip_low(bits, pick, position, 32)
    bits, pick, position = _skip_low(bits, pick, position, 16)
    bits, pick, position = _skip_low(bits, pick, position, 8)
    bits, pick, position = _skip_low(bits, pick, position, 4)
    bits, pick, position = _skip_low(bits, pick, position, 2)
    bits, pick, position = _skip_low(bits, pick, position, 1)
    return position


@njit(cache=True, inline="always")
def nth_set_bit_by_deposit(bits, pick):
    """The same in two instructions (BMI2): deposit a single bit at the pick-th set bit."""
    return _trailing_zeros(_deposit_bits(1 << pick, bits))


# The choice is made once per process; either gives the same positions (tested).
nth_set_bit = nth_set_bit_by_deposit if HAS_PDEP else nth_set_bit_by_halving


if config.DISABLE_JIT:
    # Interpreted (NUMBA_DISABLE_JIT=1, used to measure the JIT's speed-up): plain arrays are
    # already reference-safe, so a view is the array itself.
    def borrowed(owner):  # noqa: F811
        return owner

    def borrowed_rng(rng):  # noqa: F811
        return rng

    def random_double(rng):  # noqa: F811
        return rng.random()

    def popcount(x):  # noqa: F811
        return bin(x).count("1")

    def nth_set_bit(bits, pick):  # noqa: F811
        return [i for i in range(64) if (bits >> i) & 1][pick]


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
