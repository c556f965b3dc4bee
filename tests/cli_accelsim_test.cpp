// Accel-Sim traces on the command line: `cachesim trace --trace-format traceg` converts, `simulate
// --model gpu` replays a traceg directly, a converged kernel's requests and sectors come out as
// worked out by hand, and every kind of malformed line is exit 2 naming the file and line.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "tests/cli_util.hpp"

namespace cachesim::test {
namespace {

std::string write_temp(const std::string& name, const std::string& text) {
    const std::string path = (temp_dir() / name).string();
    std::ofstream(path) << text;
    return path;
}

std::string zeros(int n) {
    std::string s;
    for (int i = 0; i < n; ++i) s += " 0";
    return s;
}

// One block of 64 threads; every instruction has all 32 lanes active.
//   warp 0: LDG.E 4 B stride 4 from 0x10000      (128 B aligned: 4 sectors)
//           LDG.E.64 8 B stride 8 from 0x30000   (256 B: 8 sectors)
//           STG.E 4 B stride 8 from 0x20000      (256 B span, 4 lanes per sector: 8 sectors)
//   warp 1: the same 128 and 256 B further on, then an LDG.E every lane at 0x50000 (1 sector)
// Loads: 2 + 3 = 5 requests, 4 + 8 + 4 + 8 + 1 = 25 sectors; stores: 2 requests, 16 sectors.
std::string converged_kernel() {
    return "-kernel name = converged\n-grid dim = (1,1,1)\n-block dim = (64,1,1)\n-accelsim tracer version = 3\n\n"
           "#BEGIN_TB\nthread block = 0,0,0\n"
           "warp = 0\ninsts = 4\n"
           "0000 ffffffff 1 R1 S2R 0 0 \n"
           "0010 ffffffff 1 R2 LDG.E 1 R4 4 1 0x10000 4 \n"
           "0020 ffffffff 1 R6 LDG.E.64 1 R4 8 1 0x30000 8 \n"
           "0030 ffffffff 0 STG.E 2 R4 R2 4 1 0x20000 8 \n"
           "warp = 1\ninsts = 4\n"
           "0010 ffffffff 1 R2 LDG.E 1 R4 4 1 0x10080 4 \n"
           "0020 ffffffff 1 R6 LDG.E.64 1 R4 8 1 0x30100 8 \n"
           "0030 ffffffff 0 STG.E 2 R4 R2 4 1 0x20100 8 \n"
           "0040 ffffffff 1 R7 LDG.E 1 R4 4 2 0x50000" + zeros(31) + " \n"
           "#END_TB\n";
}

nlohmann::json gpu_parameters(const std::string& args) {
    const CommandResult r = run_cachesim("simulate --model gpu " + args + " --format json");
    EXPECT_EQ(r.exit_code, 0) << args << "\n" << r.err;
    return r.exit_code == 0 ? nlohmann::json::parse(r.out)["parameters"] : nlohmann::json{};
}

TEST(CliAccelsim, ConvergedKernelGivesTheHandCountedRequestsAndSectors) {
    const std::string traceg = write_temp("kernel-1.traceg", converged_kernel());
    const nlohmann::json p = gpu_parameters("--trace '" + traceg + "'");  // auto: traceg by its name
    EXPECT_EQ(p.value("load_requests", ""), "5");
    EXPECT_EQ(p.value("store_requests", ""), "2");
    EXPECT_EQ(p.value("load_sectors", ""), "25");
    EXPECT_EQ(p.value("store_sectors", ""), "16");
    EXPECT_EQ(p.value("warps", ""), "2");

    // Converted first, then replayed: the same counters.
    const std::string cst = (temp_dir() / "converged.cst").string();
    const CommandResult t = run_cachesim("trace --trace '" + traceg + "' --trace-format traceg -o '" + cst + "'");
    ASSERT_EQ(t.exit_code, 0) << t.err;
    EXPECT_NE(t.out.find("64 threads, 224 accesses"), std::string::npos) << t.out;  // 32 x 3 + 32 x 4
    EXPECT_NE(t.out.find("1 non-memory"), std::string::npos) << t.out;
    EXPECT_EQ(gpu_parameters("--trace '" + cst + "'"), p);
}

// An atomic is performed at the L2, never looked up in the L1, and Nsight Compute counts it as
// op_atom / op_red, apart from the loads: a load, then an ATOMG and a RED of the same 128 B
// (every lane 4 B at stride 4: 4 sectors each) are one load request of 4 sectors, none of them a
// hit, and two store requests of 4 sectors each.
TEST(CliAccelsim, AtomicsGoToTheL2AsStores) {
    const std::string traceg = write_temp(
        "atomics.traceg", "-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-accelsim tracer version = 4\n\n"
                          "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 3\n"
                          "0000 ffffffff 1 R2 LDG.E.SYS 1 R4 4 1 0x400000 4\n"
                          "0010 ffffffff 1 R2 ATOMG.E.ADD.STRONG.GPU 2 R4 R5 4 1 0x400000 4\n"
                          "0020 ffffffff 0 RED.E.ADD.STRONG.GPU 2 R4 R5 4 1 0x400000 4\n#END_TB\n");
    const CommandResult r = run_cachesim("simulate --model gpu --trace '" + traceg + "' --format json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json report = nlohmann::json::parse(r.out);
    const nlohmann::json& p = report["parameters"];
    EXPECT_EQ(p.value("load_requests", ""), "1");
    EXPECT_EQ(p.value("load_sectors", ""), "4");
    EXPECT_EQ(p.value("store_requests", ""), "2");
    EXPECT_EQ(p.value("store_sectors", ""), "8");
    const nlohmann::json& ncu = report["ncu"];
    EXPECT_EQ(ncu.value("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", -1), 1);
    EXPECT_EQ(ncu.value("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", -1), 4);
    EXPECT_EQ(ncu.value("l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum", -1), 0);
}

// A traceg's -shmem and -nregs are the launch's: blocks of 1,024 threads with 64 registers each
// take the H200 SM's 65,536 registers, so one block an SM; its 48 KiB of shared memory (and the
// 1 KiB reserved a block) fit the 64 KiB carve-out, leaving 256 - 64 = 192 KiB of L1. The same
// values given as options change nothing; other values would be another kernel, and are refused.
TEST(CliAccelsim, ATracesSharedMemoryAndRegistersDecideResidency) {
    const std::string head = "-grid dim = (1,1,1)\n-block dim = (1024,1,1)\n-accelsim tracer version = 4\n";
    const std::string body = "\n#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
                             "0000 ffffffff 1 R2 LDG.E.SYS 1 R4 4 1 0x400000 4\n#END_TB\n";
    const std::string traceg = write_temp("resources.traceg", head + "-shmem = 49152\n-nregs = 64\n" + body);
    const nlohmann::json p = gpu_parameters("--preset h200 --trace '" + traceg + "'");
    EXPECT_EQ(p.value("smem_per_block_bytes", ""), "49152");
    EXPECT_EQ(p.value("regs_per_thread", ""), "64");
    EXPECT_EQ(p.value("resident_blocks_per_sm", ""), "1");
    EXPECT_EQ(p.value("l1_bytes_per_sm", ""), "196608");
    EXPECT_EQ(gpu_parameters("--preset h200 --trace '" + traceg + "' --smem-per-block 48K --regs-per-thread 64"), p);

    const CommandResult other = run_cachesim("simulate --preset h200 --trace '" + traceg + "' --regs-per-thread 32");
    EXPECT_EQ(other.exit_code, 2);
    EXPECT_EQ(other.err, "cachesim simulate: error: --regs-per-thread 32: the trace " + traceg +
                             " records 64 registers a thread\n");
    const CommandResult explained = run_cachesim("simulate --preset h200 --trace '" + traceg + "' --explain");
    // the --smem-per-block line: the option, its value and where the value came from, however wide
    // the columns
    const std::size_t at = explained.out.find("  --smem-per-block ");
    ASSERT_NE(at, std::string::npos) << explained.out;
    std::istringstream line(explained.out.substr(at, explained.out.find('\n', at) - at));
    std::string option, value;
    line >> option >> value >> std::ws;
    std::string source;
    std::getline(line, source);
    EXPECT_EQ(value, "49152");
    EXPECT_EQ(source.rfind("from the trace " + traceg + " (h200: 0, ", 0), 0u) << source;

    // --compilation picks a built-in kernel's measured loop, which a recorded kernel is not.
    const CommandResult compiled = run_cachesim("simulate --preset h200 --trace '" + traceg + "' --compilation unroll1");
    EXPECT_EQ(compiled.exit_code, 2);
    EXPECT_NE(compiled.err.find("--compilation picks the measured loops of gpubench's built-in kernels; it does not apply"),
              std::string::npos) << compiled.err;

    // The tracer writes both: one alone is refused, as is a count no kernel has.
    const CommandResult half = run_cachesim("simulate --trace '" + write_temp("half.traceg", head + "-shmem = 0\n" + body) + "'");
    EXPECT_EQ(half.exit_code, 2);
    EXPECT_NE(half.err.find("has '-shmem' without '-nregs'"), std::string::npos) << half.err;
    const CommandResult many = run_cachesim(
        "simulate --trace '" + write_temp("many.traceg", head + "-shmem = 0\n-nregs = 256\n" + body) + "'");
    EXPECT_EQ(many.exit_code, 2);
    EXPECT_NE(many.err.find("'-nregs = 256': at most 255"), std::string::npos) << many.err;
}

// Compressed traces (NVBit traces are usually kept compressed) read as they are: the same counters
// as the plain file; from a pipe, which cannot be read twice, a clear error.
TEST(CliAccelsim, GzipAndZstdTracesGiveThePlainCounters) {
    const std::string traceg = write_temp("kernel-2.traceg", converged_kernel());
    const nlohmann::json plain = gpu_parameters("--trace '" + traceg + "'");
    for (const std::string tool : {"gzip", "zstd -q"}) {
        const std::string packed = traceg + (tool == "gzip" ? ".gz" : ".zst");
        ASSERT_EQ(std::system((tool + " -c '" + traceg + "' > '" + packed + "'").c_str()), 0) << tool;
        const nlohmann::json p = gpu_parameters("--trace '" + packed + "'");  // auto: .traceg.gz / .zst
        for (const char* key : {"load_requests", "store_requests", "load_sectors", "store_sectors", "warps"})
            EXPECT_EQ(p.value(key, ""), plain.value(key, "")) << tool << " " << key;
        // The report names the file given, not its temporary conversion.
        const CommandResult r = run_cachesim("simulate --model gpu --trace '" + packed + "' --format json");
        ASSERT_EQ(r.exit_code, 0) << r.err;
        EXPECT_EQ(nlohmann::json::parse(r.out).value("trace", ""), packed);
    }
    const CommandResult piped =
        run_shell("cat '" + traceg + "' | CACHESIM simulate --model gpu --trace - --trace-format traceg");
    EXPECT_EQ(piped.exit_code, 2) << piped.err;
    EXPECT_NE(piped.err.find("can be read only once"), std::string::npos) << piped.err;
}

// A small valid kernel; each case below breaks one line of it.
const std::vector<std::string> kGood = {
    "-grid dim = (2,1,1)",                                   // 1
    "-block dim = (64,1,1)",                                 // 2
    "-accelsim tracer version = 3",                          // 3
    "#BEGIN_TB",                                             // 4
    "thread block = 0,0,0",                                  // 5
    "warp = 0",                                              // 6
    "insts = 2",                                             // 7
    "0010 ffffffff 1 R2 LDG.E 1 R4 4 1 0x10000 4",           // 8
    "0020 00000003 0 STG.E 2 R4 R2 4 0 0x20000 0x20004",     // 9
    "warp = 1",                                              // 10
    "insts = 1",                                             // 11
    "0010 80000001 1 R2 LDG.E 1 R4 4 2 0x10080 124",         // 12
    "#END_TB",                                               // 13
    "#BEGIN_TB",                                             // 14
    "thread block = 1,0,0",                                  // 15
    "warp = 0",                                              // 16
    "insts = 1",                                             // 17
    "0010 ffffffff 1 R2 LDG.E 1 R4 4 1 0x30000 4",           // 18
    "#END_TB",                                               // 19
};

std::string joined(const std::vector<std::string>& lines) {
    std::string s;
    for (const std::string& l : lines) s += l + "\n";
    return s;
}

TEST(CliAccelsim, TheUnbrokenKernelConverts) {
    const std::string in = write_temp("good.traceg", joined(kGood));
    const CommandResult r = run_cachesim("trace --trace '" + in + "' -o '" + (temp_dir() / "good.cst").string() + "'");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    // block 0, warp 0: 32 + 2; warp 1: 2 lanes; block 1: 32 threads of one access
    EXPECT_NE(r.out.find("66 threads, 68 accesses"), std::string::npos) << r.out;
}

struct Broken {
    std::size_t line;         // 1-based line replaced (0: none)
    std::string replacement;  // empty: the line is removed
    std::size_t reported;     // the line the message must name
    std::string message;
};

TEST(CliAccelsim, EveryMalformedLineKindIsExit2WithFileAndLine) {
    const std::vector<Broken> cases = {
        {6, "wrap = 0", 6, "unknown line 'wrap = 0'"},
        {3, "-trace mode = 1", 3, "unknown header line"},
        {8, "0010 fffffffg 1 R2 LDG.E 1 R4 4 1 0x10000 4", 8, "bad hex active mask"},
        {8, "0010 1ffffffff 1 R2 LDG.E 1 R4 4 1 0x10000 4", 8, "bad hex active mask"},
        {9, "0020 00000003 0 STG.E 2 R4 R2 4 0 0x20000 0x20004 0x20008", 9, "more addresses than the 2 active lanes"},
        {12, "0010 80000001 1 R2 LDG.E 1 R4 4 2 0x10080 124 4", 12, "more addresses than the 2 active lanes"},
        {8, "0010 ffffffff 1 R2 LDG.E", 8, "truncated instruction"},
        {9, "0020 00000003 0 STG.E 2 R4 R2 4 0 0x20000", 9, "truncated instruction"},
        {7, "insts = 3", 10, "warp 0 is truncated"},
        {1, "-grid dim = (0,1,1)", 1, "x must be 1.."},
        {1, "-grid dim = (1,70000,1)", 1, "y must be 1..65535"},
        {2, "-block dim = (2048,1,1)", 2, "x must be 1..1024"},
        {2, "-block dim = (64,32,1)", 2, "more than 1024 threads per block"},
        {3, "-grid dim = (1,1,1)", 3, "'-grid dim' is given twice in the header"},
        {3, "-accelsim tracer version = 6", 3, "newer than the formats this reader knows (up to version 5)"},
        {3, "-accelsim tracer version = 5", 0, ""},  // valid: lines as version 4 writes them
        {10, "warp = 2", 10, "warp 2 is beyond the block's 2 warps"},
        {5, "thread block = 2,0,0", 5, "outside the launch (grid 2x1x1"},
        {8, "0010 ffffffff 1 R2 LDG.E 1 R4 4 3 0x10000 4", 8, "unknown address format 3"},
        {8, "0010 fffffff0 1 R2 LDG.E 1 R4 4 1 0x10000 4", 0, ""},  // valid: contiguous lanes 4-31
        {8, "0010 ffff00ff 1 R2 LDG.E 1 R4 4 1 0x10000 4", 8, "need contiguous active lanes"},
        {19, "", 18, "no #END_TB"},
        {11, "insts = 0", 12, "beyond the warp's 'insts = N' count"},
    };
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const Broken& c = cases[i];
        std::vector<std::string> lines = kGood;
        if (c.replacement.empty()) lines.erase(lines.begin() + static_cast<long>(c.line - 1));
        else lines[c.line - 1] = c.replacement;
        const std::string in = write_temp("broken" + std::to_string(i) + ".traceg", joined(lines));
        const std::string out = (temp_dir() / ("broken" + std::to_string(i) + ".cst")).string();
        const CommandResult r = run_cachesim("trace --trace '" + in + "' --trace-format traceg -o '" + out + "'");
        if (c.reported == 0) {
            EXPECT_EQ(r.exit_code, 0) << c.replacement << "\n" << r.err;
            continue;
        }
        EXPECT_EQ(r.exit_code, 2) << c.replacement;
        EXPECT_NE(r.err.find(in + ":" + std::to_string(c.reported) + ": "), std::string::npos) << c.replacement << "\n" << r.err;
        EXPECT_NE(r.err.find(c.message), std::string::npos) << c.replacement << "\n" << r.err;
        EXPECT_FALSE(std::filesystem::exists(out)) << "no output for a bad input: " << c.replacement;
        // simulate reads it the same way
        const CommandResult s = run_cachesim("simulate --model gpu --trace '" + in + "'");
        EXPECT_EQ(s.exit_code, 2) << c.replacement;
        EXPECT_NE(s.err.find(in + ":" + std::to_string(c.reported) + ": "), std::string::npos) << s.err;
    }
}

}  // namespace
}  // namespace cachesim::test
