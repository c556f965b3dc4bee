#pragma once
// How a sectored GPU cache picks a line's set.
#include <cstdint>

namespace cachesim {

enum class SetIndex : std::uint8_t {
    mod,   // line mod sets
    hash,  // a multiplicative hash of the line, mod sets: strides of every kind scatter alike
    fold,  // the line with its higher bit fields XOR-folded onto the low ones, mod sets: power-of-two
           // strides spread evenly, other strides scatter (the H200's L1: scripts/l1_policy_fit.py)
};

}  // namespace cachesim
