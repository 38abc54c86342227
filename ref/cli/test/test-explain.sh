#!/bin/sh
# test-explain.sh BUILD/bin/dmlref -- dmlref explain: the text of one element
# per operator is pinned (GATHER with a negative and an out-of-range index,
# SCATTER with colliding updates, SCATTER_ND with a dropped update, SPLIT,
# CUMULATIVE_PRODUCT on a long lane with an implementation-defined element,
# JOIN of 3 inputs in 3 layouts, CUMULATIVE_SUMMATION DECREASING exclusive
# with its bound and empty sum, and a marked sum); JOIN and the summation
# are checked against a naive model in the script;
# every element of the small hand-made cases is re-derived to the case's
# expected value (exit 0: the explanation follows the rules the goldens
# were made by); a tampered expected value is exit 1; bad elements are one
# usage line, exit 2; so is a case whose desc or buffers the reference
# refuses (every operator's integer members set past their range, indices
# shorter than the output needs), never a crash.
set -u
B=${1:?usage: test-explain.sh path/to/dmlref}
PY=/usr/bin/python3
T=$(mktemp -d "${TMPDIR:-/tmp}/test-explain.XXXXXX") || exit 3
trap 'rm -rf "$T"' EXIT INT TERM
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# pin CASE ELEMENT: stdout is exactly the text on stdin, exit 0
pin() {
    cat >"$T/want"
    "$B" explain "$1" "$2" >"$T/got" 2>"$T/err"
    rc=$?
    if [ "$rc" -eq 0 ] && cmp -s "$T/want" "$T/got"; then ok; else
        bad "explain $1 '$2': exit $rc, text differs:"; diff "$T/want" "$T/got" | head -n 10; cat "$T/err"
    fi
}

pin goldens/gather/negative_indices.json 'OutputTensor[0,0]' <<'EOF'
gather/negative_indices: GATHER, OutputTensor[0,0] (flat 0, DataType INT16)
  output[p, q, s] = input[p, indices[0.., q], s], Axis 1, IndexDimensions 1
  p = (0), q = (0), s = ()
  index: IndicesTensor[0,0] = -1 (0xffffffff), at byte 0 of its buffer
  -1 is in [-4, -1]: counts from the end, -1 + 4 = 3 (GATHER-7)
  input: InputTensor[0,3] = 5 (0x0005), at byte 6 of its buffer
  moved as opaque bytes (GATHER-9)
  the case expects 5 (0x0005): the same
EOF
pin goldens/gather/out_of_range_clamped.json 'OutputTensor[1]' <<'EOF'
gather/out_of_range_clamped: GATHER, OutputTensor[1] (flat 1, DataType INT64)
  output[p, q, s] = input[p, indices[0.., q], s], Axis 0, IndexDimensions 1
  p = (), q = (1), s = ()
  index: IndicesTensor[1] = -6 (0xfffffffffffffffa), at byte 8 of its buffer
  -6 is outside [-5, 5) (GATHER-8): clamped to 0, the reference's choice; a device may read anything else
  (an out-of-range read is implementation-defined)
  input: InputTensor[0] = 10 (0x000000000000000a), at byte 0 of its buffer
  moved as opaque bytes (GATHER-9)
  the case marks it implementation_defined: not compared
  the case expects 10 (0x000000000000000a): the same
EOF
pin goldens/doc/scatter.example1.json 'OutputTensor[3]' <<'EOF'
doc/scatter.example1: SCATTER, OutputTensor[3] (flat 3, DataType FLOAT32)
  output = input; then output[i with i[Axis] = indices[u]] = updates[u] for every u
  in row-major order, Axis 0 (SCATTER-6)
  starts as InputTensor[3] = 3 (0x40400000), at byte 12 of its buffer
  updates aimed at it (the indices line through it, along Axis):
    UpdatesTensor[0] = 5 (0x40a00000), by IndicesTensor[0] = 3
    UpdatesTensor[2] = 7 (0x40e00000), by IndicesTensor[2] = 3
  2 updates collide here: the last in row-major order wins (SCATTER-6); a device may
  keep any of them, so each is a legal value
  legal values in the case: 5 (0x40a00000), 7 (0x40e00000)
  the case expects 7 (0x40e00000): the same
EOF
# SCATTER-5, INDEX-2: index 3 of row 0 lands on [1,0] at DirectML's flat address.
pin goldens/scatter/out_of_range_flat_address.json 'OutputTensor[1,0]' <<'EOF'
scatter/out_of_range_flat_address: SCATTER, OutputTensor[1,0] (flat 3, DataType FLOAT32)
  output = input; then output[i with i[Axis] = indices[u]] = updates[u] for every u
  in row-major order, Axis 1 (SCATTER-6)
  starts as InputTensor[1,0] = 3 (0x40400000), at byte 12 of its buffer
  updates aimed at it (the indices line through it, along Axis):
  an update elsewhere with an index out of range lands here at DirectML's flat address
  (index wrapped once, 32-bit address: SCATTER-5, INDEX-2), so this element is implementation-defined
  no update is aimed at it: it keeps the input's value
  the case marks it implementation_defined: not compared
  the case expects 3 (0x40400000): the same
EOF
pin goldens/scatter_nd/out_of_range_dropped.json 'OutputTensor[0,0,0]' <<'EOF'
scatter_nd/out_of_range_dropped: SCATTER_ND, OutputTensor[0,0,0] (flat 0, DataType FLOAT32)
  output = input; then output[0.., indices[0.., q, 0..k-1], s] = updates[q, s] in
  row-major order of [q, s]; k = 2, tuple coordinate j is dimension 0 + j (SCATTER_ND-8)
  starts as InputTensor[0,0,0] = 0 (0x00000000), at byte 0 of its buffer
  s = the last 1 coordinate(s); updates aimed at it (every q):
  1 update(s) that could land here have an index out of range: dropped by the reference (SCATTER_ND-7);
  a device may clamp or wrap them, so this element is implementation-defined
  no update is aimed at it: it keeps the input's value
  the case marks it implementation_defined: not compared
  the case expects 0 (0x00000000): the same
EOF
pin goldens/doc/scatter_nd.example1.json 'OutputTensor[0,3]' <<'EOF'
doc/scatter_nd.example1: SCATTER_ND, OutputTensor[0,3] (flat 3, DataType FLOAT32)
  output = input; then output[0.., indices[0.., q, 0..k-1], s] = updates[q, s] in
  row-major order of [q, s]; k = 1, tuple coordinate j is dimension 1 + j (SCATTER_ND-8)
  starts as InputTensor[0,3] = 4 (0x40800000), at byte 12 of its buffer
  s = the last 0 coordinate(s); updates aimed at it (every q):
    UpdatesTensor[0,1] = 10 (0x41200000), by IndicesTensor[1,0] = (3)
  written by that update (SCATTER_ND-8)
  the case expects 10 (0x41200000): the same
EOF
pin goldens/doc/split.example2.json 'OutputTensors[1][0,0,1,0]' <<'EOF'
doc/split.example2: SPLIT, OutputTensors[1][0,0,1,0] (flat 1, DataType FLOAT32)
  OutputTensors[i][c] = InputTensor[c + start_i along Axis], Axis 3 (SPLIT-7)
  output 1 of 2 takes the input's positions 1 to 1 along Axis: start_1 = 1
  input: InputTensor[0,0,1,1] = 4 (0x40800000), at byte 12 of its buffer
  moved as opaque bytes (SPLIT-8)
  the case expects 4 (0x40800000): the same
EOF
pin goldens/gen/cumulative_product/f16.r2.padded.axfirst.dec.incl.inplace.random.long.000.json 'OutputTensor[169,0]' <<'EOF'
gen/cumulative_product/f16.r2.padded.axfirst.dec.incl.inplace.random.long.000: CUMULATIVE_PRODUCT, OutputTensor[169,0] (flat 169, DataType FLOAT16)
  the lane: InputTensor[*,0] along Axis 0, 242 long; this element is at 169
  traversal DECREASING (from the highest index down), inclusive: 73 factor(s), positions 241 to 169 (CUMULATIVE_PRODUCT-6)
  running product in FLOAT64 (CUMULATIVE_PRODUCT-9):
    step 0: x InputTensor[241,0] = -1.0625 (0xbc40) -> -1.0625
    step 1: x InputTensor[240,0] = 1.125 (0x3c80) -> -1.1953125
    step 2: x InputTensor[239,0] = 1.3125 (0x3d40) -> -1.56884765625
    step 3: x InputTensor[238,0] = 1 (0x3c00) -> -1.56884765625
    ... 65 more steps ...
    step 69: x InputTensor[172,0] = 1.5 (0x3e00) -> 7489.8060867751065
    step 70: x InputTensor[171,0] = -1.8125 (0xbf40) -> -13575.27353227988
    step 71: x InputTensor[170,0] = 1.875 (0x3f80) -> -25453.637873024774
    step 72: x InputTensor[169,0] = 1.25 (0x3d00) -> -31817.047341280966
  rounded once to FLOAT16, nearest-even: -31824 (0xf7c5)
  why: the factors at steps 0 to 72 multiply to about 2^15.0, outside [2^-12.9, 2^14.9]:
  an intermediate a device may form overflows, underflows or is flushed (CUMULATIVE_PRODUCT-12)
  the case marks it implementation_defined: not compared
  the case expects -31824 (0xf7c5): the same
EOF
pin goldens/doc/cumulative_product.example2.json 'OutputTensor[0,0,0,3]' <<'EOF'
doc/cumulative_product.example2: CUMULATIVE_PRODUCT, OutputTensor[0,0,0,3] (flat 3, DataType FLOAT32)
  the lane: InputTensor[0,0,0,*] along Axis 3, 4 long; this element is at 3
  traversal INCREASING (from index 0 up), exclusive (the element itself left out): 3 factor(s), positions 0 to 2 (CUMULATIVE_PRODUCT-6)
  running product in FLOAT64 (CUMULATIVE_PRODUCT-9):
    step 0: x InputTensor[0,0,0,0] = 2 (0x40000000) -> 2
    step 1: x InputTensor[0,0,0,1] = 1 (0x3f800000) -> 2
    step 2: x InputTensor[0,0,0,2] = 3 (0x40400000) -> 6
  rounded once to FLOAT32, nearest-even: 6 (0x40c00000)
  judge: "exact", the case's check: bit for bit
  the case expects 6 (0x40c00000): the same
EOF
# the bound: 1.265625 ((1 + 2^-24)^3 - 1) = 2.26311e-07 (CUMULATIVE_PRODUCT-10)
pin goldens/gen/cumulative_product/f32.r2.broadcast.axfirst.inc.incl.outplace.random.000.json 'OutputTensor[1,0]' <<'EOF'
gen/cumulative_product/f32.r2.broadcast.axfirst.inc.incl.outplace.random.000: CUMULATIVE_PRODUCT, OutputTensor[1,0] (flat 1, DataType FLOAT32)
  the lane: InputTensor[*,0] along Axis 0, 6 long; this element is at 1
  traversal INCREASING (from index 0 up), inclusive: 2 factor(s), positions 0 to 1 (CUMULATIVE_PRODUCT-6)
  running product in FLOAT64 (CUMULATIVE_PRODUCT-9):
    step 0: x InputTensor[0,0] = -1.125 (0xbf900000) -> -1.125
    step 1: x InputTensor[1,0] = -1.125 (0xbf900000) -> 1.265625
  rounded once to FLOAT32, nearest-even: 1.265625 (0x3fa20000)
  judge: "cumulative_product_bound", the case's check: |got - E| <= max(|E|, 2^-126) ((1 + 2^-24)^(n+1) - 1),
  n = 2: 2.26311e-07 (CUMULATIVE_PRODUCT-10)
  the case expects 1.265625 (0x3fa20000): the same
EOF
pin goldens/gen/join/f32.r4.mixed.axlast.unequal.special.000.json 'OutputTensor[1,0,1,7]' <<'EOF'
gen/join/f32.r4.mixed.axlast.unequal.special.000: JOIN, OutputTensor[1,0,1,7] (flat 47, DataType FLOAT32)
  OutputTensor[c + start_i along Axis] = InputTensors[i][c], Axis 3 (JOIN-7)
  input 2 of 3 fills the output's positions 6 to 7 along Axis: start_2 = 6
  InputTensors[2] has its own layout (JOIN-8): Sizes [3,2,2,2], Strides [30,14,6,2]
  input: InputTensors[2][1,0,1,1] = 3.4028235e+38 (0x7f7fffff), at byte 152 of its buffer
  moved as opaque bytes (JOIN-8)
  the case expects 3.4028235e+38 (0x7f7fffff): the same
EOF
pin goldens/gen/join/f32.r4.mixed.axlast.unequal.special.000.json 'OutputTensor[2,1,0,1]' <<'EOF'
gen/join/f32.r4.mixed.axlast.unequal.special.000: JOIN, OutputTensor[2,1,0,1] (flat 81, DataType FLOAT32)
  OutputTensor[c + start_i along Axis] = InputTensors[i][c], Axis 3 (JOIN-7)
  input 0 of 3 fills the output's positions 0 to 1 along Axis: start_0 = 0
  InputTensors[0] has its own layout (JOIN-8): Sizes [3,2,2,2], Strides [0,4,2,1]
  input: InputTensors[0][2,1,0,1] = nan (0x7fc00005), at byte 20 of its buffer
  moved as opaque bytes (JOIN-8)
  the case expects nan (0x7fc00005): the same
EOF
pin goldens/gen/cumulative_summation/f32.r2.padded.axlast.dec.excl.outplace.random.000.json 'OutputTensor[1,1]' <<'EOF'
gen/cumulative_summation/f32.r2.padded.axlast.dec.excl.outplace.random.000: CUMULATIVE_SUMMATION, OutputTensor[1,1] (flat 7, DataType FLOAT32)
  the lane: InputTensor[1,*] along Axis 1, 6 long; this element is at 1
  traversal DECREASING (from the highest index down), exclusive (the element itself left out): 4 term(s), positions 5 to 2 (CUMULATIVE_SUMMATION-6)
  running sum in FLOAT64 (CUMULATIVE_SUMMATION-9; it starts at -0, the exact identity: -10):
    step 0: + InputTensor[1,5] = -78 (0xc29c0000) -> -78
    step 1: + InputTensor[1,4] = -798 (0xc4478000) -> -876
    step 2: + InputTensor[1,3] = -275 (0xc3898000) -> -1151
    step 3: + InputTensor[1,2] = -249.25 (0xc3794000) -> -1400.25
  rounded once to FLOAT32, nearest-even: -1400.25 (0xc4af0800)
  judge: "cumulative_summation_bound", the case's check: |got - E| <= 2 ((1 + 2^-24)^(n+1) - 1) A (every term a multiple of 2^-126: nothing to flush),
  n = 4 (the nonzero finite terms), A = 1400.25 (their magnitudes): 0.000834614 (CUMULATIVE_SUMMATION-11)
  the case expects -1400.25 (0xc4af0800): the same
EOF
pin goldens/gen/cumulative_summation/f32.r2.padded.axlast.dec.excl.outplace.random.000.json 'OutputTensor[1,5]' <<'EOF'
gen/cumulative_summation/f32.r2.padded.axlast.dec.excl.outplace.random.000: CUMULATIVE_SUMMATION, OutputTensor[1,5] (flat 11, DataType FLOAT32)
  the lane: InputTensor[1,*] along Axis 1, 6 long; this element is at 5
  traversal DECREASING (from the highest index down), exclusive (the element itself left out): 0 term(s) (CUMULATIVE_SUMMATION-6)
  running sum in FLOAT64 (CUMULATIVE_SUMMATION-9; it starts at -0, the exact identity: -10):
    no term: the empty sum, 0
  exclusive, and the sum is zero: written +0, the page's empty sum (CUMULATIVE_SUMMATION-10)
  rounded once to FLOAT32, nearest-even: 0 (0x00000000)
  judge: "cumulative_summation_bound", the case's check: n = 0, exactly 0 of either sign (CUMULATIVE_SUMMATION-12)
  the case expects 0 (0x00000000): the same
EOF
# CUMULATIVE_SUMMATION-13: FLOAT32 marks where a partial may overflow; -16: FLOAT16 runs wider.
pin goldens/gen/cumulative_summation/f32.r3.permuted.axmid.inc.excl.outplace.extreme.000.json 5 <<'EOF'
gen/cumulative_summation/f32.r3.permuted.axmid.inc.excl.outplace.extreme.000: CUMULATIVE_SUMMATION, OutputTensor[0,1,2] (flat 5, DataType FLOAT32)
  the lane: InputTensor[0,*,2] along Axis 1, 4 long; this element is at 1
  traversal INCREASING (from index 0 up), exclusive (the element itself left out): 1 term(s), positions 0 to 0 (CUMULATIVE_SUMMATION-6)
  running sum in FLOAT64 (CUMULATIVE_SUMMATION-9; it starts at -0, the exact identity: -10):
    step 0: + InputTensor[0,0,2] = 2.1267648e+38 (0x7f200000) -> 2.1267647932558654e+38
  rounded once to FLOAT32, nearest-even: 2.1267648e+38 (0x7f200000)
  why: the terms' magnitudes sum to A = 2.1267647932558654e+38, and 2 (1 + gamma_n) A = 4.25353e+38 passes the
  largest finite 3.4028234663852886e+38: a partial sum in some association order may overflow (CUMULATIVE_SUMMATION-13)
  the case marks it implementation_defined: not compared
  the case expects 2.1267648e+38 (0x7f200000): the same
EOF
pin goldens/gen/cumulative_summation/f16.r2.mixed.axlast.inc.incl.outplace.extreme.000.json 'OutputTensor[0,5]' <<'EOF'
gen/cumulative_summation/f16.r2.mixed.axlast.inc.incl.outplace.extreme.000: CUMULATIVE_SUMMATION, OutputTensor[0,5] (flat 5, DataType FLOAT16)
  the lane: InputTensor[0,*] along Axis 1, 6 long; this element is at 5
  traversal INCREASING (from index 0 up), inclusive: 6 term(s), positions 0 to 5 (CUMULATIVE_SUMMATION-6)
  running sum in FLOAT64 (CUMULATIVE_SUMMATION-9; it starts at -0, the exact identity: -10):
    step 0: + InputTensor[0,0] = -6144 (0xee00) -> -6144
    step 1: + InputTensor[0,1] = -6144 (0xee00) -> -12288
    step 2: + InputTensor[0,2] = -6144 (0xee00) -> -18432
    step 3: + InputTensor[0,3] = -6144 (0xee00) -> -24576
    step 4: + InputTensor[0,4] = -6144 (0xee00) -> -30720
    step 5: + InputTensor[0,5] = -6144 (0xee00) -> -36864
  rounded once to FLOAT16, nearest-even: -36864 (0xf880)
  judge: "cumulative_summation_bound", the case's check: |got - E| <= 2 ((1 + 2^-11)^(n+1) - 1) A (every term a multiple of 2^-14: nothing to flush),
  n = 6 (the nonzero finite terms), A = 36864 (their magnitudes): 252.369 (CUMULATIVE_SUMMATION-11)
  the case expects -36864 (0xf880): the same
EOF
pin goldens/gen/cumulative_summation/f16.r3.padded.axlast.inc.incl.outplace.extreme.f16nearmax.000.json 'OutputTensor[0,0,2]' <<'EOF'
gen/cumulative_summation/f16.r3.padded.axlast.inc.incl.outplace.extreme.f16nearmax.000: CUMULATIVE_SUMMATION, OutputTensor[0,0,2] (flat 2, DataType FLOAT16)
  the lane: InputTensor[0,0,*] along Axis 2, 6 long; this element is at 2
  traversal INCREASING (from index 0 up), inclusive: 3 term(s), positions 0 to 2 (CUMULATIVE_SUMMATION-6)
  running sum in FLOAT64 (CUMULATIVE_SUMMATION-9; it starts at -0, the exact identity: -10):
    step 0: + InputTensor[0,0,0] = 60544 (0x7b64) -> 60544
    step 1: + InputTensor[0,0,1] = 16704 (0x7414) -> 77248
    step 2: + InputTensor[0,0,2] = -27552 (0xf6ba) -> 49696
  rounded once to FLOAT16, nearest-even: 49696 (0x7a11)
  the running sum passed 65520 on the way: an FP16 accumulator holds infinity from there,
  but a FLOAT16 sum runs at FP32 or wider and comes back (CUMULATIVE_SUMMATION-16)
  judge: "cumulative_summation_bound", the case's check: |got - E| <= 2 ((1 + 2^-11)^(n+1) - 1) A (every term a multiple of 2^-14: nothing to flush),
  n = 3 (the nonzero finite terms), A = 104800 (their magnitudes): 409.675 (CUMULATIVE_SUMMATION-11)
  the case expects 49696 (0x7a11): the same
EOF
pin goldens/gen/cumulative_summation/f16.r3.padded.axlast.inc.incl.outplace.extreme.f16nearmax.000.json 23 <<'EOF'
gen/cumulative_summation/f16.r3.padded.axlast.inc.incl.outplace.extreme.f16nearmax.000: CUMULATIVE_SUMMATION, OutputTensor[1,1,5] (flat 23, DataType FLOAT16)
  the lane: InputTensor[1,1,*] along Axis 2, 6 long; this element is at 5
  traversal INCREASING (from index 0 up), inclusive: 6 term(s), positions 0 to 5 (CUMULATIVE_SUMMATION-6)
  running sum in FLOAT64 (CUMULATIVE_SUMMATION-9; it starts at -0, the exact identity: -10):
    step 0: + InputTensor[1,1,0] = 60832 (0x7b6d) -> 60832
    step 1: + InputTensor[1,1,1] = 11104 (0x716c) -> 71936
    step 2: + InputTensor[1,1,2] = -17536 (0xf448) -> 54400
    step 3: + InputTensor[1,1,3] = 14208 (0x72f0) -> 68608
    step 4: + InputTensor[1,1,4] = 5280 (0x6d28) -> 73888
    step 5: + InputTensor[1,1,5] = -8192 (0xf000) -> 65696
  rounded once to FLOAT16, nearest-even: inf (0x7c00)
  why: the running sum lies within the judge's bound of 65520, the midpoint of the largest finite
  and 2^16: a result the bound allows may round to either side (CUMULATIVE_SUMMATION-16)
  the case marks it implementation_defined: not compared
  the case expects inf (0x7c00): the same
EOF

pin goldens/gather_elements/out_of_range_clamped.json 'OutputTensor[0,2]' <<'EOF'
gather_elements/out_of_range_clamped: GATHER_ELEMENTS, OutputTensor[0,2] (flat 2, DataType INT32)
  output[c] = input[c with c[Axis] = indices[c]], Axis 1: the element's own index
  index: IndicesTensor[0,2] = 5 (0x0000000000000005), at byte 16 of its buffer
  5 is outside [-3, 3) (GATHER_ELEMENTS-7): clamped to 2, the reference's choice; a device may read anything else
  (an out-of-range read is implementation-defined)
  input: InputTensor[0,2] = 30 (0x0000001e), at byte 8 of its buffer
  moved as opaque bytes (GATHER_ELEMENTS-8)
  the case marks it implementation_defined: not compared
  the case expects 30 (0x0000001e): the same
EOF
pin goldens/gather_nd/out_of_range_tuples_clamped.json '2' <<'EOF'
gather_nd/out_of_range_tuples_clamped: GATHER_ND, OutputTensor[0,0,1,0] (flat 2, DataType UINT16)
  output[b, q, t] = input[b, indices[b, q, 0..k-1], t], k = 2, BatchDimensionCount 0;
  tuple coordinate j indexes input dimension 1 + j
  b = (), q = (1), t = (0) (the 2 coordinates right-aligned in 4 dimensions: GATHER_ND-6)
  tuple[0]: IndicesTensor[0,0,1,0] = 3 (0x0000000000000003), at byte 16 of its buffer
  3 is outside [-3, 3) (GATHER_ND-8): clamped to 2, the reference's choice; a device may read anything else
  (an out-of-range read is implementation-defined)
  tuple[1]: IndicesTensor[0,0,1,1] = 1 (0x0000000000000001), at byte 24 of its buffer
  1 is within [0, 2): used as is
  input: InputTensor[0,2,1,0] = 110 (0x006e), at byte 20 of its buffer
  moved as opaque bytes (GATHER_ND-9)
  the case marks it implementation_defined: not compared
  the case expects 110 (0x006e): the same
EOF
pin goldens/gather_nd1/padded_permuted_broadcast_batches.json 'OutputTensor[0,1,2]' <<'EOF'
gather_nd1/padded_permuted_broadcast_batches: GATHER_ND1, OutputTensor[0,1,2] (flat 5, DataType FLOAT32)
  output[b, q, t] = input[b, indices[b, q, 0..k-1], t], k = 1, BatchDimensionCount 1;
  tuple coordinate j indexes input dimension 1 + j
  b = (0), q = (1), t = (2)
  tuple[0]: IndicesTensor[0,1,0] = 0 (0x00000000), at byte 8 of its buffer
  0 is within [0, 4): used as is
  input: InputTensor[0,0,2] = 0 (0x00000000), at byte 0 of its buffer
  moved as opaque bytes (GATHER_ND-9)
  the case expects 0 (0x00000000): the same
EOF

# JOIN and CUMULATIVE_SUMMATION against a naive model of their own, here:
# JOIN's source input, coordinate, byte offset (from each input's own
# Strides) and bits; the summation's terms in traversal order, their sum in
# FLOAT64 (or modulo 2^bits) rounded once, and the judge's bound from
# CUMULATIVE_SUMMATION-11's formula.  The text explain prints must name them.
# Besides the goldens, two cases made here with the model's own expected
# values: a JOIN of 3 inputs, packed, padded and column-major (JOIN-7, JOIN-8),
# and a FLOAT32 DECREASING exclusive sum whose terms round differently when
# added in FLOAT32 (CUMULATIVE_SUMMATION-6, -9, -10).  EXPLAIN_ELEMENTS (default 64;
# scripts/test.sh takes 8 under ASan, where each run costs a tenth of a second and
# this part alone took 4.5 minutes): the first and last that many elements of the
# hand-made cases, and a sixteenth as many (at least 1) of the generated ones.
EXPLAIN_ELEMENTS=${EXPLAIN_ELEMENTS:-64}
export EXPLAIN_ELEMENTS
$PY - "$B" "$T" goldens/doc/join.*.json goldens/join/*.json goldens/gen/join/*.json \
    goldens/doc/cumulative_summation.*.json goldens/cumulative_summation/*.json \
    goldens/gen/cumulative_summation/*.json <<'EOF' && ok || bad "JOIN / CUMULATIVE_SUMMATION differ from the naive model"
import json, math, os, re, struct, subprocess, sys
PER = int(os.environ["EXPLAIN_ELEMENTS"])
SIZE = {"FLOAT16": 2, "FLOAT32": 4, "FLOAT64": 8, "INT8": 1, "UINT8": 1, "INT16": 2, "UINT16": 2,
        "INT32": 4, "UINT32": 4, "INT64": 8, "UINT64": 8}
PACK = {"FLOAT16": "<e", "FLOAT32": "<f", "FLOAT64": "<d"}
b, tmp, checked, wrong = sys.argv[1], sys.argv[2], {"JOIN": 0, "CUMULATIVE_SUMMATION": 0}, []

def flat(v):
    return [y for x in v for y in flat(x)] if isinstance(v, list) else [v]

def packed(sizes):
    s, acc = [], 1
    for n in reversed(sizes):
        s.insert(0, acc)
        acc *= n
    return s

def coords(e, sizes):
    c = []
    for n in reversed(sizes):
        c.insert(0, e % n)
        e //= n
    return c

def ravel(c, sizes):
    e = 0
    for x, n in zip(c, sizes):
        e = e * n + x
    return e

def bits(v, dt):  # a JSON value of the case format as the element's bit pattern
    if isinstance(v, str) and v.startswith("0x"):
        return int(v, 16)
    if dt in PACK:
        return int.from_bytes(struct.pack(PACK[dt], float(v)), "little")
    return int(v) & ((1 << 8 * SIZE[dt]) - 1)

def value(v, dt):  # a float element's value
    return struct.unpack(PACK[dt], bits(v, dt).to_bytes(SIZE[dt], "little"))[0]

def round_once(x, dt):  # FLOAT64 -> dt, nearest-even; Python raises where the result is +-inf
    try:
        return int.from_bytes(struct.pack(PACK[dt], x), "little")
    except OverflowError:
        inf = {"FLOAT16": 0x7c00, "FLOAT32": 0x7f800000}[dt]
        return inf | (1 << (8 * SIZE[dt] - 1)) if x < 0 else inf

def hexs(v, dt):
    return "0x%0*x" % (2 * SIZE[dt], v)

def name(t, c):
    return re.escape("%s[%s]" % (t, ",".join(map(str, c))))

def join_source(d, e):  # the inputs fill the output along Axis, in array order
    A, oc, start = d["Axis"], coords(e, d["OutputTensor"]["Sizes"]), 0
    for i, t in enumerate(d["InputTensors"]):
        if oc[A] < start + t["Sizes"][A]:
            return i, t, start, oc[:A] + [oc[A] - start] + oc[A + 1:]
        start += t["Sizes"][A]

def join(c, e):
    d = c["desc"]
    i, t, start, ic = join_source(d, e)
    dt, data = t["DataType"], c["inputs"]["InputTensors"][i]
    byte = sum(x * s for x, s in zip(ic, t.get("Strides") or packed(t["Sizes"]))) * SIZE[dt]
    got = hexs(bits(flat(data)[ravel(ic, t["Sizes"])], dt), dt) if isinstance(data, list) else ".*"
    return ["  input %d of %d fills the output's positions %d to %d along Axis: start_%d = %d"
            % (i, len(d["InputTensors"]), start, start + t["Sizes"][A] - 1, i, start)
            for A in [d["Axis"]]] + \
           ["  input: %s = .*\\(%s\\), at byte %d of its buffer" % (name("InputTensors[%d]" % i, ic),
                                                                   got, byte)], []

def cumsum_terms(d, data, e):  # (position, value) in traversal order
    t, A = d["InputTensor"], d["Axis"]
    k, L = coords(e, t["Sizes"])[A], t["Sizes"][A]
    J = list(range(L - 1, k - 1, -1)) if d.get("AxisDirection") == "DML_AXIS_DIRECTION_DECREASING" \
        else list(range(0, k + 1))
    if d.get("HasExclusiveSum"):
        J = J[:-1]  # the element itself left out
    at = lambda j: coords(e, t["Sizes"])[:A] + [j] + coords(e, t["Sizes"])[A + 1:]
    return [(at(j), data[ravel(at(j), t["Sizes"])]) for j in J]

def cumsum_value(d, terms):  # bits of the result, the FLOAT64 sum, the finite magnitudes
    dt = d["InputTensor"]["DataType"]
    if dt not in PACK:
        return sum(bits(v, dt) for _, v in terms) % (1 << 8 * SIZE[dt]), 0, 0
    run, mag = -0.0, 0.0
    for _, v in terms:
        run += value(v, dt)
        mag += abs(value(v, dt)) if math.isfinite(value(v, dt)) else 0
    if d.get("HasExclusiveSum") and run == 0:
        run = 0.0  # the empty sum is +0
    return round_once(run, dt), run, mag

def cumsum(c, e):
    d, data = c["desc"], c["inputs"]["InputTensor"]
    if not isinstance(data, list):
        return None, None
    dt, terms = d["InputTensor"]["DataType"], cumsum_terms(d, flat(data), e)
    want = [".*: %d term\\(s\\)" % len(terms)]
    for s, (cc, v) in enumerate(terms):
        if s < 4 or s + 4 >= len(terms):
            want.append("    step %d: \\+ %s = .*\\(%s\\) -> " % (s, name("InputTensor", cc),
                                                           hexs(bits(v, dt), dt)))
    got, run, mag = cumsum_value(d, terms)
    if dt not in PACK:
        return want + ["  the case expects .*\\(%s\\): the same" % hexs(got, dt)], []
    want.append("  rounded once to %s, nearest-even: %s" % (dt, "nan " if math.isnan(run)
                                                            else ".*\\(%s\\)" % hexs(got, dt)))
    o, n = c["outputs"]["OutputTensor"], len(terms)
    # the terms that can round: an exact zero adds nothing in any order (CUMULATIVE_SUMMATION-11)
    nz = sum(1 for _, v in terms if math.isfinite(value(v, dt)) and value(v, dt) != 0)
    # a sum at or past the midpoint of the largest finite value and the next power of two
    # rounds to infinity, judged exactly (CUMULATIVE_SUMMATION-12, -16)
    beyond = abs(run) >= ((2 - 2.0 ** -11) * 2.0 ** 15 if dt == "FLOAT16" else (2 - 2.0 ** -24) * 2.0 ** 127)
    if o.get("check") != "cumulative_summation_bound" or e in o.get("implementation_defined", []) \
            or not nz or not math.isfinite(run) or beyond:
        return want, []
    m, tiny = (10, 2.0 ** -14) if dt == "FLOAT16" else (23, 2.0 ** -126)
    # a flush (FTZ) is possible only where some finite term is not a multiple of tiny
    flush = any(math.isfinite(x) and math.floor(x / tiny) != x / tiny
                for x in (value(v, dt) for _, v in terms))
    return want, [2 * ((1 + 2.0 ** -(m + 1)) ** (nz + 1) - 1) * mag + (2 * nz * tiny if flush else 0)]

def made(nm, desc, inputs, expected, check):  # a case of the model's own
    c = {"format": "dmlref-case-1", "name": nm, "min_feature_level": "4_1",
         "type": "DML_OPERATOR_" + nm.split("/")[0].upper(), "desc": desc, "inputs": inputs,
         "outputs": {"OutputTensor": {"check": check, "expected": expected}}}
    json.dump(c, open("%s/%s.json" % (tmp, nm.replace("/", "_")), "w"))
    return "%s/%s.json" % (tmp, nm.replace("/", "_"))

ins = [{"DataType": "INT16", "Sizes": [2, 3, 1]},
       {"DataType": "INT16", "Sizes": [2, 3, 3], "Strides": [16, 5, 1]},
       {"DataType": "INT16", "Sizes": [2, 3, 2], "Strides": [1, 2, 6]}]
jd = {"InputCount": 3, "InputTensors": ins, "OutputTensor": {"DataType": "INT16", "Sizes": [2, 3, 6]},
      "Axis": 2}
jdata = [[1000 * i + e - 300 for e in range(2 * 3 * t["Sizes"][2])] for i, t in enumerate(ins)]
jexp = []
for e in range(36):
    i, t, _, ic = join_source(jd, e)
    jexp.append(jdata[i][ravel(ic, t["Sizes"])])
sd = {"InputTensor": {"DataType": "FLOAT32", "Sizes": [2, 5], "Strides": [1, 2]},
      "OutputTensor": {"DataType": "FLOAT32", "Sizes": [2, 5]}, "Axis": 1,
      "AxisDirection": "DML_AXIS_DIRECTION_DECREASING", "HasExclusiveSum": True}
sdata = [0.5, 3, 1, 1, 16777216, "0x80000000", 7, "0x00000001", -2.5, 2.5]
sexp = [hexs(cumsum_value(sd, cumsum_terms(sd, sdata, e))[0], "FLOAT32") for e in range(10)]
files = [made("join/three_layouts", jd, {"InputTensors": jdata}, jexp, "exact"),
         made("cumulative_summation/decreasing_exclusive_rounded_once", sd, {"InputTensor": sdata},
              sexp, "cumulative_summation_bound")]
if sexp[1] != "0x4b800001" or sexp[4] != "0x00000000":  # 2^24 + 2 (FLOAT32 adds give 2^24); +0
    wrong.append("the made summation case is not the one meant: %s" % sexp)

for f in files + sys.argv[3:]:
    c = json.load(open(f))
    if "expect_error" in c:
        continue
    op = c["type"].replace("DML_OPERATOR_", "")
    count = 1
    for n in c["desc"]["OutputTensor"]["Sizes"]:
        count *= n
    few = max(PER // 16, 1) if "/gen/" in f else PER  # the generated: first and last few
    for e in sorted(set(range(min(count, few))) | set(range(max(count - few, 0), count))):
        want, bound = (join if op == "JOIN" else cumsum)(c, e)
        if want is None:
            continue
        r = subprocess.run([b, "explain", f, str(e)], capture_output=True, text=True)
        lines = r.stdout.split("\n")
        for w in want:
            if not any(re.match(w, l) for l in lines):
                wrong.append("%s %d: no line matches %r" % (f, e, w))
        got = re.findall(r"A = \S+ \(their magnitudes\): (\S+) \(CUMULATIVE_SUMMATION-11\)", r.stdout)
        if len(got) != len(bound) or any(abs(float(g) - w) > 1e-5 * w for g, w in zip(got, bound)):
            wrong.append("%s %d: bound %s, the formula gives %s" % (f, e, got, bound))
        if r.returncode != 0:
            wrong.append("%s %d: exit %d %s" % (f, e, r.returncode, r.stderr.strip()))
        checked[op] += 1
print("test-explain: naive model: %d JOIN and %d CUMULATIVE_SUMMATION elements, %d differ"
      % (checked["JOIN"], checked["CUMULATIVE_SUMMATION"], len(wrong)))
print("\n".join(wrong[:5]))
sys.exit(1 if wrong or min(checked.values()) < 500 * min(PER, 64) // 64 else 0)
EOF

# A flat index names the same element as its coordinates.
"$B" explain goldens/doc/split.example2.json 'OutputTensors[1][1]' >"$T/flat" 2>&1
"$B" explain goldens/doc/split.example2.json 'OutputTensors[1][0,0,1,0]' >"$T/coord" 2>&1
cmp -s "$T/flat" "$T/coord" && ok || bad "OutputTensors[1][1] and [0,0,1,0] explain differently"
"$B" explain goldens/doc/gather.example1.json 3 >"$T/bare" 2>&1 && grep -q '^doc/gather.example1: GATHER, OutputTensor\[3\]' "$T/bare" &&
    ok || bad "a bare flat index for the one output"

# Every element of the small hand-made cases (the first EXPLAIN_ELEMENTS of each output):
# the derivation gives the case's value.  An operator without an explanation (one added
# to the operator list later) must say so in one line, exit 2; it is counted, not failed.
$PY - "$B" goldens/doc goldens/gather goldens/scatter goldens/scatter_nd goldens/split \
    goldens/cumulative_product goldens/dmlcts-selftest goldens/gather_elements goldens/gather_nd \
    goldens/gather_nd1 goldens/join goldens/cumulative_summation <<'EOF' && ok || bad "some elements are not re-derived to the case's value"
import glob, json, os, re, subprocess, sys
b, n, wrong, missing = sys.argv[1], 0, [], set()
per = int(os.environ["EXPLAIN_ELEMENTS"])
for d in sys.argv[2:]:
    for f in sorted(glob.glob(d + "/*.json")):
        c = json.load(open(f))
        if "expect_error" in c:
            continue
        outs = [("OutputTensor", c["desc"].get("OutputTensor"))] if "OutputTensor" in c["desc"] else \
            [("OutputTensors[%d]" % i, t) for i, t in enumerate(c["desc"]["OutputTensors"])]
        for name, t in outs:
            count = 1
            for s in t["Sizes"]:
                count *= s
            for e in range(min(count, per)):
                n += 1
                r = subprocess.run([b, "explain", f, "%s[%d]" % (name, e)], capture_output=True,
                                   text=True)
                m = re.fullmatch(r"dmlref explain: not available for ([A-Z0-9_]+)\n", r.stderr)
                if r.returncode == 2 and m and not r.stdout:
                    missing.add(m.group(1))
                    n -= 1
                elif r.returncode != 0:
                    wrong.append("%s %s[%d]: exit %d" % (f, name, e, r.returncode))
print("test-explain: %d elements re-derived, %d differ; no explanation for: %s"
      % (n, len(wrong), " ".join(sorted(missing)) or "none"))
print("\n".join(wrong[:5]))
sys.exit(1 if wrong or n < min(per, 64) * 7 else 0)
EOF

# A case whose expected value is wrong: the explanation says so, exit 1.
$PY - goldens/doc/scatter.example1.json "$T/tampered.json" <<'EOF'
import json, sys
c = json.load(open(sys.argv[1]))
c["outputs"]["OutputTensor"]["expected"][0] += 1  # element 0 collides with nothing
json.dump(c, open(sys.argv[2], "w"))
EOF
"$B" explain "$T/tampered.json" 'OutputTensor[0]' >"$T/tampered.out" 2>&1
[ $? -eq 1 ] && grep -q 'DIFFERENT from the derivation' "$T/tampered.out" && ok ||
    bad "a tampered expected value: not exit 1 with DIFFERENT: $(tail -n 2 "$T/tampered.out")"

# Bad elements and arguments: one line on stderr, exit 2, nothing on stdout.
while IFS='|' read -r f e; do
    "$B" explain "$f" $e >"$T/o" 2>"$T/e"
    rc=$?
    [ "$rc" -eq 2 ] && [ "$(wc -l <"$T/e")" -eq 1 ] && [ ! -s "$T/o" ] && ok ||
        bad "explain $f $e: exit $rc, $(wc -l <"$T/e") line(s): $(cat "$T/e")"
done <<'EOF'
goldens/doc/split.example2.json|OutputTensors[1][1,0]
goldens/doc/split.example2.json|OutputTensors[1][0,0,9,0]
goldens/doc/split.example2.json|OutputTensors[1][6]
goldens/doc/split.example2.json|OutputTensors[2][0]
goldens/doc/split.example2.json|0
goldens/doc/gather.example1.json|OutputTensor[1,+2]
goldens/doc/gather.example1.json|OutputTensor[99999999999999999999]
goldens/doc/gather.example1.json|OutputTensor[1]x
goldens/doc/gather.example1.json|OutputTensor[1,]
goldens/doc/gather.example1.json|OutputTensor[,1]
goldens/doc/gather.example1.json|InputTensor[0]
goldens/doc/gather.example1.json|
goldens/cumulative_product/error_before_3_1.json|OutputTensor[0]
goldens/doc/no-such-case.json|OutputTensor[0]
EOF

# An unsigned index out of range is judged against [0, dim) (INDEX-1), not [-dim, dim).
$PY -c 'import json, sys
c = json.load(open(sys.argv[1])); c["inputs"]["IndicesTensor"][0] = 9
json.dump(c, open(sys.argv[2], "w"))' goldens/doc/gather.example1.json "$T/unsigned_out.json"
"$B" explain "$T/unsigned_out.json" 'OutputTensor[0]' >"$T/o" 2>&1
grep -q '9 is outside \[0, 4) (GATHER-8)' "$T/o" && ok || bad "an unsigned index out of range: $(cat "$T/o")"

# A coordinate past 2^64 - 1 is named as given, not as strtoull's saturated value.
"$B" explain goldens/doc/gather.example1.json 'OutputTensor[99999999999999999999999]' 2>"$T/e"
[ $? -eq 2 ] && grep -q 'coordinate 0 is 99999999999999999999999, past' "$T/e" && ok ||
    bad "a coordinate past 2^64 - 1: $(cat "$T/e")"

# A case the reference refuses is refused before any element is derived: each doc
# example with one integer member of its desc at 77 (past every axis and count), and
# GATHER's indices shorter than its output: exit 2, the validation's one line.
$PY - "$T" goldens/doc/*.json <<'EOF'
import json, os, sys
t = sys.argv[1]
for f in sys.argv[2:]:
    c = json.load(open(f))
    for k, v in c["desc"].items():
        if isinstance(v, int) and not isinstance(v, bool):
            d = json.loads(json.dumps(c))
            d["desc"][k] = 77
            name = "%s.%s.json" % (os.path.basename(f)[:-5], k)
            json.dump(d, open(os.path.join(t, "refused." + name), "w"))
c = json.load(open("goldens/doc/gather.example1.json"))
c["desc"]["IndicesTensor"]["Sizes"] = [2]  # two indices, five outputs
c["inputs"]["IndicesTensor"] = [3, 1]
json.dump(c, open(os.path.join(t, "refused.gather_short_indices.json"), "w"))
EOF
n=0
for f in "$T"/refused.*.json; do
    n=$((n + 1))
    "$B" explain "$f" '[0]' >"$T/o" 2>"$T/e"
    rc=$?
    [ "$rc" -eq 2 ] && [ "$(wc -l <"$T/e")" -eq 1 ] && grep -q 'expected' "$T/e" && [ ! -s "$T/o" ] && ok ||
        bad "explain of a refused case $f: exit $rc: $(cat "$T/e")"
done
[ "$n" -ge 20 ] && ok || bad "only $n refused cases made"

echo "test-explain: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
