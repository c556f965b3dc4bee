#pragma once
// A small raster canvas rendered entirely in memory (no display): an RGBA image with filled
// rectangles, anti-aliased lines and circles, text in DejaVu Sans (FreeType), and PNG encoding to a
// byte string (libpng). Used by the diagram export, the sweep heat map and the scatter plots.
//
// Conventions
// - Pixel (x, y) covers the square [x, x+1) x [y, y+1); x grows to the right, y grows downwards.
//   Integer-rectangle calls take pixel indices; the anti-aliased calls (lines, circles, text
//   anchors) take real coordinates, so a 1-pixel line through pixel centres uses x + 0.5.
// - Colours are 8-bit straight (non-premultiplied) RGBA. Drawing blends source-over with the
//   colour's alpha; set_pixel and fill() overwrite.
// - Everything is clipped to the canvas; drawing outside it is not an error.
// - Text: one line of UTF-8, size in pixels (the font's em size). The font is DejaVu Sans from
//   Debian's fonts-dejavu-core (/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf) unless the
//   environment variable CACHESIM_FONT names another TrueType file. A missing font throws
//   std::runtime_error on the first text call, naming the path.
// - Thread safety: distinct Canvas objects may be drawn on from different threads at once (the
//   shared font is guarded by a mutex).
//
// Saving a PNG from an application: cli::write_file_atomically(path, encode_png(canvas)).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cachesim::viz {

struct Rgba {
    std::uint8_t r = 0, g = 0, b = 0, a = 255;
    friend bool operator==(const Rgba&, const Rgba&) = default;
};

// A few named colours for plots and axes.
namespace colors {
inline constexpr Rgba white{255, 255, 255, 255};
inline constexpr Rgba black{0, 0, 0, 255};
inline constexpr Rgba gray{128, 128, 128, 255};
inline constexpr Rgba light_gray{220, 220, 220, 255};
inline constexpr Rgba dark_gray{64, 64, 64, 255};
inline constexpr Rgba red{214, 39, 40, 255};
inline constexpr Rgba green{44, 160, 44, 255};
inline constexpr Rgba blue{31, 119, 180, 255};
inline constexpr Rgba orange{255, 127, 14, 255};
inline constexpr Rgba purple{148, 103, 189, 255};
inline constexpr Rgba transparent{0, 0, 0, 0};
}  // namespace colors

// Sequential colour map (matplotlib's viridis, piecewise linear through 9 stops): t in [0, 1]
// (clamped) from dark purple to yellow. NaN gives mid gray.
Rgba viridis(double t);
// Linear interpolation between two colours, t in [0, 1] (clamped), alpha included.
Rgba mix(Rgba a, Rgba b, double t);

enum class HAlign { left, center, right };
// top: the anchor is at the top of the line box (ascender); baseline: on the baseline;
// middle: half way between the line box's top and bottom; bottom: at the descender.
enum class VAlign { top, middle, baseline, bottom };

struct TextStyle {
    double size_px = 12.0;
    Rgba color = colors::black;
    HAlign halign = HAlign::left;
    VAlign valign = VAlign::top;
    // Rotated 90 degrees counter-clockwise (reads bottom to top, for y-axis titles). Alignment
    // applies in the text's own frame: halign along the text, valign across it.
    bool vertical = false;
};

// Size of a line of text laid out horizontally. height = ascent + descent (the font's line box,
// the same for every string of a given size, so rows of labels line up).
struct TextExtent {
    int width = 0;
    int ascent = 0;
    int descent = 0;
    int height() const { return ascent + descent; }
};

class Canvas {
public:
    Canvas() = default;
    // Throws std::invalid_argument for negative sizes or more than 2^28 pixels.
    Canvas(int width, int height, Rgba background = colors::white);

    int width() const { return width_; }
    int height() const { return height_; }
    bool empty() const { return width_ == 0 || height_ == 0; }

    // RGBA bytes, row-major, 4 * width bytes per row, no padding.
    const std::uint8_t* data() const { return pixels_.data(); }
    std::uint8_t* data() { return pixels_.data(); }
    std::size_t size_bytes() const { return pixels_.size(); }

    // Out-of-range reads return transparent; out-of-range writes are ignored.
    Rgba pixel(int x, int y) const;
    void set_pixel(int x, int y, Rgba c);
    void blend_pixel(int x, int y, Rgba c, double coverage = 1.0);

    void fill(Rgba c);                                       // whole canvas, overwrite
    void fill_rect(int x, int y, int w, int h, Rgba c);      // blends when c.a < 255
    void draw_rect(int x, int y, int w, int h, Rgba c, int thickness = 1);  // outline inside the rect
    void hline(int x0, int x1, int y, Rgba c);               // inclusive ends, crisp
    void vline(int x, int y0, int y1, Rgba c);               // inclusive ends, crisp

    // Anti-aliased segment with round caps; thickness in pixels.
    void draw_line(double x0, double y0, double x1, double y1, Rgba c, double thickness = 1.0);
    // Connected segments through the points {x0, y0, x1, y1, ...} (an odd trailing value is ignored).
    void draw_polyline(const std::vector<double>& xy, Rgba c, double thickness = 1.0);
    void fill_circle(double cx, double cy, double radius, Rgba c);
    void draw_circle(double cx, double cy, double radius, Rgba c, double thickness = 1.0);

    // Copies src with its top-left corner at (x, y), blending by src alpha.
    void blit(const Canvas& src, int x, int y);
    // Nearest-neighbour scales src into the rectangle (x, y, w, h), blending by src alpha.
    void blit_scaled(const Canvas& src, int x, int y, int w, int h);

    // Draws one line of UTF-8 text anchored at (x, y) (see TextStyle). Returns its extent.
    TextExtent draw_text(double x, double y, std::string_view utf8, const TextStyle& style = {});

private:
    int width_ = 0;
    int height_ = 0;
    std::vector<std::uint8_t> pixels_;
};

// Measures text as draw_text would lay it out (horizontally).
TextExtent measure_text(std::string_view utf8, double size_px);

// The TrueType file text is drawn with (CACHESIM_FONT or the DejaVu Sans default).
std::string font_path();

// PNG (8-bit RGBA, non-interlaced) of the canvas as a byte string. Throws std::runtime_error on a
// libpng failure or an empty canvas.
std::string encode_png(const Canvas& canvas);
// Decodes any PNG libpng reads (gray, palette, 16-bit, with or without alpha) into RGBA.
// Throws std::runtime_error on malformed data. For tests and tools.
Canvas decode_png(std::string_view bytes);

}  // namespace cachesim::viz
