// A diagram row's place in its array (what cacheviz's tooltip says of a line), up to an array that
// ends exactly at 2^64, where one byte past its end wraps to 0.
#include <gtest/gtest.h>

#include "viz/row_layout.hpp"

using namespace cachesim;
using namespace cachesim::viz;

TEST(VizRowLayout, ElementsOfEachLineUpToTheTopOfTheAddressSpace) {
    // 50 elements of 4 bytes from 2^64 - 200: the 128-byte line from 2^64 - 256 holds its first
    // 72 bytes (18 elements), the last line, from 2^64 - 128, the other 32.
    ArrayInfo a;
    a.name = "top";
    a.base = 0 - std::uint64_t{200};
    a.elem_bytes = 4;
    a.width = 50;
    a.height = 1;
    const RowLayout layout({a}, 128);
    ASSERT_EQ(layout.rows(), 2u);
    const RowInfo first = layout.describe(0), last = layout.describe(1);
    EXPECT_EQ(first.line, (0 - std::uint64_t{256}) / 128);
    EXPECT_EQ(first.first_element, 0u);
    EXPECT_EQ(first.elements, 18u);
    EXPECT_EQ(last.line, first.line + 1);
    EXPECT_EQ(last.first_element, 18u);
    EXPECT_EQ(last.elements, 32u);
    EXPECT_EQ(last.x, 18u);
}

TEST(VizRowLayout, ALineThatStartsInsideAnElementCountsIt) {
    // 12-byte elements from byte 0: the line of bytes 128-255 starts inside element 10 (bytes
    // 120-131) and ends inside element 21 (bytes 252-263): elements 10 to 21.
    ArrayInfo a;
    a.name = "a";
    a.elem_bytes = 12;
    a.width = 30;
    a.height = 1;
    const RowInfo second = RowLayout({a}, 128).describe(1);
    EXPECT_EQ(second.first_element, 10u);
    EXPECT_EQ(second.elements, 12u);
}
