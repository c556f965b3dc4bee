#include <gtest/gtest.h>

#include "viz/canvas.hpp"

using namespace cachesim::viz;

TEST(VizCanvas, FillRectAndPixels) {
    Canvas c(10, 8, colors::white);
    EXPECT_EQ(c.pixel(0, 0), colors::white);
    c.fill_rect(2, 3, 4, 2, colors::red);
    EXPECT_EQ(c.pixel(2, 3), colors::red);
    EXPECT_EQ(c.pixel(5, 4), colors::red);
    EXPECT_EQ(c.pixel(6, 4), colors::white);
    EXPECT_EQ(c.pixel(5, 5), colors::white);
    EXPECT_EQ(c.pixel(-1, 0), colors::transparent);
    c.fill_rect(-5, -5, 100, 1, colors::blue);  // clipped, off-canvas
    EXPECT_EQ(c.pixel(0, 0), colors::white);
}

TEST(VizCanvas, BlendHalfAlpha) {
    Canvas c(1, 1, colors::white);
    c.fill_rect(0, 0, 1, 1, Rgba{0, 0, 0, 128});
    const Rgba p = c.pixel(0, 0);
    EXPECT_NEAR(p.r, 127, 1);
    EXPECT_EQ(p.a, 255);
}

TEST(VizCanvas, LineCoversItsPath) {
    Canvas c(20, 20, colors::white);
    c.draw_line(0.5, 10.5, 19.5, 10.5, colors::black, 1.0);
    EXPECT_EQ(c.pixel(5, 10), colors::black);
    EXPECT_EQ(c.pixel(5, 12), colors::white);
    c.draw_line(3.5, 0.5, 3.5, 19.5, colors::blue, 3.0);
    EXPECT_EQ(c.pixel(3, 15), colors::blue);
    EXPECT_EQ(c.pixel(2, 15), colors::blue);
    EXPECT_EQ(c.pixel(7, 15), colors::white);
    c.draw_line(0, 0, 20, 20, colors::red, 1.0);  // diagonal
    EXPECT_EQ(c.pixel(14, 14), colors::red);
}

TEST(VizCanvas, Circle) {
    Canvas c(21, 21, colors::white);
    c.fill_circle(10.5, 10.5, 5, colors::green);
    EXPECT_EQ(c.pixel(10, 10), colors::green);
    EXPECT_EQ(c.pixel(10, 14), colors::green);
    EXPECT_EQ(c.pixel(10, 17), colors::white);
    EXPECT_EQ(c.pixel(14, 14), colors::white);  // outside the circle (corner of the box)
}

TEST(VizCanvas, TextDrawsInkInsideItsExtent) {
    Canvas c(200, 40, colors::white);
    const TextExtent e = c.draw_text(10, 5, "Hello, cache", {.size_px = 16});
    EXPECT_GT(e.width, 60);
    EXPECT_LT(e.width, 140);
    EXPECT_GE(e.height(), 16);
    EXPECT_EQ(measure_text("Hello, cache", 16).width, e.width);
    int ink = 0, outside = 0;
    for (int y = 0; y < c.height(); ++y)
        for (int x = 0; x < c.width(); ++x)
            if (c.pixel(x, y) != colors::white) {
                ++ink;
                if (x < 9 || x > 10 + e.width + 1 || y < 5 || y > 5 + e.height()) ++outside;
            }
    EXPECT_GT(ink, 50);
    EXPECT_EQ(outside, 0);
}

TEST(VizCanvas, TextAlignmentAndVertical) {
    Canvas c(100, 100, colors::white);
    c.draw_text(50, 50, "ABC", {.size_px = 14, .halign = HAlign::right, .valign = VAlign::bottom});
    // All ink is left of and above the anchor.
    for (int y = 0; y < 100; ++y)
        for (int x = 0; x < 100; ++x)
            if (c.pixel(x, y) != colors::white) {
                EXPECT_LE(x, 51);
                EXPECT_LE(y, 51);
            }
    Canvas v(60, 120, colors::white);
    const TextExtent e = v.draw_text(30, 60, "Vertical", {.size_px = 14, .halign = HAlign::center,
                                                          .valign = VAlign::middle, .vertical = true});
    int minx = 999, maxx = -1, miny = 999, maxy = -1;
    for (int y = 0; y < v.height(); ++y)
        for (int x = 0; x < v.width(); ++x)
            if (v.pixel(x, y) != colors::white) {
                minx = std::min(minx, x); maxx = std::max(maxx, x);
                miny = std::min(miny, y); maxy = std::max(maxy, y);
            }
    EXPECT_GT(maxy - miny, maxx - minx);  // taller than wide
    EXPECT_NEAR((miny + maxy) / 2.0, 60, 4);
    EXPECT_LE(maxy - miny, e.width + 2);
}

TEST(VizCanvas, PngRoundTrip) {
    Canvas c(17, 9, colors::white);
    c.fill_rect(3, 2, 5, 5, Rgba{10, 20, 30, 255});
    c.set_pixel(16, 8, Rgba{1, 2, 3, 4});
    const std::string png = encode_png(c);
    ASSERT_GT(png.size(), 8u);
    EXPECT_EQ(png.substr(1, 3), "PNG");
    const Canvas d = decode_png(png);
    ASSERT_EQ(d.width(), 17);
    ASSERT_EQ(d.height(), 9);
    for (int y = 0; y < 9; ++y)
        for (int x = 0; x < 17; ++x) EXPECT_EQ(d.pixel(x, y), c.pixel(x, y));
    EXPECT_THROW(decode_png("not a png"), std::runtime_error);
    EXPECT_THROW(decode_png(png.substr(0, png.size() / 2)), std::runtime_error);
    EXPECT_THROW(encode_png(Canvas()), std::runtime_error);
}

TEST(VizCanvas, Viridis) {
    EXPECT_EQ(viridis(0.0), (Rgba{68, 1, 84, 255}));
    EXPECT_EQ(viridis(1.0), (Rgba{253, 231, 37, 255}));
    EXPECT_EQ(viridis(2.0), viridis(1.0));
}
