// Standard input redirected from a file that the shell has already read partway into (`{ head -c
// N >/dev/null; cachesim ... --trace -; } < FILE`) holds the trace from there on, in every format:
// din, u64 and cst (its magic, header, end record and blocks all counted from that byte), with
// the thread model, the GPU model and a sweep of two configurations, each of which reads it whole.
// The counters must equal those of the same trace given by name, read from its first byte; bytes
// ahead of the trace that a reader took for trace data would change them or fail the run. Standard
// input left at the end of the file holds no trace, as an empty one does.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli_util.hpp"
#include "tests/scratch_dir.hpp"

namespace cachesim {
namespace {

namespace fs = std::filesystem;
using test::csv_rows;
using test::run_shell;

// Bytes no format reads as a trace: a malformed din line, a u64 stream that ends inside an
// address (its length is not a multiple of 8), and no cst magic.
const std::string kAhead = "these bytes come before the trace, which starts after them\n"
                           "and they are no trace of any format!!\n";
const std::string kSkip = std::to_string(kAhead.size());
// Ways of leaving standard input at the trace's first byte.
const std::vector<std::string> kSkippers = {"head -c " + kSkip + " >/dev/null",
                                            "dd bs=1 skip=" + kSkip + " count=0 2>/dev/null"};
const std::vector<std::uint64_t> kAddresses = {0x1000, 0x1010, 0x2000, 0x1000, 0x3000, 0x1010, 0x2000};

std::string quoted(const fs::path& path) { return "'" + path.string() + "'"; }

std::string read_bytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_bytes(const fs::path& path, const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; }

struct Trace {
    std::string format;  // --trace-format
    fs::path whole;      // the trace alone
    fs::path prefixed;   // kAhead, then the trace
};

// One trace of each format, each beside a copy with kAhead before it.
std::vector<Trace> traces(const fs::path& dir) {
    std::string din, u64;
    for (std::uint64_t a : kAddresses) {
        std::ostringstream line;
        line << "0 " << std::hex << a << "\n";
        din += line.str();
        for (int b = 0; b < 8; ++b) u64 += static_cast<char>((a >> (8 * b)) & 0xff);
    }
    write_bytes(dir / "t.din", din);
    write_bytes(dir / "t.u64", u64);
    const auto written = test::run_cachesim("trace -q --size 16x16 -o " + quoted(dir / "t.cst"));
    EXPECT_EQ(written.exit_code, 0) << written.err;
    std::vector<Trace> all = {{"din", dir / "t.din", {}}, {"u64", dir / "t.u64", {}}, {"cst", dir / "t.cst", {}}};
    for (Trace& t : all) {
        t.prefixed = dir / ("prefixed." + t.format);
        write_bytes(t.prefixed, kAhead + read_bytes(t.whole));
    }
    return all;
}

// The report without what names the trace or times the run.
nlohmann::json counters(const test::CommandResult& r, const std::string& command) {
    EXPECT_EQ(r.exit_code, 0) << command << "\n" << r.err;
    nlohmann::json j = nlohmann::json::parse(r.out, nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << command << "\n" << r.out;
    if (j.is_object())
        for (const char* varying : {"trace", "seconds", "accesses_per_second"}) j.erase(varying);
    return j;
}

void expect_simulate_reads_from_the_trace(const Trace& t, const std::string& options) {
    const std::string simulate = "CACHESIM simulate -q --format json" + options + " --trace-format " + t.format;
    const std::string by_name = simulate + " --trace " + quoted(t.whole);
    const nlohmann::json expected = counters(run_shell(by_name), by_name);
    ASSERT_GT(expected.value("accesses", 0), 0) << by_name;
    for (const std::string& format : {t.format, std::string("auto")}) {
        if (format == "auto" && t.format == "u64") continue;  // auto reads anything but cst as din
        for (const std::string& skip : kSkippers) {
            const std::string redirected = "{ " + skip + "; CACHESIM simulate -q --format json" + options +
                                           " --trace-format " + format + " --trace -; } < " + quoted(t.prefixed);
            EXPECT_EQ(counters(run_shell(redirected), redirected), expected) << redirected;
        }
    }
}

// The rows without the columns that name the trace (the configuration's key and the trace).
std::vector<std::vector<std::string>> sweep_rows(const test::CommandResult& r, const std::string& command) {
    EXPECT_EQ(r.exit_code, 0) << command << "\n" << r.err;
    std::vector<std::vector<std::string>> rows = csv_rows(r.out);
    if (rows.empty()) return rows;
    std::vector<std::size_t> naming;
    for (std::size_t c = rows[0].size(); c-- > 0;)
        if (rows[0][c] == "sweep_config" || rows[0][c] == "trace") naming.push_back(c);
    EXPECT_EQ(naming.size(), 2u) << r.out;
    for (auto& row : rows)
        for (std::size_t c : naming)
            if (c < row.size()) row.erase(row.begin() + static_cast<std::ptrdiff_t>(c));
    return rows;
}

void expect_sweep_reads_from_the_trace(const Trace& t) {
    const std::string configurations = " --trace-format " + t.format + " --l1-line 16 --l1-lines 1,4";
    const std::string by_name = "CACHESIM sweep -q --trace " + quoted(t.whole) + configurations;
    const auto expected = sweep_rows(run_shell(by_name), by_name);
    ASSERT_EQ(expected.size(), 3u) << by_name;  // the header and two configurations
    for (const char* jobs : {"1", "2"}) {
        const std::string redirected = "{ " + kSkippers[0] + "; CACHESIM sweep -q -j " + jobs + " --trace -" +
                                       configurations + "; } < " + quoted(t.prefixed);
        EXPECT_EQ(sweep_rows(run_shell(redirected), redirected), expected) << redirected;
    }
}

TEST(CliStdinPartway, SimulateReadsEachFormatFromWhereStandardInputStands) {
    const fs::path dir = test::fresh_dir(test::temp_dir() / "simulate");
    for (const Trace& t : traces(dir)) expect_simulate_reads_from_the_trace(t, "");
}

TEST(CliStdinPartway, TheGpuModelReplaysACstFromWhereStandardInputStands) {
    const fs::path dir = test::fresh_dir(test::temp_dir() / "gpu");
    for (const Trace& t : traces(dir))
        if (t.format == "cst") expect_simulate_reads_from_the_trace(t, " --preset h200");
}

TEST(CliStdinPartway, EachConfigurationOfASweepReadsFromWhereStandardInputStands) {
    const fs::path dir = test::fresh_dir(test::temp_dir() / "sweep");
    for (const Trace& t : traces(dir)) expect_sweep_reads_from_the_trace(t);
}

TEST(CliStdinPartway, StandardInputAtTheEndOfAFileIsRefusedAsAnEmptyOneIs) {
    const fs::path dir = test::fresh_dir(test::temp_dir() / "at_end");
    write_bytes(dir / "empty", "");
    for (const Trace& t : traces(dir))
        for (const std::string& format : {t.format, std::string("auto")}) {
            const std::string simulate = "CACHESIM simulate -q --trace - --trace-format " + format;
            const auto empty = run_shell(simulate + " < " + quoted(dir / "empty"));
            const std::string at_end = "{ cat >/dev/null; " + simulate + "; } < " + quoted(t.prefixed);
            const auto r = run_shell(at_end);
            EXPECT_EQ(r.exit_code, 2) << at_end << "\n" << r.out;
            EXPECT_EQ(r.err, empty.err) << at_end;
            if (format != "cst") {
                EXPECT_NE(r.err.find("the trace holds no accesses"), std::string::npos) << r.err;
            }
            EXPECT_TRUE(r.out.empty()) << at_end << "\n" << r.out;
        }
}

}  // namespace
}  // namespace cachesim
