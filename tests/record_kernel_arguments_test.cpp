// examples/record_kernel_host names the argument it cannot use (a size, a block shape, a block of
// threads) and a launch too large for host memory, instead of printing only its usage or
// "std::bad_alloc"; a refused recording writes no file.
#include <gtest/gtest.h>

#include <filesystem>

#include "tests/cli_util.hpp"

namespace cachesim::test {
namespace {

CommandResult record(const std::string& args) {
    const std::filesystem::path out = temp_dir() / "r.cst";
    std::filesystem::remove(out);
    CommandResult r = run_shell("'" RECORD_KERNEL_HOST_BIN "' " + args + " '" + out.string() + "'");
    EXPECT_FALSE(std::filesystem::exists(out)) << args;
    return r;
}

TEST(RecordKernelArguments, AZeroSizeIsNamed) {
    const CommandResult r = record("transpose 0x5 32x8");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("error: transpose size '0x5': expected two whole numbers from 1 to 1048576 joined by x"),
              std::string::npos)
        << r.err;
}

TEST(RecordKernelArguments, ABlockShapeOfOneNumberIsNamed) {
    const CommandResult r = record("transpose 64x64 33");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("error: transpose block '33': expected two whole numbers"), std::string::npos) << r.err;
}

TEST(RecordKernelArguments, AStencilBlockThatIsNoCountIsNamed) {
    for (const std::string block : {"0", "-1", "12x", "1025"}) {
        const CommandResult r = record("stencil 5x5 3x3 " + block);
        EXPECT_EQ(r.exit_code, 2) << block;
        EXPECT_NE(r.err.find("error: stencil block '" + block + "': expected a whole number of threads from 1 to 1024"),
                  std::string::npos)
            << r.err;
    }
}

TEST(RecordKernelArguments, ArraysBeyondHostMemoryAreNamedWithTheirSize) {
#if defined(__SANITIZE_ADDRESS__)
    // AddressSanitizer aborts on an allocation this large instead of throwing std::bad_alloc.
    GTEST_SKIP() << "an allocation beyond host memory aborts under AddressSanitizer";
#endif
    // 1048576 x 1048576 floats: 2^40 x 4 = 4398046511104 bytes an array.
    const CommandResult r = record("transpose 1048576x1048576 32x8");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("error: cannot allocate 4398046511104 bytes of host memory"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace cachesim::test
