// cachesim diagram refuses a picture too small for what it holds, naming the size it needs: that
// size draws, exactly that large, and a pixel less on either named side is refused.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "tests/cli_util.hpp"

namespace cachesim {
namespace {

namespace fs = std::filesystem;

// The N of "--NAME N" in what the refusal says is needed, if it names NAME.
std::optional<int> needed(const std::string& err, const std::string& name) {
    const std::size_t need = err.find("need at least");
    if (need == std::string::npos) return std::nullopt;
    const std::string key = "--" + name + " ";
    const std::size_t at = err.find(key, need);
    if (at == std::string::npos) return std::nullopt;
    return std::stoi(err.substr(at + key.size()));
}

// A PNG's width and height, from its IHDR chunk.
std::pair<int, int> png_size(const fs::path& path) {
    const std::string png = test::read_file(path);
    if (png.size() < 24) return {0, 0};
    const auto be32 = [&](std::size_t at) {
        std::uint32_t v = 0;
        for (std::size_t i = 0; i < 4; ++i) v = v << 8 | static_cast<unsigned char>(png[at + i]);
        return static_cast<int>(v);
    };
    return {be32(16), be32(20)};
}

struct Size {
    int width = 0, height = 0;  // 0: not given
};

std::string size_args(const Size& s) {
    std::string args;
    if (s.width) args += " --width " + std::to_string(s.width);
    if (s.height) args += " --height " + std::to_string(s.height);
    return args;
}

// Runs `diagram` at `too_small`, which it must refuse, then checks the size it names against the
// command itself. Returns the size named (0 for a side it does not name).
Size expect_smallest_named(const std::string& diagram, const Size& too_small) {
    const fs::path png = test::temp_dir() / "minimal.png";
    const std::string out = " -q --out '" + png.string() + "'";
    fs::remove(png);
    const test::CommandResult refused = test::run_cachesim(diagram + size_args(too_small) + out);
    EXPECT_EQ(refused.exit_code, 2) << refused.err;
    EXPECT_FALSE(fs::exists(png));
    Size named{needed(refused.err, "width").value_or(0), needed(refused.err, "height").value_or(0)};
    EXPECT_TRUE(named.width || named.height) << refused.err;
    // A side named is one given too small; a side not named keeps what was given.
    EXPECT_EQ(named.width != 0, too_small.width != 0 && named.width > too_small.width) << refused.err;
    EXPECT_EQ(named.height != 0, too_small.height != 0 && named.height > too_small.height) << refused.err;
    const Size at{named.width ? named.width : too_small.width, named.height ? named.height : too_small.height};

    const test::CommandResult drawn = test::run_cachesim(diagram + size_args(at) + out);
    EXPECT_EQ(drawn.exit_code, 0) << size_args(at) << ": " << drawn.err;
    if (at.width && at.height) {
        EXPECT_EQ(png_size(png), (std::pair{at.width, at.height}));
    }
    if (named.width) {
        const test::CommandResult narrower = test::run_cachesim(diagram + size_args({at.width - 1, at.height}) + out);
        EXPECT_EQ(narrower.exit_code, 2) << "a pixel narrower than the width named, " << named.width << ", was drawn";
    }
    if (named.height) {
        const test::CommandResult lower = test::run_cachesim(diagram + size_args({at.width, at.height - 1}) + out);
        EXPECT_EQ(lower.exit_code, 2) << "a pixel lower than the height named, " << named.height << ", was drawn";
    }
    return named;
}

TEST(CliDiagramMinimalSize, TheTimeViewNamesTheSmallestHeight) {
    // Squeezed to 200 px the plot aggregates rows and gains a miss-rate strip; at the height that
    // layout names it would not need the strip, so the height that fits is lower.
    const Size named = expect_smallest_named("diagram --preset thesis-stencil", {0, 200});
    EXPECT_GT(named.height, 200);
}

TEST(CliDiagramMinimalSize, TheTimeViewNamesTheSmallestWidth) {
    const Size named = expect_smallest_named("diagram --preset thesis-stencil", {300, 0});
    EXPECT_GT(named.width, 300);
    expect_smallest_named("diagram --size 64x64", {400, 800});
}

TEST(CliDiagramMinimalSize, BothSidesShortAreNamedTogether) {
    const Size time = expect_smallest_named("diagram --preset thesis-stencil", {300, 200});
    EXPECT_TRUE(time.width && time.height);
    const Size array = expect_smallest_named("diagram --size 1x4096 --stencil 1x1 --view array --time 100", {200, 200});
    EXPECT_TRUE(array.width && array.height);
}

TEST(CliDiagramMinimalSize, ADefaultSideGrowsToTheSizeARefusalWouldName) {
    // A title wider than the default 1,400 px: left to its default, the width grows to what
    // --width 1400 is told it needs.
    const std::string diagram = "diagram --preset thesis-stencil --title " + std::string(150, 'x');
    const Size named = expect_smallest_named(diagram, {1400, 800});
    ASSERT_GT(named.width, 1400);
    const fs::path png = test::temp_dir() / "grown.png";
    const test::CommandResult r = test::run_cachesim(diagram + " -q --out '" + png.string() + "'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(png_size(png), (std::pair{named.width, 800}));
}

}  // namespace
}  // namespace cachesim
