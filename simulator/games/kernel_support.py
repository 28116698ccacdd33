"""The Numba internals behind the engine: every intrinsic and low-level trick lives here.

Game packages never import this module; they use `simulator.games.engine`, and strategies use
`strategies.common`. What is here, and why:

* Views without a reference count (`flag_view`, `subarray`, `trace_view`, `borrowed_rng`). A
  strategy is called through a function pointer, which Numba cannot inline; an array argument that
  owns a reference count then costs two atomic operations per call, more than a cheap strategy's
  whole body. The kernel's state owns every buffer for the whole call, so strategies get views.
* Strategies called by the address of their compiled code (`native_address`, `call_strategy`),
  kept in the state, so no phase of a kernel takes a tuple of strategy functions. A game's
  `play_game` is called by address too (`game_address`, `call_game`), so the entry `play` does
  not link all of the game's code into its own and optimise it again (seconds of every first
  run, spent after everything else has compiled).
* numpy's PCG64 step inline (`random_double`): the same stream as `rng.random()`, without a call.
* Bit tricks for uniform choices (`popcount`, `nth_set_bit`: BMI2's PDEP where the CPU has it).
* Functions typed by their arguments' types, never their values (`typed_by_value_type`), so a
  rule called with constants compiles once, not once per constant.

Each has a plain-Python twin at the end of the module for interpreted runs (NUMBA_DISABLE_JIT=1),
which must give exactly the same results: the contract suite compares the two for every game.
"""

import numpy as np
from llvmlite import binding as llvm_binding
from llvmlite import ir
from numba import config, njit, types
from numba.core import cgutils
from numba.core.errors import NumbaError
from numba.extending import intrinsic
from numba.core.registry import CPUDispatcher
from numba.np.arrayobj import make_array, populate_array

from simulator.games.base import STRATEGY_SIGNATURE, TRACE_WIDTH


class _TypedByValueType(CPUDispatcher):
    """A dispatcher whose calls from compiled code are typed without literal values.

    Numba types a call from compiled code with the arguments' types as they stand, and a constant
    argument (`draw_cards(st, seat, 2, DRAW.turn, rng)`, or a loop variable whose first value is
    `0`) has a literal type of its own: every distinct constant compiled the callee again, a
    few seconds each (Salem's `decide` six times, werewolf's `night` twice). Compiled once for the
    plain types, every call converts its constants to them.
    """

    def get_call_template(self, args, kws):
        return super().get_call_template(
            tuple(types.unliteral(a) for a in args),
            {name: types.unliteral(a) for name, a in kws.items()})


def typed_by_value_type(decorator):
    """`decorator` (an njit), whose functions compile once per argument types, not per constant
    value. Under NUMBA_DISABLE_JIT the plain function is returned, as njit does."""

    def decorate(function):
        dispatcher = decorator(function)
        if type(dispatcher) is CPUDispatcher:
            # the same dispatcher, with the typing above; it adds no state of its own
            dispatcher.__class__ = _TypedByValueType
        return dispatcher

    return decorate


@intrinsic
def _address_as_pointer(typingctx, address):
    sig = types.voidptr(address)

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], cgutils.voidptr_t)

    return sig, codegen


def _view_codegen(view_type, item_bytes):
    """Codegen of a 1-d C view of `length` items of an array's data from item `start`, with no
    reference count (meminfo None): args are (array, start, length)."""

    def codegen(context, builder, signature, args):
        source = make_array(signature.args[0])(context, builder, value=args[0])
        view = make_array(view_type)(context, builder)
        intp = context.get_value_type(types.intp)
        start = context.cast(builder, args[1], signature.args[1], types.intp)
        length = context.cast(builder, args[2], signature.args[2], types.intp)
        base = builder.gep(source.data, [start])
        populate_array(view, data=builder.bitcast(base, view.data.type),
                       shape=cgutils.pack_array(builder, [length]),
                       strides=cgutils.pack_array(builder, [intp(item_bytes)]),
                       itemsize=intp(item_bytes), meminfo=None)
        return view._getvalue()

    return codegen


@intrinsic
def flag_view(typingctx, flags, length):
    """The first `length` bytes of a uint8 array as a boolean array (the state keeps booleans as
    bytes, since Numba's records cannot hold booleans)."""
    view_type = types.Array(types.boolean, 1, "C")
    sig = view_type(flags, length)

    def codegen(context, builder, signature, args):
        return _view_codegen(view_type, 1)(
            context, builder, types.none(signature.args[0], types.intp, signature.args[1]),
            (args[0], context.get_constant(types.intp, 0), args[1]))

    return sig, codegen


@intrinsic
def subarray(typingctx, array, start, length):
    """array[start:start + length] as a C-contiguous view without a reference count."""
    view_type = types.Array(array.dtype, 1, "C")
    sig = view_type(array, start, length)
    return sig, _view_codegen(view_type, np.dtype(str(array.dtype)).itemsize)


@intrinsic
def trace_view(typingctx, address, capacity):
    """The trace buffer (capacity x TRACE_WIDTH int64) whose address the state keeps."""
    view_type = types.Array(types.int64, 2, "C")
    sig = view_type(address, capacity)

    def codegen(context, builder, signature, args):
        view = make_array(view_type)(context, builder)
        intp = context.get_value_type(types.intp)
        rows = context.cast(builder, args[1], signature.args[1], types.intp)
        data = builder.inttoptr(args[0], view.data.type)
        populate_array(view, data=data,
                       shape=cgutils.pack_array(builder, [rows, intp(TRACE_WIDTH)]),
                       strides=cgutils.pack_array(builder, [intp(8 * TRACE_WIDTH), intp(8)]),
                       itemsize=intp(8), meminfo=None)
        return view._getvalue()

    return sig, codegen


@intrinsic
def record_words(typingctx, record, start, count):
    """`count` 8-byte words of a state record from word `start`, as an int64 array (the state's
    tallies, which are laid out one after the other, seen as one vector)."""
    if not isinstance(record, types.Record):
        return None
    view_type = types.Array(types.int64, 1, "C")
    sig = view_type(record, start, count)

    def codegen(context, builder, signature, args):
        view = make_array(view_type)(context, builder)
        intp = context.get_value_type(types.intp)
        first = context.cast(builder, args[1], signature.args[1], types.intp)
        length = context.cast(builder, args[2], signature.args[2], types.intp)
        words = builder.bitcast(args[0], view.data.type)  # a record is a pointer to its bytes
        populate_array(view, data=builder.gep(words, [first]),
                       shape=cgutils.pack_array(builder, [length]),
                       strides=cgutils.pack_array(builder, [intp(8)]),
                       itemsize=intp(8), meminfo=None)
        return view._getvalue()

    return sig, codegen


@intrinsic
def borrowed_rng(typingctx, rng):
    """The same Generator without its reference count (the caller keeps the real one alive)."""
    sig = rng(rng)

    def codegen(context, builder, signature, args):
        generator = cgutils.create_struct_proxy(signature.args[0])(context, builder, value=args[0])
        generator.meminfo = context.get_constant_null(types.MemInfoPointer(types.voidptr))
        return generator._getvalue()

    return sig, codegen


# --- strategies by address ----------------------------------------------------------------------
def compile_strategy(dispatcher):
    """Compile a strategy with the platform's one signature, if it is not yet (a built-in one is
    compiled when first used: a config plays only some of a game's strategies), and no other
    signature after it. Without reference counting where it compiles so (strategies.common)."""
    if tuple(STRATEGY_SIGNATURE.args) not in dispatcher.overloads:
        try:
            dispatcher.compile(STRATEGY_SIGNATURE)
        except NumbaError:  # it allocates: the ordinary runtime (or it does not compile at all)
            if dispatcher.targetoptions.get("_nrt") is not False:
                raise
            dispatcher.targetoptions["_nrt"] = True  # the compiler holds this same dict
            dispatcher._compiler._failed_cache.clear()  # or the first failure is replayed
            dispatcher.compile(STRATEGY_SIGNATURE)
    dispatcher.disable_compile()
    return dispatcher.overloads[tuple(STRATEGY_SIGNATURE.args)]


def compile_when_first_used(dispatcher):
    """Leave a strategy uncompiled until it is first used (`native_address`, or a call from
    Python, which compiles the one signature): a config plays only some of a game's strategies,
    and a cold first run need not compile the others. (With NUMBA_DISABLE_JIT it is the Python
    function, returned as it is.)"""
    if config.DISABLE_JIT:
        return dispatcher

    def compile_on_first_call(*args, **kwargs):
        compile_strategy(dispatcher)
        return dispatcher  # which Numba's dispatcher then calls with the same arguments

    dispatcher._compile_for_args = compile_on_first_call
    return dispatcher


def is_cached(dispatcher, signature) -> bool:
    """Does the compiled-code cache hold `dispatcher` compiled for `signature`?"""
    cache = getattr(dispatcher, "_cache", None)
    if cache is None:
        return False
    try:
        return cache.load_overload(signature, dispatcher.targetctx) is not None
    except Exception:  # an unreadable cache only means "it will compile"
        return False


def strategy_is_cached(dispatcher) -> bool:
    """Does the compiled-code cache hold the strategy (keyed on the signature as compiled)?"""
    return is_cached(dispatcher, STRATEGY_SIGNATURE)


def native_address(dispatcher) -> int:
    """The address of a strategy's compiled code (Numba's own calling convention), for the state.
    The dispatcher must stay alive while the address is used (its StrategyInfo holds it)."""
    result = compile_strategy(dispatcher)
    return result.library.get_pointer_to_function(result.fndesc.llvm_func_name)


@intrinsic
def call_strategy(typingctx, address, kind, obs, legal, params, memory, rng):
    """Call the strategy compiled at `address` with the platform's one signature, as Numba calls
    a first-class function, exceptions included."""
    sig = types.int64(address, kind, obs, legal, params, memory, rng)
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


# --- a game's play_game by address ---------------------------------------------------------------
def game_address(dispatcher, signature) -> int:
    """The address of a game's `play_game(st, rng)` compiled for `signature` (compiled now, or
    loaded from the cache), for the state. It must return nothing: `call_game` calls it so."""
    dispatcher.compile(signature)
    result = dispatcher.overloads[tuple(signature)]
    if result.signature.return_type != types.none:
        raise TypeError(f"{dispatcher.py_func.__qualname__} must return nothing, not "
                        f"{result.signature.return_type}")
    return result.library.get_pointer_to_function(result.fndesc.llvm_func_name)


@intrinsic
def call_game(typingctx, address, st, rng):
    """Call the `play_game(st, rng)` compiled at `address`, as Numba calls a compiled function,
    exceptions included."""
    sig = types.none(address, st, rng)

    def codegen(context, builder, signature, args):
        declared = signature.args[1:]
        function_type = context.call_conv.get_function_type(types.none, declared)
        pointer = builder.inttoptr(args[0], function_type.as_pointer())
        status, _ = context.call_conv.call_function(builder, pointer, types.none, declared,
                                                    args[1:])
        with cgutils.if_unlikely(builder, status.is_error):
            context.call_conv.return_status_propagate(builder, status)
        return context.get_dummy_value()

    return sig, codegen


# --- random numbers -------------------------------------------------------------------------------
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


# --- bits -------------------------------------------------------------------------------------------
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


# --- interpreted twins (NUMBA_DISABLE_JIT=1: how people debug rules) ------------------------------
# In an interpreted run the state is a numpy record and strategies are plain Python functions:
# a strategy's "address" is its index in this list, and the trace buffer's is its index in the next.
INTERPRETED_STRATEGIES: list = []
INTERPRETED_GAMES: list = []  # each game's play_game
INTERPRETED_TRACES: list = []

if config.DISABLE_JIT:
    def _read_only_view(array):
        view = array.view()
        view.flags.writeable = False
        return view

    def flag_view(flags, length):  # noqa: F811
        return _read_only_view(flags[:length].view(np.bool_))

    def subarray(array, start, length):  # noqa: F811
        return array[start:start + length]

    def record_words(record, start, count):  # noqa: F811
        # an interpreted state is element 0 of a one-record array (driver.blank_state)
        return np.ndarray((count,), np.int64, buffer=record.base, offset=8 * int(start))

    def trace_view(address, capacity):  # noqa: F811
        return INTERPRETED_TRACES[address]

    def borrowed_rng(rng):  # noqa: F811
        return rng

    def native_address(function):  # noqa: F811
        if function not in INTERPRETED_STRATEGIES:
            INTERPRETED_STRATEGIES.append(function)
        return INTERPRETED_STRATEGIES.index(function) + 1  # 0 means "none"

    def game_address(function, signature):  # noqa: F811
        if function not in INTERPRETED_GAMES:
            INTERPRETED_GAMES.append(function)
        return INTERPRETED_GAMES.index(function) + 1  # 0 means "none"

    def call_game(address, st, rng):  # noqa: F811
        INTERPRETED_GAMES[address - 1](st, rng)

    def call_strategy(address, kind, obs, legal, params, memory, rng):  # noqa: F811
        return int(INTERPRETED_STRATEGIES[address - 1](
            int(kind), _read_only_view(obs), legal, _read_only_view(params), memory, rng))

    def random_double(rng):  # noqa: F811
        return rng.random()

    def uniform_index(count, rng):  # noqa: F811
        return int(rng.random() * count)

    def popcount(x):  # noqa: F811
        return bin(int(x)).count("1")

    def nth_set_bit(bits, pick):  # noqa: F811
        return [i for i in range(64) if (int(bits) >> i) & 1][int(pick)]

    nth_set_bit_by_halving = nth_set_bit_by_deposit = nth_set_bit  # noqa: F811


def trace_address(buffer: np.ndarray) -> int:
    """What the state keeps to find a trace buffer: its data address (compiled runs) or its index
    in INTERPRETED_TRACES (interpreted runs). The caller keeps the buffer alive for the call."""
    if config.DISABLE_JIT:
        INTERPRETED_TRACES.append(buffer)
        return len(INTERPRETED_TRACES) - 1
    return buffer.ctypes.data
