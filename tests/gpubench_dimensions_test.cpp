// gpubench's WxH values (--size, --stencil) are two whole numbers from 1 to 2^32 - 1; a refusal
// names the option and the whole value as written, not the half of it that failed.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "apps/gpubench/options.hpp"
#include "tests/gpubench_parse.hpp"
#include "traces/input_error.hpp"

namespace gpubench {
namespace {

using test::parse;
using test::refusal;

TEST(GpubenchDimensions, ListsOfWxH) {
    const Options o = parse({"--size", "4096x4096,1x4294967295", "--stencil", "9x9,3x1"});
    ASSERT_EQ(o.sizes.size(), 2u);
    EXPECT_EQ(o.sizes[1].w, 1u);
    EXPECT_EQ(o.sizes[1].h, 4294967295u);
    ASSERT_EQ(o.boxes.size(), 2u);
    EXPECT_EQ(o.boxes[1].w, 3u);
    EXPECT_EQ(o.boxes[1].h, 1u);
}

TEST(GpubenchDimensions, TheWholeValueIsNamed) {
    // 4294967296 = 2^32 does not fit; "4x4x4" has three numbers, "4" one
    for (const char* text : {"4x", "x4", "0x4", "4x0", "4", "4x4x4", "4x-4", "4x4294967296", " 4x4", "4x4 ", "ax4"}) {
        EXPECT_EQ(refusal({"--size", text}), "--size: '" + std::string(text) +
                                                 "' is not WxH (two whole numbers from 1 to 4294967295, such as 1024x1024)");
    }
    EXPECT_EQ(refusal({"--stencil", "9x9,,3x3"}),
              "--stencil: '' is not WxH (two whole numbers from 1 to 4294967295, such as 1024x1024)");
}

}  // namespace
}  // namespace gpubench
