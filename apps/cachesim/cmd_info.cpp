// cachesim info: print a cst trace file's header and counts; --verify reads every block.
#include <iomanip>
#include <iostream>
#include <sstream>
#include <vector>

#include "apps/common/options.hpp"
#include "apps/cachesim/number_text.hpp"
#include "apps/cachesim/subcommands.hpp"
#include "traces/input_error.hpp"
#include "traces/trace_format_reader.hpp"

namespace cachesim::cli {

namespace {

struct VerifyCounts {
    std::uint64_t accesses = 0, writes = 0, steps = 0;
};

// An access of an array with a known extent must lie inside it: a workload's trace never leaves
// its arrays, so one that does is damaged or crafted. (Plain traces have one array of extent 0:
// anywhere.)
void check_inside_array(const std::string& path, const std::vector<ArrayInfo>& arrays, const Access& a,
                        std::uint64_t step) {
    const ArrayInfo& array = arrays[a.array];
    const std::uint64_t bytes = array.bytes();
    if (bytes == 0) return;
    const std::uint64_t offset = a.address - array.base;
    if (a.address < array.base || offset > bytes || a.size > bytes - offset) {
        std::ostringstream why;
        why << path << ": step " << step << ": an access of " << a.size << " B at 0x" << std::hex << a.address
            << " lies outside array '" << array.name << "' (0x" << array.base << " .. 0x";
        // The end may be 2^64 itself, which base + bytes wraps to 0.
        if (array.base + bytes == 0) why << "10000000000000000";
        else why << array.base + bytes;
        why << ")";
        throw InputError(why.str());
    }
}

VerifyCounts read_everything(const std::string& path, cst::TraceFileSource& source) {
    VerifyCounts counts;
    AccessBatch batch;
    const std::vector<ArrayInfo> arrays = source.arrays();
    while (source.next(batch, cst::kBlockAccesses)) {
        counts.accesses += batch.accesses.size();
        const std::uint32_t per_step = batch.accesses_per_step ? batch.accesses_per_step : 1;
        for (std::size_t i = 0; i < batch.accesses.size(); ++i) {
            const Access& a = batch.accesses[i];
            counts.writes += a.is_write;
            check_inside_array(path, arrays, a, batch.first_step + i / per_step);
        }
        counts.steps += batch.accesses.size() / batch.accesses_per_step;
    }
    return counts;
}

// A plain trace (converted from din or u64) records addresses and sizes, not elements: its
// header's element size is a placeholder, not a fact about the data.
std::string element_size_text(const cst::TraceHeader& h) {
    if (!h.workload && !h.launch) return "not recorded (a plain trace, din or u64)";
    return counted(h.elem_bytes, "byte");
}

}  // namespace

int run_info(int argc, char** argv) {
    po::options_description options("Options");
    options.add_options()
        ("help,h", "show this help")
        ("file", po::value<std::vector<std::string>>(), "the cst trace file")
        ("verify", po::bool_switch(), "read and check every block (checksums, records, addresses inside their arrays) and count reads/writes");
    po::positional_options_description positional;
    positional.add("file", -1);  // all words, so that a second one is named below
    po::variables_map vm;
    note_known_options(options);  // for an unrecognised option's "did you mean"
    po::store(po::command_line_parser(argc, argv).style(kCommandLineStyle).options(options).positional(positional).run(), vm);
    if (vm.count("help")) {
        std::cout << "usage: cachesim info FILE [--verify]\n\n"
                     "Prints the header of a cst trace file (written by `cachesim trace`): version,\n"
                     "counts, arrays and the workload that produced it.\n\n"
                  << options << "\n";
        return 0;
    }
    po::notify(vm);
    if (!vm.count("file")) throw InputError("which trace file? usage: cachesim info FILE");
    const std::vector<std::string>& files = vm["file"].as<std::vector<std::string>>();
    if (files.size() > 1)
        throw InputError("one trace file at a time: '" + files[1] + "' follows '" + files[0] +
                         "' (usage: cachesim info FILE [--verify])");
    const std::string path = files[0];
    // "-": standard input, read from where the shell left it; a pipe is refused by the reader
    cst::TraceFileSource source(path);
    const cst::TraceHeader& h = source.header();
    // Printed only once everything is checked: an error (exit 2) leaves nothing on stdout
    std::ostringstream out;
    out << "file:              " << path << "\n"
        << "format:            cst version " << h.version << "\n"
        << "file size:         " << counted(source.file_bytes(), "byte") << "\n"
        << "element size:      " << element_size_text(h) << "\n"
        << "steps:             " << h.steps
        << (h.launch ? " (threads)" : h.workload ? " (threads / launch indices)" : " (records)") << "\n"
        << (h.launch ? "accesses per step: at most " : "accesses per step: ") << h.accesses_per_step << "\n"
        << "accesses:          " << h.accesses << "\n"
        << "blocks:            " << h.blocks << "\n";
    if (h.accesses)
        out << "bytes per access:  " << std::fixed << std::setprecision(3)
            << static_cast<double>(source.file_bytes()) / h.accesses << "\n";
    if (h.launch)
        out << "launch:            " << h.launch->describe() << " (" << counted(h.launch->blocks(), "block") << " of "
            << counted(h.launch->threads_per_block(), "thread") << ")\n";
    if (h.loop) out << "loop:              " << h.loop->describe() << "\n";
    if (h.resources) out << "resources:         " << h.resources->describe() << "\n";
    out << "workload:          "
        << (h.workload ? h.workload->describe()
                     : std::string(h.launch ? "none (a recorded kernel)" : "none (plain trace)"))
        << "\n"
        << "arrays:            " << h.arrays.size() << "\n";
    for (std::size_t i = 0; i < h.arrays.size(); ++i) {
        const ArrayInfo& a = h.arrays[i];
        out << "  [" << i << "] " << std::left << std::setw(10) << a.name << std::right << " base 0x"
            << std::hex << a.base << std::dec << ", " << a.width << " x " << a.height << " elements of "
            << a.elem_bytes << " B\n";
    }
    if (vm["verify"].as<bool>()) {
        const VerifyCounts counts = read_everything(path, source);
        out << "verified:          " << counted(h.blocks, "block") << ", checksums and records OK; "
            << counted(counts.accesses - counts.writes, "read") << ", " << counted(counts.writes, "write") << ", "
            << counted(counts.steps, "step") << "\n";
    }
    std::cout << out.str();
    return 0;
}

}  // namespace cachesim::cli
