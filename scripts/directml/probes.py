#!/usr/bin/python3
"""probes.py DIR -- hand-made cases that pin what the real DirectML did where
the reference differs or the pages are silent (docs/directml.md, "Probes").
Each case's expected values are DirectML 1.15.4's own outputs, observed under
Wine + vkd3d + lavapipe, so through the DirectML backend every probe PASSes
while DirectML behaves so:

    /usr/bin/python3 scripts/directml/probes.py /tmp/probes
    build/bin/dmlcts --backend cmd:"/usr/bin/python3 backends/directml/dml_backend.py" /tmp/probes -v

Through the reference (build/bin/dmlcts /tmp/probes) they show where it
differs.  They are not goldens: the reference's rules are settled in issue 41."""
import json
import os
import sys

SEEN = "DirectML 1.15.4 (onnxruntime-node 1.30.0) under Wine 8.0 + vkd3d 1.6 + lavapipe 25.0.7"


def tensor(dt, sizes):
    return {"DataType": dt, "Sizes": sizes}


def case(name, what, op, desc, inputs, outputs):
    return {"format": "dmlref-case-1", "name": "probe/" + name, "description": what + " (" + SEEN + ")",
            "tags": ["probe", "directml"], "min_feature_level": "3_0", "type": "DML_OPERATOR_" + op,
            "desc": desc, "inputs": inputs,
            "outputs": {k: {"check": "exact", "expected": v} for k, v in outputs.items()}}


PROBES = [
    case("gather_out_of_range_flat_address",
         "GATHER along Axis 1 of {2,3} = [[0,1,2],[10,11,12]], indices [3,-4,-1,1]: a negative index gets the "
         "dimension added once, then the element is read at the flat address row*3 + index, so 3 on row 0 reads "
         "[1,0] = 10 and -4 on row 1 reads [0,2] = 2; past either end of the buffer the driver's robustness "
         "returned the last element, 12", "GATHER",
         {"InputTensor": tensor("FLOAT32", [2, 3]), "IndicesTensor": tensor("INT32", [1, 4]),
          "OutputTensor": tensor("FLOAT32", [2, 4]), "Axis": 1, "IndexDimensions": 1},
         {"InputTensor": [0, 1, 2, 10, 11, 12], "IndicesTensor": [3, -4, -1, 1]},
         {"OutputTensor": [10, 12, 2, 1, 12, 2, 12, 11]}),
    case("scatter_out_of_range_overwrites_a_neighbour",
         "SCATTER along Axis 1 of a {2,3} of zeros, indices [[3,-4,1],[2,2,2]], updates [[10,20,30],[40,50,60]]: "
         "index 3 on row 0 wrote [1,0] (flat address 3), -4 (flat -1) wrote nothing; the three updates colliding "
         "on [1,2] left the last one, 60", "SCATTER",
         {"InputTensor": tensor("FLOAT32", [2, 3]), "IndicesTensor": tensor("INT32", [2, 3]),
          "UpdatesTensor": tensor("FLOAT32", [2, 3]), "OutputTensor": tensor("FLOAT32", [2, 3]), "Axis": 1},
         {"InputTensor": [0] * 6, "IndicesTensor": [3, -4, 1, 2, 2, 2], "UpdatesTensor": [10, 20, 30, 40, 50, 60]},
         {"OutputTensor": [0, 30, 0, 10, 0, 60]}),
]


def main(argv):
    if len(argv) != 1:
        print(__doc__)
        return 2
    os.makedirs(argv[0], exist_ok=True)
    for c in PROBES:
        with open(os.path.join(argv[0], c["name"].split("/")[1] + ".json"), "w") as f:
            json.dump(c, f, indent=1)
            f.write("\n")
    print("%d probe case(s) written to %s" % (len(PROBES), argv[0]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
