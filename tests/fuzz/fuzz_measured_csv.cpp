// libFuzzer target: the measured-CSV readers (gpubench's CSV and ncu's raw page) must turn any
// input into runs or an InputError.
#include <string_view>

#include "traces/input_error.hpp"
#include "traces/measured_csv.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    cachesim::WorkloadSpec base;
    const std::vector<cachesim::Schedule> schedules = {cachesim::Schedule{}};
    try {
        if (cachesim::looks_like_ncu_csv(text)) cachesim::parse_ncu_raw_csv(text, "fuzz", base, schedules);
        else cachesim::parse_measured_csv(text, "fuzz");
    } catch (const cachesim::InputError&) {
    }
    try {
        cachesim::parse_ncu_raw_csv(text, "fuzz", base, schedules);
    } catch (const cachesim::InputError&) {
    }
    return 0;
}
