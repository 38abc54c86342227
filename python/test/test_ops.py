"""The operator functions on numpy arrays: any strides numpy has reach the
library as DirectML Strides, out= receives through its own strides, every data
type keeps its bits, and what DirectML cannot express is refused clearly.
Each result is checked against a naive loop written here."""
import ctypes
import itertools

import numpy as np
import pytest

import dmlref


def naive_gather_rows(x, idx):
    """GATHER along axis 0 of a 2-D input with 1-D indices, read element by element."""
    out = np.empty((len(idx), x.shape[1]), x.dtype)
    for q, i in enumerate(idx):
        for s in range(x.shape[1]):
            out[q, s] = x[i, s]
    return out


def naive_cumsum(x, axis):
    out = np.empty(x.shape, x.dtype)
    for c in itertools.product(*[range(n) for n in x.shape]):
        acc = 0.0
        for k in range(c[axis] + 1):
            acc += float(x[c[:axis] + (k,) + c[axis + 1:]])
        out[c] = acc
    return out


def test_gather_reads_a_transposed_input_through_its_strides():
    base = np.arange(12, dtype=np.float32).reshape(3, 4)
    x = base.T  # strides (4, 16): not C order
    idx = np.array([[3, 0, 3]], np.int32)
    got = dmlref.gather(x, idx, axis=0, index_dimensions=1)
    assert np.array_equal(got, naive_gather_rows(x, [3, 0, 3]))


def test_a_zero_stride_broadcast_input_is_read_as_a_broadcast():
    row = np.array([1, 2, 3, 4], np.float32)
    x = np.broadcast_to(row, (3, 4))
    assert x.strides == (0, 4)
    assert np.array_equal(dmlref.cumulative_summation(x, axis=0), naive_cumsum(x, 0))


def test_out_receives_through_its_strides_and_nothing_else_is_written():
    x = np.arange(6, dtype=np.int32).reshape(2, 3)
    frame = np.full((2, 6), -7, np.int32)
    out = frame[:, ::2]  # every other column
    r = dmlref.cumulative_summation(x, axis=1, out=out)
    assert r is out
    assert np.array_equal(out, np.cumsum(x, axis=1))
    assert (frame[:, 1::2] == -7).all()


def test_a_scan_runs_in_place_when_out_is_the_input():
    x = np.array([[1, 2], [3, 4]], np.float32)
    dmlref.cumulative_product(x, axis=0, out=x)
    assert np.array_equal(x, [[1, 2], [3, 8]])


def test_float16_elements_move_bit_for_bit():
    bits = np.array([0x7e01, 0xfc00, 0x0001, 0x8000, 0x3c00], np.uint16)  # NaN payload, -inf,
    x = bits.view(np.float16)                                            # subnormal, -0, 1
    got = dmlref.gather(x, np.array([4, 3, 2, 1, 0], np.uint32), axis=0, index_dimensions=1)
    assert np.array_equal(got.view(np.uint16), bits[::-1])


def test_spans_that_are_not_a_multiple_of_4_bytes_work_both_ways():
    x = np.arange(5, dtype=np.uint8)           # 5 bytes: DMLCalcBufferTensorSize says 8
    out = np.zeros(7, np.uint8)[1:6]           # 5 bytes, not 4-aligned
    dmlref.gather(x, np.array([4, 0, 1, 1, 2], np.int32), axis=0, index_dimensions=1, out=out)
    assert list(out) == [4, 0, 1, 1, 2]


def test_a_misaligned_view_is_read_correctly():
    raw = np.zeros(4 * 4 + 1, np.uint8)
    x = np.ndarray((4,), np.float32, buffer=raw, offset=1)
    assert not x.flags.aligned
    x[...] = [1, 2, 3, 4]
    assert list(dmlref.cumulative_summation(x, axis=0)) == [1, 3, 6, 10]


def test_negative_strides_are_refused_with_the_rule():
    x = np.arange(4, dtype=np.float32)[::-1]
    with pytest.raises(dmlref.Error) as e:
        dmlref.cumulative_summation(x, axis=0)
    assert e.value.rule == "TENSOR-4"
    assert "numpy.ascontiguousarray" in e.value.message
    assert e.value.message.startswith("CUMULATIVE_SUMMATION: InputTensor: numpy strides (-4,)")


def test_a_reversed_axis_of_size_1_is_accepted_as_its_stride_is_never_used():
    x = np.arange(4, dtype=np.float32).reshape(1, 4)[::-1]
    assert x.strides == (-16, 4)
    assert list(dmlref.cumulative_summation(x, axis=1)[0]) == [0, 1, 3, 6]
    out = np.zeros((1, 4), np.float32)[::-1]
    dmlref.cumulative_summation(x, axis=1, out=out)
    assert list(out[0]) == [0, 1, 3, 6]


def test_split_returns_the_parts_and_join_puts_them_back():
    x = np.arange(12, dtype=np.int64).reshape(2, 6)
    parts = dmlref.split(x, axis=1, sizes=[1, 2, 3])
    assert [p.shape for p in parts] == [(2, 1), (2, 2), (2, 3)]
    assert np.array_equal(dmlref.join(parts, axis=1), x)
    halves = dmlref.split(x, axis=1, output_count=2)
    assert np.array_equal(halves[1], x[:, 3:])


def test_scatter_lets_the_last_update_win_and_drops_out_of_range_ones():
    x = np.zeros(4, np.float32)
    got = dmlref.scatter(x, np.array([1, 1, 9], np.int32), np.array([5, 6, 7], np.float32),
                         axis=0)
    assert list(got) == [0, 6, 0, 0]


def test_gather_nd_ranks_default_to_the_arrays_ranks():
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    idx = np.array([[1, 2], [0, 0]], np.uint32)
    assert list(dmlref.gather_nd(x, idx).ravel()) == [5, 0]


def test_axis_direction_and_exclusive_are_keywords():
    x = np.array([1, 2, 3], np.int32)
    got = dmlref.cumulative_summation(x, axis=-1, axis_direction="DECREASING",
                                      has_exclusive_sum=True)
    assert list(got) == [5, 3, 0]


def test_an_output_aliasing_an_input_is_an_overlap():
    x = np.arange(4, dtype=np.float32)
    with pytest.raises(dmlref.Error) as e:
        dmlref.gather(x, np.array([0, 1, 2, 3], np.uint32), axis=0, index_dimensions=1, out=x)
    assert e.value.status == "OVERLAP"


@pytest.mark.parametrize("out", [(), [], "two"])
def test_out_of_a_single_output_operator_takes_exactly_one_array(out):
    x = np.arange(4, dtype=np.float32)
    if out == "two":
        out = [np.zeros(4, np.float32), np.zeros(4, np.float32)]
    with pytest.raises(TypeError) as e:
        dmlref.cumulative_summation(x, axis=0, out=out)
    assert str(e.value) == ("cumulative_summation: out= needs exactly 1 array (one output), "
                            "got %d" % len(out))
    assert not out or not out[1].any()


def test_split_with_an_empty_out_gets_the_library_s_own_refusal():
    with pytest.raises(dmlref.Error) as e:
        dmlref.split(np.arange(4, dtype=np.float32), axis=0, out=[])
    assert e.value.message == "SPLIT: OutputCount is 0, expected at least 1"


def test_the_c_api_refuses_a_member_bound_to_other_than_one_tensor():
    # python/capi/execute_py.c: OutputTensor given 0 tensors would point past the others.
    op = dmlref.ops.OPERATORS["cumulative_summation"]
    x = np.arange(4, dtype=np.float32)
    flat, bindings, keep = op._flatten(*op._arguments((x,), None, {"axis": 0})[:1],
                                       [np.zeros(4, np.float32)], {"Axis": 0, "AxisDirection": 0,
                                                                   "HasExclusiveSum": 0})
    for n in (0, 2):
        counts = (ctypes.c_uint32 * 2)(1, n)
        err = dmlref._lib.RefError()
        st = dmlref._lib.case.dmlpy_execute(op.info.type, dmlref._lib.FEATURE_LEVEL_MAX,
                                            ctypes.addressof(counts), *flat[1:], err.ptr)
        assert dmlref._types.status_name(st) == "INVALID_ARGUMENT"
        assert dmlref._lib.text(err.message) == \
            "CUMULATIVE_SUMMATION: OutputTensor binds %d tensors, expected 1" % n


# TENSOR-11 on arrays the package copies (a span not a multiple of 4 bytes, or misaligned):
# the same OVERLAP, with the same message, as float32 arrays bound as they are.
def overlap_message(op, first, second, in_place=False):
    return "%s: %s overlaps %s in memory, expected disjoint buffers%s" % (
        op, first, second, " or exact aliasing of InputTensor with the same sizes and strides"
        if in_place else " (the operator does not run in place)")


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_split_refuses_two_outputs_sharing_one_array(dtype):
    a = np.zeros(1, dtype)
    with pytest.raises(dmlref.Error) as e:
        dmlref.split(np.arange(2, dtype=dtype), axis=0, out=[a, a])
    assert e.value.status == "OVERLAP"
    assert e.value.message == overlap_message("SPLIT", "OutputTensors[0]", "OutputTensors[1]")
    assert a[0] == 0


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_a_scan_refuses_an_output_partly_overlapping_its_input(dtype):
    b = np.arange(1, 10, dtype=dtype)
    with pytest.raises(dmlref.Error) as e:
        dmlref.cumulative_summation(b[0:3], axis=0, out=b[1:4])
    assert e.value.message == overlap_message("CUMULATIVE_SUMMATION", "OutputTensor",
                                              "InputTensor", in_place=True)
    assert list(b) == list(range(1, 10))


def test_a_float16_scan_of_odd_length_still_runs_in_place():
    b = np.arange(1, 4, dtype=np.float16)
    dmlref.cumulative_summation(b, axis=0, out=b)
    assert list(b) == [1, 3, 6]


def test_gather_and_scatter_refuse_out_equal_to_a_float16_input_of_odd_length():
    b = np.arange(1, 4, dtype=np.float16)
    with pytest.raises(dmlref.Error) as e:
        dmlref.gather(b, np.array([2, 1, 0], np.int32), axis=0, index_dimensions=1, out=b)
    assert e.value.message == overlap_message("GATHER", "OutputTensor", "InputTensor")
    with pytest.raises(dmlref.Error) as e:
        dmlref.scatter(b, np.array([0], np.int32), np.zeros(1, np.float16), axis=0, out=b)
    assert e.value.message == overlap_message("SCATTER", "OutputTensor", "InputTensor")
    assert list(b) == [1, 2, 3]


def test_a_misaligned_output_partly_overlapping_its_input_is_an_overlap():
    raw = np.zeros(32, np.uint8)
    x = np.frombuffer(raw, np.float32, 4)
    out = np.frombuffer(raw, np.float32, 4, offset=1)
    with pytest.raises(dmlref.Error) as e:
        dmlref.cumulative_summation(x, axis=0, out=out)
    assert e.value.status == "OVERLAP"


def test_a_desc_the_library_refuses_is_refused_for_that_before_an_overlap():
    b = np.arange(1, 10, dtype=np.float16)
    with pytest.raises(dmlref.Error) as e:
        dmlref.cumulative_summation(b[0:3], axis=5, out=b[1:4])
    assert e.value.status == "INVALID_ARGUMENT" and e.value.rule == "CUMULATIVE_SUMMATION-4"


X23 = np.arange(6, dtype=np.float32).reshape(2, 3)


@pytest.mark.parametrize("kw, message", [
    ({"axis": 1, "has_exclusive_sum": "False"},
     "has_exclusive_sum='False': expected True or False, got str"),
    ({"axis": 1, "has_exclusive_sum": 1}, "has_exclusive_sum=1: expected True or False, got int"),
    ({"axis": 1.7}, "axis=1.7: expected an integer, got float"),
    ({"axis": "1"}, "axis='1': expected an integer, got str"),
    ({"axis": True}, "axis=True: expected an integer, got bool"),
    ({"axis": 1, "axis_direction": 1.5},
     "axis_direction=1.5: expected \"INCREASING\", \"DECREASING\" or an integer, got float"),
    ({"axis": 1, "feature_level": 1.5},
     "feature level 1.5: expected e.g. \"5_0\", \"DML_FEATURE_LEVEL_5_0\" or 0x5000, got float")])
def test_a_scalar_of_the_wrong_type_is_refused_not_coerced(kw, message):
    with pytest.raises(TypeError) as e:
        dmlref.cumulative_summation(X23, **kw)
    assert str(e.value) == message


@pytest.mark.parametrize("kw, message", [
    ({"axis": 1, "axis_direction": -1},
     "axis_direction=-1 does not fit DirectML's UINT (0 to 4294967295)"),
    ({"axis": 2 ** 32}, "axis=4294967296 does not fit DirectML's UINT (0 to 4294967295)"),
    ({"axis": 1, "feature_level": 2 ** 32 + 0x2100},
     "feature level 0x100002100 is not a DirectML feature level (e.g. 0x5000)")])
def test_a_scalar_out_of_range_is_refused_not_cut_to_fit(kw, message):
    with pytest.raises(ValueError) as e:
        dmlref.cumulative_summation(X23, **kw)
    assert str(e.value) == message


def test_numpy_scalars_are_integers_and_bools_like_python_s():
    got = dmlref.cumulative_summation(X23, axis=np.int64(1), has_exclusive_sum=np.True_,
                                      axis_direction=np.int8(0), feature_level=np.int64(0x6400))
    assert np.array_equal(got, [[0, 0, 1], [0, 3, 7]])


def test_an_out_of_range_negative_axis_names_the_axis_given():
    with pytest.raises(dmlref.Error) as e:
        dmlref.cumulative_summation(X23, axis=-3)
    assert e.value.message == \
        "CUMULATIVE_SUMMATION: axis=-3 is out of range for a 2-D input (-2 to 1)"


@pytest.mark.parametrize("sizes, error, message", [
    ("13", TypeError, "split: sizes='13': expected a sequence of integers (each part's size "
                      "along axis), got str"),
    (4, TypeError, "split: sizes=4: expected a sequence of integers (each part's size along "
                   "axis), got int"),
    ([1.0, 3], TypeError, "split: sizes[0]=1.0: expected an integer, got float"),
    ([5, -1], ValueError, "split: sizes=[5, -1]: each size is 0 to 4294967295 (DirectML's "
                          "UINT), got -1")])
def test_split_sizes_are_a_sequence_of_unsigned_integers(sizes, error, message):
    with pytest.raises(error) as e:
        dmlref.split(np.arange(4, dtype=np.float32), axis=0, sizes=sizes)
    assert str(e.value) == message


def test_an_output_past_uint32_is_refused_before_it_is_allocated():
    idx = np.lib.stride_tricks.as_strided(np.zeros(1, np.int32), (2 ** 40,), (0,))
    with pytest.raises(dmlref.Error) as e:  # 4 TiB of float32 would be asked for first
        dmlref.gather(np.ones(4, np.float32), idx, axis=0, index_dimensions=1)
    assert e.value.message == ("GATHER: OutputTensor: Sizes [1099511627776] or Strides [1] do "
                               "not fit DirectML's UINT32")


def test_the_feature_level_is_the_library_s():
    x = np.arange(4, dtype=np.float64)
    idx = np.array([3], np.uint32)
    assert dmlref.gather(x, idx, axis=0, index_dimensions=1, feature_level="4_1")[0] == 3
    with pytest.raises(dmlref.Error) as e:
        dmlref.gather(x, idx, axis=0, index_dimensions=1, feature_level="4_0")
    assert e.value.rule == "FL-2"
    assert "needs DML_FEATURE_LEVEL_4_1" in e.value.message


def test_keywords_are_checked_like_python_functions():
    x = np.zeros(3, np.float32)
    with pytest.raises(TypeError, match="missing the keyword axis="):
        dmlref.cumulative_summation(x)
    with pytest.raises(TypeError, match="unexpected keyword"):
        dmlref.cumulative_summation(x, axis=0, axes=1)


def test_a_dtype_directml_lacks_is_refused_by_name():
    with pytest.raises(dmlref.Error, match="complex64"):
        dmlref.cumulative_summation(np.zeros(2, np.complex64), axis=0)


def test_scatter_targets_expose_the_contested_and_maybe_elements():
    x = np.zeros(4, np.float32)
    idx = np.array([1, 1, 9, -1], np.int32)
    target, marks = dmlref.scatter.targets(x, idx, np.zeros(4, np.float32), axis=0)
    assert list(target) == [1, 1, -1, 3]          # 9 dropped, -1 from the end
    written, contested, maybe = 1, 2, 4
    assert [bool(m & written) for m in marks] == [False, True, False, True]
    assert [bool(m & contested) for m in marks] == [False, True, False, False]
    # 9 clamped lands on 3, wrapped (9 mod 4) on 1: both implementation-defined
    assert marks[3] & maybe and marks[1] & maybe


def test_ranks_directml_lacks_reach_the_library_s_own_message():
    for shape in [(1,) * 9, ()]:
        with pytest.raises(dmlref.Error) as e:
            dmlref.cumulative_summation(np.zeros(shape, np.float32), axis=0)
        assert e.value.rule == "TENSOR-2"
        assert e.value.message == ("CUMULATIVE_SUMMATION: InputTensor.DimensionCount is %d, "
                                   "expected 1 to 8" % len(shape))
