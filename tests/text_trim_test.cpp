// trim_blanks: what the readers of user files strip from a field or a line.
#include <gtest/gtest.h>

#include "sim/text.hpp"

namespace cachesim {
namespace {

TEST(TrimBlanks, StripsSpacesTabsAndCarriageReturnsAtBothEnds) {
    EXPECT_EQ(trim_blanks("  NVIDIA H200\t\r"), "NVIDIA H200");
    EXPECT_EQ(trim_blanks("\r\tkey = value "), "key = value");
    EXPECT_EQ(trim_blanks("a b"), "a b");  // blanks inside stay
}

TEST(TrimBlanks, AllBlankOrEmptyGivesEmpty) {
    EXPECT_EQ(trim_blanks(" \t\r "), "");
    EXPECT_EQ(trim_blanks(""), "");
}

}  // namespace
}  // namespace cachesim
