#pragma once
#include <stdexcept>

namespace cachesim {

// Bad user input (a malformed trace, an unknown schedule, an impossible size): the message names
// what is wrong and where; the command line turns it into exit code 2.
class InputError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace cachesim
