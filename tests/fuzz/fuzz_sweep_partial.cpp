// libFuzzer target: the sweep's partial log, as a resumed sweep meets it after any interruption.
// Reading must turn any bytes into records, skipped torn lines or an InputError; reopening the log
// for appending must cut off a torn tail so that the next record always reads back whole.
#include "apps/cachesim/sweep_record_check.hpp"
#include "apps/cachesim/sweep_results.hpp"
#include "tests/fuzz/fuzz_input_file.hpp"
#include "traces/input_error.hpp"

#include <fstream>
#include <sstream>

namespace {

std::string read_all(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace cachesim::cli;
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        std::vector<std::size_t> torn, lines;
        const auto records = decode_results(text, "fuzz", &torn, &lines);
        if (records.size() != lines.size()) __builtin_trap();
        for (std::size_t i = 0; i < records.size(); ++i)
            check_sweep_record(records[i].first, records[i].second, "fuzz line " + std::to_string(lines[i]));
    } catch (const cachesim::InputError&) {
    }
    // The append path: whatever the log held, a record appended after reopening reads back whole.
    cachesim::fuzz::InputFile file(data, size);
    const SweepColumns columns = {{"model", "thread"}, {"l1_hits", "7"}};
    try {
        PartialLog log(file.path());
        log.append("appended", columns);
    } catch (const cachesim::InputError&) {
        return 0;
    }
    std::vector<std::size_t> torn;
    try {
        const auto records = decode_results(read_all(file.path()), "fuzz", &torn);
        if (records.empty() || records.back().first != "appended" || records.back().second != columns) __builtin_trap();
    } catch (const cachesim::InputError&) {
        // Damage before the appended record is reported, not hidden; the record itself is intact.
        const std::string after = read_all(file.path());
        const std::size_t last = after.rfind('\n', after.size() >= 2 ? after.size() - 2 : 0);
        const std::string tail = last == std::string::npos ? after : after.substr(last + 1);
        const auto records = decode_results(tail, "fuzz tail");
        if (records.size() != 1 || records[0].first != "appended") __builtin_trap();
    }
    return 0;
}
